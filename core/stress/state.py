"""The Stress referee's position as data, and its legal actions (core/stress/__init__.py keeps
what a call needs, core/stress/rare.py what a resume or an undo reads): the state as a
dict (the archive, the computer's tools), the call counts (STR-35) and the legal
actions (tests, tools). A device plays and resumes without this module: `Stress`
imports it at the point of use. It never imports core.stress (no import circle): the
game is handed in.
"""

from core import cards

VOID = "void"
DOWN = "down"
UP = "up"
STAT_NAMES = ("won", "tied", "took", "false", "margin_sum_us", "margins")


# Reading the game as data (the archive, the computer's tools) ---------------------------

def call_dict(call, final):
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


def current_call(g):
    """The waiting call as a kept call would be: (game_no, winner, tie, margin, loser,
    stress, ruling)."""
    a = g.arbiter
    ruling = g.ruling
    if ruling is None:
        loser = a.loser()
    elif ruling == VOID:
        loser = None
    else:
        loser = ruling
    return (g.game_no, a.winner(), a.tie(), a.margin_us(), loser, g.call_stress, ruling)


def state(g):
    cf = g._cf  # the kept calls, flat (no list of them all made for this)
    calls = [call_dict(cf[i:i + 7], True) for i in range(0, 7 * g._nc, 7)]
    pending = g.call_pending()
    if pending:
        calls.append(call_dict(current_call(g), False))
    winner = g.match_winner()
    return {
        "game": g.NAME,
        "players": g.players,
        "tops": [None if c is None else cards.name(c) for c in g.tops],
        "stress": g.stress(),
        "calls": calls,
        "games_won": list(g.games_won),
        "over": g.over,
        "on": g.on,
        "armed": g.on and not pending,
        "call_pending": pending,
        "game_no": g.game_no,
        "games_to_win": g.options["games"],
        "match_over": winner is not None,
        "match_winner": winner,
        "pressed": [p + 1 for p in range(g.players) if g.arbiter.is_closed(p)],
        "t": g.last_t,
        "moves": g.moves,
    }


def call_stats(g):
    out = {"closed": g.calls_closed}
    for i in range(6):
        out[STAT_NAMES[i]] = [row[i] for row in g.stats]
    return out


def legal(g, fits):
    """Stress.legal (fits: core.stress.fits, handed in)."""
    out = []
    n = g.players
    a = g.arbiter
    tops = g.tops
    if g.on and not a.called() and tops[0] is not None:
        for p in range(1, n + 1):
            for s in (1, 2):
                top = tops[s - 1]
                for card in range(cards.DECK_SIZE):
                    if card != tops[0] and card != tops[1] and fits(card, top):
                        out.append((p, "play", card, s))
    if not g.on and g.match_winner() is None:
        out.append((None, "start"))
    if g.on and a.called():
        out.append((None, "resume"))
        out.append((None, VOID))
        for p in range(1, n + 1):
            out.append((p, "takes"))
    if g.on:
        for p in range(1, n + 1):
            out.append((p, "out"))
    for p in range(1, n + 1):
        out.append((p, UP if a.is_closed(p - 1) else DOWN, g.last_t))
    return out
