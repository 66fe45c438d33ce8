"""Stress, the referee (rules STR-* in seeds/stress.md).

The device does not see hands: it keeps the two centre tops (when the table tells it),
whether a game is on, the match score, and above all the calls, decided by
`core.stress_arbiter.Arbiter` from the raw edges of the players' call buttons.

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
from core.stress_arbiter import Arbiter, CALL, MAX_OPTION_US, TICKS_MAX

CENTRE = "centre"
PLAY = "play"
START = "start"
DOWN = "down"
UP = "up"
RESUME = "resume"
OUT = "out"
VOID = "void"
TAKES = "takes"


def fits(card, top):
    """True when CARD may go on TOP: one rank above or below, aces high and low (STR-2)."""
    step = (cards.rank(card) - cards.rank(top)) % 13
    return step == 1 or step == 12


# The per-player call counters (STR-35), indexes into Stress.stats[p]
WON, TIED, TOOK, FALSE, MARGIN_SUM, MARGINS = 0, 1, 2, 3, 4, 5
STATS = 6


def parse_time(token):
    """'@1500' -> 1500 (microseconds, a non-negative integer)."""
    from core.stress_rare import parse_time
    return parse_time(token)


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
        if key == "games":
            if not 1 <= value <= 99:
                raise IllegalAction("games: 1 to 99")
        elif key == "slow_window_us":
            if not 1 <= value <= MAX_OPTION_US:
                raise IllegalAction("%s: 1 to %d" % (key, MAX_OPTION_US))
        elif not 0 <= value <= MAX_OPTION_US:
            raise IllegalAction("%s: 0 to %d" % (key, MAX_OPTION_US))
        return value

    def _setup(self):
        n = self.players
        self.tops = [None, None]
        self.on = False  # a game is being played (after start, before out)
        self.over = False  # after PX out, until the next start
        self.games_won = [0] * n
        self.game_no = 0
        self.calls = []  # closed calls: (game_no, winner, tie, margin, loser, stress,
        # ruling), 0-based; the last CALLS_KEPT of them when that is set (STR-35)
        self.calls_closed = 0  # every call closed in the match
        # STR-35, per player: [won, tied, took, false, margin sum (us), margins counted]
        self.stats = [[0] * STATS for _ in range(n)]
        self.call_stress = False  # the tops showed stress when the open call was made
        self.ruling = None  # the table's ruling on the open call: None, VOID or a 0-based player
        self.last_t = 0  # the latest @T (the notation's unwrapped microseconds)
        self.arbiter = Arbiter(n, self.options["debounce_us"], self.options["tie_window_us"],
                               self.options["slow_window_us"])

    # Notation ---------------------------------------------------------------

    def _parse(self, actor, tokens):
        from core import stress_rare  # text lines: a resume, the replay command
        return stress_rare.parse(self, actor, tokens)

    def format(self, action):
        verb = action[1]
        if verb in (DOWN, UP):
            return "@%d P%d %s" % (action[2], action[0], verb)
        if verb == CENTRE:
            return "centre %s %s" % (cards.name(action[2]), cards.name(action[3]))
        if verb == PLAY:
            return "P%d play %s %d" % (action[0], cards.name(action[2]), action[3])
        if verb == OUT or verb == TAKES:
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

    def _not_on(self):
        if self.over:
            return IllegalAction("game is over")
        return IllegalAction("game not started")

    def _check(self, action):
        verb = action[1]
        if verb == CENTRE:
            if action[2] == action[3]:
                raise IllegalAction("same card twice")
        elif verb == PLAY:
            if not self.on:
                raise self._not_on()
            if self.arbiter.called():
                raise IllegalAction("call pending: resume")
            card, s = action[2], action[3]
            top = self.tops[s - 1]
            if top is None:
                raise IllegalAction("no centre cards yet")
            if card == self.tops[0] or card == self.tops[1]:
                raise IllegalAction(cards.name(card) + " is on top")
            if not fits(card, top):
                raise IllegalAction("%s does not fit %d" % (cards.name(card), s))
        elif verb == START:
            if self.on:
                raise IllegalAction("game already on")
            if self.match_winner() is not None:
                raise IllegalAction("match is over")
        elif verb in (DOWN, UP):
            if action[2] < self.last_t:
                raise IllegalAction("time went back")
        elif verb == RESUME:
            if not self.on:
                raise self._not_on()
            if not self.arbiter.called():
                raise IllegalAction("no call to resume")
        elif verb == OUT:
            if not self.on:
                raise self._not_on()
        elif verb == VOID or verb == TAKES:
            if not self.on:
                raise self._not_on()
            if not self.arbiter.called():
                raise IllegalAction("no call to rule on")

    def _apply(self, action):
        self._check(action)
        # No undo record is kept (UNDO_BY_REPLAY): none is made, no garbage per line.
        verb = action[1]
        if verb == CENTRE:
            self.tops[0], self.tops[1] = action[2], action[3]
        elif verb == PLAY:
            self.tops[action[3] - 1] = action[2]
        elif verb == START:
            self.on = True
            self.over = False
            self.game_no += 1
            self.call_stress = False
            self.ruling = None
            self.arbiter.arm(self.last_t & TICKS_MAX)
        elif verb in (DOWN, UP):
            t = action[2]
            self.arbiter.advance(t - self.last_t)
            self.last_t = t
            result = self.arbiter.edge(action[0] - 1, verb == DOWN, t & TICKS_MAX)
            if result == CALL:
                self.call_stress = self.stress()
        elif verb == RESUME:
            self._close_call()
            self.call_stress = False
            self.ruling = None
            self.arbiter.arm(self.last_t & TICKS_MAX)
        elif verb == VOID:
            self.ruling = VOID
        elif verb == TAKES:
            self.ruling = action[0] - 1
        elif verb == OUT:
            if self.arbiter.called():
                self._close_call()
            self.ruling = None
            self.arbiter.disarm()
            self.on = False
            self.over = True
            self.games_won[action[0] - 1] += 1
        return None

    def _close_call(self):
        """The waiting call is final: keep it (the last CALLS_KEPT) and count it.
        A kept call is a list [game_no, winner, tie, margin, loser, stress, ruling]
        (0-based players); once CALLS_KEPT are kept the oldest list is refilled, so a
        call allocates nothing that lives on."""
        a = self.arbiter
        ruling = self.ruling
        winner = a.winner()
        tie = a.tie()
        margin = a.margin_us()
        loser = a.loser() if ruling is None else (None if ruling == VOID else ruling)
        kept = self.CALLS_KEPT
        calls = self.calls
        if kept is None or kept > 0:
            if kept is not None and len(calls) >= kept:
                while len(calls) > kept:
                    del calls[0]
                c = calls.pop(0)
            else:
                c = [None] * 7
            c[0], c[1], c[2], c[3] = self.game_no, winner, tie, margin
            c[4], c[5], c[6] = loser, self.call_stress, ruling
            calls.append(c)
        else:
            del calls[:]
        self.calls_closed += 1
        stats = self.stats
        if ruling == VOID or tie:
            # Who made the call: the winner, or every player of the tie
            col = FALSE if ruling == VOID else TIED
            if tie:
                first = a.pressed_at(a._first())
                for i in range(self.players):
                    off = a.pressed_at(i)
                    if off is not None and off - first <= a.tie_window_us:
                        stats[i][col] += 1
            elif winner is not None:
                stats[winner][col] += 1
            if ruling == VOID:
                return
        elif winner is not None:
            row = stats[winner]
            row[WON] += 1
            if margin is not None:
                row[MARGIN_SUM] += margin
                row[MARGINS] += 1
        if loser is not None:
            stats[loser][TOOK] += 1

    def call_stats(self):
        """STR-35: the match's calls counted per player, whatever CALLS_KEPT keeps:
        {"closed": N, "won": [..], "tied": [..], "took": [..], "false": [..],
        "margin_sum_us": [..], "margins": [..]} (lists by player, P1 first)."""
        from core import stress_rare
        return stress_rare.call_stats(self)

    # Checkpoint (STR-36) --------------------------------------------------------

    def _write(self, tokens):
        a = self.arbiter.save()  # now, age, armed, closed, opened, settled, press
        tokens += ["tops", _card(self.tops[0]), _card(self.tops[1]),
                   "on", cp.flag(self.on), "over", cp.flag(self.over),
                   "game", str(self.game_no), "stress", cp.flag(self.call_stress),
                   "ruling", _ruling(self.ruling), "t", str(self.last_t), "won"]
        tokens += [str(w) for w in self.games_won]
        tokens += ["arbiter", str(a[0]), str(a[1]), cp.flag(a[2]), "buttons"]
        for i in range(self.players):
            tokens.append("%s:%d:%s:%s" % (cp.flag(a[3][i]), a[4][i], cp.flag(a[5][i]),
                                           _opt(a[6][i])))
        tokens += ["closed", str(self.calls_closed), "stats"]
        for row in self.stats:
            tokens.append(":".join([str(v) for v in row]))
        tokens.append("calls")
        for c in self.calls:
            tokens.append("%d:%s:%s:%s:%s:%s:%s" % (
                c[0], cp.player(c[1]), cp.flag(c[2]), _opt(c[3]), cp.player(c[4]),
                cp.flag(c[5]), _ruling(c[6])))

    def _read(self, r):
        from core import stress_rare  # a resume, an undo
        stress_rare.read(self, r)

    def legal(self):
        """What may be pushed now, as far as the device can know.

        `centre` (any two different cards) and edges at any T >= the last are always
        legal; they are not listed, except one edge per button at the last T.
        """
        from core import stress_rare
        return stress_rare.legal(self, fits)

    def state(self):
        from core import stress_rare  # the archive, the computer's tools
        return stress_rare.state(self)


# Checkpoint words (STR-36) ---------------------------------------------------------

def _card(c):
    return "-" if c is None else cards.name(c)


def _opt(v):
    return "-" if v is None else str(v)


def _ruling(ruling):
    if ruling is None:
        return "-"
    return "V" if ruling == VOID else cp.player(ruling)
