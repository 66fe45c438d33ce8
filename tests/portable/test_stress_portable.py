"""Stress through the public interface, on CPython (pytest) and MicroPython (runner):
plain asserts only.

The seeded generator and a simulated match must give the very same numbers and lines on
both interpreters; the arbiter must allocate nothing per edge (checked with
micropython.heap_lock on MicroPython); undo, round trips and replay behave alike.
"""

from core import transcript
from core.errors import IllegalAction
from core.stress import Stress
from core.stress.arbiter import CALL, LATE, TICKS_MAX, Arbiter, ticks_diff
from core.stress.model import Rng
from core.stress.sim import Match
from tests.portable.harness import IS_MICROPYTHON, raises


def calls(game):
    out = []
    for c in game.state()["calls"]:
        out.append((c["winner"], c["tie"], c["margin_us"], c["loser"]))
    return out


def test_rng_gives_the_pinned_numbers():
    r = Rng(2024)
    assert [r.next(), r.next(), r.next()] == [1093102459, 625211071, 689133013]


def test_simulated_match_is_the_same_everywhere():
    m = Match(7, games=2)
    assert len(m.lines) == 443 and m.truth.games_won == [2, 1] and m.lines[-1] == "P1 out"
    game, error = transcript.replay(m.lines)
    assert error is None
    assert calls(game) == m.truth.calls
    assert game.state()["games_won"] == [2, 1]


def test_ticks_diff_across_the_wrap():
    assert ticks_diff(5, TICKS_MAX - 4) == 10
    assert ticks_diff(TICKS_MAX - 4, 5) == -10
    assert ticks_diff(1 << 29, 0) == -(1 << 29)


def _feed(a, buttons, levels, stamps):
    # A while loop over preallocated lists: no iterator objects, no new globals.
    i = 0
    n = len(stamps)
    last = 0
    while i < n:
        last = a.edge(buttons[i], levels[i], stamps[i])
        i += 1
    return last


def test_the_arbiter_allocates_nothing_per_edge():
    a = Arbiter(4)
    a.arm(TICKS_MAX - 3000)
    buttons = [0, 0, 0, 1, 2, 2, 3, 1, 0]
    levels = [True, False, True, True, True, False, True, False, False]
    stamps = [TICKS_MAX - 1000, TICKS_MAX - 900, TICKS_MAX - 850, 200, 300, 90000, 100000,
              120000, 130000]
    results = [0, 0, 0, 0, 0, 0]
    if IS_MICROPYTHON:
        import gc
        import micropython
        gc.collect()
        micropython.heap_lock()
    try:
        results[0] = _feed(a, buttons, levels, stamps)
        a.poll(140000)
        results[1] = a.winner()
        results[2] = a.margin_us()
        results[3] = a.loser()
        results[4] = a.winner_known(140000)
        results[5] = a.loser_known(140000)
    finally:
        if IS_MICROPYTHON:
            micropython.heap_unlock()
    assert results == [0, 0, 1201, 3, True, True]


def test_a_call_across_the_wrap_with_bounce():
    a = Arbiter(2)
    a.arm(TICKS_MAX - 10000)
    assert a.edge(1, True, TICKS_MAX - 100) == CALL
    assert a.edge(1, False, TICKS_MAX - 50) == 0
    assert a.edge(1, True, 20) == 0
    assert a.edge(0, True, 700) == LATE
    assert (a.winner(), a.tie(), a.margin_us(), a.loser()) == (1, False, 801, 0)


def test_notation_calls_and_refusals():
    game, error = transcript.replay([
        "game stress players 3", "centre 5H 5C", "start", "@2000000 P3 down",
        "@2180000 P1 down", "@2420000 P2 down", "resume", "@5000000 P1 up",
        "@5000010 P1 down"])
    assert error is None
    assert calls(game) == [(3, False, 180000, 2)]
    assert game.state()["stress"] is True
    with raises(IllegalAction) as caught:
        game.push("@4999999 P2 up")
    assert caught.value.reason == "time went back"
    _, error = transcript.replay(["game stress players 2", "start", "resume"])
    assert error == (3, "no call to resume")


def test_undo_and_round_trips():
    lines = ["centre 8C 3D", "@50 P2 down", "start", "P1 play 9H 1", "@1000 P1 down",
             "@1400 P1 up", "@1900 P2 down", "centre 5S 5H", "resume", "@%d P2 up" % (3 << 30),
             "@%d P1 down" % ((3 << 30) + 7), "P2 out"]
    g = Stress(2)
    snaps = [g.to_json()]
    for line in lines:
        action = g.push(line)
        assert g.format(action) == line
        assert g.parse(g.format(action)) == action
        snaps.append(g.to_json())
    assert g.state()["games_won"] == [0, 1]
    while g.history:
        g.pop()
        snaps.pop()
        assert g.to_json() == snaps[-1]
