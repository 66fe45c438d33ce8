"""Checkpoints written by the core itself (issue 11; seeds/README.md "Checkpoints"):
checkpoint() -> restore() round trips, rebase() then pop(), refused damage, for the
three games. Random legal play by hypothesis; Stress through core/stress/sim.py."""

import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

from core import checkpoint as cp
from core.errors import IllegalAction
from core.games import new_game
from core.stack31 import Stack31


def play_random(game, draw, steps):
    for _ in range(steps):
        legal = game.legal()
        if not legal:
            break
        game.push(legal[draw(st.integers(0, len(legal) - 1))])


def restored(game, options=None):
    lines = game.checkpoint()
    g2 = new_game(game.NAME, game.players, options)
    g2.restore(lines)
    return g2, lines


def check_lines(lines):
    assert lines
    for line in lines:
        assert isinstance(line, str) and 0 < len(line) <= 100
        assert "#" not in line and "\n" not in line and "\r" not in line
        assert all(" " <= ch <= "~" for ch in line)


def same(a, b):
    assert a.state() == b.state()
    assert a.legal() == b.legal()
    assert a.moves == b.moves


# --- The shared API (Game) ------------------------------------------------------

def test_checkpoint_starts_with_the_game_and_moves_and_ends_with_end():
    g = Stack31(3)
    g.push("P1 draw")
    lines = g.checkpoint()
    check_lines(lines)
    tokens = cp.tokens_of(lines)
    assert tokens[:6] == ["checkpoint", "stack31", "players", "3", "moves", "1"]
    assert tokens[-1] == "end"


def test_restore_clears_history_and_pop_goes_no_further():
    g = Stack31(2)
    for line in ("P1 draw", "P2 draw", "P1 play 5H"):
        g.push(line)
    g2, _ = restored(g)
    same(g, g2)
    assert g2.history == [] and g2.moves == 3
    with pytest.raises(IllegalAction):
        g2.pop()
    g2.push("P2 draw")
    assert g2.moves == 4 and g2.state()["moves"] == 4
    g2.pop()
    same(g, g2)


def test_restore_refuses_a_game_with_history_and_another_game():
    g = Stack31(2)
    g.push("P1 draw")
    lines = g.checkpoint()
    with pytest.raises(IllegalAction):
        g.restore(lines)
    with pytest.raises(IllegalAction, match="player count"):
        Stack31(3).restore(lines)
    with pytest.raises(IllegalAction, match="another game"):
        new_game("stress", 2).restore(lines)


def test_options_go_first_also_after_a_restore():
    g = Stack31(2)
    g.push("P1 draw")
    g2, _ = restored(g)
    with pytest.raises(IllegalAction, match="options go first"):
        g2.set_option("hand_limit", "5")


def test_rebase_forgets_the_first_actions_and_keeps_the_rest_undoable():
    g = Stack31(2)
    lines = ["P1 draw", "P2 draw", "P1 draw", "P2 play 3S", "P1 discard up 4D"]
    for line in lines[:3]:
        g.push(line)
    base = g.checkpoint()
    for line in lines[3:]:
        g.push(line)
    before_pop = g.state()
    g.rebase(3, base)
    assert len(g.history) == 2 and g.moves == 5 and g.state() == before_pop
    assert g.base_checkpoint() == base
    g.pop()
    g.pop()
    assert g.checkpoint() == base
    with pytest.raises(IllegalAction):
        g.pop()


def test_rebase_refuses_a_base_of_another_position_and_a_bad_count():
    g = Stack31(2)
    g.push("P1 draw")
    base0 = Stack31(2).checkpoint()
    g.push("P2 draw")
    with pytest.raises(IllegalAction):
        g.rebase(2, base0)  # that base is the position after 0 actions, not 2
    with pytest.raises(IllegalAction):
        g.rebase(3, g.checkpoint())
    g.rebase(0, base0)
    assert len(g.history) == 2


# --- Stack 31 (S31-25) -------------------------------------------------------------

@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 8), st.integers(1, 13), st.integers(0, 150), st.data())
def test_S31_25_checkpoint_round_trip_and_play_goes_on_identically(players, limit, steps, data):
    opts = {"hand_limit": limit}
    g = Stack31(players, opts)
    play_random(g, data.draw, steps)
    g2, lines = restored(g, opts)
    check_lines(lines)
    same(g, g2)
    assert g2.checkpoint() == lines
    for _ in range(20):
        legal = g.legal() + [(None, "play", data.draw(st.integers(0, 51)))]
        action = legal[data.draw(st.integers(0, len(legal) - 1))]
        results = []
        for game in (g, g2):
            try:
                game.push(action)
                results.append(None)
            except IllegalAction as e:
                results.append(e.reason)
        assert results[0] == results[1]
        same(g, g2)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 5), st.integers(0, 120), st.integers(0, 40), st.data())
def test_S31_25_rebase_then_pop_matches_plain_undo(players, before, after, data):
    g = Stack31(players)
    play_random(g, data.draw, before)
    base = g.checkpoint()
    m = len(g.history)
    play_random(g, data.draw, after)
    ref = Stack31(players)
    for a in g.history:
        ref.push(a)
    g.rebase(m, base)
    while g.history:
        assert g.pop() == ref.pop()
        same(g, ref)


# --- Damage, any game: refused with IllegalAction and nothing changed ---------------

def _position(name, players, draw):
    g = new_game(name, players)
    if name == "stress":
        g.push("centre 5H 6D")
        g.push("start")
        g.push("@1000 P1 down")
    elif name == "stackdeck":
        for line in ("P1 turned 4G-5G-6G", "P1 out", "end", "P2 unturned 9R"):
            g.push(line)
    else:
        play_random(g, draw, draw(st.integers(0, 60)))
    return g


TOKENS = ["checkpoint", "stack31", "stackdeck", "stress", "players", "moves", "end", "-",
          "P1", "P2", "P9", "0", "1", "31", "52", "7H", "KS", "r", "open", "turn", "hands",
          "played", "up", "calls", "1:P1:0:-:-:0:-", "\u00b2", "9" * 13, "-5"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["stack31", "stackdeck", "stress"]), st.integers(2, 4), st.data())
def test_S31_25_damaged_or_garbage_checkpoints_never_crash_nor_change_the_game(name, players, data):
    g = _position(name, players, data.draw)
    tokens = cp.tokens_of(g.checkpoint())
    kind = data.draw(st.integers(0, 4))
    if kind == 0:
        del tokens[data.draw(st.integers(0, len(tokens) - 1))]
    elif kind == 1:
        tokens[data.draw(st.integers(0, len(tokens) - 1))] = data.draw(st.sampled_from(TOKENS))
    elif kind == 2:
        tokens.insert(data.draw(st.integers(0, len(tokens))), data.draw(st.sampled_from(TOKENS)))
    elif kind == 3:
        i = data.draw(st.integers(0, len(tokens) - 1))
        j = data.draw(st.integers(0, len(tokens) - 1))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    else:
        tokens = data.draw(st.lists(st.sampled_from(TOKENS) | st.text(max_size=5), max_size=30))
    lines = cp.pack([t for t in tokens if t]) if kind < 4 else [" ".join(tokens)]
    # a restored game (so a failed restore must put a checkpoint back, not the start)
    fresh = new_game(name, players)
    fresh.restore(g.checkpoint())
    before = (fresh.to_json(), fresh.moves, fresh.legal())
    try:
        fresh.restore(lines)
    except IllegalAction as e:
        assert e.reason
        assert (fresh.to_json(), fresh.moves, fresh.legal()) == before
        return
    again = new_game(name, players)
    again.restore(fresh.checkpoint())
    same(fresh, again)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.text("ab-1", min_size=1, max_size=30), min_size=1, max_size=8),
                max_size=40), st.integers(20, 120))
def test_pack_places_a_joined_line_as_its_tokens_one_by_one(items, width):
    # Stack the Deck's checkpoint hands pack() each entry as its line, not its tokens:
    # the lines (the journal's bytes) must be those of the tokens one by one.
    joined = [" ".join(words) for words in items]
    tokens = [w for words in items for w in words]
    assert cp.pack(joined, width) == cp.pack(tokens, width)
