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


# Numbers: ASCII digits only, at most notation.MAX_DIGITS (issue 11) -------------------

@pytest.mark.parametrize("bad", ["\u00b2", "1\u00b2", "\u0663", "\uff11", "1" * 13, "9" * 5000,
                                 "", "-", "+1", " 1", "1.0", "0x1"])
def test_numbers_are_ascii_digits_of_bounded_length(bad):
    assert not notation.is_digits(bad.lstrip("-"))
    with pytest.raises(IllegalAction) as info:
        notation.parse_int(bad)
    assert len(info.value.reason) < 40
    assert not notation.is_player_token("P" + bad)


def test_twelve_digits_still_count():
    assert notation.parse_int("9" * 12) == 10 ** 12 - 1
    assert notation.parse_int("-12") == -12
    assert notation.is_player_token("P3")


@given(st.text(max_size=8), st.integers(1, 8))
def test_any_player_token_is_a_player_or_a_refusal(text, players):
    try:
        notation.parse_player("P" + text, players)
    except IllegalAction as e:
        assert e.reason


@given(st.text(max_size=6))
def test_any_card_or_time_or_count_is_parsed_or_refused(text):
    from core.stackdeck import stacks as sds
    from core.stackdeck import counts as stackdeck_counts
    from core.stress.rare import parse_time
    for parse in (cards.parse, cards.parse_rank, sds.parse_card, sds.parse_stack,
                  parse_time, lambda t: stackdeck_counts.parse([t] * 6)):
        for token in (text, "@" + text, text + "H", "1" + text + "R"):
            try:
                parse(token)
            except IllegalAction as e:
                assert e.reason
