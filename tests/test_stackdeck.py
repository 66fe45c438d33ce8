"""Stack the Deck rules, each test named after the rule in seeds/stack_the_deck.md it checks."""

import pytest

from core.stackdeck import stacks as st
from core.stackdeck import turn
from core import transcript
from core.errors import IllegalAction
from core.stackdeck import StackDeck
from core.transcript import replay


def S(text, letters=st.COLOURS):
    return st.parse_stack(text, letters)


def C(text, letters=st.COLOURS):
    return st.parse_card(text, letters)


def game_after(*lines, players=3, options=()):
    head = ["game stackdeck players %d" % players] + ["option %s %s" % o for o in options]
    game, error = replay(head + list(lines))
    assert error is None, error
    return game


def refused(game, line, reason):
    before = game.to_json()
    history = list(game.history)
    with pytest.raises(IllegalAction) as info:
        game.push(line)
    assert info.value.reason == reason
    assert len(reason) <= 21
    assert game.to_json() == before and game.history == history


def turned_refused(stack, reason):
    with pytest.raises(IllegalAction) as info:
        st.check_turned(S(stack))
    assert info.value.reason == reason
    assert st.turned_reason(S(stack)) == reason


def unturned_refused(stack, reason):
    with pytest.raises(IllegalAction) as info:
        st.check_unturned(S(stack))
    assert info.value.reason == reason
    assert st.unturned_reason(S(stack)) == reason


# Cards and stacks ---------------------------------------------------------------------


def test_STD_1_the_deck_has_57_cards_each_numbered_card_once():
    deck = st.all_cards()
    assert len(deck) == st.DECK_SIZE == 57
    assert deck.count(st.WILD) == 7
    numbered = [c for c in deck if c != st.WILD]
    assert len(set(numbered)) == 50
    assert sorted(st.card_name(c) for c in numbered if st.number(c) == 10) == ["10B", "10G", "10P", "10R", "10Y"]
    for n in range(1, 11):
        for c in range(5):
            card = st.make(n, c)
            assert st.number(card) == n and st.colour(card) == c
    assert st.number(st.WILD) is None and st.colour(st.WILD) is None


def test_STD_1_card_notation_reads_and_writes():
    assert C("3R") == st.make(3, 0) and C("10b") == st.make(10, 3) and C("w") == st.WILD
    assert st.card_name(C("10p")) == "10P" and st.card_name(st.WILD) == "W"
    for bad in ("11R", "0R", "3X", "R", "03R", "TR", "3", "WW", "-1R"):
        with pytest.raises(IllegalAction) as info:
            C(bad)
        assert info.value.reason == "bad card: " + bad


def test_STD_2_colour_letters_and_names():
    g = StackDeck(2)
    assert g.state()["colours"] == "RYGBP"
    assert g.colour_names() == ["Red", "Yellow", "Green", "Blue", "Purple"]
    g = game_after("P1 turned 3a-3b", players=2, options=(("colours", "abcde"),))
    assert g.state()["current"]["turned"] == [["3A-3B"], []]
    assert g.colour_names() == ["A", "B", "C", "D", "E"]
    assert transcript.write(g) == ["game stackdeck players 2", "option colours ABCDE", "P1 turned 3A-3B"]
    refused(g, "P2 turned 4R-4Y", "bad card: 4R")
    g = game_after(players=2, options=(("colours", "ABCDE"), ("names", "Ash,Beech,Cedar,Dove,Elm")))
    assert g.colour_names() == ["Ash", "Beech", "Cedar", "Dove", "Elm"]
    assert st.colour_name(2) == "Green"


def test_STD_2_bad_colour_options_are_refused():
    for value, reason in (("ABCD", "colours: 5 letters"), ("ABCDW", "colours: W is wild"),
                          ("ABCDA", "colours: A twice"), ("AB1DE", "colours: letters only"),
                          ("abcdd", "colours: D twice")):
        _, error = replay(["game stackdeck players 2", "option colours " + value])
        assert error == (2, reason)
    _, error = replay(["game stackdeck players 2", "option names a,b,c"])
    assert error == (2, "names: 5, commas")


def test_STD_3_stacks_are_cards_in_the_order_laid():
    assert S("4G-5G-6G") == (C("4G"), C("5G"), C("6G"))
    assert S("6g-5G-4g") != S("4G-5G-6G")
    assert st.stack_name(S("7b-w")) == "7B-W" and S("W") == (st.WILD,)
    for bad in ("4G--5G", "-4G", "4G-"):
        with pytest.raises(IllegalAction) as info:
            S(bad)
        assert info.value.reason == "bad stack: " + bad


def test_STD_4_a_pair_is_two_cards_of_one_number():
    assert st.is_pair(S("5R-5G")) and st.complete_kind(S("5R-5G")) == st.PAIR
    assert not st.is_pair(S("5R-6R"))
    turned_refused("5R-5G-5B", "a pair is 2 cards")


def test_STD_5_a_run_steps_one_way_without_wrapping():
    for run in ("4G-5G-6G", "6G-5G-4G", "1R-2Y-3G", "10B-9B-8B", "8P-9R-10R"):
        assert st.is_run(S(run)) and st.complete_kind(S(run)) == st.RUN
    turned_refused("9R-10R-1R", "runs don't wrap 10-1")
    turned_refused("10R-1R-2R", "runs don't wrap 10-1")
    turned_refused("2R-1R-10R", "runs don't wrap 10-1")
    turned_refused("4R-5R-4R", "runs go one way")
    turned_refused("4R-5R-7R", "not a run")
    turned_refused("4R-6R-8R", "not a run")
    turned_refused("4R-5R-6R-7R", "too many cards")


def test_STD_6_wilds_score_the_stack_highest():
    assert st.turned_points(S("7B-W")) == 10  # pair of one colour
    assert st.turned_points(S("W-W")) == 10
    assert st.turned_points(S("W-W-W")) == 20
    assert st.turned_points(S("4G-W-6G")) == 20
    assert st.turned_points(S("4G-W-6R")) == 10
    assert st.turned_points(S("W-2R-1R")) == 20  # W is 3
    assert st.turned_points(S("10R-W-W")) == 20  # 10, 9, 8
    turned_refused("W", "1 card: not complete")
    turned_refused("W-1R-2R", "runs don't wrap 10-1")
    turned_refused("W-10R-W", "runs don't wrap 10-1")
    turned_refused("5R-W-8R", "not a run")
    assert st.turned_points(S("5R-W-7R")) == 20


def test_STD_7_turned_points():
    assert st.turned_points(S("5R-5G")) == 5
    assert st.turned_points(S("5R-W")) == 10  # one colour: only with a wild (each card is unique)
    assert st.turned_points(S("3Y-4G-5B")) == 10
    assert st.turned_points(S("3Y-4Y-5Y")) == 20
    assert st.one_colour(S("3Y-W-5Y")) and not st.one_colour(S("3Y-W-5B"))
    with pytest.raises(IllegalAction):
        st.turned_points(S("3Y-4Y"))


def test_STD_8_unturned_costs():
    assert st.unturned_points(S("5R")) == -5
    assert st.unturned_points(S("W")) == -25
    assert st.unturned_points(S("7B-W")) == -25
    assert st.unturned_points(S("W-W")) == -45
    assert st.unturned_points(S("4R-5G")) == -5


def test_STD_9_what_can_stand_unturned():
    for ok in ("5R", "W", "4R-5G", "5G-4R", "1R-2R", "10R-9R", "7B-W", "W-7B", "W-W", "W-2R", "9R-W"):
        assert st.can_stand(S(ok)), ok
    unturned_refused("2R-1R", "runs don't wrap 10-1")
    unturned_refused("9B-10B", "runs don't wrap 10-1")
    unturned_refused("10B-1B", "runs don't wrap 10-1")
    unturned_refused("5R-8R", "not a run or a pair")
    unturned_refused("W-1R", "pair is complete")
    unturned_refused("W-10R", "pair is complete")


def test_STD_10_complete_stacks_cannot_stand():
    unturned_refused("5R-5G", "pair is complete")
    unturned_refused("4G-5G-6G", "run is complete")
    unturned_refused("4G-5G-8G", "not a run")
    unturned_refused("1G-2G-3G-4G", "too many cards")
    assert st.unturned_reason(()) == "empty stack" and st.turned_reason(()) == "empty stack"


def test_STD_11_every_reason_fits_a_screen_line():
    stacks = ["W", "5R", "5R-5G", "5R-6R", "2R-1R", "5R-8R", "W-1R", "5R-5G-5B", "9R-10R-1R",
              "4R-5R-4R", "4R-5R-7R", "1G-2G-3G-4G", "10R-1R"]
    for text in stacks:
        for fn in (st.turned_reason, st.unturned_reason):
            reason = fn(S(text))
            assert reason is None or 0 < len(reason) <= 21
    assert st.turned_reason(S("5R-6R")) == "run needs 3 cards"
    assert st.turned_reason(S("5R-8R")) == "not a run or a pair"
    assert st.turned_reason(S("5R-5G")) is None and st.unturned_reason(S("5R")) is None


def test_STD_12_describe_for_a_screen():
    assert st.describe(S("3Y-4Y-5Y")) == ("run", 20, None)
    assert st.describe(S("5R-5G")) == ("pair", 5, None)
    assert st.describe(S("7B-W")) == ("pair", 10, None)
    assert st.describe(S("4R-5G")) == ("open", -5, None)
    assert st.describe(S("W")) == ("open", -25, None)
    assert st.describe(S("2R-1R")) == (None, 0, "runs don't wrap 10-1")


# Single plays at the table -----------------------------------------------------------------


def test_STD_13_play_on_own_stack():
    assert turn.play_on(S("4R"), C("5R")) == S("4R-5R")
    assert turn.play_on(S("4R-5R"), C("6G")) == S("4R-5R-6G")
    assert turn.play_on(S("4R"), C("4G")) == S("4R-4G")
    assert turn.play_on(S("7B"), st.WILD) == S("7B-W")
    assert turn.play_on(S("7B-W"), C("9B")) == S("7B-W-9B")
    for stack, card, reason in (("2R", "1R", "runs don't wrap 10-1"), ("4R", "7R", "not a run or a pair"),
                                ("4R-5R", "7R", "not a run"), ("4R-5R", "4G", "runs go one way"),
                                ("4R-4G", "4B", "stack is turned"), ("3R-4R-5R", "6R", "stack is turned")):
        with pytest.raises(IllegalAction) as info:
            turn.play_on(S(stack), C(card))
        assert info.value.reason == reason
    with pytest.raises(IllegalAction) as info:
        turn.play_on((), C("4R"))
    assert info.value.reason == "no stack there"


def test_STD_14_steal_rules():
    assert turn.steal(S("4R-5R"), C("6G")) == S("4R-5R-6G")
    assert turn.steal(S("8B"), C("8Y")) == S("8B-8Y")
    for stack, card, reason in (("4R-5R", "W", "can't steal with a W"), ("4R-W", "6R", "stack holds a wild"),
                                ("4R", "5R", "steal must complete"), ("4R-4G", "4Y", "stack is turned"),
                                ("W", "5R", "stack holds a wild")):
        with pytest.raises(IllegalAction) as info:
            turn.steal(S(stack), C(card))
        assert info.value.reason == reason


def test_STD_15_a_turn_plays_each_drawn_card_once_and_steals_second():
    t = turn.Turn((C("5R"), C("9B")))
    with pytest.raises(IllegalAction) as info:
        t.steal(C("9B"), S("9G"))
    assert info.value.reason == "play a card first"
    assert t.play(C("5R"), S("4R")) == S("4R-5R")
    with pytest.raises(IllegalAction) as info:
        t.play(C("5R"), S("5G"))
    assert info.value.reason == "card already used"
    with pytest.raises(IllegalAction) as info:
        t.play(C("3R"), S("3G"))
    assert info.value.reason == "card not drawn"
    assert t.steal(C("9B"), S("9G")) == S("9G-9B")
    assert t.left() == []
    t = turn.Turn((C("5R"), C("9B")))
    t.play(C("5R"), S("5Y"))
    assert t.left() == [C("9B")]  # goes back into the deck


def test_STD_16_a_drawn_pair_may_be_laid():
    assert turn.lay_pair(C("6R"), C("6B")) == S("6R-6B")
    assert turn.lay_pair(C("6R"), st.WILD) == S("6R-W")
    assert turn.lay_pair(st.WILD, st.WILD) == S("W-W")
    with pytest.raises(IllegalAction) as info:
        turn.lay_pair(C("6R"), C("7R"))
    assert info.value.reason == "not a pair"
    t = turn.Turn((C("2Y"), C("2P")))
    assert t.lay_pair() == S("2Y-2P") and t.left() == []
    t = turn.Turn((C("2Y"), C("2P")))
    t.play(C("2Y"), S("3Y"))
    with pytest.raises(IllegalAction) as info:
        t.lay_pair()
    assert info.value.reason == "pair needs both cards"


# The match -----------------------------------------------------------------------------


def test_STD_17_players_and_rounds_option():
    for n in (2, 4):
        assert StackDeck(n).state()["players"] == n
    for n in (1, 5):
        with pytest.raises(IllegalAction) as info:
            StackDeck(n)
        assert info.value.reason == "stackdeck: 2 to 4 players"
    assert StackDeck(2).state()["match_rounds"] == 10
    for value in ("0", "100"):
        _, error = replay(["game stackdeck players 2", "option rounds " + value])
        assert error == (2, "rounds: 1 to 99")
    _, error = replay(["game stackdeck players 2", "round", "option rounds 3"])
    assert error == (3, "options go first")
    _, error = replay(["game stackdeck players 2", "option hand_limit 3"])
    assert error == (2, "unknown option hand_limit")


def one_round(out="P1"):
    return ["round", out + " out", "end"]


def test_STD_18_dealer_and_first_player():
    g = StackDeck(3)
    s = g.state()
    assert s["dealer"] == 1 and s["first"] == 2
    seen = []
    for r in range(1, 8):
        g.push("round")
        seen.append((g.state()["dealer"], g.state()["first"]))
        g.push("P1 out")
        g.push("end")
    assert seen == [(1, 2), (2, 3), (3, 1), (1, 2), (2, 3), (3, 1), (1, 2)]
    assert [g.dealer_of(r) for r in range(1, 6)] == [1, 2, 3, 1, 2]
    g4 = StackDeck(4)
    assert [g4.first_of(r) for r in range(1, 6)] == [2, 3, 4, 1, 2]
    g = game_after(*(one_round() * 2), players=2, options=(("rounds", "2"),))
    assert g.over and g.state()["dealer"] is None and g.state()["first"] is None


def test_STD_19_lines_add_up_and_need_the_right_words():
    g = game_after("round", "P1 turned 1R-1G", "P1 turned 2R-3R-4R 5B-5P", "P2 unturned 9R", "P2 unturned 7Y")
    cur = g.state()["current"]
    assert cur["turned"] == [["1R-1G", "2R-3R-4R", "5B-5P"], [], []]
    assert cur["unturned"] == [[], ["9R", "7Y"], []]
    assert cur["scores"] == [30, -10, 0]
    refused(g, "turned 6R-6G", "name the player first")
    refused(g, "out", "name the player first")
    refused(g, "P1 end", "end takes no player")
    refused(g, "P2 round", "round takes no player")
    refused(g, "P1 turned", "no stack given")
    refused(g, "P1 out now", "too many words")
    refused(g, "end now", "too many words")
    refused(g, "P1 flip 6R-6G", "unknown: flip")
    refused(g, "P5 out", "no player P5")
    refused(g, (2, "end"), "end takes no player")
    refused(g, (9, "out"), "name the player first")


def test_STD_20_round_is_optional_and_not_twice():
    a = game_after("P1 turned 1R-1G", "P1 out", "end", "P2 out", "end")
    b = game_after("round", "P1 turned 1R-1G", "P1 out", "end", "round", "P2 out", "end")
    assert a.state()["rounds"] == b.state()["rounds"] == [[5, 0, 0], [0, 0, 0]]
    g = game_after("round")
    refused(g, "round", "round already open")
    g = game_after()
    refused(g, "end", "no round open")
    g = game_after("P3 out")
    assert g.state()["round_open"] and g.state()["current"]["out"] == [3]
    g.pop()
    assert not g.state()["round_open"] and g.state()["current"] is None


def test_STD_21_turned_stacks_must_be_complete():
    g = game_after("round")
    refused(g, "P1 turned 4G-5G", "run needs 3 cards")
    refused(g, "P1 turned 4G", "1 card: not complete")
    refused(g, "P1 turned 4G-5G-6G 9R-10R-1R", "runs don't wrap 10-1")
    g.push("P1 turned 4G-5G-6G")  # own or stolen, it scores the same
    g.push("P2 turned 8B-8Y")
    assert g.provisional() == [20, 5, 0]


def test_STD_22_unturned_stacks_must_be_able_to_stand():
    g = game_after("round")
    refused(g, "P2 unturned 3R-3Y", "pair is complete")
    refused(g, "P2 unturned 1R-2R-3R", "run is complete")
    refused(g, "P2 unturned 2R-1R", "runs don't wrap 10-1")
    g.push("P2 unturned 2R-3R W 7B-W")
    assert g.provisional() == [0, -55, 0]


def test_STD_23_no_card_twice_and_at_most_seven_wilds():
    g = game_after("round", "P1 turned 4G-5G-6G")
    refused(g, "P2 unturned 5G", "5G used twice")
    refused(g, "P2 turned 9R-9Y 10B-9R-8B", "9R used twice")
    refused(g, "P2 turned 7r-7y 7r-w", "7R used twice")
    g.push("P2 turned W-W W-W-W")
    refused(g, "P3 unturned W W W", "more than 7 wilds")
    g.push("P3 unturned W W")
    refused(g, "P1 unturned W", "more than 7 wilds")
    # a new round starts with every card free again
    g.push("P1 out")
    g.push("end")
    g.push("P2 turned 4G-5G-6G W-W W-W-W")


def test_STD_24_out_once_and_the_end_checks():
    g = game_after("round", "P1 out")
    refused(g, "P1 out", "P1 is out already")
    g.push("P2 out")
    refused(g, "end", "only one goes out")
    g.pop()
    g.push("P1 unturned 5R")
    refused(g, "end", "P1 out, has unturned")
    g = game_after("round", "P2 turned 5R-5G", "P3 unturned 4B")
    refused(g, "end", "nobody is out")
    g.push("P2 out")
    g.push("end")
    assert g.state()["rounds"] == [[0, 10 - 5, -5]]


def test_STD_25_end_scores_the_round():
    g = game_after("round", "P1 turned 4G-5G-6G 7B-W", "P2 unturned 9R W", "P3 turned 3R-3Y", "P1 out", "end")
    s = g.state()
    assert s["rounds"] == [[30, -30, 5]] and s["totals"] == [30, -30, 5] and s["rounds_played"] == 1
    g = game_after("round", "P2 turned 2B-2G", "P2 out", "end")
    assert g.state()["rounds"] == [[0, 5, 0]]  # nothing in front scores 0
    assert g.round_scores(1) == [0, 5, 0]


def test_STD_26_open_round_is_provisional():
    g = game_after("round", "P1 out", "end", "round", "P1 turned 1P-2P-3P")
    s = g.state()
    assert s["totals"] == [0, 0, 0] and s["current"]["scores"] == [20, 0, 0]
    assert s["current"]["round"] == 2 and s["round_open"]
    g.push("P1 out")
    g.push("end")
    assert g.state()["totals"] == [20, 0, 0] and g.state()["current"] is None


def test_STD_27_tally_starts_with_the_player_out():
    g = game_after("round", "P3 out", "end")
    assert g.tally_order(1) == [3, 1, 2] and g.state()["tally"] == [3, 1, 2]
    g.push("P2 out")
    g.push("end")
    assert g.tally_order(2) == [2, 3, 1] and g.state()["out"] == [3, 2]
    assert StackDeck(2).state()["tally"] == []


def test_STD_28_totals_are_the_sum_of_rounds():
    g = game_after("P1 turned 1R-1G", "P1 out", "end", "P2 turned 2R-3R-4R", "P1 unturned 7Y", "P2 out", "end")
    s = g.state()
    assert s["rounds"] == [[5, 0, 0], [-5, 20, 0]]
    assert s["totals"] == [0, 20, 0] == g.totals()


def test_STD_29_the_match_ends_and_ties_share_the_win():
    g = game_after("P1 turned 1R-1G", "P1 out", "end", "P2 turned 2R-2G", "P2 out", players=2,
                   options=(("rounds", "2"),))
    assert g.state()["winners"] == [] and not g.over
    g.push("end")
    s = g.state()
    assert s["over"] and s["winners"] == [1, 2] and s["rounds_played"] == 2
    for line in ("round", "P1 out", "end", "P1 turned 3R-3G"):
        refused(g, line, "match is over")
    assert g.legal() == []
    g = game_after("P1 turned 1R-2R-3R", "P1 out", "end", players=2, options=(("rounds", "1"),))
    assert g.state()["winners"] == [1]


def test_STD_30_undo_to_any_depth_restores_exactly():
    lines = ["round", "P1 turned 4G-5G-6G 7B-W", "P2 unturned 9R W", "P1 out", "end",
             "P3 turned 1Y-1B", "P3 out", "end", "round", "P2 unturned 4G"]
    g = StackDeck(3)
    snapshots = [g.to_json()]
    for line in lines:
        g.push(line)
        snapshots.append(g.to_json())
    for expected in reversed(snapshots[:-1]):
        g.pop()
        assert g.to_json() == expected
    with pytest.raises(IllegalAction) as info:
        g.pop()
    assert info.value.reason == "nothing to undo"


def test_STD_31_edit_an_ended_round_and_the_totals_follow():
    g = game_after("round", "P1 turned 4G-5G-6G", "P2 unturned 9R", "P1 out", "end",
                   "round", "P2 turned 1R-1G", "P2 out", "end", "round", "P3 unturned 3B")
    assert g.state()["totals"] == [20, 0, 0]
    old = g.edit_round(1, ["P1 turned 4G-5G-6G", "P2 unturned 9R W", "P3 turned 8Y-8P", "P1 out"])
    assert old == ["P1 turned 4G-5G-6G", "P2 unturned 9R", "P1 out"]
    s = g.state()
    assert s["rounds"] == [[20, -30, 5], [0, 5, 0]] and s["totals"] == [20, -25, 5]
    assert s["current"]["unturned"] == [[], [], ["3B"]]  # the open round is untouched
    # the transcript still replays to the same state
    again, error = replay(transcript.write(g))
    assert error is None and again.to_json() == g.to_json()
    # undo still works line by line on the rewritten history
    g.pop()
    assert g.state()["round_open"] and g.state()["current"]["unturned"] == [[], [], []]
    # editing back restores
    g.push("P3 unturned 3B")
    g.edit_round(1, old)
    assert g.state()["totals"] == [20, 0, 0]


def test_STD_31_an_illegal_edit_changes_nothing():
    g = game_after("P1 turned 4G-5G-6G", "P1 out", "end", "P2 out", "end")
    before, history = g.to_json(), list(g.history)
    for lines, reason in ((["P1 turned 4G-5G"], "run needs 3 cards"),
                          (["P1 turned 4G-5G-6G", "P2 turned 6G-6R", "P1 out"], "6G used twice"),
                          (["P1 turned 4G-5G-6G"], "nobody is out"),
                          (["P1 out", "P1 unturned 2R"], "P1 out, has unturned"),
                          (["P1 out", "end"], "edit: entries only"),
                          (["P1 out", "P1 fly"], "unknown: fly")):
        with pytest.raises(IllegalAction) as info:
            g.edit_round(1, lines)
        assert info.value.reason == reason
        assert g.to_json() == before and g.history == history
    with pytest.raises(IllegalAction) as info:
        g.edit_round(3, ["P1 out"])
    assert info.value.reason == "no round 3"


def test_STD_31_edit_a_round_opened_without_round_and_the_open_one():
    g = game_after("P1 turned 4G-5G-6G", "P1 out", "end", "P2 turned 7R-7G")
    g.edit_round(1, ["P2 turned 4G-5G-6G", "P2 out"])
    assert transcript.write(g)[1:] == ["round", "P2 turned 4G-5G-6G", "P2 out", "end", "P2 turned 7R-7G"]
    assert g.state()["rounds"] == [[0, 20, 0]]
    g.edit_round(2, ["P3 turned 7R-7G", "P3 out"])  # the open round: stays open
    assert g.state()["current"]["turned"] == [[], [], ["7R-7G"]] and g.entries(2) == ["P3 turned 7R-7G", "P3 out"]
    g.push("end")
    assert g.state()["totals"] == [0, 20, 5]
    again, error = replay(transcript.write(g))
    assert error is None and again.to_json() == g.to_json()


def test_STD_31_editing_the_last_round_of_a_finished_match():
    g = game_after("P1 turned 4G-5G-6G", "P1 out", "end", players=2, options=(("rounds", "1"),))
    assert g.state()["winners"] == [1]
    g.edit_round(1, ["P2 turned 4G-5G-6G", "P2 out"])
    assert g.over and g.state()["winners"] == [2]
    assert transcript.write(g) == ["game stackdeck players 2", "option rounds 1", "round",
                                   "P2 turned 4G-5G-6G", "P2 out", "end"]


def test_STD_32_state_json_keys_in_the_contract_order():
    g = game_after("P1 turned 4G-5G-6G", "P1 out", "end", "P2 unturned 7Y")
    text = g.to_json()
    assert text.startswith('{"game": "stackdeck", "players": 3, "rounds_played": 1, "rounds": [[20, 0, 0]], '
                           '"totals": [20, 0, 0], "dealer": 2, "over": false, "winners": [], "first": 3, '
                           '"round_open": true, "current": {"round": 2, "turned": [[], [], []], '
                           '"unturned": [[], ["7Y"], []], "out": [], "scores": [0, -5, 0]}, "out": [1], '
                           '"tally": [1, 2, 3], "match_rounds": 10, "colours": "RYGBP", ')
    assert '"moves": 4' in text and "." not in text.replace('"', "")


def test_STD_33_format_and_parse_round_trip():
    g = StackDeck(4, {"colours": "ABCDE"})
    for line in ("round", "end", "P4 out", "P1 turned 10A-9A-8A W-W 3b-w", "P2 unturned W 7e-8e"):
        action = g.parse(line)
        assert g.parse(g.format(action)) == action
    assert g.format(g.parse("p1 TURNED 10a-9A-8a")) == "P1 turned 10A-9A-8A"


def test_legal_matches_push():
    g = game_after("round", "P1 out")
    legal = g.legal()
    assert (None, "end") in legal and (1, "out") not in legal and (2, "out") in legal
    for action in legal:
        assert g.is_legal(action)
    g = game_after()
    assert g.legal() == [(None, "round"), (1, "out"), (2, "out"), (3, "out")]
    for action in g.legal():
        assert g.is_legal(action)


def test_STD_33_history_keeps_the_modules_verb_strings():
    from core.stackdeck import sheet as rnd
    g = StackDeck(2)
    for line, verb in (("ROUND", rnd.ROUND), ("p1 Turned 3R-3G", rnd.TURNED), ("P2 UNTURNED 5B", rnd.UNTURNED),
                       ("P1 OUT", rnd.OUT), ("End", rnd.END)):
        assert g.push(line)[1] is verb


def test_STD_35_an_ended_round_keeps_a_compact_record_of_its_entries():
    # An ended round is kept as bytes (core.stackdeck.sheet.pack), not a sheet: its
    # entries, its `out` and, undone with its `end`, its sheet come back exactly.
    from core.stackdeck import sheet as rnd
    g = StackDeck(4)
    lines = ["P1 turned 4G-5G-6G 7B-W 10P-9P-8P", "P2 unturned W-W 1R", "P3 counts 1 1 1 0 1 1",
             "P4 counts 2 0 1 0 0 0", "P2 turned W-3Y", "P4 out"]
    for line in lines:
        g.push(line)
    before = g.state()
    g.push("end")
    record = g.sheets[0]
    assert isinstance(record, bytes) and len(record) < 64
    assert [g.format(a) for a in rnd.unpack(record)] == lines == g.entries(1)
    assert g.out_of(1) == 4 and rnd.out_in(record) == 4
    assert g.round_scores(1) == before["current"]["scores"]
    g.pop()
    assert g.state() == before and g.open.lines == [g.parse(x) for x in lines]
