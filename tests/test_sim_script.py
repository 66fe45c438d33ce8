"""Scripted runs (python -m host_sim script): a Stack 31 game from the home menu to its
end, failing expects and bad lines as `line N:`, exact call edges, screenshots that
show what the emulated panel shows."""

import os
import subprocess
import sys

import pytest

from host_sim import script as sc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STACK31 = os.path.join(ROOT, "tools", "gallery", "stack31.script")


def run(args, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "host_sim", "script"] + args, cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


# A whole game --------------------------------------------------------------------------

def test_a_stack31_game_plays_from_the_home_menu_to_its_end(tmp_path):
    code, out, err = run([STACK31, "--out", str(tmp_path)])
    assert code == 0, err
    assert out.startswith("ok: ") and err == ""
    names = {n for n, _c, _l in sc.shots(open(STACK31).read())}
    assert {"stack31-end", "stack31-refusal", "stack31-undo"} <= names
    assert {f[:-4] for f in os.listdir(tmp_path)} == names


def test_the_game_state_at_the_end_of_the_script(tmp_path):
    text = open(STACK31).read()
    # stop before the last OK, which goes home: the game over screen is shown
    cut = text[:text.rindex("press OK")]
    runner = sc.run_text(cut, root=str(tmp_path))
    g = runner.dev.game
    assert g.over and g.winners() == [1]
    # three players (ANN, BOB, CY): three draws, ANN's king, then BOB and CY disqualified
    assert [g.format(a) for a in g.history] == ["draw", "draw", "draw", "play KS", "dq", "dq"]
    assert runner.dev.shows("Game over") and runner.dev.shows("wins")
    # the journal on the flash folder is the game
    with open(os.path.join(str(tmp_path), "game.txt")) as f:
        assert "play KS" in f.read()


# Failures -------------------------------------------------------------------------------

def test_a_failing_expect_says_line_n_and_exits_1(tmp_path):
    code, out, err = run(["-", "--out", str(tmp_path)],
                         "# comment\n\nexpect Stack 31\npress DOWN\nexpect Nothing like this\n")
    assert code == 1
    assert err.startswith("line 5: 'Nothing like this' is not on the screen\n")
    assert "\u2588" in err  # the screen as text follows
    assert os.path.exists(os.path.join(str(tmp_path), "fail-line-5.png"))


def test_absent_fails_when_the_text_shows():
    code, _out, err = run(["-"], "absent Stack 31\n")
    assert code == 1 and err.startswith("line 1: 'Stack 31' is on the screen")


@pytest.mark.parametrize("line, reason", [
    ("prss OK", "unknown command 'prss'"),
    ("press SELECT", "unknown button 'SELECT'"),
    ("press", "press what?"),
    ("long OK BACK", "long takes one button"),
    ("wait soon", "'soon' is not a time"),
    ("wait 1.5us", "'1.5us' is not a time"),
    ("call 5", "call takes a player 1..4"),
    ("call 1 +fast", "'fast' is not an offset"),
    ("call 1 loud", "unexpected 'loud'"),
    ("shot a/b", "shot name 'a/b'"),
    ("expect", "expect what text?"),
    ("restart now", "restart takes nothing"),
])
def test_a_bad_line_says_line_n_and_exits_2_before_anything_runs(line, reason, tmp_path):
    code, out, err = run(["-", "--out", str(tmp_path)], "shot first\n# x\n" + line + "\n")
    assert code == 2 and out == ""
    assert err.startswith("line 3: " + reason), err
    assert os.listdir(str(tmp_path)) == []  # nothing ran


def test_bad_structure_is_reported_with_its_line():
    with pytest.raises(sc.ScriptError) as e:
        sc.parse("press OK\ncall 2 +1ms\n")
    assert str(e.value).startswith("line 2: a call with +offset must follow another call")
    with pytest.raises(sc.ScriptError) as e:
        sc.parse("shot a\nwait 1\nshot a\n")
    assert str(e.value) == "line 3: shot 'a' already taken on line 1"


def test_a_missing_file_and_bad_options():
    code, _o, err = run(["/nonexistent.script"])
    assert code == 2 and "nonexistent" in err
    code, _o, err = run([])
    assert code == 2 and err.startswith("usage:")
    code, _o, err = run(["-", "--board", "uno"], "")
    assert code == 2 and "unknown board" in err


# Time and edges ------------------------------------------------------------------------------

def test_times():
    assert sc.parse_time("500") == 500_000
    assert sc.parse_time("250ms") == 250_000
    assert sc.parse_time("1.5s") == 1_500_000
    assert sc.parse_time("900us") == 900
    assert sc.parse_time("0.5ms") == 500
    assert sc.parse_time("-1") is None and sc.parse_time("x") is None


def test_button_lists_and_counts():
    ins = sc.parse("press down*3 OK  # three down, then OK\n")
    assert ins == [("press", 1, ["DOWN", "DOWN", "DOWN", "OK"])]


class Recorder:
    """Stands in for the top screen's on_call: records every raw call edge."""

    def __init__(self, dev):
        self.edges = []
        dev.screen.on_call = lambda player, down, t_us: self.edges.append((player, down, t_us))


def test_call_edges_land_on_their_exact_microsecond(tmp_path):
    runner = sc.Runner(str(tmp_path))
    rec = Recorder(runner.dev)
    start = runner.dev.clock.ticks_us()
    runner.run(sc.parse("wait 3ms\ncall 1\ncall 2 +900us\ncall 3 +1us hold 5ms\nwait 100\n"))
    downs = [(p, t - start) for p, d, t in rec.edges if d]
    ups = [(p, t - start) for p, d, t in rec.edges if not d]
    t1 = downs[0][1]
    assert [p for p, _ in downs] == [1, 2, 3]
    assert [t - t1 for _, t in downs] == [0, 900, 901]
    assert dict(ups) == {1: t1 + 80_000, 2: t1 + 900 + 80_000, 3: t1 + 901 + 5_000}
    assert t1 == 3_000  # the first call at the cursor, 3 ms after the start


def test_a_call_without_offset_waits_for_the_group_before(tmp_path):
    runner = sc.Runner(str(tmp_path))
    rec = Recorder(runner.dev)
    runner.run(sc.parse("call 1\ncall 2\n"))
    (p1, _d, t1), (_, _, up1), (p2, _, t2), _up2 = rec.edges
    assert (p1, p2) == (1, 2) and t2 - t1 == 80_000 + 60_000


def test_a_wrapping_clock_keeps_edges_exact(tmp_path):
    start = (1 << 30) - 11_000  # 10 ms to start, then the tick counter wraps 1 ms on
    runner = sc.Runner(str(tmp_path), start_us=start)
    rec = Recorder(runner.dev)
    runner.run(sc.parse("call 1\ncall 2 +3ms\n"))
    (_, _, t1), (_, _, t2) = [e for e in rec.edges if e[1]]
    assert runner.dev.clock.ticks_diff(t2, t1) == 3_000 and t2 < t1


def test_presses_reach_the_app_and_restart_keeps_the_game(tmp_path):
    runner = sc.run_text("press OK OK OK\nrestart\nexpect Draw\n", root=str(tmp_path))
    assert [runner.dev.game.format(a) for a in runner.dev.game.history] == ["draw"]


# Screenshots ----------------------------------------------------------------------------------

def _png_pixels(path, scale):
    from PIL import Image
    img = Image.open(path).convert("L")
    assert img.size == (128 * scale, 64 * scale)
    # the middle of each scaled pixel (the gap line is the last row and column)
    return [[1 if img.getpixel((x * scale + scale // 2 - 1, y * scale + scale // 2 - 1)) > 40 else 0
             for x in range(128)] for y in range(64)]


@pytest.mark.parametrize("scale", [3, 4])
def test_screenshots_show_what_the_panel_shows(tmp_path, scale):
    runner = sc.Runner(str(tmp_path / "flash"), out=str(tmp_path / "png"), scale=scale)
    runner.run(sc.parse("press OK OK\nshot game\n"))
    assert runner.written == [str(tmp_path / "png" / "game.png")]
    panel = runner.dev.pixels()
    assert sum(map(sum, panel)) > 500  # a real screen, not a blank one
    assert _png_pixels(runner.written[0], scale) == panel


def test_print_writes_the_screen_as_text(tmp_path):
    import io
    out = io.StringIO()
    sc.run_text("print\n", root=str(tmp_path), stdout=out)
    text = out.getvalue()
    assert text.count("\n") == 34 and text.startswith("\u250c")
