"""Stack 31 rules, each test named after the rule in seeds/stack31.md it checks."""

import pytest

from core import cards
from core.errors import IllegalAction
from core.stack31 import Stack31
from core.transcript import replay


def game_after(*lines, players=2):
    game, error = replay(["game stack31 players %d" % players] + list(lines))
    assert error is None, error
    return game


def dealt(each, players=2):
    return ["draw"] * (each * players)


def refused(game, line, reason):
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.push(line)
    assert info.value.reason == reason
    assert game.to_json() == before


def pile(game, suit):
    return game.state()["piles"][suit]


def simple_turn(game):
    """A plain player: draw while possible, else discard face down, else pass."""
    hand = game.hands[game.to_move]
    if game.deck and hand < 6:
        game.push("draw")
    elif hand:
        game.push("discard down")
    else:
        game.push("pass")


def drain(game):
    while game.deck:
        simple_turn(game)


def finish(game):
    while not game.over:
        simple_turn(game)


def test_S31_1_deck_and_hands_start_full_and_empty():
    for n in (1, 8):
        s = Stack31(n).state()
        assert s["deck"] == 52 and s["hands"] == [0] * n
    for n in (0, 9):
        with pytest.raises(IllegalAction):
            Stack31(n)
    _, error = replay(["game stack31 players 2", "draw"])
    assert error is None


def test_S31_2_four_piles_at_zero_without_owner():
    piles = Stack31(3).state()["piles"]
    assert sorted(piles) == ["C", "D", "H", "S"]
    for p in piles.values():
        assert p == {"value": 0, "owner": None, "conquered": False}


def test_S31_3_turn_order_and_naming_the_wrong_player():
    g = game_after("draw", players=3)
    assert g.state()["to_move"] == 2
    refused(g, "P3 draw", "not P3's turn")
    refused(g, "P9 draw", "no player P9")
    g.push("P2 draw")
    g.push("draw")
    assert g.state()["to_move"] == 1


def test_S31_3_disqualified_players_are_skipped():
    g = game_after("draw", "dq", players=3)  # P2 disqualified
    assert g.state()["to_move"] == 3
    g.push("P3 draw")
    g.push("P1 draw")
    assert g.state()["to_move"] == 3


def test_S31_4_one_action_per_turn_moves_the_turn_on():
    g = game_after(players=2)
    for line, nxt in (("draw", 2), ("draw", 1), ("play 5H", 2), ("discard down", 1)):
        g.push(line)
        assert g.state()["to_move"] == nxt
    assert len(g.history) == 4


def test_S31_5_draw_takes_the_top_card():
    g = game_after("draw")
    assert g.state()["deck"] == 51 and g.state()["hands"] == [1, 0]


def test_S31_5_draw_refused_at_the_hand_limit():
    g = game_after(*dealt(6))
    assert g.state()["hands"] == [6, 6]
    refused(g, "draw", "hand is full")


def test_S31_5_draw_refused_on_an_empty_deck():
    g = Stack31(2)
    drain(g)
    assert g.deck == 0 and not g.over and g.hands[g.to_move]
    refused(g, "draw", "deck is empty")


def test_S31_6_play_goes_on_its_suit_pile_and_needs_a_card_in_hand():
    g = game_after("draw", "draw", "play 9D")
    assert pile(g, "D")["value"] == 9 and g.state()["hands"] == [0, 1]
    g.push("play 3C")
    refused(g, "play 4C", "hand is empty")


def test_S31_7_ace_adds_one_and_numbers_add_face_value():
    g = game_after(*dealt(6), "play AS", "play 10S", "play 7S")
    assert pile(g, "S")["value"] == 18
    g = game_after(*dealt(6), "play AH")
    assert pile(g, "H")["value"] == 1


def test_S31_8_king_sets_31():
    g = game_after(*dealt(6), "play 4H", "play KH")
    assert pile(g, "H") == {"value": 31, "owner": 2, "conquered": True}


def test_S31_8_king_refused_on_a_pile_at_31():
    g = game_after(*dealt(6), "play 10D", "play 9D", "play 8D", "play 4D")
    assert pile(g, "D") == {"value": 31, "owner": 2, "conquered": True}
    refused(g, "play KD", "K on a pile at 31")


def test_S31_9_jack_subtracts_one_even_at_31():
    g = game_after(*dealt(6), "play KH", "play JH")
    assert pile(g, "H") == {"value": 30, "owner": 2, "conquered": False}


def test_S31_9_jack_refused_on_a_pile_at_zero():
    g = game_after(*dealt(1))
    refused(g, "play JS", "J on a pile at 0")


def test_S31_10_queen_resets_to_zero_at_any_value():
    g = game_after(*dealt(6), "play KC", "play QC")
    assert pile(g, "C") == {"value": 0, "owner": 2, "conquered": False}
    g = game_after(*dealt(6), "play QS")
    assert pile(g, "S") == {"value": 0, "owner": 1, "conquered": False}


def test_S31_11_a_play_past_31_is_refused():
    g = game_after(*dealt(6), "play 10D", "play 9D", "play 8D")
    assert pile(g, "D")["value"] == 27
    refused(g, "play 5D", "pile D would pass 31")
    g.push("play 4D")
    assert pile(g, "D") == {"value": 31, "owner": 2, "conquered": True}


def test_S31_12_a_card_seen_face_up_cannot_come_back():
    g = game_after(*dealt(6), "play 7H", "discard up 2S")
    refused(g, "play 7H", "7H already shown")
    refused(g, "discard up 7h", "7H already shown")
    refused(g, "play 2S", "2S already shown")
    refused(g, "discard up 2S", "2S already shown")
    g.push("discard down")  # secret: never refused


def test_S31_13_discards_leave_the_game_and_need_a_card():
    g = game_after("draw", "draw", "discard up QH", "discard down")
    s = g.state()
    assert s["hands"] == [0, 0] and s["discarded_up"] == ["QH"] and s["discarded_down"] == 1
    assert pile(g, "H")["value"] == 0
    refused(g, "discard down", "hand is empty")
    refused(g, "discard up 3C", "hand is empty")


def test_S31_14_owner_is_the_last_player_and_conquest_needs_31():
    g = game_after(*dealt(6), "play 10H", "play 9H", "play KH")
    assert pile(g, "H") == {"value": 31, "owner": 1, "conquered": True}
    assert g.state()["piles_won"] == [1, 0]
    g.push("play JH")
    assert pile(g, "H") == {"value": 30, "owner": 2, "conquered": False}
    assert g.state()["piles_won"] == [0, 0]


def test_S31_15_pass_refused_while_the_deck_has_cards():
    g = game_after("draw")
    refused(g, "pass", "pass: deck not empty")


def test_S31_15_pass_allowed_only_with_nothing_in_hand():
    # P1 keeps at most one card, P2 fills up: the deck runs out on P1's draw
    g = Stack31(2)
    while g.deck:
        hand = g.hands[g.to_move]
        if g.to_move == 0:
            g.push("discard down" if hand else "draw")
        else:
            g.push("draw" if hand < 6 else "discard down")
    assert g.to_move == 1 and g.hands == [1, 6]
    refused(g, "pass", "pass: hand not empty")
    g.push("play 5H")  # P2 plays: not a quiet turn
    g.push("play 6H")  # P1 plays its last card
    g.push("discard down")  # P2: quiet 1 of 2
    assert not g.over and g.hands[0] == 0
    g.push("P1 pass")  # quiet 2 of 2
    assert g.over


def test_S31_16_dq_takes_the_player_to_move_and_sets_the_hand_aside():
    g = game_after("draw", "draw", "draw", "draw", players=3)  # P1 holds 2
    g.push("P2 dq")
    s = g.state()
    assert s["disqualified"] == [2] and s["hands"] == [2, 0, 1] and s["discarded_down"] == 1
    assert s["to_move"] == 3


def test_S31_16_a_disqualified_owner_counts_for_nobody_and_cannot_win():
    g = game_after("draw", "draw", "draw", "play KH", "draw", "draw", "dq", players=3)
    s = g.state()
    assert s["disqualified"] == [1] and s["piles"]["H"]["owner"] == 1
    assert s["piles_won"] == [0, 0, 0]
    finish(g)
    s = g.state()
    assert s["over"] and s["piles_won"] == [0, 0, 0] and s["winners"] == [2, 3]


def test_S31_17_over_when_deck_and_all_hands_are_empty():
    g = game_after(*(["draw", "draw", "discard down", "discard down"] * 25),
                   "draw", "draw", "discard down")
    assert not g.over
    g.push("discard down")
    s = g.state()
    assert s["over"] and s["to_move"] is None and s["deck"] == 0


def test_S31_17_over_after_k_quiet_turns_on_an_empty_deck():
    g = Stack31(2)
    drain(g)
    g.push("discard down")
    assert not g.over  # one quiet turn of two
    g.push("discard down")
    assert g.over and g.hands != [0, 0]


def test_S31_17_a_play_breaks_the_run_of_quiet_turns():
    g = Stack31(2)
    drain(g)
    g.push("discard down")
    g.push("play 5S")
    g.push("discard down")
    assert not g.over
    g.push("discard down")
    assert g.over


def test_S31_17_a_dq_is_not_a_turn():
    g = Stack31(3)
    drain(g)
    g.push("discard down")  # quiet 1 of 3
    g.push("dq")  # now 2 active; the run stays at 1
    assert not g.over
    g.push("discard down")  # quiet 2 of 2
    assert g.over


def test_S31_18_over_when_one_player_is_left():
    g = game_after("draw", "dq", players=2)
    s = g.state()
    assert s["over"] and s["winners"] == [1]
    g = game_after(players=1)
    g.push("dq")
    assert g.over and g.state()["winners"] == []


def test_S31_19_nothing_is_legal_once_over():
    g = game_after("draw", "dq")
    for line in ("draw", "pass", "dq", "discard down", "play 5H"):
        refused(g, line, "game is over")
    assert g.legal() == []


def test_S31_20_piles_below_31_go_to_the_last_player_at_the_end():
    g = game_after(*dealt(2), "play 5H", "play 6D", "play 2C", "play 9H")
    assert g.state()["piles_won"] == [0, 0]  # nothing conquered while the game is on
    finish(g)
    s = g.state()
    assert s["piles"]["H"]["owner"] == 2 and s["piles"]["C"]["owner"] == 1
    assert s["piles"]["S"]["owner"] is None
    assert s["piles_won"] == [1, 2] and s["winners"] == [2]


def test_S31_21_highest_count_wins_and_equal_counts_tie():
    g = game_after(*dealt(1), "play 5H", "play 6D")
    finish(g)
    assert g.state()["winners"] == [1, 2]
    g = game_after(*(["draw", "draw", "discard down", "discard down"] * 26))
    assert g.over and g.state()["piles_won"] == [0, 0] and g.state()["winners"] == [1, 2]


def test_S31_22_hand_limit_option():
    _, error = replay(["game stack31 players 1", "option hand_limit 2", "draw", "draw", "draw"])
    assert error == (5, "hand is full")
    _, error = replay(["game stack31 players 1", "option hand_limit 0"])
    assert error == (2, "hand_limit: 1 to 13")
    _, error = replay(["game stack31 players 1", "draw", "option hand_limit 3"])
    assert error == (3, "options go first")
    _, error = replay(["game stack31 players 1", "option colours ABCDE"])
    assert error == (2, "unknown option colours")


def test_S31_23_undo_to_any_depth_restores_the_state_exactly():
    lines = ["draw", "draw", "draw", "play KH", "play JH", "discard up 2C", "draw", "dq", "draw"]
    g = Stack31(3)
    snapshots = [g.to_json()]
    for line in lines:
        g.push(line)
        snapshots.append(g.to_json())
    for expected in reversed(snapshots[:-1]):
        g.pop()
        assert g.to_json() == expected
    with pytest.raises(IllegalAction):
        g.pop()


def test_S31_24_every_card_is_accounted_for():
    g = game_after("draw", "draw", "play 7H", "discard up 3S", "draw", "draw", "discard down", "draw")
    s = g.state()
    total = s["deck"] + sum(s["hands"]) + len(s["played"]) + len(s["discarded_up"]) + s["discarded_down"]
    assert total == 52


def test_legal_matches_push():
    g = game_after(*dealt(2), "play KH", "play 10D")
    legal = g.legal()
    for action in legal:
        assert g.is_legal(action)
    assert (None, "play", cards.parse("JH")) in legal
    assert (None, "play", cards.parse("KH")) not in legal
    assert (None, "pass") not in legal


def test_S31_22_the_rare_paths_module_has_the_games_own_words():
    # core.stack31.extra (checkpoint reading, legal, state) writes out the verbs and
    # the goal instead of importing core.stack31 (no import circle): the same values.
    from core import stack31 as s31
    from core.stack31 import extra as ex
    for name in ("DRAW", "PLAY", "DISCARD_UP", "DISCARD_DOWN", "PASS", "DQ", "GOAL"):
        assert getattr(ex, name) == getattr(s31, name)
