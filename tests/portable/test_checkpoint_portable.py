"""Checkpoints (S31-25, STD-35, STR-35, STR-36) on CPython (pytest) and MicroPython
(runner): the round trip, play going on alike, rebase then pop, refused damage, and
the very same lines on both interpreters. Plain asserts only."""

from core import checkpoint as cp
from core.errors import IllegalAction
from core.games import new_game
from core.stack31 import Stack31
from core.stackdeck import StackDeck
from core.stress import Stress
from core.stress.sim import Match
from tests.portable.harness import raises
from tests.portable.test_stack31_portable import Lcg, play_out


def _same(a, b):
    assert a.to_json() == b.to_json()
    assert a.legal() == b.legal()
    assert a.moves == b.moves


def _round_trip(game, options=None):
    lines = game.checkpoint()
    for line in lines:
        assert 0 < len(line) <= 100 and "#" not in line
    g2 = new_game(game.NAME, game.players, options)
    g2.restore(lines)
    _same(game, g2)
    assert g2.checkpoint() == lines
    return g2


def test_S31_25_round_trip_at_every_step_of_a_game():
    game, _ = play_out(4, 3)
    replayed = Stack31(4)
    for action in game.history:
        replayed.push(action)
        _round_trip(replayed)


def test_S31_25_play_goes_on_alike_after_a_restore():
    game, _ = play_out(3, 5)
    half = Stack31(3)
    for action in game.history[:len(game.history) // 2]:
        half.push(action)
    g2 = _round_trip(half)
    for action in game.history[len(game.history) // 2:]:
        half.push(action)
        g2.push(action)
        _same(half, g2)


def test_STR_36_a_simulated_match_restored_at_points_and_played_on():
    m = Match(7, games=2)
    lines = m.lines[1:]
    whole = Stress(2)
    for line in lines:
        whole.push(line)
    for cut in (0, 37, 150, 301, len(lines)):
        g = Stress(2)
        for line in lines[:cut]:
            g.push(line)
        g2 = _round_trip(g)
        assert g2.call_stats() == g.call_stats()
        for line in lines[cut:]:
            g2.push(line)
        _same(whole, g2)


def test_STR_35_calls_kept_gives_flat_checkpoints():
    class Kept(Stress):
        CALLS_KEPT = 2

    m = Match(7, games=2)
    g = Kept(2)
    sizes = []
    for line in m.lines[1:]:
        g.push(line)
        if line == "resume":
            sizes.append(len(" ".join(g.checkpoint())))
    assert len(g.calls) == 2 and g.call_stats()["closed"] > 2
    assert max(sizes) - min(sizes[2:]) < 40


def test_STR_36_rebase_then_pop():
    m = Match(4, games=2)
    lines = m.lines[1:200]
    ref = Stress(2)
    g = Stress(2)
    for line in lines[:150]:
        g.push(line)
    base = g.checkpoint()
    for line in lines[150:]:
        g.push(line)
    for line in lines:
        ref.push(line)
    g.rebase(150, base)
    while g.history:
        assert g.pop() == ref.pop()
        _same(g, ref)
    with raises(IllegalAction):
        g.pop()


def test_STD_35_round_trip_and_edit_after_a_restore():
    g = StackDeck(3)
    for line in ("round", "P1 turned 4G-5G-6G 7B-W", "P2 unturned 9R", "P1 out", "end",
                 "P2 counts 1 0 2 0 0 0", "P2 out", "end", "P3 turned 1R-1G"):
        g.push(line)
    g2 = _round_trip(g)
    old = g2.edit_round(1, ["P1 turned 4G-5G-6G", "P1 out"])
    assert old == ["P1 turned 4G-5G-6G 7B-W", "P2 unturned 9R", "P1 out"]
    g.edit_round(1, ["P1 turned 4G-5G-6G", "P1 out"])
    assert g.state()["totals"] == g2.state()["totals"]
    g3 = StackDeck(3)
    g3.restore(g2.base_checkpoint())
    assert g3.state()["rounds"] == g2.state()["rounds"]


def test_damaged_checkpoints_are_refused_and_change_nothing():
    rng = Lcg(11)
    game, _ = play_out(3, 2)
    lines = game.checkpoint()
    tokens = cp.tokens_of(lines)
    refused = 0
    for _ in range(60):
        bad = list(tokens)
        i = rng.below(len(bad))
        kind = rng.below(3)
        if kind == 0:
            del bad[i]
        elif kind == 1:
            bad[i] = ("P9", "-", "99", "end", "x", "7H", "0")[rng.below(7)]
        else:
            bad.insert(i, bad[rng.below(len(bad))])
        g = Stack31(3)
        before = g.to_json()
        try:
            g.restore(cp.pack(bad))
        except IllegalAction:
            refused += 1
            assert g.to_json() == before and g.moves == 0
    assert refused > 30
    for garbage in ([], ["checkpoint"], "checkpoint stack31", [1, 2], ["a#b"], ["\u00e9"],
                    ["x" * 101]):
        g = Stack31(3)
        with raises(IllegalAction):
            g.restore(garbage)
