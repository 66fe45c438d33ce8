"""Stack the Deck checkpoints (STD-35): round trips, rebase then pop, edit_round after
restore and rebase (STD-31), and damaged lines refused without a change."""

import pytest
from hypothesis import given, settings, strategies as hs, HealthCheck

from core import checkpoint as cp
from core.stackdeck import stacks as st
from core.errors import IllegalAction
from core.stackdeck import StackDeck
from tests.test_checkpoint import check_lines


def card_name(draw, base, colours):
    if draw(hs.integers(0, 6)) == 0:
        return "W"
    n = (base - 1 + draw(hs.integers(-1, 1))) % 10 + 1
    return "%d%s" % (n, st.COLOURS[draw(hs.sampled_from(colours))])


def random_line(draw, players):
    p = draw(hs.integers(1, players))
    kind = draw(hs.integers(0, 9))
    if kind == 0:
        return "round"
    if kind == 1:
        return "end"
    if kind == 2:
        return "P%d out" % p
    if kind == 3:
        counts = [draw(hs.integers(0, 2)) for _ in range(4)]
        unturned = draw(hs.integers(0, 2))
        counts += [unturned, draw(hs.integers(0, 2 * unturned))]
        return "P%d counts %s" % (p, " ".join(str(c) for c in counts))
    verb = "unturned" if kind == 4 else "turned"
    stacks = []
    for _ in range(draw(hs.integers(1, 3))):
        base = draw(hs.integers(1, 10))
        colours = draw(hs.lists(hs.integers(0, 4), min_size=1, max_size=2))
        size = draw(hs.integers(1, 2) if verb == "unturned" else hs.integers(2, 3))
        stacks.append("-".join(card_name(draw, base, colours) for _ in range(size)))
    return "P%d %s %s" % (p, verb, " ".join(stacks))


def play(game, draw, steps):
    """Random lines, kept when legal; favours ending rounds so matches get long."""
    for _ in range(steps):
        if game.over:
            return
        line = random_line(draw, game.players)
        try:
            game.push(line)
        except IllegalAction:
            if game.open is not None and not game.open.out and draw(hs.integers(0, 3)) == 0:
                p = draw(hs.integers(1, game.players))
                game.push("P%d out" % p)
            if game.open is not None:
                try:
                    game.push("end")
                except IllegalAction:
                    pass


def same(a, b, moves=True):
    sa, sb = a.state(), b.state()
    if not moves:  # after an edit: the lines the journal holds (STD-35)
        del sa["moves"], sb["moves"]
    assert sa == sb
    assert a.legal() == b.legal()
    assert a.moves == b.moves or not moves
    for r in range(1, len(a.sheets) + (2 if a.open is not None else 1)):
        assert a.entries(r) == b.entries(r)


def opts_for(draw):
    return {"rounds": draw(hs.integers(1, 6))}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(2, 4), hs.integers(0, 80), hs.data())
def test_STD_35_checkpoint_round_trip_and_play_goes_on_identically(players, steps, data):
    opts = opts_for(data.draw)
    g = StackDeck(players, opts)
    play(g, data.draw, steps)
    lines = g.checkpoint()
    check_lines(lines)
    g2 = StackDeck(players, opts)
    g2.restore(lines)
    same(g, g2)
    assert g2.checkpoint() == lines
    for _ in range(30):
        line = random_line(data.draw, players)
        results = []
        for game in (g, g2):
            try:
                game.push(line)
                results.append(None)
            except IllegalAction as e:
                results.append(e.reason)
        assert results[0] == results[1]
        same(g, g2)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(2, 4), hs.integers(0, 60), hs.integers(0, 40), hs.data())
def test_STD_35_rebase_then_pop_and_edit_any_round_as_with_the_whole_history(
        players, before, after, data):
    opts = opts_for(data.draw)
    full = StackDeck(players, opts)
    play(full, data.draw, before)
    base = full.checkpoint()
    m = len(full.history)
    play(full, data.draw, after)
    g = StackDeck(players, opts)
    g.restore(base)
    for a in full.history[m:]:
        g.push(a)
    same(full, g)
    # edit a round of either game alike (ended or open, before or in the history)
    rounds = len(full.sheets) + (1 if full.open is not None else 0)
    edited = False
    if rounds and data.draw(hs.booleans()):
        r = data.draw(hs.integers(1, rounds))
        donor = StackDeck(players, {"rounds": 1})
        play(donor, data.draw, 25)
        new = donor.entries(1) if donor.sheets or donor.open is not None else []
        results = []
        for game in (full, g):
            try:
                results.append(game.edit_round(r, new))
            except IllegalAction as e:
                results.append(e.reason)
        assert results[0] == results[1]
        same(full, g, moves=False)
        # the journal after an edit: header, base_checkpoint(), the history
        j = StackDeck(players, opts)
        if g.base_checkpoint() is not None:
            j.restore(g.base_checkpoint())
        for a in g.history:
            j.push(g.format(a))
        same(j, g)
        edited = True
    # undo back to the base, step by step
    keep = len(g.history)
    for _ in range(keep):
        assert g.pop() == full.pop()
        same(full, g, moves=not edited)
    with pytest.raises(IllegalAction):
        g.pop()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(2, 4), hs.integers(0, 60), hs.integers(0, 30), hs.data())
def test_STD_35_rebase_keeps_undo_to_the_base(players, before, after, data):
    g = StackDeck(players)
    play(g, data.draw, before)
    base = g.checkpoint()
    m = len(g.history)
    play(g, data.draw, after)
    ref = StackDeck(players)
    for a in g.history:
        ref.push(a)
    g.rebase(m, base)
    assert g.base_checkpoint() == base
    while g.history:
        assert g.pop() == ref.pop()
        same(g, ref)


def test_STD_35_the_format_of_a_small_match():
    g = StackDeck(3)
    for line in ("round", "P1 turned 4G-5G-6G 7B-W", "P2 unturned 9R", "P1 out", "end",
                 "P2 counts 1 0 2 0 1 1"):
        g.push(line)
    assert g.checkpoint() == [
        "checkpoint stackdeck players 3 moves 6 r P1 turned 4G-5G-6G 7B-W P2 unturned 9R "
        "P1 out open P2", "counts 1 0 2 0 1 1 end"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(2, 4), hs.integers(0, 60), hs.data())
def test_STD_35_damaged_checkpoints_are_refused_or_round_trip(players, steps, data):
    g = StackDeck(players)
    play(g, data.draw, steps)
    tokens = cp.tokens_of(g.checkpoint())
    i = data.draw(hs.integers(0, len(tokens) - 1))
    kind = data.draw(hs.integers(0, 3))
    if kind == 0:
        del tokens[i]
    elif kind == 1:
        tokens[i] = data.draw(hs.sampled_from(["r", "open", "end", "P9", "4G", "W", "0",
                                               "x", "\u00b2", "counts", "out"]))
    elif kind == 2:
        tokens.insert(i, tokens[data.draw(hs.integers(0, len(tokens) - 1))])
    else:
        j = data.draw(hs.integers(0, len(tokens) - 1))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    fresh = StackDeck(players)
    before = fresh.state()
    try:
        fresh.restore(cp.pack(tokens))
    except IllegalAction as e:
        assert e.reason and fresh.state() == before and fresh.moves == 0
        return
    again = StackDeck(players)
    again.restore(fresh.checkpoint())
    same(fresh, again)


def test_STD_35_a_long_match_keeps_its_history_and_checkpoints_bounded(tmp_path):
    # Stack the Deck checkpoints at every `out` and `end`, so a ring that kept the last
    # few checkpoints never held one EVERY moves back: the history grew with the match,
    # and each kept checkpoint was a copy of every ended round. The ring keeps offsets
    # into the journal (at least EVERY // 2 moves apart) and a rebase reads its target
    # back from flash.
    from firmware.journal import Journal
    from firmware.session import Session
    from firmware.storage import Storage
    root = str(tmp_path)
    s = Session.new(Journal(Storage(root), "game.txt"), "stackdeck", 4, {"rounds": 40})
    longest = 0
    for r in range(40):
        for p in range(1, 5):
            s.push("P%d counts %d %d 1 0 0 0" % (p, (r + p) % 2, (r * p) % 2))
            longest = max(longest, len(s.game.history))
        s.push("P%d out" % (1 + r % 4))
        if r < 39:
            s.push("end")
        longest = max(longest, len(s.game.history))
        for c in s.ring:
            assert all(isinstance(x, int) for x in c)
        assert len(s.ring) <= Session.RING
    assert r == 39 and s.game.base_checkpoint() is not None
    assert longest <= 2 * Session.EVERY + 6  # a round's lines past the bound at most
    for _ in range(Session.EVERY):  # undo goes back at least EVERY actions
        s.undo()
    want = s.game.to_json()
    again, report = Session.resume(Journal(Storage(root), "game.txt"))
    assert report is None and again.game.to_json() == want
    for _ in range(3):
        s.push("P1 counts 1 0 0 0 0 0")
        again.push("P1 counts 1 0 0 0 0 0")
    assert again.game.to_json() == s.game.to_json()


def test_STD_35_a_rebase_whose_checkpoint_is_damaged_on_flash_waits_for_the_next(tmp_path):
    from firmware.journal import Journal
    from firmware.session import Session
    from firmware.storage import Storage
    root = str(tmp_path)
    s = Session.new(Journal(Storage(root), "game.txt"), "stackdeck", 2, {"rounds": 40})
    path = tmp_path / "game.txt"
    damaged = 0
    for r in range(30):
        s.push("P1 counts 1 0 0 0 0 0")
        s.push("P2 out")
        s.push("end")
        if s.ring and not damaged and s.game.base_checkpoint() is not None:
            # a byte flipped inside the oldest kept checkpoint, the next rebase's target
            data = bytearray(path.read_bytes())
            data[s.ring[0][1] + 5] ^= 1
            path.write_bytes(bytes(data))
            damaged = len(s.game.history)
        assert len(s.game.history) <= 3 * Session.EVERY  # the next target comes soon
    assert damaged and s.game.base_checkpoint() is not None
    assert s.game.totals() == [150, 0]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(2, 4), hs.integers(0, 60), hs.integers(0, 40), hs.data())
def test_STD_35_a_rebased_game_keeps_its_base_compact_and_edits_as_with_the_whole_history(
        players, before, after, data):
    # the base is (moves, ended rounds, the open round's record), not the checkpoint's
    # text; its lines are written again when asked, the same as those rebased onto
    opts = opts_for(data.draw)
    full = StackDeck(players, opts)
    play(full, data.draw, before)
    base = full.checkpoint()
    m = len(full.history)
    play(full, data.draw, after)
    g = StackDeck(players, opts)
    for a in full.history:
        g.push(a)
    g.rebase(m, base)
    assert not any(isinstance(x, str) for x in g._base)
    assert g.base_checkpoint() == base
    same(full, g)
    rounds = len(full.sheets) + (1 if full.open is not None else 0)
    edited = False
    if rounds and data.draw(hs.booleans()):
        r = data.draw(hs.integers(1, rounds))
        donor = StackDeck(players, {"rounds": 1})
        play(donor, data.draw, 25)
        new = donor.entries(1) if donor.sheets or donor.open is not None else []
        results = []
        for game in (full, g):
            try:
                results.append(game.edit_round(r, new))
            except IllegalAction as e:
                results.append(e.reason)
        assert results[0] == results[1]
        same(full, g, moves=False)
        j = StackDeck(players, opts)
        j.restore(g.base_checkpoint())
        for a in g.history:
            j.push(g.format(a))
        same(j, g)
        edited = True
    for _ in range(len(g.history)):
        assert g.pop() == full.pop()
        same(full, g, moves=not edited)
    if not edited:
        assert g.checkpoint() == base
    with pytest.raises(IllegalAction):
        g.pop()
