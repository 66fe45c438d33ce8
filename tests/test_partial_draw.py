"""A press that changes one value draws only that change (App.redraw(True), the screen's
update()), and it never leaves a stale pixel: after every frame of these sessions the
framebuffer holds exactly what the screen drawn whole gives (the same screen and its
message drawn into a cleared scratch framebuffer, compared byte for byte). The sessions
cover the menus (home, Settings, Names, house rules, the Stack the Deck sheet), the
Stack 31 card picker and the Stack the Deck counters, with a message over the screen
while the cursor moves, a message that ends or moves, dimming, the screen off and back,
and a screen back after the one above it closed."""

import pytest

from host_sim.device import install

install()  # host_sim's framebuf and machine, before the firmware's imports

import framebuf  # noqa: E402

from firmware import ui  # noqa: E402
from firmware.app import App  # noqa: E402
from tests.fw_helpers import new_device  # noqa: E402
from tests.test_settings import BrokenFlash  # noqa: E402


class Frames:
    """Every frame any app renders is checked against the screen drawn whole; the frames
    its screen drew in part are counted per screen class."""

    def __init__(self, monkeypatch):
        self.part = {}
        self.whole = 0
        self.bad = []
        self.buf = bytearray(ui.W * ui.H // 8)
        scratch = framebuf.FrameBuffer(self.buf, ui.W, ui.H, framebuf.MONO_VLSB)
        real_render = App.render
        frames = self

        def render(app):
            fb = app.fb
            fills = []
            real_fill = fb.fill
            fb.fill = lambda c: (fills.append(c), real_fill(c))  # a whole draw clears first
            try:
                real_render(app)
            finally:
                del fb.fill
            screen = app.screen
            if fills:
                frames.whole += 1
            else:
                name = type(screen).__name__
                frames.part[name] = frames.part.get(name, 0) + 1
            scratch.fill(0)
            screen.draw(scratch)
            lines = app.toast_text()  # still there after render: it was drawn
            place = screen.toast_place() if lines else None
            if place:  # App.render's message box
                h = len(lines) * 9 + 2
                y = 0 if place == "top" else ui.H - h
                scratch.fill_rect(0, y, ui.W, h, 0)
                scratch.rect(0, y, ui.W, h, 1)
                for i, line in enumerate(lines):
                    ui.center(scratch, line, y + 2 + i * 9)
            if bytes(fb.buffer) != bytes(frames.buf):  # noted: the app catches what render raises
                frames.bad.append("%s: the frame differs from its whole draw:\n%s" % (
                    type(screen).__name__, frames.diff(fb)))

        real_crash = App.crash

        def crash(app, error):
            frames.bad.append("the app crashed: %r" % (error,))
            real_crash(app, error)

        monkeypatch.setattr(App, "render", render)
        monkeypatch.setattr(App, "crash", crash)

    def diff(self, fb):
        rows = []
        for y in range(ui.H):
            row = ""
            for x in range(ui.W):
                a = fb.pixel(x, y)
                b = (self.buf[(y // 8) * ui.W + x] >> (y % 8)) & 1
                row += "#" if a and b else "+" if a else "-" if b else "."
            rows.append(row)
        return "\n".join(rows) + "\n(+ stale ink, - missing ink)"


@pytest.fixture
def frames(monkeypatch):
    f = Frames(monkeypatch)
    yield f
    assert not f.bad, f.bad[0]
    assert f.whole + sum(f.part.values()) > 0


def to_row(dev, prefix):
    screen = dev.app.screen
    for _ in range(len(screen.entries)):
        if screen.entries[screen.menu.index][0].startswith(prefix):
            return
        dev.press("DOWN")
    raise AssertionError("no row " + prefix)


def test_menus_with_messages_dimming_and_the_screen_off(tmp_path, frames):
    dev = new_device(tmp_path)
    home = dev.app.screen
    n = len(home.entries)
    for _ in range(n + 2):  # round the home menu, past its end
        dev.press("DOWN")
    dev.press("UP")
    assert frames.part["HomeScreen"] == n + 3
    dev.app.toast("a message over the menu, two lines long")
    dev.step(20)
    for name in ("DOWN", "DOWN", "UP"):  # the cursor moves under the message
        dev.press(name)
    dev.step(3000)  # the message ends: the menu whole again
    assert dev.app.toast_text() is None
    dev.press("DOWN")
    dev.step(181000)  # dimmed
    assert dev.app.dimmed
    dev.press("DOWN")  # acts at once
    dev.step(601000)  # off
    assert dev.app.asleep
    dev.press("DOWN")  # wakes only
    assert not dev.app.asleep
    dev.press("UP")
    # Settings: 8 rows in 7, so the cursor scrolls; a step redraws its row
    to_row(dev, "Settings")
    dev.press("OK")
    settings = dev.app.screen
    assert type(settings).__name__ == "SettingsScreen"
    for name in ("RIGHT", "RIGHT", "LEFT", "DOWN", "DOWN", "LEFT", "RIGHT"):
        dev.press(name)
    for _ in range(len(settings.entries) + 1):
        dev.press("DOWN")  # scrolls down, then back to the top
    for _ in range(3):
        dev.press("UP")
    to_row(dev, "Names")
    dev.press("OK")
    dev.presses("DOWN", "DOWN", "UP")
    dev.press("BACK")  # Settings back, drawn whole
    assert dev.app.screen is settings
    dev.presses("DOWN", "UP")
    to_row(dev, "House rules")
    dev.press("OK")
    dev.press("OK")  # the first game's rules
    for name in ("RIGHT", "DOWN", "RIGHT", "LEFT", "UP", "LEFT"):
        dev.press(name)
    for _ in range(12):  # to a rule's limit: the game's refusal is a message
        dev.press("LEFT")
    dev.presses("DOWN", "UP")
    dev.long("BACK")
    assert dev.app.screen is home
    dev.press("DOWN")
    assert frames.part["SettingsScreen"] >= 10 and frames.part["RulesScreen"] >= 4
    assert frames.part["NamesScreen"] >= 2 and frames.whole >= 10


def test_settings_on_a_full_flash_each_change_a_message(tmp_path, frames):
    (tmp_path / "flash").mkdir()
    import errno
    dev = new_device(tmp_path, fs=BrokenFlash(errno.ENOSPC))
    to_row(dev, "Settings")
    dev.press("OK")
    for name in ("RIGHT", "DOWN", "DOWN", "LEFT", "LEFT", "UP", "RIGHT", "DOWN"):
        dev.press(name)  # each change says "flash full", the cursor moves under it
        assert dev.app.toast_text() == ["flash full: not", "saved"]
    for _ in range(9):
        dev.press("DOWN")
    assert frames.part["SettingsScreen"] >= 10


def test_the_stack31_picker(tmp_path, frames):
    from tests.fw_helpers import choose_action, draw, open_stack31, play
    dev = new_device(tmp_path)
    open_stack31(dev, 3)
    for _ in range(6):
        draw(dev)
    play(dev, "KH")
    play(dev, "9S")
    dev.press("UP")  # the picker for a play
    assert type(dev.app.screen).__name__ == "CardPickerScreen"
    for name in ("UP", "UP", "RIGHT", "RIGHT", "RIGHT", "DOWN", "LEFT", "DOWN", "DOWN",
                 "RIGHT", "UP") * 3:  # past cards it skips: the bottom line says why
        dev.press(name)
    n = frames.part["CardPickerScreen"]
    assert n >= 30
    dev.app.toast("a message over the picker")
    dev.step(20)
    dev.presses("UP", "DOWN", "RIGHT")  # under the message
    dev.step(3000)
    dev.presses("LEFT", "UP")
    dev.press("BACK")
    choose_action(dev, "Disc up")
    dev.press("OK")
    for name in ("UP", "RIGHT", "DOWN", "LEFT") * 4:
        dev.press(name)
    dev.press("OK")
    dev.step(3000)
    assert frames.part["CardPickerScreen"] >= n + 20


def test_the_stackdeck_sheet_and_counters(tmp_path, frames):
    from tests.test_fw_stackdeck import (back_to_board, build_stack, choose, counts,
                                         end_round, open_stackdeck, set_rounds, to_player)
    dev = new_device(tmp_path)
    set_rounds(dev, 2)
    open_stackdeck(dev, 2)
    to_player(dev, "P1")
    build_stack(dev, "4G-5G-6G")
    choose(dev, "Went out")
    dev.press("BACK")
    to_player(dev, "P2")
    counts(dev, [1, 0, 1, 0, 1, 0])
    back_to_board(dev)
    end_round(dev)
    dev.press("OK")  # the next round: the first player's counters
    assert type(dev.app.screen).__name__ == "CountsScreen"
    for name in ("RIGHT", "RIGHT", "DOWN", "DOWN", "RIGHT", "RIGHT", "RIGHT", "DOWN",
                 "RIGHT", "RIGHT", "RIGHT", "RIGHT", "RIGHT", "LEFT", "UP", "UP", "LEFT",
                 "LEFT", "UP", "RIGHT", "DOWN", "DOWN", "DOWN", "DOWN", "DOWN", "DOWN"):
        dev.press(name)  # the wilds follow the unturned stacks
    dev.app.toast("a message over the counters")
    dev.step(20)
    dev.presses("RIGHT", "DOWN", "LEFT")
    dev.step(3000)
    dev.press("OK")  # saved: the next player's counters, then the sheet
    dev.presses("RIGHT", "DOWN", "RIGHT")
    dev.press("OK")
    assert type(dev.app.screen).__name__ == "SheetScreen"
    for name in ("UP", "UP", "DOWN", "DOWN", "DOWN", "UP"):  # under the saved words
        dev.press(name)
    dev.step(3000)
    dev.presses("DOWN", "UP")
    assert frames.part["CountsScreen"] >= 30 and frames.part["SheetScreen"] >= 6


def test_a_message_that_moves_with_the_cursor(tmp_path, frames):
    """The sheet's message goes to the top when the cursor is on the lower rows: the
    box it left is drawn whole again."""
    from tests.test_fw_stackdeck import open_stackdeck
    dev = new_device(tmp_path)
    open_stackdeck(dev, 4)
    dev.press("OK")  # the first player's counters
    dev.press("BACK")  # nothing changed: the sheet
    sheet = dev.app.screen
    assert type(sheet).__name__ == "SheetScreen" and len(sheet.entries) == 5
    dev.app.toast("a message over the sheet")
    dev.step(20)
    places = set()
    for name in ("DOWN",) * 6 + ("UP",) * 3:
        dev.press(name)
        places.add(sheet.toast_place())
    assert places == {"top", "bottom"} and dev.app.toast_text()



def _bench_flows():
    """tools/bench_device's sessions (menus, a Stack 31 game, two Stack the Deck rounds,
    a Stress match): every frame of them is checked too."""
    import importlib.util
    import os
    from importlib.machinery import SourceFileLoader
    os.environ.setdefault("BENCH_NO_REEXEC", "1")
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "tools", "bench_device")
    loader = SourceFileLoader("bench_device", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module.FLOWS


@pytest.mark.parametrize("name, flow", _bench_flows())
def test_the_bench_sessions(tmp_path, frames, name, flow):
    dev = new_device(tmp_path)
    flow(dev)
    dev.step(7000)
    assert frames.whole + sum(frames.part.values()) >= 9  # each compared (the fixture)


# On MicroPython (the unix port, its own framebuf): the same check in a session by
# presses, each frame against the screen drawn whole into a scratch framebuffer.
MP_SESSION = r"""
import framebuf
import machine
import vclock
from firmware import start
from firmware import ui


class Sink:
    views = True

    def write(self, data):
        pass


machine.attach_i2c(0x3C, Sink())
board = start.board_module("pico")
clock = vclock.VirtualClock()
machine.set_time_source(clock.ticks_ms)
app = start.build(machine, board, clock, FLASH)
buf = bytearray(ui.W * ui.H // 8)
scratch = framebuf.FrameBuffer(buf, ui.W, ui.H, framebuf.MONO_VLSB)
seen = {}  # screen class -> [frames, drawn in part, differing]
fills = [0]
real_render = app.render
real_fill = app.fb.fill


def fill(c):
    fills[0] += 1
    real_fill(c)


def render():
    n = fills[0]
    real_render()
    screen = app.screen
    scratch.fill(0)
    screen.draw(scratch)
    lines = app.toast_text()
    place = screen.toast_place() if lines else None
    if place:
        h = len(lines) * 9 + 2
        y = 0 if place == "top" else ui.H - h
        scratch.fill_rect(0, y, ui.W, h, 0)
        scratch.rect(0, y, ui.W, h, 1)
        for i in range(len(lines)):
            ui.center(scratch, lines[i], y + 2 + i * 9)
    row = seen.setdefault(type(screen).__name__, [0, 0, 0])
    row[0] += 1
    row[1] += fills[0] == n
    row[2] += bytes(app.fb.buffer) != bytes(buf)


app.fb.fill = fill
app.render = render
app.start()
NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")


def steps(n):
    for i in range(n):
        app.step_safely()
        clock.advance_ms(10)


def press(*names):
    for name in names:
        pin = board.NAV_PINS[NAMES.index(name)]
        machine.press(pin)
        steps(8)
        machine.release(pin)
        steps(6)


def to_row(label):
    for i in range(12):
        screen = app.screen
        if screen.entries[screen.menu.index][0].startswith(label):
            return
        press("DOWN")


steps(5)
press(*("DOWN",) * 8)
to_row("Settings")
press("OK", "RIGHT", "LEFT", "DOWN", "DOWN", "RIGHT", "LEFT", *("DOWN",) * 9)
app.toast("a message over the menu")
press("DOWN", "UP", "DOWN")
steps(300)
press("BACK")
to_row("Stack 31")
press("OK", "RIGHT", "OK", *("OK",) * 6)  # three players, six draws
press("UP", *("UP", "UP", "RIGHT", "RIGHT", "DOWN", "LEFT", "DOWN") * 3)
press("BACK")
app.home()
steps(3)
to_row("Stack the Deck")
press("OK", "OK", "OK", "OK")  # yes, a new game; two players; the first counters
press("RIGHT", "RIGHT", "DOWN", "DOWN", "RIGHT", "DOWN", "RIGHT", "RIGHT", "UP", "LEFT")
for name in seen:
    print("@@", name, " ".join(str(n) for n in seen[name]))
"""


def test_on_micropython(tmp_path):
    from host_sim.unixport import find_binary, run_unix
    if find_binary() is None:
        pytest.skip("unix port not installed")
    out = run_unix("FLASH = %r\n" % str(tmp_path) + MP_SESSION, heap_kb=1024)
    seen = {}
    for line in out.splitlines():
        if line.startswith("@@ "):
            name, frames, part, bad = line.split()[1:]
            seen[name] = (int(frames), int(part), int(bad))
    assert all(bad == 0 for _, _, bad in seen.values()), seen
    for name in ("HomeScreen", "SettingsScreen", "CardPickerScreen", "CountsScreen"):
        assert seen[name][1] >= 8, seen
