"""The Stress referee's rarely used parts (core/stress/__init__.py keeps what a call needs).

Reading notation lines (a resume, the replay command) and reading a checkpoint (a
resume, an undo); the state as data, the legal actions and the call counts are in
core/stress/state.py (not loaded by a resume). A device plays calls without this module:
`Stress` imports it at the point of use, and the referee's screen lets it go once the
game is loaded (firmware/screens/stress/__init__.py), so its code is not in the heap while calls
are played. It never imports core.stress (no import circle): the game is handed in.
"""

from core import cards
from core import checkpoint as cp
from core import notation
from core.errors import IllegalAction
from core.stress.arbiter import TICKS_MAX

# The verbs, as in core/stress/__init__.py (the same strings)
VOID = "void"
DOWN = "down"
UP = "up"


def parse_time(token):
    """'@1500' -> 1500 (microseconds, a non-negative integer)."""
    text = token[1:]
    if not notation.is_digits(text):
        raise IllegalAction("bad time: " + notation.shorten(token))
    return int(text)


def parse(g, actor, tokens):
    """Stress._parse: the tokens of one line (actor peeled off) -> an action tuple."""
    first = tokens[0]
    if first[:1] == "@":
        if actor is not None:
            raise IllegalAction("time goes first: @T")
        t = parse_time(first)
        if len(tokens) != 3:
            raise IllegalAction("@T PX down or up")
        p = notation.parse_player(tokens[1], g.players)
        edge = tokens[2].lower()
        if edge not in (DOWN, UP):
            raise IllegalAction("down or up?")
        return (p, edge, t)
    verb = first.lower()
    rest = tokens[1:]
    if verb == "centre":
        if actor is not None:
            raise IllegalAction("centre takes no player")
        if len(rest) != 2:
            raise IllegalAction("centre needs 2 cards")
        return (None, "centre", cards.parse(rest[0]), cards.parse(rest[1]))
    if verb == "play":
        if actor is None:
            raise IllegalAction("who plays? PX play")
        if len(rest) != 2:
            raise IllegalAction("play CARD STACK")
        card = cards.parse(rest[0])
        if rest[1] not in ("1", "2"):
            raise IllegalAction("stack is 1 or 2")
        return (actor, "play", card, int(rest[1]))
    if verb in ("start", "resume", VOID):
        if actor is not None:
            raise IllegalAction(verb + " takes no player")
        if rest:
            raise IllegalAction("too many words")
        # literal tuples are constants: a line kept in the history allocates nothing
        if verb == "start":
            return (None, "start")
        return (None, "resume") if verb == "resume" else (None, "void")
    if verb == "out" or verb == "takes":
        if actor is None:
            raise IllegalAction("who is out? PX out" if verb == "out" else "who takes? PX takes")
        if rest:
            raise IllegalAction("too many words")
        return (actor, verb)
    if verb in (DOWN, UP):
        raise IllegalAction("needs a time: @T PX " + verb)
    raise IllegalAction("unknown: " + first)


# Checkpoint reading (STR-36) ----------------------------------------------------------

def _bad(what):
    return IllegalAction("checkpoint: bad " + what)


def _split(token, count, what):
    parts = token.split(":")
    if len(parts) != count:
        raise _bad(what)
    return parts


def _num(t, lo, hi, what):
    if not notation.is_digits(t):
        raise _bad(what)
    v = int(t)
    if v < lo or (hi is not None and v > hi):
        raise _bad(what)
    return v


def _opt(t, what):
    return None if t == "-" else _num(t, 0, None, what)


def _flag(t, what):
    if t == "0":
        return False
    if t == "1":
        return True
    raise _bad(what)


def _card(t):
    return None if t == "-" else cards.parse(t)


def _ruling(t, players):
    if t == "V":
        return VOID
    return cp.read_player(t, players)


def read(g, r):
    """Stress._read: set game g's position from checkpoint reader r (after _setup);
    every section checked, IllegalAction when they cannot be a position of play."""
    n = g.players
    r.word("tops")
    tops = [_card(r.take()), _card(r.take())]
    if tops[0] is not None and tops[0] == tops[1]:
        raise IllegalAction("checkpoint: same top twice")
    if (tops[0] is None) != (tops[1] is None):  # `centre` lays both
        raise IllegalAction("checkpoint: bad tops")
    r.word("on")
    on = r.flag("on")
    r.word("over")
    over = r.flag("over")
    r.word("game")
    game_no = r.num(0, None, "game")
    r.word("stress")
    call_stress = r.flag("stress")
    r.word("ruling")
    ruling = _ruling(r.take(), n)
    r.word("t")
    last_t = r.num(0, None, "t")
    r.word("won")
    games_won = [r.num(0, g.options["games"], "won") for _ in range(n)]
    r.word("arbiter")
    now = r.num(0, TICKS_MAX, "arbiter")
    age = r.num(-TICKS_MAX, None, "arbiter")
    armed = r.flag("arbiter")
    r.word("buttons")
    closed, opened, settled, press = [], [], [], []
    for _ in range(n):
        parts = _split(r.take(), 4, "buttons")
        closed.append(_flag(parts[0], "buttons"))
        opened.append(_num(parts[1], 0, TICKS_MAX, "buttons"))
        settled.append(_flag(parts[2], "buttons"))
        press.append(_opt(parts[3], "buttons"))
    r.word("closed")
    calls_closed = r.num(0, None, "closed")
    r.word("stats")
    stats = []
    for _ in range(n):
        parts = _split(r.take(), 6, "stats")
        # won, tied, took, false: at most the calls closed; the margin sums: any size
        stats.append([_num(v, 0, calls_closed if i < 4 else None, "stats")
                      for i, v in enumerate(parts)])
    r.word("calls")
    calls = []  # flat: seven items a call (core.stress keeps them so)
    for t in r.until((cp.END,)):
        parts = _split(t, 7, "call")
        game = _num(parts[0], 1, game_no, "call")
        if calls and game < calls[-7]:
            raise IllegalAction("checkpoint: calls out of order")
        calls.extend((game, cp.read_player(parts[1], n), _flag(parts[2], "call"),
                      _opt(parts[3], "call"), cp.read_player(parts[4], n),
                      _flag(parts[5], "call"), _ruling(parts[6], n)))
    if len(calls) > 7 * calls_closed:
        raise IllegalAction("checkpoint: bad calls")
    # Consistency: what play keeps true.
    if on and over or armed != on or sum(games_won) != game_no - (1 if on else 0):
        raise IllegalAction("checkpoint: bad game")
    if over != (not on and game_no > 0):
        raise IllegalAction("checkpoint: bad game")
    if now != last_t & TICKS_MAX:
        raise IllegalAction("checkpoint: bad arbiter")
    g.tops = tops
    g.on = on
    g.over = over
    g.game_no = game_no
    g.call_stress = call_stress
    g.last_t = last_t
    g.games_won = games_won
    g.arbiter.restore((now, age, armed, closed, opened, settled, press))
    called = g.arbiter.called()
    if (ruling is not None and not (on and called)) or (call_stress and not called):
        raise IllegalAction("checkpoint: bad call")
    g.ruling = ruling
    g.calls_closed = calls_closed
    g.stats = stats
    kept = g.CALLS_KEPT
    if kept is not None and len(calls) > 7 * kept:
        calls = calls[len(calls) - 7 * kept:]
    g._cf = calls
    g._nc = len(calls) // 7
