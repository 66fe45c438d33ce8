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
    assert s.load() is None
    assert s.data == defaults()
    assert s.get("players") == 2 and s.name(1) == "P1" and s.get("buzzer") is True
    assert s.save() is False  # nothing changed: no flash write


def test_set_clamps_and_refuses(st):
    s = Settings(st)
    assert s.set("brightness", 9) and s.get("brightness") == 5
    assert s.set("players", 0) and s.get("players") == 1
    assert s.set("sleep_s", -5) and s.get("sleep_s") == 0
    assert not s.set("players", "three") and s.get("players") == 1
    assert not s.set("players", True)
    assert not s.set("colour", 1)
    assert s.set("buzzer", 0) and s.get("buzzer") is False
    assert not s.set("buzzer", "yes")
    assert s.contrast() == 255


def test_names(st):
    s = Settings(st)
    assert s.set_name(1, "  Ann\u00e9 #1  ") == "Ann 1"
    assert s.set_name(2, "A very long name indeed") == "A very lon"
    assert s.set_name(3, "   ") == "P3"
    assert s.set_name(9, "x") is None and s.set_name(0, "x") is None
    assert s.name(1) == "Ann 1" and s.name(9) == "P9"


def test_rules(st):
    s = Settings(st)
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
    s = Settings(st)
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
        report = s.load()
        assert report["message"] == "Settings reset"
        assert s.data == defaults()
        assert not st.exists("settings.json")
        assert st.read_bytes(report["aside"]) == junk
    assert st.exists("settings.bad4")


def test_bad_values_are_fixed_not_fatal(st, tmp_path):
    bad = {"players": 99, "brightness": "max", "names": ["Al", 5, "", "Di\u00e9"],
           "buzzer": "loud", "rules": {"stress": {"tie_window_us": 5000, "x y": 1}, "poker": {}},
           "unknown": 1}
    (tmp_path / "settings.json").write_text(json.dumps(bad))
    s = Settings(st)
    report = s.load()
    assert report["message"] == "Settings fixed"
    assert set(report["fixed"]) == {"players", "brightness", "names", "buzzer", "rules"}
    assert s.get("players") == 8 and s.get("brightness") == 3 and s.get("buzzer") is True
    assert s.get("names")[:4] == ["Al", "P2", "P3", "Di"]
    assert s.get("rules") == {"stress": {"tie_window_us": 5000}}


def test_power_cut_during_save_keeps_old_or_new(tmp_path):
    for n in range(1, 8):
        path = str(tmp_path / ("c%d" % n))
        s = Settings(Storage(path))
        s.set("players", 3)
        s.save()
        fs = FlakyFS(cut_at=n)
        s = Settings(Storage(path, fs))
        s.load()
        s.set("players", 4)
        try:
            s.save()
        except PowerCut:
            pass
        t = Settings(Storage(path))
        assert t.load() is None
        assert t.get("players") in (3, 4)
