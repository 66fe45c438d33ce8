"""The app loop: power and screen care, crash recovery, settings, the other screens."""

from firmware.drivers import buttons as b
from tests.fw_helpers import draw, new_device, open_stack31


def test_the_screen_dims_then_sleeps_and_a_press_only_wakes_it(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    s = dev.app.settings
    dev.step((s.get("dim_s") + 1) * 1000)
    assert dev.app.dimmed and not dev.app.asleep
    assert dev.emu.contrast == dev.app.DIM_CONTRAST
    dev.step((s.get("sleep_s") - s.get("dim_s")) * 1000)
    assert dev.app.asleep and not dev.emu.lit()
    before = dev.game.to_json()
    dev.press("OK")  # wakes, does not draw a card
    assert not dev.app.asleep and dev.emu.lit()
    assert dev.game.to_json() == before
    dev.press("OK")  # now it acts
    assert dev.game.state()["deck"] == 51


def test_a_press_on_a_dimmed_screen_acts_and_brightens_it(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    dev.step((dev.app.settings.get("dim_s") + 1) * 1000)
    assert dev.app.dimmed and not dev.app.asleep
    dev.press("OK")  # brightens and draws a card: a dimmed screen is still read
    assert not dev.app.dimmed and dev.emu.contrast == dev.app.settings.contrast()
    assert dev.game.state()["deck"] == 51


def test_a_held_arrow_that_wakes_the_screen_does_not_repeat(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    choice = dev.app.screen.choice
    dev.step((dev.app.settings.get("sleep_s") + 1) * 1000)
    assert dev.app.asleep
    dev.press("RIGHT", hold_ms=1500)  # held long enough to repeat: all of it swallowed
    assert dev.app.screen.choice == choice and not dev.app.asleep
    dev.press("RIGHT")
    assert dev.app.screen.choice != choice


def test_a_held_arrow_on_a_dimmed_screen_moves_and_repeats(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    choice = dev.app.screen.choice
    dev.step((dev.app.settings.get("dim_s") + 1) * 1000)
    assert dev.app.dimmed
    dev.hold("RIGHT")
    dev.step(20)
    assert dev.app.screen.choice != choice  # at its first edge
    moved = dev.app.screen.choice
    dev.step(700)  # repeats
    dev.let_go("RIGHT")
    dev.step(60)
    assert dev.app.screen.choice not in (choice, moved)


def test_an_idle_screen_sends_nothing(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    frames = dev.app.frames
    dev.emu.reset_counters()
    dev.step(2000)
    assert dev.app.frames == frames
    assert dev.emu.total.bytes == 0


def test_a_press_sends_only_the_pages_that_changed(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    dev.emu.reset_counters()
    dev.press("RIGHT")  # only the action line changes
    assert 0 < dev.emu.total.bytes < 400


def test_an_unexpected_error_shows_logs_and_restarts_into_the_saved_game(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    draw(dev)

    def broken(kind, button):
        raise ValueError("boom")

    dev.app.screen.on_button = broken
    dev.press("UP")
    assert dev.shows("Oops - error") and dev.shows("ValueError: boom")
    log = (tmp_path / "flash" / "error.log").read_text()
    assert "ValueError: boom" in log and "Traceback" in log
    dev.step(dev.app.RESTART_AFTER_MS + 100)  # restarts by itself
    assert dev.game is not None and dev.game.state()["deck"] == 51
    assert dev.shows("D51")


def test_a_damaged_journal_is_reported_and_set_aside(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    draw(dev)
    draw(dev)
    journal = tmp_path / "flash" / "game.txt"
    lines = journal.read_text().splitlines()
    first = [i for i, line in enumerate(lines) if not line.startswith(("game", "#"))][0]
    lines[first] = "P1 draw  #~0000"  # a bad checksum in the middle (after the header's end)
    journal.write_text("\n".join(lines) + "\n")
    again = new_device(tmp_path)
    assert again.shows("Journal damaged")
    assert (tmp_path / "flash" / "game.bad1").exists()
    assert again.game is None or len(again.game.history) == 0


def test_garbage_settings_fall_back_to_defaults(tmp_path):
    (tmp_path / "flash").mkdir()
    (tmp_path / "flash" / "settings.json").write_bytes(b"\x00\xffnot json")
    dev = new_device(tmp_path)
    assert dev.shows("Tabletop companion")
    assert dev.app.settings.get("players") == 2


def test_settings_change_with_the_arrows_and_survive_a_restart(tmp_path):
    from tests.test_fw_settings import choose
    dev = new_device(tmp_path)
    choose(dev, "Settings")
    assert dev.shows("Players") and dev.app.settings.get("players") == 2
    dev.press("RIGHT")
    assert dev.app.screen.entries[0][0].split() == ["Players", "3"]
    dev.press("DOWN")
    dev.press("DOWN")  # brightness
    dev.press("LEFT")
    assert dev.app.settings.get("brightness") == 64
    assert dev.emu.contrast == 64
    again = new_device(tmp_path)
    assert again.app.settings.get("players") == 3 and again.app.settings.get("brightness") == 64


def test_a_name_typed_with_the_buttons(tmp_path):
    from tests.test_fw_settings import choose
    dev = new_device(tmp_path)
    choose(dev, "Settings")
    choose(dev, "Names")
    choose(dev, "P1 ")
    assert dev.shows("Name P1")
    dev.press("OK")  # A: the letter board opens on it
    dev.presses("DOWN", "RIGHT", "RIGHT", "RIGHT", "RIGHT")  # L
    dev.press("OK")
    dev.long("OK")  # saves
    assert dev.app.settings.name(1) == "AL"
    assert dev.shows("P1  AL")


def test_about_and_back(tmp_path):
    dev = new_device(tmp_path)
    while selected(dev) != "About":
        dev.press("DOWN")
    dev.press("OK")
    assert dev.shows("Raspberry Pi") and dev.shows("Pico") and dev.shows("saved: none")
    dev.press("BACK")
    assert dev.shows("Tabletop companion")


def test_home_offers_to_resume_and_asks_before_replacing_a_game(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    draw(dev)
    dev.long("BACK")
    assert selected(dev) == "Resume Stack 31" and dev.shows("Resume Stack 31")
    dev.press("DOWN")  # Stack 31 again: a new game would replace the saved one
    dev.press("OK")
    assert dev.shows("Start a new")
    dev.press("BACK")
    dev.press("UP")
    dev.press("OK")
    assert dev.game.state()["deck"] == 51 and dev.shows("D51")


def test_the_buttons_bounce_without_double_presses(tmp_path):
    from host_sim import machine
    dev = new_device(tmp_path)
    open_stack31(dev)
    pin = dev.board.NAV_PINS[b.OK]
    for _ in range(5):  # a bouncy contact: five closings within 3 ms
        machine.press(pin)
        dev.clock.advance_us(300)
        machine.release(pin)
        dev.clock.advance_us(300)
    machine.press(pin)
    dev.step(100)
    machine.release(pin)
    dev.step(100)
    assert dev.game.state()["deck"] == 51  # one draw


def selected(dev):
    """The label of the menu row under the cursor."""
    screen = dev.app.screen
    return screen.entries[screen.menu.index][0]


def test_the_home_cursor_stays_on_its_item_when_resume_comes_and_goes(tmp_path):
    dev = new_device(tmp_path)
    while selected(dev) != "Stack the Deck":
        dev.press("DOWN")
    dev.press("OK")
    dev.press("OK")  # a 2-player match
    assert dev.game.NAME == "stackdeck"
    dev.long("BACK")
    assert selected(dev) == "Go on Stack the Deck" and dev.shows("Stack 31")
    dev.press("OK")  # resumes: no "start a new game?"
    assert type(dev.app.screen).__name__ == "StackDeckScreen" and not dev.shows("Start a new")
    dev.long("BACK")
    while selected(dev) != "About":
        dev.press("DOWN")
    dev.press("OK")
    dev.press("BACK")
    assert selected(dev) == "About"  # a row that did not move keeps the cursor


def test_after_a_game_ends_the_cursor_is_on_that_game(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    from tests.fw_helpers import choose_action
    choose_action(dev, "Disqualify")
    dev.press("OK")
    dev.press("OK")  # P1 out: P2 wins
    assert dev.game.over
    dev.press("OK")  # home
    assert selected(dev) == "Stack 31" and not dev.shows("Resume")
    dev.press("OK")  # a new game, no question asked: the old one is over
    assert dev.shows("Players")


def test_a_memory_error_while_resuming_ends_on_home_with_the_journal_kept(tmp_path, monkeypatch):
    from firmware.session import Session
    dev = new_device(tmp_path)
    open_stack31(dev)
    draw(dev)

    def no_memory(cls, journal):
        raise MemoryError("memory allocation failed, allocating 2048 bytes")
    monkeypatch.setattr(Session, "_resume", classmethod(no_memory))
    again = new_device(tmp_path)  # a power-up: never the REPL, never a dead board
    assert again.app.session is None and again.game is None
    assert type(again.app.screen).__name__ == "HomeScreen"
    assert not any(label.startswith("Resume") for label, _ in again.app.screen.entries)
    assert (tmp_path / "flash" / "game.bad1").exists()  # kept aside, not deleted
    assert "MemoryError" in " ".join(again.app.toast_text())
    monkeypatch.undo()
    open_stack31(again)  # the device stays usable: a new game
    draw(again)
    assert again.game.state()["deck"] == 51
