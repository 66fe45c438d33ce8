"""Stress checkpoints (STR-36) and the bounded call list (STR-35).

Positions come from simulated matches (core/stress/sim.py: bounce, ties, slow and
absent players) with table rulings (`void`, `PX takes`) mixed in, and from random
play by 3 and 4 players with random edges at random times."""

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from core import checkpoint as cp
from core.errors import IllegalAction
from core.stress import Stress
from core.stress.sim import Match
from core.transcript import replay
from tests.test_checkpoint import check_lines

SIM_SEEDS = st.integers(1, 400)


def sim_lines(seed, rulings, draw=None):
    """A simulated match's lines (header dropped), with a ruling before some resumes."""
    m = Match(seed, games=2)
    out = []
    i = 0
    for line in m.lines[1:]:
        if line == "resume" and rulings:
            i += 1
            pick = (seed * 7 + i * 13) % 5 if draw is None else draw(st.integers(0, 4))
            if pick == 0:
                out.append("void")
            elif pick == 1:
                out.append("P%d takes" % (1 + (seed + i) % 2))
            elif pick == 2:
                out.append("void")
                out.append("P1 takes")
        out.append(line)
    return out


def random_play(g, draw, steps):
    """Random legal lines, and edges at random times: 3 and 4 players, bounce, holds."""
    for _ in range(steps):
        kind = draw(st.integers(0, 3))
        if kind == 0:
            p = draw(st.integers(1, g.players))
            dt = draw(st.sampled_from([0, 1, 300, 501, 5000, 19999, 20001, 400000, 1100000,
                                       (1 << 29) + 7]))
            verb = "up" if g.arbiter.is_closed(p - 1) else "down"
            if draw(st.integers(0, 5)) == 0:
                verb = "down" if verb == "up" else "up"
            g.push("@%d P%d %s" % (g.last_t + dt, p, verb))
        elif kind == 1 and g.tops[0] is None or draw(st.integers(0, 30)) == 0:
            a, b = draw(st.lists(st.integers(0, 51), min_size=2, max_size=2, unique=True))
            g.push((None, "centre", a, b))
        else:
            legal = g.legal()
            g.push(legal[draw(st.integers(0, len(legal) - 1))])


def same(a, b):
    assert a.state() == b.state()
    assert a.legal() == b.legal()
    assert a.moves == b.moves
    assert a.call_stats() == b.call_stats()
    assert a.arbiter.save() == b.arbiter.save()


def restored(g, options=None):
    lines = g.checkpoint()
    check_lines(lines)
    g2 = Stress(g.players, options)
    g2.restore(lines)
    return g2, lines


def run_on(games, lines):
    """Push the lines into each game; refused lines must be refused alike."""
    for line in lines:
        results = []
        for g in games:
            try:
                g.push(line)
                results.append(None)
            except IllegalAction as e:
                results.append(e.reason)
        assert len(set(results)) == 1, (line, results)
        same(games[0], games[-1])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SIM_SEEDS, st.booleans(), st.data())
def test_STR_36_simulated_match_round_trip_at_any_line(seed, rulings, data):
    lines = sim_lines(seed, rulings, data.draw)
    cut = data.draw(st.integers(0, len(lines)))
    g, err = replay(["game stress players 2"] + lines[:cut])
    assert err is None
    g2, cp_lines = restored(g)
    same(g, g2)
    assert g2.checkpoint() == cp_lines
    run_on([g, g2], lines[cut:cut + 150])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 80), st.data())
def test_STR_36_random_play_round_trip_with_held_buttons_and_rulings(players, steps, data):
    opts = {"games": data.draw(st.integers(1, 3)),
            "tie_window_us": data.draw(st.sampled_from([0, 500, 3000]))}
    g = Stress(players, opts)
    random_play(g, data.draw, steps)
    g2, _ = restored(g, opts)
    same(g, g2)
    # go on identically, refusals included (edges back in time, plays on a call)
    more = Stress(players, opts)
    for a in g.history:
        more.push(a)
    random_play(more, data.draw, 40)
    run_on([g, g2], [more.format(a) for a in more.history[len(g.history):]]
           + ["@%d P1 down" % max(0, g.last_t - 1), "resume", "void", "P1 play 5H 1"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SIM_SEEDS, st.data())
def test_STR_36_rebase_then_pop_equals_undo_of_the_whole_history(seed, data):
    lines = sim_lines(seed, True)
    cut = data.draw(st.integers(0, min(len(lines), 300)))
    extra = data.draw(st.integers(0, 60))
    g, _ = replay(["game stress players 2"] + lines[:cut])
    base = g.checkpoint()
    m = len(g.history)
    ref, _ = replay(["game stress players 2"] + lines[:cut + extra])
    for line in lines[cut:cut + extra]:
        g.push(line)
    g.rebase(m, base)
    assert len(g.history) == len(lines[cut:cut + extra])
    while g.history:
        assert g.pop() == ref.pop()
        same(g, ref)
    with pytest.raises(IllegalAction):
        g.pop()


# --- STR-35: a bounded call list, counters kept always --------------------------

class Kept(Stress):
    CALLS_KEPT = 3


def test_STR_35_calls_kept_holds_the_last_calls_and_counts_them_all():
    lines = sim_lines(10, True)
    full, _ = replay(["game stress players 2"] + lines)
    kept = Kept(2)
    for line in lines:
        kept.push(line)
    all_calls = full.state()["calls"]
    assert len(all_calls) > 3
    assert kept.state()["calls"] == all_calls[-3:]
    assert len(kept.calls) == 3
    assert kept.call_stats() == full.call_stats()
    stats = full.call_stats()
    assert stats["closed"] == len(all_calls)
    voids = [c for c in all_calls if c.get("ruling") == "void"]
    counted = [c for c in all_calls if c.get("ruling") != "void"]
    assert sum(stats["false"]) >= len(voids)
    assert sum(stats["won"]) == len([c for c in counted if c["winner"] is not None])
    assert sum(stats["took"]) == len([c for c in all_calls if c["loser"] is not None])
    for p in range(2):
        mine = [c["margin_us"] for c in counted if c["winner"] == p + 1
                and c["margin_us"] is not None]
        assert stats["margin_sum_us"][p] == sum(mine) and stats["margins"][p] == len(mine)
    # the checkpoint holds only the kept calls; restoring gives the same counters
    g2 = Kept(2)
    g2.restore(kept.checkpoint())
    same(kept, g2)
    # a checkpoint that keeps every call, restored with a limit, keeps the last ones
    g3 = Kept(2)
    g3.restore(full.checkpoint())
    assert g3.state()["calls"] == all_calls[-3:]
    assert g3.call_stats() == full.call_stats()


def test_STR_35_a_tie_counts_for_both_players_and_a_void_as_a_false_call():
    g = Stress(2)
    for line in ("centre 5H 5D", "start", "@1000 P1 down", "@1200 P2 down", "resume",
                 "@2000000 P2 up", "@3000000 P2 down", "void", "resume"):
        g.push(line)
    stats = g.call_stats()
    assert stats["closed"] == 2
    assert stats["tied"] == [1, 1]
    assert stats["false"] == [0, 1]
    assert stats["won"] == [0, 0]


def test_STR_35_checkpoint_size_stays_flat_with_calls_kept():
    sizes = []
    for seed, games in ((3, 1), (3, 3)):
        m = Match(seed, games=games)
        g = Kept(2, {"games": games})
        for line in m.lines[2 if games != 2 else 1:]:
            g.push(line)
        sizes.append(sum(len(x) for x in g.checkpoint()))
    assert sizes[1] <= sizes[0] + 60


# --- Damage: refused, nothing changed ----------------------------------------------

def _mutations(lines, draw):
    tokens = cp.tokens_of(lines)
    kind = draw(st.integers(0, 6))
    i = draw(st.integers(0, len(tokens) - 1))
    if kind == 0:
        del tokens[i]
    elif kind == 1:
        tokens[i] = draw(st.sampled_from(["-", "0", "1", "P9", "P0", "V", "x", "AH", "end",
                                          "99999999999999", "1:2", "-1", "0:0:0:-",
                                          "\u00b2", "1" * 5000]))
    elif kind == 2:
        tokens.insert(i, tokens[draw(st.integers(0, len(tokens) - 1))])
    elif kind == 3:
        j = draw(st.integers(0, len(tokens) - 1))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif kind == 4:
        t = tokens[i]
        k = draw(st.integers(0, max(0, len(t) - 1)))
        ch = draw(st.characters(min_codepoint=1, max_codepoint=0x3000))
        tokens[i] = t[:k] + ch + t[k + 1:]
    elif kind == 5:
        return lines[:draw(st.integers(0, len(lines) - 1))]
    else:
        return [line + draw(st.text(max_size=3)) for line in lines]
    return cp.pack(tokens)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SIM_SEEDS, st.data())
def test_STR_36_damaged_checkpoints_are_refused_or_give_a_position_never_a_crash(seed, data):
    lines = sim_lines(seed, True)
    cut = data.draw(st.integers(0, min(len(lines), 200)))
    g, _ = replay(["game stress players 2"] + lines[:cut])
    bad = _mutations(g.checkpoint(), data.draw)
    fresh = Stress(2)
    before = (fresh.state(), fresh.arbiter.save(), fresh.call_stats(), fresh.moves)
    try:
        fresh.restore(bad)
    except IllegalAction as e:
        assert e.reason
        assert (fresh.state(), fresh.arbiter.save(), fresh.call_stats(), fresh.moves) == before
        return
    # accepted: a position that round-trips and takes lines like any other
    again = Stress(2)
    again.restore(fresh.checkpoint())
    same(fresh, again)
    run_on([fresh, again], lines[cut:cut + 20])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=120), max_size=6))
def test_garbage_is_refused_and_changes_nothing(garbage):
    for cls, players in ((Stress, 3),):
        g = cls(players)
        g.push("centre 5H 6D")
        base = g.checkpoint()
        g2 = cls(players)
        g2.restore(base)
        before = g2.state()
        with pytest.raises(IllegalAction):
            g2.restore(garbage)
        assert g2.state() == before and g2.moves == 1


def test_STR_36_a_long_match_keeping_every_call_restores_its_own_checkpoint():
    m = Match(3, games=20)
    g = Stress(2, {"games": 20})
    for line in m.lines[2:]:
        g.push(line)
    assert len(g.calls) > 40
    lines = g.checkpoint()
    check_lines(lines)
    g2 = Stress(2, {"games": 20})
    g2.restore(lines)
    same(g, g2)


@pytest.mark.parametrize("also_base", [False, True])
def test_STR_36_a_rebase_whose_checkpoint_is_damaged_keeps_undo_right(tmp_path, also_base):
    """A Stress session keeps its base where it lies on flash (read back at an undo);
    a rebase whose checkpoint is damaged waits for the next, the base staying where
    it is (damaged too: the next good rebase replaces it before an undo needs it).
    Undo gives what the whole history gives."""
    from firmware.journal import Journal
    from firmware.session import Session
    from firmware.storage import Storage
    m = Match(5, games=6)
    s = Session.new(Journal(Storage(str(tmp_path)), "game.txt"), "stress", 2, {"games": 6})
    path = tmp_path / "game.txt"
    lines = [ln for ln in m.lines[1:] if not ln.startswith("option")]
    damaged = None
    pushed = 0
    for line in lines[:600]:
        s.push(line)
        pushed += 1
        if damaged is None and s.base_at is not None and s.ring and \
                s.since == Session.EVERY - 1 and len(s.game.history) >= Session.EVERY:
            # the next line writes a checkpoint and rebases onto one of the ring
            data = bytearray(path.read_bytes())
            for c in s.ring:  # the next rebase's target among them
                data[c[1] + 5] ^= 1
            if also_base:
                data[s.base_at[0] + 5] ^= 1  # and the base it lets go
            path.write_bytes(bytes(data))
            damaged = s.game.moves
    assert damaged is not None and pushed > damaged + 2 * Session.EVERY
    assert len(s.game.history) <= 3 * Session.EVERY
    assert callable(s.game._base)  # on flash, not in the heap
    whole = Stress(2, {"games": 6})
    for line in lines[:pushed]:
        whole.push(line)
    for _ in range(len(s.game.history)):
        s.undo()
        whole.pop()
        assert s.game.state() == whole.state()


def test_STR_36_a_resumed_session_reads_its_base_from_flash_and_undoes_as_the_whole_history(
        tmp_path):
    from firmware.journal import Journal
    from firmware.session import Session
    from firmware.storage import Storage
    m = Match(7, games=6)
    lines = [ln for ln in m.lines[1:] if not ln.startswith("option")][:300]
    s = Session.new(Journal(Storage(str(tmp_path)), "game.txt"), "stress", 2, {"games": 6})
    for line in lines:
        s.push(line)
    r, report = Session.resume(Journal(Storage(str(tmp_path)), "game.txt"))
    assert r is not None and r.game.state() == s.game.state()
    assert callable(r.game._base) and r.game.history
    whole = Stress(2, {"games": 6})
    for line in lines:
        whole.push(line)
    for _ in range(len(r.game.history)):
        r.undo()
        whole.pop()
        assert r.game.state() == whole.state()
