"""The interactive view (python -m host_sim): key decoding and mapping, the frame
composition, the session in virtual time; then the real thing in tmux when it is
installed (start, play, long press, quit leaving the terminal as it was, the game
kept in the folder, a small terminal)."""

import os
import shutil
import subprocess
import sys
import time

import pytest

from host_sim import terminal as t
from host_sim.device import _glyph_rows

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# Keys -----------------------------------------------------------------------------------

def test_decode_keys():
    d = t.decode_keys
    assert d(b"\x1b[A\x1b[B\x1b[C\x1b[D") == ["UP", "DOWN", "RIGHT", "LEFT"]
    assert d(b"\x1bOA\x1bOD") == ["UP", "LEFT"]  # application cursor mode
    assert d(b"\r") == ["ENTER"] and d(b"\n") == ["ENTER"] and d(b"\r\n") == ["ENTER"]
    assert d(b"\x7f\x08") == ["BACKSPACE", "BACKSPACE"]
    assert d(b"\x1b") == ["ESC"]
    assert d(b"\x1b\x1b[A") == ["ESC", "UP"]
    assert d(b"l\x1b") == ["l", "ESC"]
    assert d(b"1234q") == ["1", "2", "3", "4", "q"]
    assert d(b"\x03") == ["CTRL_C"]
    assert d(b"\x1b[15~x") == [None, "x"]  # F5: ignored, the rest still read


def test_keys_to_actions():
    k = t.Keys()
    assert k.feed("UP") == ("press", "UP")
    assert k.feed("ENTER") == ("press", "OK") and k.feed("SPACE") == ("press", "OK")
    assert k.feed("BACKSPACE") == ("press", "BACK") and k.feed("ESC") == ("press", "BACK")
    assert k.feed("3") == ("call", 3)
    assert k.feed("5") is None and k.feed(None) is None and k.feed("x") is None
    assert k.feed("q") == ("quit",) and k.feed("CTRL_C") == ("quit",)
    # l arms a long press for the next button only
    assert k.feed("l") == ("arm",) and k.armed
    assert k.feed("ESC") == ("long", "BACK") and not k.armed
    assert k.feed("ENTER") == ("press", "OK")
    k.feed("L")
    k.feed("L")  # pressed twice: disarmed again
    assert k.feed("LEFT") == ("press", "LEFT")


# The frame ---------------------------------------------------------------------------------

def _text_pixels(text, x0, y0):
    """A blank 128x64 screen with `text` as the firmware draws it at (x0, y0)."""
    px = [[0] * 128 for _ in range(64)]
    rows, width = _glyph_rows(text)
    for y in range(len(rows)):
        for x in range(width):
            px[y0 + y][x0 + x] = (rows[y] >> x) & 1
    return px


def test_compose_draws_a_known_screen_in_half_blocks():
    px = _text_pixels("Hi", 0, 0)
    px[63][127] = 1  # bottom right corner
    status = t.status_lines({"bytes": 136, "transactions": 2}, 61_234_000, 1.0, "pico")
    lines = t.compose(px, status)
    assert len(lines) == t.NEED_ROWS == 36
    assert all(len(line) == 130 for line in lines[:34])
    assert lines[0] == "\u250c" + "\u2500" * 128 + "\u2510"
    assert lines[33] == "\u2514" + "\u2500" * 128 + "\u2518"
    # the text's pixels, two rows per terminal line: rows 0/1 -> the first line
    for y in range(4):
        for x in range(16):
            top, bottom = px[2 * y][x], px[2 * y + 1][x]
            ch = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}[(top, bottom)]
            assert lines[1 + y][1 + x] == ch
    assert lines[32][128] == "\u2584"  # the corner pixel is the lower half of the last line
    assert lines[5].strip("\u2502 ") == ""  # below the text: blank
    assert lines[34] == t.KEY_HELP
    assert "I2C last frame 136 B in 2 tx" in lines[35]
    assert "clock 0:01:01.234" in lines[35] and "pico" in lines[35]


def test_compose_on_a_small_terminal_says_how_big_it_must_be():
    lines = t.compose([[0] * 128 for _ in range(64)], ["a", "b"], 80, 24)
    assert lines[0] == "Terminal 80x24: the simulator needs 130x36."
    assert all(len(line) <= 80 for line in lines)
    tiny = t.compose([[0] * 128 for _ in range(64)], ["a", "b"], 10, 2)
    assert len(tiny) <= 2 and all(len(line) <= 10 for line in tiny)


def test_status_line_notes():
    s = t.status_lines(None, 0, 2.0, "esp32_devkit", armed=True, note="dimmed")
    assert s[1].startswith("LONG: press a button")
    assert "x2" in s[1] and "esp32_devkit" in s[1] and "dimmed" in s[1]
    assert "I2C last frame -" in s[1]


# The session (the device behind the view), in virtual time ---------------------------------

def test_session_plays_keys_as_presses(tmp_path):
    sim = t.Session(str(tmp_path))
    home = t.compose(sim.pixels(), sim.status())
    assert sim.dev.shows("Stack 31")
    for key in ("ENTER", "ENTER", "ENTER"):  # three keys at once: queued, one after another
        sim.key(key)
    sim.advance(1_000_000)
    assert [sim.dev.game.format(a) for a in sim.dev.game.history] == ["draw"]
    assert t.compose(sim.pixels(), sim.status()) != home
    frame = sim.driver.frame
    assert frame["bytes"] > 0 and frame["transactions"] > 0
    assert "I2C last frame %d B" % frame["bytes"] in sim.status()[1]
    # l then Esc: a long BACK goes home, the game stays saved
    sim.key("l")
    assert sim.status()[1].startswith("LONG")
    sim.key("ESC")
    sim.advance(1_500_000)
    assert sim.dev.shows("Resume Stack 31")
    # a new session on the same folder finds the game
    sim2 = t.Session(str(tmp_path))
    assert sim2.dev.game is not None and len(sim2.dev.game.history) == 1


def test_every_key_is_queued_however_many_come_at_once(tmp_path):
    sim = t.Session(str(tmp_path))
    for _ in range(12):  # typed faster than the presses can be played
        sim.key("DOWN")
    assert len(sim.queue) == 12
    sim.advance(3_000_000)
    assert not sim.queue
    screen = sim.dev.app.screen
    assert screen.menu.index == 12 % len(screen.entries)


def test_session_call_keys_reach_the_screen(tmp_path):
    sim = t.Session(str(tmp_path))
    edges = []
    sim.dev.screen.on_call = lambda p, down, t_us: edges.append((p, down))
    sim.key("2")
    sim.key("2")  # still held: not a second press
    sim.advance(200_000)
    assert edges == [(2, 1), (2, 0)]


def test_options():
    assert t.parse_args(["--board", "esp32_devkit", "--speed=2", "--dir", "x"]) == {
        "board": "esp32_devkit", "speed": 2.0, "dir": "x", "bell": False}
    with pytest.raises(SystemExit):
        t.parse_args(["--speed", "fast"])
    with pytest.raises(SystemExit):
        t.parse_args(["--board", "uno"])


def test_without_a_terminal_it_says_so():
    proc = subprocess.run([sys.executable, "-m", "host_sim"], cwd=ROOT, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "needs a terminal" in proc.stderr


# The real thing, in tmux ---------------------------------------------------------------------

TMUX = shutil.which("tmux")
needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


class Tmux:
    def __init__(self, name, cols, rows, command):
        self.name = name
        subprocess.run([TMUX, "kill-session", "-t", name], capture_output=True)
        subprocess.run([TMUX, "new-session", "-d", "-s", name, "-x", str(cols), "-y", str(rows),
                        command], check=True)

    def keys(self, *keys):
        subprocess.run([TMUX, "send-keys", "-t", self.name] + list(keys), check=True)

    def screen(self):
        return subprocess.run([TMUX, "capture-pane", "-p", "-t", self.name],
                              capture_output=True, text=True).stdout

    def wait_for(self, text, timeout=15):
        end = time.time() + timeout
        while time.time() < end:
            s = self.screen()
            if text in s:
                return s
            time.sleep(0.1)
        raise AssertionError("%r not on the terminal:\n%s" % (text, self.screen()))

    def kill(self):
        subprocess.run([TMUX, "kill-session", "-t", self.name], capture_output=True)


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def _sim_command(flash, marker):
    py = sys.executable
    return ("cd %s && printf 'before\\n' && %s -m host_sim --dir %s --speed 2; "
            "echo %s $?; sleep 60" % (ROOT, py, flash, marker))


@needs_tmux
def test_in_tmux_play_long_press_quit_and_resume(tmp_path):
    flash = str(tmp_path / "flash")
    name = "simtest%d" % os.getpid()
    tm = Tmux(name, 132, 40, _sim_command(flash, "EXITED"))
    try:
        s = tm.wait_for("I2C last frame")
        assert t.KEY_HELP in s and "\u2554" not in s
        home = s
        tm.keys("Enter")  # Stack 31 -> new game
        time.sleep(0.5)
        tm.keys("Enter")  # start
        time.sleep(0.5)
        tm.keys("Enter")  # P1 draws
        journal = os.path.join(flash, "game.txt")
        end = time.time() + 10
        while time.time() < end and "draw" not in _read(journal):
            time.sleep(0.1)
        assert "draw" in _read(journal)
        assert tm.screen() != home
        tm.keys("l", "Escape")  # long BACK: home
        time.sleep(1.5)
        tm.keys("q")
        s = tm.wait_for("EXITED 0")
        # the alternate screen is gone: what was on the terminal before is back
        assert "before" in s and "I2C" not in s
        tm.kill()
        # again: the home menu offers to resume the saved game
        tm = Tmux(name, 132, 40, _sim_command(flash, "EXITED"))
        tm.wait_for("I2C last frame")
        tm.keys("C-c")
        tm.wait_for("EXITED 0")
    finally:
        tm.kill()


@needs_tmux
def test_in_tmux_a_small_terminal_gets_a_message_not_a_crash(tmp_path):
    name = "simsmall%d" % os.getpid()
    tm = Tmux(name, 80, 24, _sim_command(str(tmp_path / "flash"), "EXITED"))
    try:
        s = tm.wait_for("the simulator needs 130x36")
        assert "Terminal 80x24" in s
        subprocess.run([TMUX, "resize-window", "-t", name, "-x", "140", "-y", "40"],
                       capture_output=True)
        tm.wait_for("I2C last frame")
        tm.keys("q")
        tm.wait_for("EXITED 0")
    finally:
        tm.kill()


def test_tools_sim_starts_the_simulator():
    # set up already (the stamp matches), so it goes straight to python -m host_sim
    proc = subprocess.run([os.path.join(ROOT, "tools", "sim"), "--help"], cwd="/",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("python -m host_sim [OPTIONS]")
    assert "python -m host_sim script FILE" in proc.stdout
    assert "l then a button key" in proc.stdout


def test_the_esp32_pin_map_drives_the_same_device(tmp_path):
    sim = t.Session(str(tmp_path), board="esp32_devkit")
    assert sim.dev.board.NAME != "Raspberry Pi Pico"
    for key in ("ENTER", "ENTER", "ENTER"):
        sim.key(key)
    sim.advance(1_000_000)
    assert [sim.dev.game.format(a) for a in sim.dev.game.history] == ["draw"]
    assert "esp32_devkit" in sim.status()[1]
