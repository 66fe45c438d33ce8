"""The table notation: tokens, players, cards, and format/parse round trips."""

import pytest
from hypothesis import given, strategies as st

from core import cards, jsonfmt, notation
from core.errors import IllegalAction
from core.stack31 import Stack31


def test_tokens_drop_comments_and_split_on_any_space():
    assert notation.tokenize("  P1  play\t7H # and a note") == ["P1", "play", "7H"]
    assert notation.tokenize("# only a note") == []
    assert notation.tokenize("") == []


def test_every_card_formats_and_parses_back():
    names = [cards.name(c) for c in cards.all_cards()]
    assert len(set(names)) == 52
    for c in cards.all_cards():
        assert cards.parse(cards.name(c)) == c
        assert cards.parse(cards.name(c).lower()) == c
    assert cards.parse("TS") == cards.parse("10S")


@pytest.mark.parametrize("bad", ["", "H", "1H", "11S", "7X", "10", "KK", "7HH", "0D"])
def test_bad_cards_are_refused(bad):
    with pytest.raises(IllegalAction):
        cards.parse(bad)


def test_players_are_checked_against_the_table():
    assert notation.parse_player("p3", 3) == 3
    for token in ("P0", "P4", "Px", "Q1"):
        with pytest.raises(IllegalAction):
            notation.parse_player(token, 3)


ACTIONS = st.one_of(
    st.tuples(st.sampled_from([None, 1, 2, 3]), st.sampled_from(["draw", "pass", "dq", "discard down"])),
    st.tuples(st.sampled_from([None, 1, 2, 3]), st.sampled_from(["play", "discard up"]),
              st.integers(0, 51)),
)


@given(ACTIONS)
def test_stack31_actions_round_trip_through_text(action):
    game = Stack31(3)
    text = game.format(action)
    assert game.parse(text) == action
    assert game.parse(text.lower()) == action


def test_json_is_written_the_same_way_on_both_interpreters():
    text = jsonfmt.dumps({"b": [1, None, True], "a": "é\"\\\n", "game": "x"}, ("game",))
    assert text == '{"game": "x", "a": "\\u00e9\\"\\\\\\n", "b": [1, null, true]}'
    with pytest.raises(TypeError):
        jsonfmt.dumps({"x": 1.5})
