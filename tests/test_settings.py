"""Settings: defaults, clamping, atomic save, damaged files kept aside."""

import json

import pytest

from firmware.settings import Settings, defaults
from firmware.storage import Storage
from host_sim.flakyfs import FlakyFS, PowerCut


@pytest.fixture
def st(tmp_path):
    return Storage(str(tmp_path))


def test_defaults_without_file(st):
    s = Settings(st)
    assert s.report is None and s.load() is None
    assert s.data == defaults()
    assert s.get("players") == 2 and s.name(1) == "P1" and s.get("buzzer") is True
    assert s.save() is False  # nothing changed: no flash write


def test_set_clamps_and_refuses(st):
    s = Settings(st, autosave=False)
    assert s.set("brightness", 999) and s.get("brightness") == 255
    assert s.set("players", 0) and s.get("players") == 1
    assert s.set("sleep_s", -5) and s.get("sleep_s") == 0
    assert not s.set("players", "three") and s.get("players") == 1
    assert not s.set("players", True)
    assert not s.set("colour", 1)
    assert s.set("buzzer", 0) and s.get("buzzer") is False
    assert not s.set("buzzer", "yes")
    assert s.contrast() == 255
    assert st.listdir() == []  # autosave off: nothing written


def test_names(st):
    s = Settings(st, autosave=False)
    assert s.set_name(1, "  Ann\u00e9 #1  ") == "Ann 1"
    assert s.set_name(2, "A very long name indeed") == "A very lon"
    assert s.set_name(3, "   ") == "P3"
    assert s.set_name(9, "x") is None and s.set_name(0, "x") is None
    assert s.name(1) == "Ann 1" and s.name(9) == "P9"
    assert s.set_player_name(4, "Dee") == "Dee" and s.player_name(4) == "Dee"


def test_rules(st):
    s = Settings(st, autosave=False)
    assert s.set_rule("stress", "tie_window_us", 3000)
    assert s.set_rule("stackdeck", "colours", "ABCDE")
    assert not s.set_rule("poker", "x", 1)
    assert not s.set_rule("stress", "Bad Key", 1)
    assert not s.set_rule("stress", "k", "two words")
    assert not s.set_rule("stress", "k", 1.5)
    assert s.rule("stress", "tie_window_us") == 3000
    assert s.rules("stress") == {"tie_window_us": 3000}
    assert s.set_rule("stress", "tie_window_us", None)
    assert s.rules("stress") == {} and s.rule("stress", "x", 7) == 7


def test_save_and_load_round_trip(st):
    s = Settings(st, autosave=False)
    s.set("players", 3)
    s.set_name(2, "Bo")
    s.set("buzzer", False)
    s.set_rule("stress", "debounce_us", 8000)
    assert s.save() is True and s.save() is False
    t = Settings(st)
    assert t.load() is None
    assert t.data == s.data
    assert st.listdir() == ["settings.json"]


def test_corrupt_file_is_kept_aside(st, tmp_path):
    for junk in (b"{not json", b"\xff\xfe\x00", b"[1, 2]", b""):
        (tmp_path / "settings.json").write_bytes(junk)
        s = Settings(st)
        assert s.report == "Settings reset"
        assert s.data == defaults()
        assert not st.exists("settings.json")
        assert st.read_bytes(s.details["aside"]) == junk
    assert st.exists("settings.bad4")


def test_bad_values_are_fixed_not_fatal(st, tmp_path):
    bad = {"players": 99, "brightness": "max", "names": ["Al", 5, "", "Di\u00e9"],
           "buzzer": "loud", "rules": {"stress": {"tie_window_us": 5000, "x y": 1}, "poker": {}},
           "unknown": 1}
    (tmp_path / "settings.json").write_text(json.dumps(bad))
    s = Settings(st)
    assert s.report == "Settings fixed"
    assert set(s.details["fixed"]) == {"players", "brightness", "names", "buzzer", "rules"}
    assert s.get("players") == 8 and s.get("brightness") == 128 and s.get("buzzer") is True
    assert s.get("names")[:4] == ["Al", "P2", "P3", "Di"]
    assert s.get("rules") == {"stress": {"tie_window_us": 5000}}
    assert Settings(st).report is None  # the repaired values were written back


def test_autosave_on_every_change(st):
    s = Settings(st)
    s.set("brightness", 64)
    assert Settings(st).get("brightness") == 64
    s.set_player_name(2, "Bo")
    assert Settings(st).player_name(2) == "Bo"
    s.set_rule("stress", "games", 3)
    assert Settings(st).rules("stress") == {"games": 3}
    assert st.listdir() == ["settings.json"]


def test_game_options_and_steps(st):
    s = Settings(st)
    opts = s.game_options("stress")
    assert opts["tie_window_us"] == 500 and opts["debounce_us"] == 20000
    assert s.step_game_option("stress", "tie_window_us", 1)
    assert s.game_options("stress")["tie_window_us"] == 1000
    assert s.step_game_option("stress", "tie_window_us", -1)
    assert s.rules("stress") == {}  # back at the default: nothing stored
    s.step_game_option("stress", "games", 1)
    assert s.game_options("stress")["games"] == 3
    s.step_game_option("stack31", "hand_limit", -1)
    assert s.game_options("stack31")["hand_limit"] == 5
    assert not s.step_game_option("stackdeck", "colours", 1)  # a word: no steps
    s.set_rule("stress", "tie_window_us", 700)  # between steps: snaps
    s.step_game_option("stress", "tie_window_us", 1)
    assert s.rule("stress", "tie_window_us") == 1000
    s.set_rule("stress", "tie_window_us", 700)
    s.step_game_option("stress", "tie_window_us", -1)
    assert s.rules("stress") == {"games": 3}  # tie window back at its default 500


def test_power_cut_during_save_keeps_old_or_new(tmp_path):
    for n in range(1, 8):
        path = str(tmp_path / ("c%d" % n))
        s = Settings(Storage(path))
        s.set("players", 3)
        fs = FlakyFS(cut_at=n)
        s = Settings(Storage(path, fs))
        try:
            s.set("players", 4)
        except PowerCut:
            pass
        t = Settings(Storage(path))
        assert t.report is None
        assert t.get("players") in (3, 4)
