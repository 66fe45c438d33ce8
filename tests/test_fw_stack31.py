"""Stack 31 on the device: whole games by button presses, checked in state and pixels."""

from tests.fw_helpers import choose_action, discard_down, draw, new_device, open_stack31, pick_card, play


def test_home_menu_lists_the_games(tmp_path):
    dev = new_device(tmp_path)
    for entry in ("Card companion", "Stack 31", "Stack the Deck", "Stress", "Settings", "About"):
        assert dev.shows(entry), entry


def test_a_turn_in_one_press_and_the_screen_follows(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev, 3)
    assert dev.shows("<Draw>") and dev.shows("D52") and dev.shows("hand 0 0 0")
    dev.press("OK")  # draw is suggested: one press
    s = dev.game.state()
    assert s["deck"] == 51 and s["hands"] == [1, 0, 0] and s["to_move"] == 2
    assert dev.shows("D51") and dev.shows("hand 1 0 0") and dev.shows("P2")


def test_a_play_through_the_card_picker_shows_value_and_owner(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    draw(dev)
    draw(dev)
    choose_action(dev, "Play")
    dev.press("OK")
    assert dev.shows("Play a card")
    pick_card(dev, "KH")
    s = dev.game.state()
    assert s["piles"]["H"] == {"value": 31, "owner": 1, "conquered": True}
    assert dev.shows_big("31") and dev.shows("P1")


def test_a_refusal_shows_the_reason_and_changes_nothing(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    draw(dev)
    draw(dev)
    before = dev.game.to_json()
    play(dev, "JS")
    assert dev.shows("J on a pile at")  # 16 columns: the reason wraps in its frame
    assert dev.game.to_json() == before
    dev.step(3000)  # the message goes away by itself
    assert not dev.shows("J on a pile at")


def test_the_picker_warns_before_ok(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    for _ in range(4):
        draw(dev)
    play(dev, "9D")
    choose_action(dev, "Play")
    dev.press("OK")
    pick_card_no_ok = dev.app.screen
    from core import cards
    while pick_card_no_ok.rank != 9:
        dev.press("UP")
    while pick_card_no_ok.suit != 1:
        dev.press("RIGHT")
    assert dev.shows("already shown")
    dev.press("BACK")
    assert dev.game.state()["moves"] == 5


def test_back_undoes_the_last_action(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    draw(dev)
    draw(dev)
    play(dev, "7C")
    assert dev.game.state()["piles"]["C"]["value"] == 7
    dev.press("BACK")
    assert dev.shows("undone: play 7C")
    s = dev.game.state()
    assert s["piles"]["C"]["value"] == 0 and s["hands"] == [1, 1] and s["to_move"] == 1


def test_a_whole_game_to_the_winner_screen(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    draw(dev)
    draw(dev)
    play(dev, "KH")  # P1 conquers hearts
    play(dev, "5D")  # P2 owns diamonds, below 31
    choose_action(dev, "Disqualify")
    # P1 to move; disqualifying asks first, and BACK says no
    dev.press("OK")
    assert dev.shows("Disqualify P1?")
    dev.press("BACK")
    assert not dev.game.over
    draw(dev)  # P1
    choose_action(dev, "Disqualify")
    dev.press("OK")  # P2 asked
    dev.press("OK")  # yes
    s = dev.game.state()
    assert s["over"] and s["winners"] == [1] and s["disqualified"] == [2]
    assert dev.shows("Game over") and dev.shows("Winner") and dev.shows_big("P1")
    dev.press("OK")
    assert dev.shows("Card companion")


def test_a_long_game_played_out_to_the_end(tmp_path):
    """52 cards through the device: draws and discards until the deck and hands are empty."""
    dev = new_device(tmp_path)
    open_stack31(dev)
    dev_game = dev.game
    turns = 0
    while not dev_game.over:
        hand = dev_game.hands[dev_game.to_move]
        if dev_game.deck and hand == 0:
            draw(dev)
        elif hand:
            discard_down(dev)
        else:
            choose_action(dev, "Pass")
            dev.press("OK")
        turns += 1
        assert turns < 400
    assert dev_game.state()["deck"] == 0
    assert dev.shows("Game over") and dev.shows("Tie")


def test_names_from_settings_show_with_the_seat(tmp_path):
    dev = new_device(tmp_path)
    dev.app.settings.set_name(1, "ANN")
    dev.app.settings.save()
    open_stack31(dev)
    assert dev.shows("P1 ANN")
