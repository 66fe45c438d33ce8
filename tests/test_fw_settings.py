"""Settings on the device, through the real app: a damaged settings.json heals at boot
(one message, the game starts), a full or read-only flash never shows the error screen,
house rules in words and units within the game's own limits."""

import errno
import json

import pytest

from tests.fw_helpers import new_device
from tests.test_settings import BrokenFlash


def choose(dev, prefix):
    """UP/DOWN in a menu to the row whose label starts with `prefix`, then OK."""
    screen = dev.app.screen
    for _ in range(len(screen.entries)):
        if screen.entries[screen.menu.index][0].startswith(prefix):
            dev.press("OK")
            return
        dev.press("DOWN")
    raise AssertionError("no row %r in %r" % (prefix, [e[0] for e in screen.entries]))


def row(dev):
    screen = dev.app.screen
    return screen.entries[screen.menu.index][0]


def is_error_screen(dev):
    return type(dev.app.screen).__name__ == "ErrorScreen"


def write_settings(tmp_path, obj, raw=None):
    flash = tmp_path / "flash"
    flash.mkdir(exist_ok=True)
    (flash / "settings.json").write_bytes(raw if raw is not None else json.dumps(obj).encode())


def start_stack31(dev):
    choose(dev, "Stack 31")
    assert dev.shows("Players")
    dev.press("OK")
    assert dev.game is not None and dev.game.NAME == "stack31"


def test_a_damaged_house_rule_is_named_once_and_the_game_starts(tmp_path):
    write_settings(tmp_path, {"players": 3, "names": ["ANN"],
                              "rules": {"stack31": {"hand_limit": 99}, "stress": {"games": 3}}})
    dev = new_device(tmp_path)
    assert dev.app.toast_text() == ["Hand limit reset"]
    assert dev.shows("Hand limit reset")
    assert dev.app.settings.get("players") == 3 and dev.app.settings.name(1) == "ANN"
    assert dev.app.settings.rules("stress") == {"games": 3}  # the valid rule kept
    start_stack31(dev)
    assert dev.game.players == 3 and dev.game.options["hand_limit"] == 6
    assert not is_error_screen(dev)
    again = new_device(tmp_path)  # the next boot: healed on flash, nothing to say
    assert again.app.toast_text() is None
    assert again.app.settings.rules("stack31") == {}


def test_an_unknown_house_rule_is_named_and_dropped(tmp_path):
    write_settings(tmp_path, {"rules": {"stack31": {"hand_liiit": 7}}})
    dev = new_device(tmp_path)
    assert dev.app.toast_text() == ["hand_liiit reset"]
    start_stack31(dev)
    assert dev.game.options["hand_limit"] == 6


def test_a_garbled_settings_file_says_so_and_the_game_starts(tmp_path):
    write_settings(tmp_path, None, raw=b'{"players": 3, "rul\x00\xff')
    dev = new_device(tmp_path)
    assert dev.app.toast_text() == ["Settings file", "damaged: reset"]
    assert dev.shows("damaged: reset")
    start_stack31(dev)
    assert (tmp_path / "flash" / "settings.bad1").exists()  # kept for a look
    assert new_device(tmp_path).app.toast_text() is None


@pytest.mark.parametrize("code, words", [(errno.EROFS, ["flash read-only"]),
                                         (errno.ENOSPC, ["flash full: not", "saved"])])
def test_a_change_on_a_broken_flash_is_a_message_not_the_error_screen(tmp_path, code, words):
    (tmp_path / "flash").mkdir()
    dev = new_device(tmp_path, fs=BrokenFlash(code))
    choose(dev, "Settings")
    dev.press("RIGHT")  # players 2 -> 3
    assert not is_error_screen(dev)
    assert dev.app.toast_text() == words
    assert dev.shows(words[0])
    assert row(dev).split() == ["Players", "3"]
    assert dev.app.settings.get("players") == 3  # holds for this session
    dev.press("DOWN")
    dev.press("DOWN")
    dev.press("LEFT")  # brightness
    assert dev.app.settings.get("brightness") == 64 and dev.emu.contrast == 64
    assert not is_error_screen(dev)
    # a name and a house rule the same way
    dev.press("UP")
    choose(dev, "Names")
    choose(dev, "P1 ")
    dev.presses("OK", "DOWN", "LEFT", "OK")
    dev.long("OK")
    assert dev.app.settings.name(1) == "AN" and dev.app.toast_text() == words
    assert row(dev) == "P1  AN"
    dev.press("BACK")
    choose(dev, "House rules")
    choose(dev, "Stack 31")
    dev.press("RIGHT")
    assert row(dev).split() == ["Hand", "limit", "7"] and dev.app.toast_text() == words
    assert not is_error_screen(dev)
    dev.long("BACK")
    assert dev.shows("Tabletop companion") and not is_error_screen(dev)
    assert not (tmp_path / "flash" / "settings.json").exists()


def test_flakyfs_read_only_and_full(tmp_path):
    """The same through host_sim/flakyfs.py's own fault injection, where it has it."""
    from host_sim.flakyfs import FlakyFS
    try:
        ro = FlakyFS(readonly=True)
    except TypeError:
        pytest.skip("host_sim/flakyfs.py has no readonly flash yet")
    dev = new_device(tmp_path, fs=ro)
    choose(dev, "Settings")
    dev.press("RIGHT")
    assert dev.app.toast_text() == ["flash read-only"] and not is_error_screen(dev)
    ro.readonly = False  # writable again: the next change saves everything
    dev.press("RIGHT")
    assert dev.app.settings.problem is None
    assert json.loads((tmp_path / "flash" / "settings.json").read_text())["players"] == 4


def test_a_leftover_new_file_on_a_read_only_flash_keeps_the_settings(tmp_path):
    write_settings(tmp_path, {"players": 4, "names": ["ANN", "BO"]})
    (tmp_path / "flash" / "settings.json.new").write_text('{"players": 2')
    dev = new_device(tmp_path, fs=BrokenFlash(errno.EROFS))
    assert dev.app.toast_text() is None
    assert dev.app.settings.get("players") == 4 and dev.app.player_label(2) == "P2 BO"


def test_house_rules_in_words_and_units(tmp_path):
    dev = new_device(tmp_path)
    choose(dev, "Settings")
    labels = [e[0] for e in dev.app.screen.entries]
    assert [" ".join(x.split()) for x in labels] == [
        "Players 2", "Names...", "Brightness 50%", "Dim after 3 min", "Sleep after 10 min",
        "Buzzer on", "House rules...", "Archive 256 KB"]
    choose(dev, "House rules")
    assert [e[0] for e in dev.app.screen.entries] == ["Stack 31", "Stack the Deck", "Stress"]
    choose(dev, "Stress")
    rows = [" ".join(e[0].split()) for e in dev.app.screen.entries]
    assert rows == ["Games to win 2", "Debounce 20 ms", "Tie window 0.5 ms", "Slow window 1 s"]
    for label in rows:  # every row whole on the panel, none cut
        assert dev.shows(label.split()[0])
    assert dev.shows("0.5 ms") and dev.shows("20 ms")
    dev.press("DOWN")  # debounce: 5 ms steps above 10 ms, 1 ms below
    dev.press("LEFT")
    assert row(dev).split() == ["Debounce", "15", "ms"]
    dev.presses("LEFT", "LEFT")
    assert row(dev).split() == ["Debounce", "9", "ms"]
    assert dev.shows("9 ms")
    dev.press("DOWN")  # the tie window in 0.1 ms steps
    dev.press("RIGHT")
    assert row(dev).split() == ["Tie", "window", "0.6", "ms"]
    dev.press("DOWN")
    for _ in range(3):
        dev.press("LEFT")
    assert row(dev).split() == ["Slow", "window", "0.7", "s"]
    assert dev.app.settings.rules("stress") == {"debounce_us": 9000, "tie_window_us": 600,
                                                "slow_window_us": 700000}
    dev.presses("UP", "UP", "UP", "LEFT")  # games to win 2 -> 1, then the game's limit
    assert row(dev).split() == ["Games", "to", "win", "1"]
    dev.press("LEFT")
    assert dev.app.toast_text() == ["Games to win: lowest"]
    assert dev.app.settings.rule("stress", "games") == 1
    # the game played takes them
    dev.long("BACK")
    choose(dev, "Stress")
    dev.press("OK")
    assert dev.game.options == {"debounce_us": 9000, "tie_window_us": 600,
                                "slow_window_us": 700000, "games": 1}


def test_hand_limit_steps_stop_at_the_games_own_limit(tmp_path):
    dev = new_device(tmp_path)
    choose(dev, "Settings")
    choose(dev, "House rules")
    choose(dev, "Stack 31")
    assert row(dev).split() == ["Hand", "limit", "6"]
    for _ in range(10):
        dev.press("RIGHT")
    assert row(dev).split() == ["Hand", "limit", "13"]
    assert dev.app.toast_text() == ["Hand limit: highest"]
    dev.hold("LEFT")  # held, it runs (REPEAT)
    dev.step(400 + 120 * 12 + 50)
    dev.let_go("LEFT")
    dev.step(60)
    assert row(dev).split() == ["Hand", "limit", "1"]


def test_the_settings_pages_load_no_other_games_rules(tmp_path):
    """Settings -> House rules -> Stack the Deck loads no game's rules, its own neither
    (on a board the other games' rules would take 30 KB of heap, Stack the Deck's
    ~24 KB): the page steps within settings_rules.LIMITS. Checked in a fresh
    interpreter, where nothing was loaded before."""
    import subprocess
    import sys
    code = ("import sys, tests.fw_helpers as h, tests.test_fw_settings as t, pathlib;"
            "dev = h.new_device(pathlib.Path(%r)); t.choose(dev, 'Settings');"
            "t.choose(dev, 'House rules'); t.choose(dev, 'Stack the Deck'); dev.press('RIGHT');"
            "print(t.row(dev).split(), dev.app.settings.rules('stackdeck'));"
            "print(sorted(n for n in sys.modules if n in ('core.stack31', 'core.stress',"
            " 'core.stress.arbiter', 'core.stackdeck')))" % str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=str(__import__("pathlib").Path(__file__).parent.parent))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[-2] == "['Rounds', '11'] {'rounds': 11}"
    assert lines[-1] == "[]"


def test_screen_care_is_3_and_10_minutes_and_steps_on_the_settings_screen(tmp_path):
    """Issue 18: dim after 3 minutes, off after 10, both changed with LEFT/RIGHT along
    the screen's steps (0 = never) within the settings' ranges."""
    dev = new_device(tmp_path)
    choose(dev, "Settings")
    while not row(dev).startswith("Dim after"):
        dev.press("DOWN")
    assert row(dev).split() == ["Dim", "after", "3", "min"] and dev.shows("3 min")
    dev.press("RIGHT")
    assert dev.app.settings.get("dim_s") == 300 and row(dev).split()[-2:] == ["5", "min"]
    dev.presses("RIGHT", "RIGHT", "RIGHT")  # 600 s is the most dim_s takes
    assert dev.app.settings.get("dim_s") == 600
    dev.presses("LEFT", "LEFT", "LEFT")
    assert dev.app.settings.get("dim_s") == 120
    dev.press("DOWN")
    assert row(dev).split() == ["Sleep", "after", "10", "min"]
    dev.presses("RIGHT", "RIGHT")
    assert dev.app.settings.get("sleep_s") == 3600 and row(dev).split()[-2:] == ["1", "h"]


def test_no_settings_value_touches_the_scroll_mark(tmp_path):
    """Issue 23: the values end one text column before the scroll mark at the panel's
    right edge ("50%" and "on" touched it): the column beside the mark is dark on every
    row, in every scroll position."""
    dev = new_device(tmp_path)
    choose(dev, "Settings")
    screen = dev.app.screen
    assert len(screen.entries) > 7  # the list scrolls: the mark is drawn
    for _ in range(len(screen.entries)):
        px = dev.pixels()
        assert any(px[y][127] for y in range(8, 64))  # the scroll mark
        for y in range(8, 64):
            for x in range(120, 127):
                assert not px[y][x], "%r at x=%d, y=%d beside the scroll mark" % (row(dev), x, y)
        dev.press("DOWN")
