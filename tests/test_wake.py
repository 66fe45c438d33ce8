"""A press is never lost (issue 18): on a dimmed screen a press acts; only a screen that
is off takes a first press to wake, and it wakes on the game's board, the player to move.

A scripted session (host_sim script, its `wait`) with the dimming and sleep times of
the settings' defaults (dim after 3 minutes, off after 10): an OK after 40 s, after 3
minutes and after 11 minutes draws a card, each for the player to move."""

from host_sim.device import install
from host_sim.script import Runner, parse

install()

NAMES = ("ANN", "BOB", "CY")

OPEN = """
press OK          # Stack 31, the first row of home
press RIGHT       # 3 players
press OK          # start
expect ANN
"""


def runner(tmp_path):
    r = Runner(str(tmp_path / "flash"))
    s = r.dev.app.settings
    s.set("dim_s", 180)
    s.set("sleep_s", 600)
    for i, name in enumerate(NAMES):
        s.set_name(i + 1, name)
    r.run(parse(OPEN))
    assert r.dev.game.players == 3
    return r


def run(r, text):
    r.run(parse(text))


def test_an_ok_after_40_s_3_min_and_11_min_is_recorded_for_the_player_to_move(tmp_path):
    r = runner(tmp_path)
    app = r.dev.app
    game = r.dev.game
    for wait, dimmed, off in (("40s", False, False), ("180s", True, False),
                              ("660s", True, True)):
        who = game.to_move
        hands = list(game.hands)
        moves = len(game.history)
        run(r, "wait %s" % wait)
        assert (app.dimmed, app.asleep) == (dimmed, off), wait
        assert r.dev.emu.lit() != off
        run(r, "press OK")
        if off:
            # the first press only woke it: the board, the player to move named
            assert not app.asleep and not app.dimmed and r.dev.emu.lit()
            assert len(game.history) == moves
            assert type(app.screen).__name__ == "Stack31Screen"
            assert r.dev.shows(NAMES[who])
            run(r, "press OK")
        assert not app.dimmed and r.dev.emu.contrast == app.settings.contrast()
        assert len(game.history) == moves + 1, wait
        assert game.hands[who] == hands[who] + 1, wait  # the draw went to that player
        assert game.to_move == (who + 1) % 3


def test_a_screen_that_went_off_over_a_picker_wakes_on_the_board(tmp_path):
    """Left with the card picker open (a half-made choice), off after 10 minutes: the
    waking press shows the board with the player to move, not the picker."""
    r = runner(tmp_path)
    app = r.dev.app
    game = r.dev.game
    run(r, "press OK\npress OK\npress OK")  # three draws: everybody holds a card
    who = game.to_move
    run(r, "press UP")  # the picker of a play
    assert type(app.screen).__name__ == "CardPickerScreen"
    moves = len(game.history)
    run(r, "wait 601s")
    assert app.asleep
    run(r, "press OK")  # would have played the card under the cursor
    assert type(app.screen).__name__ == "Stack31Screen"
    assert len(game.history) == moves and game.to_move == who
    assert r.dev.shows(NAMES[who])
    assert app.toast_text() is None


def test_a_long_press_that_wakes_the_screen_does_nothing_else(tmp_path):
    r = runner(tmp_path)
    app = r.dev.app
    run(r, "wait 601s")
    assert app.asleep
    run(r, "long BACK")  # would go home
    assert not app.asleep and type(app.screen).__name__ == "Stack31Screen"


def test_a_press_on_a_dimmed_screen_counts_at_once(tmp_path):
    """A dimmed screen answers the first press as a lit one: an arrow moves at once."""
    r = runner(tmp_path)
    app = r.dev.app
    run(r, "wait 181s")
    assert app.dimmed
    choice = app.screen.choice
    run(r, "press RIGHT")
    assert app.screen.choice != choice and not app.dimmed


def test_the_undo_message_names_whose_entry_it_was(tmp_path):
    r = runner(tmp_path)
    app = r.dev.app
    run(r, "press OK\npress OK")  # ANN draws, BOB draws
    run(r, "press BACK")  # BOB's draw undone
    text = " ".join(app.toast_text())
    assert text == "undone: BOB's draw", text
    assert r.dev.shows("BOB's draw")
    assert app.screen.game.to_move == 1
