"""Stack 31's rules (seeds/stack31.md): the game here, its rare paths in extra.py.
Imports core's shared base only; the firmware's screens and the tools import it.

Stack 31, the pile tracker (rules S31-* in seeds/stack31.md).

The device never sees hands, only counts: it tracks the deck and hand counts, the four
suit piles with value and owner, every card seen face up, and whose turn it is, and it
refuses what cannot be right.

Reading a checkpoint, legal() and state() live in core.stack31.extra, loaded when used
(a board plays without them in its heap).
"""

from core import cards
from core import checkpoint as cp
from core import notation
from core.errors import IllegalAction
from core.game import Game

DRAW = "draw"
PLAY = "play"
DISCARD_UP = "discard up"
DISCARD_DOWN = "discard down"
PASS = "pass"
DQ = "dq"

GOAL = 31


def pile_after(value, card):
    """The pile's value after CARD lands on it, or raises with the reason (S31-6..S31-10)."""
    r = cards.rank(card)
    if r == cards.KING:
        if value == GOAL:
            raise IllegalAction("K on a pile at 31")
        return GOAL
    if r == cards.QUEEN:
        return 0
    if r == cards.JACK:
        if value == 0:
            raise IllegalAction("J on a pile at 0")
        return value - 1
    if value + r > GOAL:
        raise IllegalAction("pile %s would pass 31" % cards.SUITS[cards.suit(card)])
    return value + r


class Stack31(Game):
    NAME = "stack31"
    MIN_PLAYERS = 1
    MAX_PLAYERS = 8
    OPTIONS = {"hand_limit": 6}
    KEY_ORDER = ("game", "players", "to_move", "deck", "hands", "piles", "H", "D", "C", "S",
                 "value", "owner", "conquered", "disqualified", "over", "piles_won", "winners")

    def _check_option(self, key, value):
        if key == "hand_limit" and not 1 <= value <= 13:
            raise IllegalAction("hand_limit: 1 to 13")
        return value

    def _setup(self):
        n = self.players
        self.deck = cards.DECK_SIZE
        self.hands = [0] * n
        self.values = [0, 0, 0, 0]
        self.owners = [None, None, None, None]  # 0-based player index
        self.active = [True] * n
        self.disqualified = []  # 0-based, in order
        self.seen = set()  # cards shown face up (played or discarded up)
        self.played = []
        self.discarded_up = []
        self.discarded_down = 0  # includes the hands of disqualified players
        self.to_move = 0  # 0-based
        self.quiet_turns = 0  # turns in a row taken on an empty deck without a play
        self.over = False

    # Notation ---------------------------------------------------------------

    def _parse(self, actor, tokens):
        verb = tokens[0].lower()
        rest = tokens[1:]
        if verb == "discard":
            if not rest:
                raise IllegalAction("discard up or down?")
            side = rest[0].lower()
            if side == "up":
                if len(rest) != 2:
                    raise IllegalAction("discard up needs a card")
                return (actor, DISCARD_UP, cards.parse(rest[1]))
            if side == "down":
                if len(rest) != 1:
                    raise IllegalAction("too many words")
                return (actor, DISCARD_DOWN)
            raise IllegalAction("discard up or down?")
        if verb == PLAY:
            if len(rest) != 1:
                raise IllegalAction("play needs one card")
            return (actor, PLAY, cards.parse(rest[0]))
        for word in (DRAW, PASS, DQ):
            if verb == word:
                if rest:
                    raise IllegalAction("too many words")
                # The module's own string, not the parsed copy: history keeps one per action.
                return (actor, word)
        raise IllegalAction("unknown: " + tokens[0])

    def format(self, action):
        words = []
        if action[0] is not None:
            words.append(notation.format_player(action[0]))
        words.append(action[1])
        if len(action) > 2:
            words.append(cards.name(action[2]))
        return " ".join(words)

    # Rules ------------------------------------------------------------------

    def _check(self, action):
        """Raise IllegalAction if the action may not be taken now; change nothing."""
        if self.over:
            raise IllegalAction("game is over")
        actor = action[0]
        if actor is not None and actor - 1 != self.to_move:
            if not 1 <= actor <= self.players:
                raise IllegalAction("no player P%d" % actor)
            raise IllegalAction("not P%d's turn" % actor)
        verb = action[1]
        hand = self.hands[self.to_move]
        if verb == DRAW:
            if self.deck == 0:
                raise IllegalAction("deck is empty")
            if hand >= self.options["hand_limit"]:
                raise IllegalAction("hand is full")
            return None
        if verb == PASS:
            if hand:
                raise IllegalAction("pass: hand not empty")
            if self.deck:
                raise IllegalAction("pass: deck not empty")
            return None
        if verb == DQ:
            return None
        if not hand:
            raise IllegalAction("hand is empty")
        if verb == DISCARD_DOWN:
            return None
        card = action[2]
        if card in self.seen:
            raise IllegalAction(cards.name(card) + " already shown")
        if verb == PLAY:
            return pile_after(self.values[cards.suit(card)], card)
        return None

    def _apply(self, action):
        new_value = self._check(action)
        verb = action[1]
        p = self.to_move
        record = (self.to_move, self.quiet_turns, self.over, None, None)
        deck_was_empty = self.deck == 0
        if verb == DRAW:
            self.deck -= 1
            self.hands[p] += 1
        elif verb == PLAY:
            card = action[2]
            s = cards.suit(card)
            record = (self.to_move, self.quiet_turns, self.over, self.values[s], self.owners[s])
            self.hands[p] -= 1
            self.values[s] = new_value
            self.owners[s] = p
            self.seen.add(card)
            self.played.append(card)
        elif verb == DISCARD_UP:
            self.hands[p] -= 1
            self.seen.add(action[2])
            self.discarded_up.append(action[2])
        elif verb == DISCARD_DOWN:
            self.hands[p] -= 1
            self.discarded_down += 1
        elif verb == DQ:
            record = (self.to_move, self.quiet_turns, self.over, self.hands[p], None)
            self.active[p] = False
            self.disqualified.append(p)
            self.discarded_down += self.hands[p]
            self.hands[p] = 0
        if verb != DQ:
            if verb == PLAY or not deck_was_empty:
                self.quiet_turns = 0
            else:
                self.quiet_turns += 1
        self.over = self._is_over()
        if not self.over:
            self.to_move = self._next_active(p)
        return record

    def _revert(self, record):
        action = self.history[-1]
        verb = action[1]
        self.to_move, self.quiet_turns, self.over = record[0], record[1], record[2]
        p = self.to_move
        if verb == DRAW:
            self.deck += 1
            self.hands[p] -= 1
        elif verb == PLAY:
            card = action[2]
            s = cards.suit(card)
            self.values[s] = record[3]
            self.owners[s] = record[4]
            self.hands[p] += 1
            self.seen.discard(card)
            self.played.pop()
        elif verb == DISCARD_UP:
            self.hands[p] += 1
            self.seen.discard(action[2])
            self.discarded_up.pop()
        elif verb == DISCARD_DOWN:
            self.hands[p] += 1
            self.discarded_down -= 1
        elif verb == DQ:
            self.active[p] = True
            self.disqualified.pop()
            self.hands[p] = record[3]
            self.discarded_down -= record[3]

    def _next_active(self, p):
        n = self.players
        for step in range(1, n + 1):
            q = (p + step) % n
            if self.active[q]:
                return q
        return p

    def active_count(self):
        return sum(1 for a in self.active if a)

    def _is_over(self):
        left = self.active_count()
        if left == 0 or (self.players >= 2 and left <= 1):
            return True
        if self.deck:
            return False
        if self.quiet_turns >= left:
            return True
        for p in range(self.players):
            if self.active[p] and self.hands[p]:
                return False
        return True

    # Checkpoint (S31-22) ---------------------------------------------------------

    def _write(self, tokens):
        tokens += ["turn", str(self.to_move + 1), "deck", str(self.deck),
                   "quiet", str(self.quiet_turns), "down", str(self.discarded_down), "hands"]
        tokens += [str(h) for h in self.hands]
        tokens.append("piles")
        for s in range(4):
            tokens.append(str(self.values[s]))
            tokens.append(cp.player(self.owners[s]))
        tokens.append("dq")
        tokens += [cp.player(p) for p in self.disqualified]
        tokens.append("played")
        tokens += [cards.name(c) for c in self.played]
        tokens.append("up")
        tokens += [cards.name(c) for c in self.discarded_up]

    def _read(self, r):
        from core.stack31.extra import read
        read(self, r, pile_after)

    # Reading the position -----------------------------------------------------

    def piles_won(self):
        """Per player: conquered piles while on, owned piles once over (S31-14, S31-17)."""
        won = [0] * self.players
        for s in range(4):
            owner = self.owners[s]
            if owner is None or not self.active[owner]:
                continue
            if self.over or self.values[s] == GOAL:
                won[owner] += 1
        return won

    def winners(self):
        """1-based winners once over, several on a tie; empty while the game is on."""
        if not self.over:
            return []
        won = self.piles_won()
        best = None
        for p in range(self.players):
            if self.active[p] and (best is None or won[p] > best):
                best = won[p]
        return [p + 1 for p in range(self.players) if self.active[p] and won[p] == best]

    # Rare paths: core.stack31.extra (not in the heap during play) -------------------

    def legal(self):
        """What the player to move may do, as far as the device can know (actor None)."""
        from core.stack31.extra import legal
        return legal(self, pile_after)

    def state(self):
        from core.stack31.extra import state
        return state(self)
