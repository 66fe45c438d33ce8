"""The whole game model and simulated players (STR-24 to STR-31), and simulated matches
replayed through the contract's command (`python -m host_sim replay`)."""

import json
import os
import subprocess
import sys

from core import cards
from core.stress.model import Rng, Table, fits
from core.stress.sim import Match
from core.transcript import replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def no_repeated_rank(table, p):
    ranks = [cards.rank(c) for c in table.row_tops(p)]
    return len(ranks) == len(set(ranks))


def test_STR_24_seeded_shuffle_is_fixed_and_splits_the_deck_in_two():
    a, b = Rng(42), Rng(42)
    assert [a.next() for _ in range(50)] == [b.next() for _ in range(50)]
    assert Rng(0).next() != 0 and Rng(1).next() != Rng(2).next()
    # Pinned: the portable test checks the very same numbers on MicroPython.
    r = Rng(2024)
    assert [r.next() for _ in range(3)] == [1093102459, 625211071, 689133013]
    deck = cards.all_cards()
    Rng(7).shuffle(deck)
    assert sorted(deck) == cards.all_cards()
    assert [cards.name(c) for c in deck[:8]] == ["6S", "9S", "10C", "9D", "KS", "4C", "KH", "2C"]
    t = Table(Rng(7))
    assert t.cards_left(0) + t.cards_left(1) + 2 == 52 and t.total() == 52
    assert t.cards_left(0) == 25 and t.cards_left(1) == 25  # 26 each, one laid in the centre


def test_STR_25_rows_of_four_without_a_repeated_rank():
    for seed in range(200):
        t = Table(Rng(seed))
        for p in (0, 1):
            assert len(t.row_tops(p)) == 4
            assert no_repeated_rank(t, p)
    # somewhere a card was dealt on top of a repeat
    assert any(max(len(s) for s in Table(Rng(seed)).rows[0]) > 1 for seed in range(50))


def test_STR_25_rows_are_refilled_after_a_play():
    for seed in range(100):
        t = Table(Rng(seed))
        moves = t.moves(0)
        if not moves:
            continue
        pile = len(t.piles[0])
        t.play(0, moves[0][0], moves[0][1])
        assert len(t.row_tops(0)) == 4 and no_repeated_rank(t, 0)
        assert len(t.piles[0]) <= pile and t.total() == 52


def test_STR_26_centre_stacks_and_plays_that_fit():
    t = Table(Rng(3))
    assert len(t.stacks[0]) == 1 and len(t.stacks[1]) == 1
    for p in (0, 1):
        for spot, s in t.moves(p):
            assert fits(t.rows[p][spot][-1], t.tops()[s])


def test_STR_27_the_loser_takes_both_stacks_into_the_pile():
    t = Table(Rng(11))
    before = t.cards_left(1)
    t.take_stacks(1)
    assert t.cards_left(1) == before + 2 and t.stacks == [[], []] and t.total() == 52


def test_STR_28_a_player_without_a_pile_has_the_other_lay_the_centre():
    t = Table(Rng(5))
    t.piles[0], t.piles[1] = [], t.piles[0] + t.piles[1]
    t.take_stacks(1)
    n = len(t.piles[1])
    t.lay_centre()
    assert len(t.piles[1]) == n - 2 and all(t.stacks)


def test_STR_29_stall_with_and_without_piles():
    t = Table(Rng(9))
    p0 = len(t.piles[0])
    t.unstall()
    assert len(t.piles[0]) == p0 - 1 and len(t.stacks[0]) == 2
    assert t.log[-1].startswith("centre ")
    t.piles[1] += t.piles[0]
    t.piles[0] = []
    top0 = t.stacks[0][-1]
    t.unstall()
    assert t.stacks[0][-1] == top0  # nothing to lay from: stack 1 unchanged
    t.piles[0], t.piles[1] = [], []
    total = t.total()
    first_laid = [t.stacks[0][0], t.stacks[1][0]]
    sizes = [len(t.stacks[0]), len(t.stacks[1])]
    t.unstall()
    assert t.tops() == first_laid  # each took their own stack, turned over
    assert [len(t.piles[0]), len(t.piles[1])] == [sizes[0] - 1, sizes[1] - 1]
    assert t.total() == total


def test_STR_30_the_first_player_out_wins():
    for seed in range(40):
        m = Match(seed, games=1)
        assert not m.truth.unfinished
        assert m.lines[-1] in ("P1 out", "P2 out")
        assert sum(m.truth.games_won) == 1
    t = Table(Rng(1))
    assert t.out() is None
    t.piles[0] = []
    t.rows[0] = [[], [], [], []]
    assert t.out() == 0


def test_STR_30_a_stuck_game_is_reported_unfinished():
    m = Match(3, games=1, max_steps=5)
    assert m.truth.unfinished and "P1 out" not in m.lines and "P2 out" not in m.lines


def test_STR_31_simulated_matches_replay_to_the_known_truth():
    ties = margins = asleep = 0
    for seed in range(150):
        m = Match(seed, games=2)
        game, error = replay(m.lines)
        assert error is None, (seed, error)
        s = game.state()
        got = [(c["winner"], c["tie"], c["margin_us"], c["loser"]) for c in s["calls"]]
        assert got == m.truth.calls, seed
        assert s["games_won"] == m.truth.games_won and s["match_over"], seed
        ties += sum(1 for c in got if c[1])
        asleep += sum(1 for c in got if c[2] is None)
        margins += len(got)
    assert ties and asleep and margins > 200  # the simulation does reach every case


def test_STR_31_simulation_is_deterministic_and_crosses_the_tick_wrap():
    a, b = Match(77, games=2), Match(77, games=2)
    assert a.lines == b.lines
    crossed = 0
    for seed in range(20):
        m = Match(seed, games=2)
        times = [int(line.split()[0][1:]) for line in m.lines if line.startswith("@")]
        assert times == sorted(times)
        crossed += bool(times) and times[0] < (1 << 30) < times[-1]
    assert crossed >= 3


def test_STR_31_the_replay_command_gives_the_simulated_winner(tmp_path):
    for seed in (1, 2, 3):
        m = Match(seed, games=2)
        path = tmp_path / ("sim%d.txt" % seed)
        path.write_text("\n".join(m.lines) + "\n")
        proc = subprocess.run([sys.executable, "-m", "host_sim", "replay", str(path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 and proc.stderr == ""
        s = json.loads(proc.stdout)
        assert s["games_won"] == m.truth.games_won
        assert s["match_winner"] == 1 + m.truth.games_won.index(2)


def test_STR_31_a_corrupted_simulated_transcript_stops_at_the_bad_line(tmp_path):
    m = Match(4, games=1)
    lines = list(m.lines)
    i = next(i for i, line in enumerate(lines) if line.startswith("@"))
    lines.insert(i + 1, "@0 P1 up")
    path = tmp_path / "bad.txt"
    path.write_text("\n".join(lines) + "\n")
    proc = subprocess.run([sys.executable, "-m", "host_sim", "replay", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr == "line %d: time went back\n" % (i + 2)
    before, _ = replay(lines[:i + 1])
    assert proc.stdout == before.to_json() + "\n"
