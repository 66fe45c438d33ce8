"""Stress rules, each test named after the rule in seeds/stress.md it checks."""

import pytest

from core import cards, jsonfmt
from core.errors import IllegalAction
from core.stress import Stress, fits
from core.stress.arbiter import TICKS_PERIOD
from core.transcript import replay, write


def game_after(*lines, players=2, options=()):
    game, error = replay(["game stress players %d" % players] + list(options) + list(lines))
    assert error is None, error
    return game


def refused(game, line, reason):
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.push(line)
    assert info.value.reason == reason
    assert game.to_json() == before


def press(player, t, hold=100000):
    """A clean press and release of PX's button."""
    return ["@%d P%d down" % (t, player), "@%d P%d up" % (t + hold, player)]


def calls(game):
    return [(c["winner"], c["tie"], c["margin_us"], c["loser"]) for c in game.state()["calls"]]


# Table and lines -------------------------------------------------------------------------


def test_STR_1_two_to_four_players_and_cards_like_stack31():
    for n in (2, 3, 4):
        assert Stress(n).state()["games_won"] == [0] * n
    for n in (1, 5):
        with pytest.raises(IllegalAction):
            Stress(n)
    g = game_after("centre 9c ts", "start", "P1 play 10h 1", "P2 PLAY js 2")
    assert g.state()["tops"] == ["10H", "JS"]


def test_STR_1_suits_are_ignored_for_play():
    g = game_after("centre 8C 3D", "start", "P1 play 9H 1", "P2 play 2D 2", "P1 play 8S 1")
    assert g.state()["tops"] == ["8S", "2D"]


def test_STR_2_one_rank_up_or_down_aces_high_and_low():
    ace, two, queen, king = (cards.parse(c) for c in ("AS", "2H", "QD", "KC"))
    assert fits(ace, king) and fits(ace, two) and fits(king, ace) and fits(king, queen)
    assert fits(two, ace) and fits(queen, king)
    assert not fits(two, king) and not fits(queen, ace) and not fits(ace, cards.parse("AH"))
    for top in range(52):
        fitting = [c for c in range(52) if fits(c, top)]
        assert len(fitting) == 8  # two ranks, four suits
        for c in fitting:
            assert abs(cards.rank(c) - cards.rank(top)) in (1, 12)


def test_STR_2_a_card_that_does_not_fit_is_refused():
    g = game_after("centre KC 5D", "start", "P1 play AH 1")
    refused(g, "P2 play 7H 2", "7H does not fit 2")
    refused(g, "P2 play 5H 2", "5H does not fit 2")
    g.push("P2 play 2S 1")
    refused(g, "P1 play KS 1", "KS does not fit 1")
    g.push("P1 play 4S 2")
    assert g.state()["tops"] == ["2S", "4S"]


def test_STR_3_centre_at_any_time_and_never_two_equal_cards():
    g = game_after("centre 8C 3D")
    assert g.state()["tops"] == ["8C", "3D"]
    refused(g, "centre 4H 4H", "same card twice")
    g.push("start")
    g.push("centre 9H 3D")  # a stall where only P1 had a pile: stack 2 unchanged
    assert g.state()["tops"] == ["9H", "3D"]
    g.push("P1 out")
    g.push("centre 2S 7S")  # laid for the next game
    assert g.state()["tops"] == ["2S", "7S"]
    refused(g, "P1 centre 2H 7H", "centre takes no player")
    refused(g, "centre 2H", "centre needs 2 cards")


def test_STR_4_play_needs_a_game_on_no_pending_call_and_the_centre():
    g = game_after()
    refused(g, "P1 play 9H 1", "game not started")
    g.push("start")
    refused(g, "P1 play 9H 1", "no centre cards yet")
    g.push("centre 8C 3D")
    refused(g, "P1 play 8C 2", "8C is on top")
    refused(g, "P1 play 9H 3", "stack is 1 or 2")
    refused(g, "play 9H 1", "who plays? PX play")
    g.push("@100 P2 down")
    refused(g, "P1 play 9H 1", "call pending: resume")
    g.push("resume")
    g.push("P1 play 9H 1")
    g.push("P1 out")
    refused(g, "P2 play 10H 1", "game is over")


def test_STR_4_any_player_plays_at_any_time():
    g = game_after("centre 8C 3D", "start", "P2 play 9H 1", "P2 play 10H 1", "P1 play 4C 2",
                   players=3)
    g.push("P3 play JH 1")
    assert g.state()["tops"] == ["JH", "4C"]


STRESSED = ("centre 8C 3D", "start", "P1 play 4H 2", "P2 play 9S 1", "P1 play 5H 2",
            "P2 play 10S 1", "P1 play 6C 2", "P2 play 9D 1", "P1 play 7C 2", "P2 play 8D 1",
            "P1 play 8H 2")


def test_STR_5_stress_flag_and_the_call_records_it():
    g = game_after(*STRESSED[:-1])
    assert g.state()["tops"] == ["8D", "7C"] and g.state()["stress"] is False
    g.push("P1 play 8H 2")
    assert g.state()["stress"] is True
    g.push("@1000 P2 down")
    call = g.state()["calls"][0]
    assert call["on_stress"] is True and call["winner"] == 2 and call["final"] is False
    # a call without stress is still taken (false call; the table judges)
    g = game_after("centre 8C 3D", "start", "@1000 P1 down")
    assert g.state()["calls"][0]["on_stress"] is False and g.state()["calls"][0]["winner"] == 1
    assert Stress(2).state()["stress"] is False  # tops unknown


def test_STR_6_stall_lays_new_centre_cards_while_calls_are_taken():
    g = game_after("centre 8C 3D", "start")
    g.push("centre JH JS")  # the stall's fresh cards happen to show stress
    s = g.state()
    assert s["stress"] and s["armed"] and s["tops"] == ["JH", "JS"]
    g.push("@5000 P1 down")
    assert calls(g) == [(1, False, None, 2)]


def test_STR_7_start_arms_the_referee():
    g = game_after("centre 8C 3D")
    assert g.state()["armed"] is False and g.state()["on"] is False
    g.push("start")
    s = g.state()
    assert s["armed"] and s["on"] and s["game_no"] == 1 and not s["over"]
    refused(g, "start", "game already on")
    refused(g, "P1 start", "start takes no player")
    refused(g, "start now", "too many words")
    # no centre needed: a plain call referee
    g = game_after("start", "@10 P2 down")
    assert calls(g) == [(2, False, None, 1)] and g.state()["tops"] == [None, None]


def test_STR_8_time_never_goes_back_equal_is_fine():
    g = game_after("@100 P1 down", "@100 P2 down")
    refused(g, "@99 P1 up", "time went back")
    refused(g, "@-5 P1 up", "bad time: @-5")
    refused(g, "@ P1 up", "bad time: @")
    refused(g, "@1x P1 up", "bad time: @1x")
    refused(g, "@200 P1 sideways", "down or up?")
    refused(g, "@200 P1", "@T PX down or up")
    refused(g, "@200 P5 up", "no player P5")
    refused(g, "P1 @200 up", "time goes first: @T")
    refused(g, "P1 down", "needs a time: @T PX down")
    g.push("@100 P1 up")
    assert g.state()["t"] == 100


def test_STR_8_unwrapped_times_beyond_the_tick_period():
    base = 5 * TICKS_PERIOD - 300  # the arbiter sees T mod 2**30: it wraps between presses
    g = game_after("start", "@%d P1 down" % (base + 200), "@%d P2 down" % (base + 700))
    assert calls(g) == [(None, True, 500, None)]
    g = game_after("start", "@%d P2 down" % (base + 100), "@%d P1 down" % (base + 5100))
    assert calls(g) == [(2, False, 5000, 1)]
    # a gap of many periods between lines is measured exactly
    g = game_after("start", "@%d P1 down" % base, "@%d P2 down" % (base + 3 * TICKS_PERIOD + 7))
    assert calls(g) == [(1, False, 3 * TICKS_PERIOD + 7, 2)]


def test_STR_9_resume_closes_the_call_and_takes_calls_again():
    g = game_after("centre 8C 3D", "start")
    refused(g, "resume", "no call to resume")
    g.push("@1000 P1 down")
    g.push("@1200 P1 up")
    assert g.state()["call_pending"] and not g.state()["armed"]
    g.push("resume")
    s = g.state()
    assert s["armed"] and not s["call_pending"] and s["calls"][0]["final"] is True
    g.push("@900000 P2 down")  # a second press of P2 now is a new call
    assert calls(g) == [(1, False, None, 2), (2, False, None, 1)]
    refused(game_after(), "resume", "game not started")
    refused(game_after("start", "P1 out"), "resume", "game is over")
    refused(g, "P1 resume", "resume takes no player")


def test_STR_10_out_wins_the_game_and_over_lasts_until_the_next_start():
    g = game_after("centre 8C 3D", "start", "P2 out", options=("option games 3",))
    s = g.state()
    assert s["games_won"] == [0, 1] and s["over"] and not s["on"] and not s["armed"]
    refused(g, "P1 out", "game is over")
    g.push("centre 5C 6D")
    assert g.state()["over"]
    g.push("start")
    assert not g.state()["over"] and g.state()["game_no"] == 2
    refused(game_after(), "P1 out", "game not started")
    refused(g, "out", "who is out? PX out")


def test_STR_10_out_closes_a_waiting_call_and_later_presses_are_not_calls():
    g = game_after("start", "@100 P1 down", "P1 out", "@200 P2 down", "@300 P1 up",
                   "@400000 P1 down")
    s = g.state()
    assert s["calls"] == [{"winner": 1, "tie": False, "margin_us": None, "loser": 2, "game_no": 1,
                           "on_stress": False, "final": True}]
    assert s["pressed"] == [1, 2]


def test_STR_11_first_to_n_games_wins_the_match():
    g = game_after("start", "P1 out", "start", "P2 out", "start")
    assert g.state()["games_to_win"] == 2 and not g.state()["match_over"]
    g.push("P2 out")
    s = g.state()
    assert s["match_over"] and s["match_winner"] == 2 and s["games_won"] == [1, 2]
    refused(g, "start", "match is over")
    g = game_after("option games 1", "start", "P1 out")
    assert g.state()["match_winner"] == 1
    _, error = replay(["game stress players 2", "option games 0"])
    assert error == (2, "games: 1 to 99")


# The referee -----------------------------------------------------------------------------


def test_STR_12_bounce_on_press_and_on_release():
    g = game_after("start", "@1000 P1 down", "@1300 P1 up", "@1500 P1 down", "@2000 P1 up",
                   "@2100 P1 down", "@2200 P1 up")
    assert calls(g) == [(1, False, None, 2)]
    assert g.state()["pressed"] == []
    # P2 closes 10 ms after its release bounce: still bounce (debounce 20 ms), then a press
    g = game_after("@0 P2 down", "@100000 P2 up", "@100400 P2 down", "@100500 P2 up", "start",
                   "@110500 P2 down", "@110600 P2 up", "@130500 P2 down")
    assert calls(g) == []  # open since 110600: 19.9 ms
    g.push("@130501 P2 up")
    g.push("@150501 P2 down")  # open exactly 20 ms: a press
    assert calls(g) == [(2, False, None, 1)]
    assert g.arbiter.pressed_at(1) == 150501 - 100500  # from the arm at the last T


def test_STR_12_a_repeated_edge_is_bounce_and_a_repeated_up_reopens():
    g = game_after("start", "@1000 P1 down", "@1000 P1 down")
    assert calls(g) == [(1, False, None, 2)]
    g = game_after("@0 P1 down", "@1000 P1 up", "start", "@30000 P1 up", "@40000 P1 down")
    assert calls(g) == []  # reopened at 30000: only 10 ms open
    g.push("@40100 P1 up")
    g.push("@60100 P1 down")
    assert calls(g) == [(1, False, None, 2)]


def test_STR_12_debounce_option_zero_takes_every_closing_edge_of_an_open_button():
    g = game_after("option debounce_us 0", "@0 P1 down", "@10 P1 up", "start", "@10 P1 down")
    assert calls(g) == [(1, False, None, 2)]


def test_STR_13_presses_before_the_start_are_not_calls():
    g = game_after("centre 8C 3D", "@100 P1 down", "@200000 P1 up")
    assert calls(g) == []
    g.push("start")
    assert calls(g) == []
    g.push("@300000 P2 down")
    assert calls(g) == [(2, False, None, 1)]


def test_STR_13_a_button_held_through_start_or_resume_cannot_call_until_released():
    g = game_after("@100 P1 down", "start", "@200 P2 down")
    assert calls(g) == [(2, False, None, 1)]
    g = game_after("@100 P1 down", "start", "@200 P1 down", "@300 P1 up", "@10000 P1 down")
    assert calls(g) == []  # bounce: open only 9.7 ms
    g.push("@10100 P1 up")
    g.push("@40000 P1 down")
    assert calls(g) == [(1, False, None, 2)]
    # held through resume
    g = game_after("start", "@100 P1 down", "resume", "@5000 P1 down", "@6000 P2 down")
    assert calls(g) == [(1, False, None, 2), (2, False, None, 1)]


def test_STR_14_the_first_press_wins_and_nothing_after_changes_it():
    g = game_after("start", "@5000 P2 down", "@5001 P2 up", "@5002 P2 down", "@7000 P1 down",
                   "@8000 P2 up", "@90000 P2 down", "@95000 P1 up", "@200000 P1 down")
    assert calls(g) == [(2, False, 2000, 1)]
    assert g.arbiter.pressed_at(1) == 5000


def test_STR_15_margin_tie_and_equal_stamps():
    assert calls(game_after("start", "@1000 P1 down", "@1001 P1 up", "@1001 P2 down")) == [
        (None, True, 1, None)]  # one microsecond apart, within the tie window
    assert calls(game_after("start", "@1000 P2 down", "@1000 P1 down")) == [(None, True, 0, None)]
    assert calls(game_after("start", "@1000 P1 down", "@1500 P2 down")) == [(None, True, 500, None)]
    assert calls(game_after("start", "@1000 P1 down", "@1501 P2 down")) == [(1, False, 501, 2)]
    g = game_after("option tie_window_us 0", "start", "@1000 P1 down", "@1001 P2 down")
    assert calls(g) == [(1, False, 1, 2)]
    g = game_after("option tie_window_us 0", "start", "@1000 P2 down", "@1000 P1 down")
    assert calls(g) == [(None, True, 0, None)]  # equal stamps: always a tie
    g = game_after("start", "@1000 P1 down", "resume", "@9000 P2 down")
    assert g.state()["calls"][0]["margin_us"] is None


def test_STR_16_two_players_the_other_one_takes_the_stacks():
    assert calls(game_after("start", "@10 P1 down"))[0][3] == 2
    assert calls(game_after("start", "@10 P2 down", "@90000 P1 down"))[0][3] == 1
    assert calls(game_after("start", "@10 P2 down", "@500 P1 down"))[0][3] is None  # tie
    # a tie: nobody takes the stacks; after resume the next call decides
    g = game_after("centre 8C 8D", "start", "@10 P2 down", "@10 P1 down", "@90000 P1 up",
                   "@90000 P2 up", "resume", "@300000 P1 down")
    assert calls(g) == [(None, True, 0, None), (1, False, None, 2)]
    assert g.state()["stress"]


def test_STR_16_three_or_four_players_the_last_to_press_takes_the_stacks():
    g = game_after("start", "@1000 P2 down", "@40000 P3 down", "@90000 P1 down", players=3)
    assert calls(g) == [(2, False, 39000, 1)]
    g = game_after("start", "@1000 P4 down", "@40000 P3 down", "@45000 P1 down", players=4)
    assert calls(g) == [(4, False, 39000, 2)]  # P2 never pressed
    g.push("@2000000 P2 down")  # too late: beyond the slow window, still the last
    assert calls(g)[0][3] == 2
    g = game_after("start", "@1000 P4 down", "@40000 P3 down", players=4)
    assert calls(g) == [(4, False, 39000, None)]  # two did not press: the table decides
    g = game_after("start", "@1000 P1 down", "@40000 P3 down", "@40500 P2 down", players=3)
    assert calls(g) == [(1, False, 39000, None)]  # the two latest within the tie window
    g = game_after("start", "@1000 P1 down", "@1000 P3 down", "@50000 P2 down", players=3)
    assert calls(g) == [(None, True, 0, 2)]  # a tie for first still names the last
    g = game_after("option slow_window_us 30000", "start", "@1000 P1 down", "@20000 P2 down",
                   "@40000 P3 down", players=3)
    assert calls(g) == [(1, False, 19000, 3)]


def test_STR_17_defaults_and_ranges_of_the_options():
    g = Stress(2)
    assert g.options == {"debounce_us": 20000, "tie_window_us": 500, "slow_window_us": 1000000,
                         "games": 2}
    a = g.arbiter
    assert (a.debounce_us, a.tie_window_us, a.slow_window_us) == (20000, 500, 1000000)
    g = game_after("option debounce_us 5000", "option tie_window_us 250",
                   "option slow_window_us 3000000", "option games 5")
    a = g.arbiter
    assert (a.debounce_us, a.tie_window_us, a.slow_window_us) == (5000, 250, 3000000)
    assert g.header_lines()[1:] == ["option debounce_us 5000", "option games 5",
                                    "option slow_window_us 3000000", "option tie_window_us 250"]
    for line, reason in (("option debounce_us -1", "debounce_us: 0 to 67108864"),
                         ("option tie_window_us 99999999", "tie_window_us: 0 to 67108864"),
                         ("option slow_window_us 0", "slow_window_us: 1 to 67108864"),
                         ("option tie_window_us x", "bad tie_window_us: x"),
                         ("option colours ABCDE", "unknown option colours")):
        _, error = replay(["game stress players 2", line])
        assert error == (2, reason)
    _, error = replay(["game stress players 2", "start", "option games 3"])
    assert error == (3, "options go first")


def test_STR_18_ticks_wrap_between_two_presses():
    from core.stress.arbiter import Arbiter, TICKS_MAX
    a = Arbiter(2)
    a.arm(TICKS_MAX - 1000)
    a.edge(1, True, TICKS_MAX - 200)  # just before the wrap
    a.edge(0, True, 700)  # just after: 901 us later
    assert (a.winner(), a.margin_us(), a.tie(), a.loser()) == (1, 901, False, 0)


def test_STR_19_state_json_has_the_contract_keys():
    g = game_after("centre 8C 3D", "start", "@1000 P1 down", "@1900 P2 down")
    s = g.state()
    for key in ("game", "players", "tops", "stress", "calls", "games_won", "over"):
        assert key in s
    assert s["tops"] == ["8C", "3D"] and s["players"] == 2
    assert s["calls"] == [{"winner": 1, "tie": False, "margin_us": 900, "loser": 2, "game_no": 1,
                           "on_stress": False, "final": False}]
    text = g.to_json()
    assert text.startswith('{"game": "stress", "players": 2, "tops": ["8C", "3D"], '
                           '"stress": false, "calls": [{"winner": 1, "tie": false, '
                           '"margin_us": 900, "loser": 2, "final": false, "game_no": 1, '
                           '"on_stress": false}], "games_won": [0, 0], "over": false, ')
    assert '"games_won": [0, 0], "over": false' in text
    assert jsonfmt.dumps(s, Stress.KEY_ORDER) == text


def test_STR_20_the_arbiter_keeps_its_lists_and_only_small_values():
    from core.stress.arbiter import Arbiter
    a = Arbiter(4)
    lists = [a._closed, a._opened, a._settled, a._press]
    ids = [id(x) for x in lists]
    a.arm(0)
    for i, t in enumerate(range(0, 400000, 997)):
        a.edge(i % 4, i % 3 != 0, t)
        a.poll(t + 5)
        a.winner(), a.loser(), a.margin_us()
    assert [id(x) for x in (a._closed, a._opened, a._settled, a._press)] == ids
    for value in a._opened + [x for x in a._press if x is not None]:
        assert -(1 << 30) <= value < (1 << 30)  # MicroPython small ints


def test_STR_21_equal_stamps_in_either_order_give_one_decision():
    one = calls(game_after("start", "@500 P1 down", "@500 P2 down", "@80000 P3 down", players=3))
    two = calls(game_after("start", "@500 P2 down", "@500 P1 down", "@80000 P3 down", players=3))
    assert one == two == [(None, True, 0, 3)]


def test_STR_22_undo_restores_everything_and_illegal_lines_change_nothing():
    lines = ["centre 8C 3D", "@50 P2 down", "start", "P1 play 9H 1", "@1000 P1 down",
             "@1400 P1 up", "@1900 P2 down", "centre 5S 5H", "resume", "@9000000 P2 up",
             "@9100000 P1 down", "P2 out"]
    g = Stress(2)
    snaps = [g.to_json()]
    for line in lines:
        g.push(line)
        snaps.append(g.to_json())
    for expected in reversed(snaps[:-1]):
        g.pop()
        assert g.to_json() == expected
    with pytest.raises(IllegalAction):
        g.pop()
    g = game_after(*lines[:7])
    for line in ("@10 P1 down", "resume x", "P3 out", "P1 play 2C 1", "centre 2C 2C", "start"):
        before = (g.to_json(), g.arbiter.save(), len(g.history))
        with pytest.raises(IllegalAction):
            g.push(line)
        assert (g.to_json(), g.arbiter.save(), len(g.history)) == before


def test_STR_23_lines_round_trip_and_are_case_insensitive():
    g = Stress(3)
    for line in ("centre 10H QS", "P2 play 9H 1", "@123456 P1 down", "@0 P3 up", "start",
                 "resume", "P3 out"):
        action = g.parse(line)
        assert g.format(action) == line
        assert g.parse(g.format(action)) == action
    assert g.parse("CENTRE th qs") == g.parse("centre 10H QS")
    assert g.parse("p2 PLAY 9h 1") == (2, "play", cards.parse("9H"), 1)
    assert g.parse("@0007 p1 DOWN") == (1, "down", 7)
    assert g.format(g.parse("@0007 p1 DOWN")) == "@7 P1 down"
    g = game_after("centre 8C 3D", "start", "P1 play 9H 1")
    assert write(g) == ["game stress players 2", "centre 8C 3D", "start", "P1 play 9H 1"]
