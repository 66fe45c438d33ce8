"""Property tests: random action sequences never break Stack 31's invariants (S31-24)."""

from hypothesis import given, settings, strategies as st

from core import cards
from core.errors import IllegalAction
from core.stack31 import GOAL, Stack31

VERBS = ["draw", "draw", "play", "play", "discard up", "discard down", "pass", "dq"]


def random_action(data):
    verb = data.draw(st.sampled_from(VERBS))
    if verb in ("play", "discard up"):
        return (None, verb, data.draw(st.integers(0, 51)))
    return (None, verb)


def check_invariants(game):
    s = game.state()
    total = s["deck"] + sum(s["hands"]) + len(s["played"]) + len(s["discarded_up"]) + s["discarded_down"]
    assert total == 52
    for pile in s["piles"].values():
        assert 0 <= pile["value"] <= GOAL
        assert pile["conquered"] == (pile["value"] == GOAL)
    assert all(0 <= h <= 6 for h in s["hands"])
    shown = s["played"] + s["discarded_up"]
    assert len(shown) == len(set(shown))
    if s["over"]:
        assert s["to_move"] is None
    else:
        assert s["to_move"] - 1 not in game.disqualified


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 5), st.data())
def test_random_sequences_keep_every_invariant_and_illegal_changes_nothing(players, data):
    game = Stack31(players)
    for _ in range(data.draw(st.integers(0, 160))):
        action = random_action(data)
        before = game.to_json()
        try:
            game.push(action)
        except IllegalAction as e:
            assert e.reason and len(e.reason) <= 21
            assert game.to_json() == before
        check_invariants(game)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.data())
def test_undo_walks_back_through_every_state(players, data):
    game = Stack31(players)
    seen = [game.to_json()]
    for _ in range(data.draw(st.integers(0, 80))):
        try:
            game.push(random_action(data))
            seen.append(game.to_json())
        except IllegalAction:
            pass
    while game.history:
        seen.pop()
        game.pop()
        assert game.to_json() == seen[-1]


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.data())
def test_legal_lists_exactly_what_push_accepts(players, data):
    game = Stack31(players)
    for _ in range(data.draw(st.integers(0, 60))):
        legal = game.legal()
        action = random_action(data)
        assert (action in legal) == game.is_legal(action)
        if legal:
            game.push(data.draw(st.sampled_from(legal)))
