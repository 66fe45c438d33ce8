"""Settings: defaults, clamping, atomic save, damaged files kept aside."""

import errno
import json
import os

import pytest

from firmware.settings import Settings
from firmware.settings.rules import game_options, step_game_option
from firmware.settings import defaults
from firmware.storage import OsFS, Storage
from host_sim.flakyfs import FlakyFS, PowerCut


def run_fresh(code):
    """`code` in a fresh interpreter at the project's root (what a module loads is seen
    there, not what earlier tests loaded)."""
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def st(tmp_path):
    return Storage(str(tmp_path))


def test_defaults_without_file(st):
    s = Settings(st)
    assert s.report is None and s.load() is None
    assert s.data == defaults()
    assert s.get("players") == 2 and s.name(1) == "P1" and s.get("buzzer") is True
    assert s.save() is False  # nothing changed: no flash write


def test_the_screen_dims_after_3_minutes_and_goes_off_after_10_by_default(st, tmp_path):
    """Issue 18: a player thinking at the table finds the screen lit. Both times are
    settable over the whole range the settings screen offers, and a file written with
    the old defaults (30 s, 2 min) keeps its own values."""
    s = Settings(st)
    assert (s.get("dim_s"), s.get("sleep_s")) == (180, 600)
    assert s.set("dim_s", 600) and s.get("dim_s") == 600
    assert s.set("sleep_s", 3600) and s.get("sleep_s") == 3600
    assert s.set("dim_s", 0) and s.get("dim_s") == 0  # never
    write(tmp_path, {"dim_s": 30, "sleep_s": 120})
    old = Settings(st)
    assert old.report is None and (old.get("dim_s"), old.get("sleep_s")) == (30, 120)


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
        assert s.report == "Settings file damaged: reset"
        assert s.data == defaults()
        assert st.read_bytes(s.details["aside"]) == junk
        assert Settings(st).report is None  # the defaults were written: said once
    assert st.exists("settings.bad4")


def test_bad_values_go_back_to_their_default_and_are_named(st, tmp_path):
    bad = {"players": 99, "brightness": "max", "names": ["Al", 5, "", "Di\u00e9"],
           "buzzer": "loud", "rules": {"stress": {"tie_window_us": 5000, "x y": 1}, "poker": {}},
           "unknown": 1}
    (tmp_path / "settings.json").write_text(json.dumps(bad))
    s = Settings(st)
    assert set(s.details["fixed"]) == {"unknown", "Players", "Brightness", "Name P2", "Name P4",
                                       "Buzzer", "x y", "poker rules"}
    assert s.report == s.details["fixed"][0] + " +7 reset"
    assert s.get("players") == 2 and s.get("brightness") == 128 and s.get("buzzer") is True
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
    opts = game_options(s, "stress")
    assert opts["tie_window_us"] == 500 and opts["debounce_us"] == 20000
    assert step_game_option(s, "stress", "tie_window_us", 1) is None  # moved
    assert game_options(s, "stress")["tie_window_us"] == 600  # 0.1 ms steps
    assert step_game_option(s, "stress", "tie_window_us", -1) is None
    assert s.rules("stress") == {}  # back at the default: nothing stored
    step_game_option(s, "stress", "games", 1)
    assert game_options(s, "stress")["games"] == 3
    step_game_option(s, "stack31", "hand_limit", -1)
    assert game_options(s, "stack31")["hand_limit"] == 5
    assert step_game_option(s, "stackdeck", "colours", 1) == "Colours: no steps"  # a word
    s.set_rule("stress", "tie_window_us", 750)  # between steps: snaps to the grid
    step_game_option(s, "stress", "tie_window_us", 1)
    assert s.rule("stress", "tie_window_us") == 800
    s.set_rule("stress", "tie_window_us", 750)
    step_game_option(s, "stress", "tie_window_us", -1)
    assert s.rule("stress", "tie_window_us") == 700


def test_steps_follow_a_ladder_and_stop_where_the_game_says(st):
    s = Settings(st, autosave=False)
    seen = []
    for _ in range(8):
        assert step_game_option(s, "stress", "debounce_us", -1) is None
        seen.append(game_options(s, "stress")["debounce_us"])
    assert seen == [15000, 10000, 9000, 8000, 7000, 6000, 5000, 4000]  # 5 ms, then 1 ms
    while step_game_option(s, "stress", "debounce_us", -1) is None:
        pass
    assert s.rule("stress", "debounce_us") == 0
    assert step_game_option(s, "stress", "debounce_us", -1) == "Debounce: lowest"
    for _ in range(12):
        step_game_option(s, "stack31", "hand_limit", 1)
    assert s.rule("stack31", "hand_limit") == 13  # the game's own limit (1 to 13)
    assert step_game_option(s, "stack31", "hand_limit", 1) == "Hand limit: highest"
    for _ in range(5):
        step_game_option(s, "stress", "slow_window_us", 1)
    assert s.rule("stress", "slow_window_us") == 1500000  # 0.1 s steps
    assert step_game_option(s, "stress", "games", -1) is None  # 2 -> 1
    assert step_game_option(s, "stress", "games", -1) == "Games to win: lowest"
    assert s.rule("stress", "games") == 1


def test_house_rules_in_words_and_units():
    from firmware.settings.rules import rule_row, rule_text
    assert rule_text("debounce_us", 20000) == "20 ms"
    assert rule_text("tie_window_us", 500) == "0.5 ms"
    assert rule_text("tie_window_us", 50) == "0.05 ms"
    assert rule_text("slow_window_us", 1000000) == "1 s"
    assert rule_text("slow_window_us", 1250000) == "1.25 s"
    assert rule_text("games", 2) == "2"
    assert rule_row("debounce_us", 20000, 20) == "Debounce       20 ms"
    assert rule_row("tie_window_us", 500, 20) == "Tie window    0.5 ms"
    assert rule_row("tie_window_us", 500, 15) == "Tie win  0.5 ms"  # the short label
    assert rule_row("games", 2, 20) == "Games to win       2"
    assert rule_row("hand_limit", 6, 20) == "Hand limit         6"
    # the value is never cut, whatever the game accepts; the label gives way
    for key, value in (("debounce_us", 1 << 26), ("tie_window_us", 12345), ("rounds", 99)):
        for width in (15, 20):
            row = rule_row(key, value, width)
            assert len(row) == width and row.endswith(" " + rule_text(key, value))


# --- Settings that heal ----------------------------------------------------------

def write(tmp_path, obj):
    (tmp_path / "settings.json").write_text(json.dumps(obj))


@pytest.mark.parametrize("rules, named", [
    ({"stack31": {"hand_liiit": 7}}, "hand_liiit"),      # unknown to the game
    ({"stack31": {"hand_limit": 99}}, "Hand limit"),     # out of the game's range
    ({"stack31": {"hand_limit": "six"}}, "Hand limit"),  # wrong type
    ({"stress": {"games": 0}}, "Games to win"),
    ({"stress": {"slow_window_us": 0}}, "Slow window"),
    ({"stackdeck": {"colours": "RRGBP"}}, "Colours"),    # the game's own check
    ({"stackdeck": {"rounds": 1000}}, "Rounds"),
])
def test_a_bad_house_rule_goes_back_to_its_default_named_once(st, tmp_path, rules, named):
    good = {"players": 3, "names": ["Ann", "Bo"], "brightness": 64, "dim_s": 60,
            "sleep_s": 300, "buzzer": False,
            "rules": {"stress": {"tie_window_us": 800}, "stackdeck": {"rounds": 4}}}
    obj = json.loads(json.dumps(good))
    for game in rules:
        obj["rules"].setdefault(game, {}).update(rules[game])
    write(tmp_path, obj)
    s = Settings(st)
    assert s.report == named + " reset"
    assert s.details["fixed"] == [named]
    # nothing that was valid is lost
    for key in ("players", "brightness", "dim_s", "sleep_s", "buzzer"):
        assert s.get(key) == good[key]
    assert s.name(1) == "Ann" and s.name(2) == "Bo" and s.name(3) == "P3"
    for game in good["rules"]:
        for k, v in good["rules"][game].items():
            if k not in rules.get(game, {}):
                assert s.rule(game, k) == v
    # every game starts with what is left
    from core.games import new_game
    for game in ("stack31", "stackdeck", "stress"):
        new_game(game, 2, s.rules(game))
    again = Settings(st)
    assert again.report is None and again.data == s.data  # written back: said once


def test_every_damaged_rule_is_named_in_details(st, tmp_path):
    write(tmp_path, {"rules": {"stack31": {"hand_liiit": 7, "hand_limit": 99},
                               "stress": {"games": 3, "debounce_us": -5}}})
    s = Settings(st)
    assert sorted(s.details["fixed"]) == ["Debounce", "Hand limit", "hand_liiit"]
    assert s.report.endswith(" +2 reset")
    assert s.rules("stress") == {"games": 3}
    assert s.rules("stack31") == {}


def test_a_rule_equal_to_the_default_is_no_rule(st, tmp_path):
    write(tmp_path, {"rules": {"stack31": {"hand_limit": 6}, "stress": {"games": 5}}})
    s = Settings(st)
    assert s.report is None
    assert s.get("rules") == {"stress": {"games": 5}}


def test_checking_rules_at_boot_leaves_no_game_module_behind(tmp_path):
    """Only the game being played should take heap on the board: a game imported to
    judge its house rules is forgotten again (checked in a fresh interpreter)."""
    import sys
    write(tmp_path, {"rules": {"stress": {"games": 3}, "stack31": {"hand_limit": 99}}})
    code = ("import sys; from firmware.storage import Storage; from firmware.settings import Settings;"
            "s = Settings(Storage(%r)); print(s.report, s.rules('stress'));"
            "print(sorted(m for m in sys.modules if m.startswith('core.')));"
            "from core.games import new_game; g = new_game('stress', 2, s.rules('stress'));"
            "print(g.options['games'])" % str(tmp_path))
    out = run_fresh(code)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "Hand limit reset {'games': 3}"
    assert "core.stress" not in lines[1] and "core.stack31" not in lines[1]
    assert lines[2] == "3"


# --- A full or read-only flash ---------------------------------------------------

class BrokenFlash(OsFS):
    """The real file system, except that writing fails: errno ENOSPC (full) or EROFS."""

    def __init__(self, code):
        self.code = code

    def _fail(self):
        raise OSError(self.code, "injected")

    def open(self, path, mode):
        if "r" not in mode or "+" in mode:
            if self.code == errno.ENOSPC:
                return FullFile(open(path, mode), self.code)  # opens, then cannot write
            self._fail()
        return open(path, mode)

    def rename(self, a, b):
        self._fail()

    def remove(self, path):
        self._fail()


class FullFile:
    def __init__(self, f, code):
        self.f = f
        self.code = code

    def write(self, data):
        self.f.write(data[:3])  # what fitted
        raise OSError(self.code, "no space")

    def close(self):
        self.f.close()


@pytest.mark.parametrize("code, words", [(errno.ENOSPC, "flash full: not saved"),
                                         (errno.EROFS, "flash read-only")])
def test_saving_on_a_broken_flash_says_why_and_keeps_the_values(tmp_path, code, words):
    Settings(Storage(str(tmp_path))).set("players", 3)
    s = Settings(Storage(str(tmp_path), BrokenFlash(code)))
    assert s.get("players") == 3
    assert s.set("players", 5) is True  # autosave fails quietly
    assert s.problem == words and s.dirty
    assert s.get("players") == 5  # usable in RAM for this session
    assert s.save() is False and s.problem == words
    assert Settings(Storage(str(tmp_path))).get("players") == 3  # the file as it was
    if code == errno.ENOSPC:  # the half-written .new: left for the next boot to drop
        t = Settings(Storage(str(tmp_path)))
        assert t.report is None and t.get("players") == 3
    # space comes back: the next save writes everything
    s.storage = Storage(str(tmp_path))
    assert s.save() is True and s.problem is None
    assert Settings(Storage(str(tmp_path))).get("players") == 5


def test_a_leftover_new_file_on_a_read_only_flash_keeps_good_settings(tmp_path):
    good = Settings(Storage(str(tmp_path)))
    good.set("players", 4)
    good.set_name(1, "ANN")
    (tmp_path / "settings.json.new").write_text('{"players": 2, "bro')  # a cut save
    s = Settings(Storage(str(tmp_path), BrokenFlash(errno.EROFS)))
    assert s.report is None
    assert s.get("players") == 4 and s.name(1) == "ANN"
    assert (tmp_path / "settings.json.new").exists()  # could not be cleaned up: ignored
    t = Settings(Storage(str(tmp_path)))  # writable again: cleaned up, nothing lost
    assert t.get("players") == 4 and not (tmp_path / "settings.json.new").exists()


def test_a_damaged_file_on_a_read_only_flash_gives_defaults_and_a_message(tmp_path):
    (tmp_path / "settings.json").write_bytes(b"{garbled")
    s = Settings(Storage(str(tmp_path), BrokenFlash(errno.EROFS)))
    assert s.report == "Settings file damaged: reset"
    assert s.data == defaults() and s.problem == "flash read-only"
    assert (tmp_path / "settings.json").read_bytes() == b"{garbled"  # not touched


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


def test_the_options_offered_on_the_settings_pages_are_each_games_numeric_options():
    """settings_rules.OFFERED lists them so that the pages need not load every game's
    rules (heap on the board); it must say what the games themselves offer."""
    from core.games import ORDER, game_class
    from firmware.settings.rules import OFFERED, RULES
    for name in ORDER:
        options = game_class(name).OPTIONS
        numeric = sorted(k for k, v in options.items() if isinstance(v, int) and not isinstance(v, bool))
        assert sorted(OFFERED[name]) == numeric, name
        assert all(k in RULES for k in OFFERED[name])


def test_the_limits_the_rules_page_steps_within_are_each_games_own():
    """settings_rules.LIMITS: each offered option's default and the lowest and highest
    value, so that the Rules page steps them without loading the game (heap on the
    board). They must be what the game says: its OPTIONS default, and a game built with
    the lowest or highest value accepts it while one past either end is refused."""
    from core.errors import IllegalAction
    from core.games import ORDER, game_class
    from firmware.settings.rules import LIMITS, OFFERED
    for name in ORDER:
        cls = game_class(name)
        assert sorted(LIMITS[name]) == sorted(OFFERED[name]), name
        for key, (default, lo, hi) in LIMITS[name].items():
            assert cls.OPTIONS[key] == default, (name, key)
            for ok in (lo, hi):
                assert cls(cls.MIN_PLAYERS, {key: ok}).options[key] == ok, (name, key, ok)
            for bad in (lo - 1, hi + 1):
                with pytest.raises(IllegalAction):
                    cls(cls.MIN_PLAYERS, {key: bad})


def test_the_rules_page_loads_no_game(tmp_path):
    """game_options and step_game_option (the Rules page) judge by LIMITS: no game's
    module is imported (checked in a fresh interpreter), and the steps stop at the
    game's own limits."""
    import sys
    code = ("import sys; from firmware.storage import Storage; from firmware.settings import Settings;"
            "from firmware.settings.rules import game_options, step_game_option;"
            "s = Settings(Storage(%r)); m = set(sys.modules);"
            "print(game_options(s, 'stackdeck'), step_game_option(s, 'stackdeck', 'rounds', 1),"
            " s.rules('stackdeck'), [step_game_option(s, 'stack31', 'hand_limit', 1)"
            " for _ in range(8)][-2:]);"
            "print(sorted(n for n in set(sys.modules) - m if n.startswith('core')))"
            % str(tmp_path))
    out = run_fresh(code)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "{'rounds': 10} None {'rounds': 11} [None, 'Hand limit: highest']"
    assert lines[1] == "[]"


def test_a_game_in_play_needs_only_the_small_settings_module(tmp_path):
    """Reading the settings (what a game does) loads nothing more; loading and healing,
    changing and saving bring in firmware.settings.store, which MicroPython drops again
    (checked there by test_fw_settings); firmware.settings.rules imports no other firmware
    module than its package."""
    import sys
    write(tmp_path, {"players": 3, "rules": {"stress": {"games": 3}}})
    code = ("import sys; from firmware.storage import Storage; from firmware.settings import Settings;"
            "s = Settings(Storage(%r)); m = set(sys.modules);"
            "v = (s.get('buzzer'), s.get('sleep_s'), s.name(2), s.player_name(1), s.contrast(),"
            " s.rules('stress'), s.rule('stress', 'games'), s.get('rules'), s.save());"
            "print(v); print(sorted(set(sys.modules) - m))" % str(tmp_path))
    out = run_fresh(code)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "(True, 600, 'P2', 'P1', 128, {'games': 3}, 3, {'stress': {'games': 3}}, False)"
    assert lines[1] == "[]"
    code = ("import sys; import firmware.settings.rules;"
            "print(sorted(n for n in sys.modules if n.split('.')[0] in ('core', 'firmware')))")
    out = run_fresh(code)
    # its package is the settings module itself, which a game in play holds anyway
    assert out.stdout.strip() == "['firmware', 'firmware.settings', 'firmware.settings.rules']", \
        out.stderr


GOOD = {"players": 3, "names": ["Ann", "Bo", "P3"], "brightness": 40, "dim_s": 0,
        "sleep_s": 3600, "buzzer": False, "rules": {}, "archive_kb": 32}


@pytest.mark.parametrize("obj", [
    GOOD, {}, {"players": 8}, {"names": []}, {"names": ["A b", "~!"]},
    # each of these needs the check (healing, or the games' judgement of house rules)
    {"players": 9}, {"players": True}, {"players": 2.0}, {"buzzer": 1}, {"colour": 1},
    {"names": [" Ann"]}, {"names": ["Ann#"]}, {"names": [""]}, {"names": [None]},
    {"names": ["A very long name"]}, {"names": ["P%d" % i for i in range(1, 10)]},
    {"names": "Ann"}, {"names": ["\u00e9"]}, {"rules": {"stress": {"games": 3}}},
    {"rules": {"stress": {"games": -1}}}, {"rules": []}, [1, 2], "text", 5,
])
def test_a_file_read_without_the_store_gives_what_the_check_gives(st, obj):
    """A file that needs no check is taken by firmware.settings itself at load; the
    result (values, report, file) is the one the store's check gives."""
    write_text = json.dumps(obj)
    st.append("settings.json", write_text)
    s = Settings(st)
    quick_files = sorted(st.listdir())
    quick = (s.data, s.report, s.details)
    st.remove("settings.json")
    for name in quick_files:
        st.remove(name)
    st.append("settings.json", write_text)
    t = Settings(st, load=False)
    t.load()  # the store's check
    assert (t.data, t.report, t.details) == quick
    assert sorted(st.listdir()) == quick_files


def test_a_valid_file_loads_no_store(tmp_path):
    import sys
    (tmp_path / "settings.json").write_text(json.dumps(GOOD))
    code = ("import sys; from firmware.storage import Storage; from firmware.settings import Settings;"
            "s = Settings(Storage(%r)); print(s.get('players'), s.name(2), s.report,"
            " 'firmware.settings.store' in sys.modules, 'firmware.storage.atomic' in sys.modules)"
            % str(tmp_path))
    out = run_fresh(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["3", "Bo", "None", "False", "False"]
