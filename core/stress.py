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
from core import notation
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
STAT_NAMES = ("won", "tied", "took", "false", "margin_sum_us", "margins")


def parse_time(token):
    """'@1500' -> 1500 (microseconds, a non-negative integer)."""
    text = token[1:]
    if not notation.is_digits(text):
        raise IllegalAction("bad time: " + notation.shorten(token))
    return int(text)


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
        first = tokens[0]
        if first[:1] == "@":
            if actor is not None:
                raise IllegalAction("time goes first: @T")
            t = parse_time(first)
            if len(tokens) != 3:
                raise IllegalAction("@T PX down or up")
            p = notation.parse_player(tokens[1], self.players)
            edge = tokens[2].lower()
            if edge not in (DOWN, UP):
                raise IllegalAction("down or up?")
            return (p, edge, t)
        verb = first.lower()
        rest = tokens[1:]
        if verb == CENTRE:
            if actor is not None:
                raise IllegalAction("centre takes no player")
            if len(rest) != 2:
                raise IllegalAction("centre needs 2 cards")
            return (None, CENTRE, cards.parse(rest[0]), cards.parse(rest[1]))
        if verb == PLAY:
            if actor is None:
                raise IllegalAction("who plays? PX play")
            if len(rest) != 2:
                raise IllegalAction("play CARD STACK")
            card = cards.parse(rest[0])
            if rest[1] not in ("1", "2"):
                raise IllegalAction("stack is 1 or 2")
            return (actor, PLAY, card, int(rest[1]))
        if verb in (START, RESUME, VOID):
            if actor is not None:
                raise IllegalAction(verb + " takes no player")
            if rest:
                raise IllegalAction("too many words")
            return (None, verb)
        if verb == OUT or verb == TAKES:
            if actor is None:
                raise IllegalAction("who is out? PX out" if verb == OUT else "who takes? PX takes")
            if rest:
                raise IllegalAction("too many words")
            return (actor, verb)
        if verb in (DOWN, UP):
            raise IllegalAction("needs a time: @T PX " + verb)
        raise IllegalAction("unknown: " + first)

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

    def _current_call(self):
        a = self.arbiter
        ruling = self.ruling
        if ruling is None:
            loser = a.loser()
        elif ruling == VOID:
            loser = None
        else:
            loser = ruling
        return (self.game_no, a.winner(), a.tie(), a.margin_us(), loser, self.call_stress, ruling)

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

    def _save(self):
        return (self.tops[0], self.tops[1], self.on, self.over, tuple(self.games_won),
                self.game_no, len(self.calls), self.call_stress, self.last_t, self.arbiter.save(),
                self.ruling)

    def _apply(self, action):
        self._check(action)
        # No undo record is kept (UNDO_BY_REPLAY): make none, no garbage per line.
        record = None if self.UNDO_BY_REPLAY else self._save()
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
        return record

    def _first_pressers(self, call):
        """0-based players who made the call: the winner, or the players of a tie."""
        if not call[2]:
            return [] if call[1] is None else [call[1]]
        a = self.arbiter
        first = None
        for i in range(self.players):
            off = a.pressed_at(i)
            if off is not None and (first is None or off < first):
                first = off
        return [i for i in range(self.players) if a.pressed_at(i) is not None
                and a.pressed_at(i) - first <= a.tie_window_us]

    def _close_call(self):
        """The waiting call is final: keep it (the last CALLS_KEPT) and count it."""
        call = self._current_call()
        self.calls.append(call)
        kept = self.CALLS_KEPT
        if kept is not None:
            while len(self.calls) > kept:
                del self.calls[0]
        self.calls_closed += 1
        makers = self._first_pressers(call)
        if call[6] == VOID:
            for p in makers:
                self.stats[p][FALSE] += 1
            return
        if call[2]:
            for p in makers:
                self.stats[p][TIED] += 1
        elif call[1] is not None:
            row = self.stats[call[1]]
            row[WON] += 1
            if call[3] is not None:
                row[MARGIN_SUM] += call[3]
                row[MARGINS] += 1
        if call[4] is not None:
            self.stats[call[4]][TOOK] += 1

    def call_stats(self):
        """STR-35: the match's calls counted per player, whatever CALLS_KEPT keeps:
        {"closed": N, "won": [..], "tied": [..], "took": [..], "false": [..],
        "margin_sum_us": [..], "margins": [..]} (lists by player, P1 first)."""
        out = {"closed": self.calls_closed}
        for i in range(STATS):
            out[STAT_NAMES[i]] = [row[i] for row in self.stats]
        return out

    def _revert(self, record):
        self.tops[0], self.tops[1] = record[0], record[1]
        self.on, self.over = record[2], record[3]
        for p in range(self.players):
            self.games_won[p] = record[4][p]
        self.game_no = record[5]
        del self.calls[record[6]:]
        self.call_stress = record[7]
        self.last_t = record[8]
        self.arbiter.restore(record[9])
        self.ruling = record[10]

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
        n = self.players
        r.word("tops")
        tops = [_read_card(r.take()), _read_card(r.take())]
        if tops[0] is not None and tops[0] == tops[1]:
            raise IllegalAction("checkpoint: same top twice")
        r.word("on")
        on = r.flag("on")
        r.word("over")
        over = r.flag("over")
        r.word("game")
        game_no = r.num(0, None, "game")
        r.word("stress")
        call_stress = r.flag("stress")
        r.word("ruling")
        ruling = _read_ruling(r.take(), n)
        r.word("t")
        last_t = r.num(0, None, "t")
        r.word("won")
        games_won = [r.num(0, self.options["games"], "won") for _ in range(n)]
        r.word("arbiter")
        now = r.num(0, TICKS_MAX, "arbiter")
        age = r.num(-TICKS_MAX, None, "arbiter")
        armed = r.flag("arbiter")
        r.word("buttons")
        closed, opened, settled, press = [], [], [], []
        for _ in range(n):
            parts = _split(r.take(), 4, "buttons")
            closed.append(_read_flag(parts[0], "buttons"))
            opened.append(_read_num(parts[1], 0, TICKS_MAX, "buttons"))
            settled.append(_read_flag(parts[2], "buttons"))
            press.append(_read_opt(parts[3], "buttons"))
        r.word("closed")
        calls_closed = r.num(0, None, "closed")
        r.word("stats")
        stats = []
        for _ in range(n):
            parts = _split(r.take(), STATS, "stats")
            stats.append([_read_num(v, 0, calls_closed if i < MARGIN_SUM else None, "stats")
                          for i, v in enumerate(parts)])
        r.word("calls")
        calls = []
        for t in r.until((cp.END,)):
            parts = _split(t, 7, "call")
            call = (_read_num(parts[0], 1, game_no, "call"), _read_player(parts[1], n),
                    _read_flag(parts[2], "call"), _read_opt(parts[3], "call"),
                    _read_player(parts[4], n), _read_flag(parts[5], "call"),
                    _read_ruling(parts[6], n))
            if calls and call[0] < calls[-1][0]:
                raise IllegalAction("checkpoint: calls out of order")
            calls.append(call)
        if len(calls) > calls_closed:
            raise IllegalAction("checkpoint: bad calls")
        # Consistency: what play keeps true.
        if on and over or armed != on or sum(games_won) != game_no - (1 if on else 0):
            raise IllegalAction("checkpoint: bad game")
        if over != (not on and game_no > 0):
            raise IllegalAction("checkpoint: bad game")
        if now != last_t & TICKS_MAX:
            raise IllegalAction("checkpoint: bad arbiter")
        self.tops = tops
        self.on = on
        self.over = over
        self.game_no = game_no
        self.call_stress = call_stress
        self.last_t = last_t
        self.games_won = games_won
        self.arbiter.restore((now, age, armed, closed, opened, settled, press))
        called = self.arbiter.called()
        if (ruling is not None and not (on and called)) or (call_stress and not called):
            raise IllegalAction("checkpoint: bad call")
        self.ruling = ruling
        self.calls_closed = calls_closed
        self.stats = stats
        kept = self.CALLS_KEPT
        if kept is not None and len(calls) > kept:
            calls = calls[len(calls) - kept:]
        self.calls = calls

    def legal(self):
        """What may be pushed now, as far as the device can know.

        `centre` (any two different cards) and edges at any T >= the last are always
        legal; they are not listed, except one edge per button at the last T.
        """
        out = []
        n = self.players
        if self.on and not self.arbiter.called() and self.tops[0] is not None:
            for p in range(1, n + 1):
                for s in (1, 2):
                    top = self.tops[s - 1]
                    for card in range(cards.DECK_SIZE):
                        if card != self.tops[0] and card != self.tops[1] and fits(card, top):
                            out.append((p, PLAY, card, s))
        if not self.on and self.match_winner() is None:
            out.append((None, START))
        if self.on and self.arbiter.called():
            out.append((None, RESUME))
            out.append((None, VOID))
            for p in range(1, n + 1):
                out.append((p, TAKES))
        if self.on:
            for p in range(1, n + 1):
                out.append((p, OUT))
        for p in range(1, n + 1):
            out.append((p, UP if self.arbiter.is_closed(p - 1) else DOWN, self.last_t))
        return out

    @staticmethod
    def _call_dict(call, final):
        d = {
            "winner": None if call[1] is None else call[1] + 1,
            "tie": call[2],
            "margin_us": call[3],
            "loser": None if call[4] is None else call[4] + 1,
            "game_no": call[0],
            "on_stress": call[5],
            "final": final,
        }
        ruling = call[6]
        if ruling is not None:  # only on calls the table overruled (STR-32, STR-33)
            d["ruling"] = VOID if ruling == VOID else "P%d takes" % (ruling + 1)
        return d

    def state(self):
        calls = [self._call_dict(c, True) for c in self.calls]
        pending = self.call_pending()
        if pending:
            calls.append(self._call_dict(self._current_call(), False))
        winner = self.match_winner()
        return {
            "game": self.NAME,
            "players": self.players,
            "tops": [None if c is None else cards.name(c) for c in self.tops],
            "stress": self.stress(),
            "calls": calls,
            "games_won": list(self.games_won),
            "over": self.over,
            "on": self.on,
            "armed": self.on and not pending,
            "call_pending": pending,
            "game_no": self.game_no,
            "games_to_win": self.options["games"],
            "match_over": winner is not None,
            "match_winner": winner,
            "pressed": [p + 1 for p in range(self.players) if self.arbiter.is_closed(p)],
            "t": self.last_t,
            "moves": self.moves,
        }


# Checkpoint words (STR-36) ---------------------------------------------------------

def _card(c):
    return "-" if c is None else cards.name(c)


def _read_card(t):
    return None if t == "-" else cards.parse(t)


def _opt(v):
    return "-" if v is None else str(v)


def _ruling(ruling):
    if ruling is None:
        return "-"
    return "V" if ruling == VOID else cp.player(ruling)


def _read_ruling(t, players):
    if t == "V":
        return VOID
    return cp.read_player(t, players)


def _read_player(t, players):
    return cp.read_player(t, players)


def _split(token, count, what):
    parts = token.split(":")
    if len(parts) != count:
        raise IllegalAction("checkpoint: bad " + what)
    return parts


def _read_num(t, lo, hi, what):
    if not notation.is_digits(t):
        raise IllegalAction("checkpoint: bad " + what)
    v = int(t)
    if v < lo or (hi is not None and v > hi):
        raise IllegalAction("checkpoint: bad " + what)
    return v


def _read_opt(t, what):
    return None if t == "-" else _read_num(t, 0, None, what)


def _read_flag(t, what):
    if t == "0":
        return False
    if t == "1":
        return True
    raise IllegalAction("checkpoint: bad " + what)
