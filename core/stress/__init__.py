"""Stress's rules: the game here; the arbiter, state, rare paths, and a table model and
simulator (model.py, sim.py) for tools. Imports core's shared base only.

Stress, the referee (rules STR-* in seeds/stress.md).

The device does not see hands: it keeps the two centre tops (when the table tells it),
whether a game is on, the match score, and above all the calls, decided by
`core.stress.arbiter.Arbiter` from the raw edges of the players' call buttons.

Lines (see seeds/notation.md):
    centre CARD CARD        the two centre tops, as laid at a start, a stall or a re-deal
    PX play CARD S          PX plays CARD on centre stack S (1 or 2)
    start                   a game is on: calls are taken
    @T PX down / @T PX up   PX's call button closes / opens at T microseconds
    resume                  after a call, calls are taken again
    PX out                  PX has no cards left and wins the game
    void                    the table overrules the waiting call: it counts for nothing
    PX takes                the table names PX as taking the stacks for the waiting call
(the last two are a project extension, STR-32 and STR-33: challenges settled by the table)
"""

from core import cards
from core import checkpoint as cp
from core.errors import IllegalAction
from core.game import Game
from core.stress.arbiter import Arbiter, MAX_OPTION_US, TICKS_MAX

# The edge verbs (tools and tests read them); every other verb is written as its
# string ("centre", "play", "start", "resume", "out", "void", "takes").
DOWN = "down"
UP = "up"


def fits(card, top):
    """True when CARD may go on TOP: one rank above or below, aces high and low (STR-2)."""
    step = (cards.rank(card) - cards.rank(top)) % 13
    return step == 1 or step == 12


class Stress(Game):
    NAME = "stress"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    OPTIONS = {"debounce_us": 20000, "tie_window_us": 500, "slow_window_us": 1000000, "games": 2}
    # Every call edge is a line, so per-line snapshots would fill a Pico's heap in a
    # long match: undo replays the history instead (core/game.py).
    UNDO_BY_REPLAY = True
    # STR-35: how many closed calls are kept (in `calls`, the state and checkpoints);
    # None keeps them all (the replay command). The firmware sets a number: a match's
    # calls then cost a fixed amount of memory, and call_stats() keeps the totals.
    CALLS_KEPT = None
    KEY_ORDER = ("game", "players", "tops", "stress", "calls", "winner", "tie", "margin_us",
                 "loser", "games_won", "over")

    def _check_option(self, key, value):
        lo, hi = 0, MAX_OPTION_US
        if key == "games":
            lo, hi = 1, 99
        elif key == "slow_window_us":
            lo = 1
        if not lo <= value <= hi:
            raise IllegalAction("%s: %d to %d" % (key, lo, hi))
        return value

    def _setup(self):
        n = self.players
        self.tops = [None, None]
        self.on = False  # a game is being played (after start, before out)
        self.over = False  # after PX out, until the next start
        self.games_won = [0] * n
        self.game_no = 0
        # closed calls, 0-based, the last CALLS_KEPT of them when that is set (STR-35):
        # seven items a call (game_no, winner, tie, margin, loser, stress, ruling) in
        # one flat list (not a list per call: ~1.5 KB less on a board); `calls` gives
        # them as lists
        self._cf = []
        self._nc = 0  # calls kept
        self.calls_closed = 0  # every call closed in the match
        # STR-35, per player: [won, tied, took, false, margin sum (us), margins counted]
        self.stats = [[0] * 6 for _ in range(n)]
        self.call_stress = False  # the tops showed stress when the open call was made
        self.ruling = None  # the table's ruling on the open call: None, "void" or a 0-based player
        self.last_t = 0  # the latest @T (the notation's unwrapped microseconds)
        o = self.options
        self.arbiter = Arbiter(n, o["debounce_us"], o["tie_window_us"], o["slow_window_us"])

    # Notation ---------------------------------------------------------------

    def _parse(self, actor, tokens):
        from core.stress import rare as stress_rare  # text lines: a resume, the replay command
        return stress_rare.parse(self, actor, tokens)

    def format(self, action):
        verb = action[1]
        if verb == "down" or verb == "up":
            return "@%d P%d %s" % (action[2], action[0], verb)
        if verb == "centre":
            return "centre " + cards.name(action[2]) + " " + cards.name(action[3])
        if verb == "play":
            return "P%d play %s %d" % (action[0], cards.name(action[2]), action[3])
        if action[0] is not None:  # out, takes
            return "P%d %s" % (action[0], verb)
        return verb

    # Reading the position ------------------------------------------------------

    def stress(self):
        """Both tops show one rank (STR-5)."""
        a, b = self.tops
        return a is not None and b is not None and cards.rank(a) == cards.rank(b)

    def match_winner(self):
        """1-based winner of the match, or None while nobody has the games to win."""
        for p in range(self.players):
            if self.games_won[p] >= self.options["games"]:
                return p + 1
        return None

    def call_pending(self):
        """A call has been made in this armed period and waits for `resume`."""
        return self.on and self.arbiter.called()

    # Rules ------------------------------------------------------------------

    def _apply(self, action):
        """Checks everything first, then changes the position. No undo record is kept
        (UNDO_BY_REPLAY): none is made, no garbage per line."""
        verb = action[1]
        a = self.arbiter
        if verb == "down" or verb == "up":
            t = action[2]
            if t < self.last_t:
                raise IllegalAction("time went back")
            a.advance(t - self.last_t)
            self.last_t = t
            if a.edge(action[0] - 1, verb == "down", t & TICKS_MAX) == 2:  # a CALL
                self.call_stress = self.stress()
            return None
        if verb == "centre":
            if action[2] == action[3]:
                raise IllegalAction("same card twice")
            self.tops[0], self.tops[1] = action[2], action[3]
            return None
        if verb == "start":
            if self.on:
                raise IllegalAction("game already on")
            if self.match_winner() is not None:
                raise IllegalAction("match is over")
            self.on = True
            self.over = False
            self.game_no += 1
            self.call_stress = False
            self.ruling = None
            a.arm(self.last_t & TICKS_MAX)
            return None
        if not self.on:
            if self.over:
                raise IllegalAction("game is over")
            raise IllegalAction("game not started")
        called = a.called()
        if verb == "play":
            if called:
                raise IllegalAction("call pending: resume")
            card, s = action[2], action[3]
            top = self.tops[s - 1]
            if top is None:
                raise IllegalAction("no centre cards yet")
            if card == self.tops[0] or card == self.tops[1]:
                raise IllegalAction(cards.name(card) + " is on top")
            if not fits(card, top):
                raise IllegalAction("%s does not fit %d" % (cards.name(card), s))
            self.tops[s - 1] = card
        elif verb == "out":
            if called:
                self._close_call()
            self.ruling = None
            a.disarm()
            self.on = False
            self.over = True
            self.games_won[action[0] - 1] += 1
        elif verb == "resume":
            if not called:
                raise IllegalAction("no call to resume")
            self._close_call()
            self.call_stress = False
            self.ruling = None
            a.arm(self.last_t & TICKS_MAX)
        elif verb == "void" or verb == "takes":
            if not called:
                raise IllegalAction("no call to rule on")
            self.ruling = "void" if verb == "void" else action[0] - 1
        return None

    def _close_call(self):
        """The waiting call is final: keep it (the last CALLS_KEPT) and count it.
        A kept call is seven items of the flat list (game_no, winner, tie, margin,
        loser, stress, ruling; 0-based players); once CALLS_KEPT are kept the oldest
        is moved out, so a call allocates nothing that lives on."""
        a = self.arbiter
        ruling = self.ruling
        winner = a.winner()
        tie = a.tie()
        margin = a.margin_us()
        loser = a.loser() if ruling is None else (None if ruling == "void" else ruling)
        kept = self.CALLS_KEPT
        cf = self._cf
        n = self._nc
        if kept is None or n < kept:
            if len(cf) < 7 * (n + 1):
                for i in range(7):  # append doubles the list's room when full
                    cf.append(None)
            n += 1
        elif kept > 0:
            for i in range(7, 7 * n):  # the oldest goes: no list is made
                cf[i - 7] = cf[i]
        self._nc = n
        if n:
            i = 7 * n - 7
            cf[i], cf[i + 1], cf[i + 2], cf[i + 3] = self.game_no, winner, tie, margin
            cf[i + 4], cf[i + 5], cf[i + 6] = loser, self.call_stress, ruling
        self.calls_closed += 1
        stats = self.stats  # per player: won, tied, took, false, margin sum, margins
        if ruling == "void" or tie:
            # Who made the call: the winner, or every player of the tie
            col = 3 if ruling == "void" else 1  # false, tied
            if tie:
                first = a.pressed_at(a._first())
                for i in range(self.players):
                    off = a.pressed_at(i)
                    if off is not None and off - first <= a.tie_window_us:
                        stats[i][col] += 1
            elif winner is not None:
                stats[winner][col] += 1
            if ruling == "void":
                return
        elif winner is not None:
            row = stats[winner]
            row[0] += 1  # won
            if margin is not None:
                row[4] += margin
                row[5] += 1
        if loser is not None:
            stats[loser][2] += 1  # took

    @property
    def calls(self):
        """The kept calls, oldest first, each a list [game_no, winner, tie, margin,
        loser, stress, ruling] (made for the reader: the game keeps them flat)."""
        cf = self._cf
        return [cf[i:i + 7] for i in range(0, 7 * self._nc, 7)]

    def call_stats(self):
        """STR-35: the match's calls counted per player, whatever CALLS_KEPT keeps:
        {"closed": N, "won": [..], "tied": [..], "took": [..], "false": [..],
        "margin_sum_us": [..], "margins": [..]} (lists by player, P1 first)."""
        from core.stress import state as stress_state
        return stress_state.call_stats(self)

    # Checkpoint (STR-36) --------------------------------------------------------

    def _write(self, tokens):
        # Items of several tokens joined by spaces: cp.pack() makes the same lines as
        # from the tokens one by one, and a checkpoint every 32 lines builds some 20
        # strings instead of some 70 (heap garbage)
        a = self.arbiter.save()  # now, age, armed, closed, opened, settled, press
        f = cp.flag
        won = "won"
        for w in self.games_won:
            won += " %d" % w
        tokens.append("tops %s %s on %s over %s game %d stress %s ruling %s t %d %s" % (
            _opt(self.tops[0], 1), _opt(self.tops[1], 1), f(self.on), f(self.over),
            self.game_no, f(self.call_stress), _ruling(self.ruling), self.last_t, won))
        item = "arbiter %d %d %s buttons" % (a[0], a[1], f(a[2]))
        for i in range(self.players):
            item += " %s:%d:%s:%s" % (f(a[3][i]), a[4][i], f(a[5][i]), _opt(a[6][i]))
        tokens.append(item)
        item = "closed %d stats" % self.calls_closed
        for row in self.stats:
            item += " %d:%d:%d:%d:%d:%d" % (row[0], row[1], row[2], row[3], row[4], row[5])
        tokens.append(item)
        item = "calls"
        cf = self._cf
        for k in range(self._nc):  # four calls to an item: the token list stays short
            i = 7 * k
            c = "%d:%s:%s:%s:%s:%s:%s" % (
                cf[i], cp.player(cf[i + 1]), f(cf[i + 2]), _opt(cf[i + 3]),
                cp.player(cf[i + 4]), f(cf[i + 5]), _ruling(cf[i + 6]))
            item = item + " " + c if item else c
            if k % 4 == 3:
                tokens.append(item)
                item = ""
        if item:
            tokens.append(item)

    def _read(self, r):
        from core.stress import rare as stress_rare  # a resume, an undo
        stress_rare.read(self, r)

    def legal(self):
        """What may be pushed now, as far as the device can know.

        `centre` (any two different cards) and edges at any T >= the last are always
        legal; they are not listed, except one edge per button at the last T.
        """
        from core.stress import state as stress_state
        return stress_state.legal(self, fits)

    def state(self):
        from core.stress import state as stress_state  # the archive, the computer's tools
        return stress_state.state(self)


# Checkpoint words (STR-36) ---------------------------------------------------------

def _opt(v, card=0):
    """'-' for None, else the number (card: the card's name)."""
    if v is None:
        return "-"
    return cards.name(v) if card else str(v)


def _ruling(ruling):
    if ruling is None:
        return "-"
    return "V" if ruling == "void" else cp.player(ruling)
