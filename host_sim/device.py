"""The whole device on CPython: the unchanged firmware on simulated hardware.

    dev = SimDevice("/tmp/flash")        # the folder is the board's flash
    dev.press("OK"); dev.long("BACK"); dev.call(1)
    dev.step(500)                        # let half a second of virtual time pass
    dev.find_text("Stack 31")            # is it on the screen (the emulated panel)?
    dev.screenshot("home.png")

Stand-ins: `machine` (host_sim.machine: pins with interrupts, I2C, PWM), `framebuf`
(host_sim.framebuf), the panel (host_sim.ssd1306_emu behind the I2C bus), the clock
(host_sim.vclock: nothing moves unless the simulation moves it). The firmware is built
by firmware.start.build, exactly as on the board.
"""

import os
import sys

from host_sim import framebuf as _framebuf
from host_sim import machine as _machine
from host_sim.vclock import VirtualClock

BUTTONS = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")


def install():
    """Put the stand-ins where the firmware's plain imports find them."""
    _framebuf.install()
    sys.modules.setdefault("machine", _machine)


class SimDevice:
    STEP_MS = 10  # the app loop's pace on the board (App.LOOP_MS)
    PRESS_MS = 80  # a short, human press
    LONG_MS = 900  # longer than ButtonMachine's long press

    def __init__(self, root, board="pico", start_us=0, clock=None, fs=None):
        install()
        from firmware import start
        from host_sim.ssd1306_emu import SSD1306Emulator

        os.makedirs(root, exist_ok=True)
        self.root = root
        _machine.sim_reset()
        self.clock = clock or VirtualClock(start_us=start_us)
        _machine.set_time_source(self.clock.ticks_ms)
        self.board = start.board_module(board)
        self.emu = SSD1306Emulator(self.board.OLED_ADDR)
        _machine.attach_i2c(self.board.OLED_ADDR, self.emu)
        self.fs = fs
        self.app = start.build(_machine, self.board, self.clock, root, fs)
        self.app.start()
        self.step(0)

    # Time and input ---------------------------------------------------------------

    def step(self, ms=0):
        """Run the app loop for `ms` of virtual time (at least one turn)."""
        turns = max(1, ms // self.STEP_MS)
        for _ in range(turns):
            self.app.step_safely()
            self.clock.advance_ms(self.STEP_MS)

    def _pin(self, name):
        return self.board.NAV_PINS[BUTTONS.index(name.upper())]

    def press(self, name, hold_ms=None, after_ms=60):
        """Press and release a navigation button (UP DOWN LEFT RIGHT OK BACK)."""
        pin = self._pin(name)
        _machine.press(pin)
        self.step(hold_ms or self.PRESS_MS)
        _machine.release(pin)
        self.step(after_ms)

    def long(self, name):
        self.press(name, self.LONG_MS)

    def presses(self, *names):
        for name in names:
            self.press(name)

    def hold(self, name):
        _machine.press(self._pin(name))

    def let_go(self, name):
        _machine.release(self._pin(name))

    def call_down(self, player):
        _machine.press(self.board.CALL_PINS[player - 1])

    def call_up(self, player):
        _machine.release(self.board.CALL_PINS[player - 1])

    def call(self, player, hold_ms=None, after_ms=60):
        self.call_down(player)
        self.step(hold_ms or self.PRESS_MS)
        self.call_up(player)
        self.step(after_ms)

    # What the panel shows -------------------------------------------------------------

    @property
    def screen(self):
        return self.app.screen

    @property
    def game(self):
        return self.app.session.game if self.app.session else None

    def pixels(self):
        """The panel's visible image: 64 rows of 128 ints (0 or 1)."""
        return self.emu.pixels()

    def framebuffer_pixels(self):
        fb = self.app.fb
        return [[fb.pixel(x, y) for x in range(fb.width)] for y in range(fb.height)]

    def find_text(self, text, scale=1):
        """(x, y) where `text` shows on the panel in the 6x8 font (lit or inverted), or None."""
        return find_text(self.pixels(), text, scale)

    def shows(self, text, scale=1):
        return self.find_text(text, scale) is not None

    def shows_big(self, text):
        """`text` in the large digits of firmware.ui.big (2x or 3x)."""
        pixels = self.pixels()
        return find_text(pixels, text, 2) is not None or find_text(pixels, text, 3) is not None

    def text(self):
        from host_sim.screenshot import to_text
        return to_text(self.emu)

    def screenshot(self, path, scale=4):
        from host_sim.screenshot import save_png
        save_png(self.emu, path, scale=scale)


_glyph_cache = {}


def _glyph_rows(text, scale=1):
    """(rows, width) of `text` as the firmware draws it (firmware.ui: the 6x8 font at
    scale 1, ui.big at 2 and more), rows as ints (bit 0 = leftmost)."""
    key = (text, scale)
    got = _glyph_cache.get(key)
    if got is None:
        _framebuf.install()
        from firmware import ui
        width = ui.width(text) if scale < 2 else ui.big_width(text, scale)
        height = ui.LINE if scale < 2 else ui.big_height(scale)
        fb = _framebuf.FrameBuffer(bytearray(width * ((height + 7) // 8)), width, height,
                                   _framebuf.MONO_VLSB)
        if scale < 2:
            ui.text(fb, text, 0, 0, 1)
        else:
            ui.big(fb, text, 0, 0, scale, 1)
        rows = []
        for y in range(height):
            bits = 0
            for x in range(width):
                if fb.pixel(x, y):
                    bits |= 1 << x
            rows.append(bits)
        got = _glyph_cache[key] = (rows, width)
    return got


def find_text(pixels, text, scale=1):
    """(x, y) of `text` in the 6x8 font (scale 1) or firmware.ui.big, lit or inverted."""
    want, width = _glyph_rows(text, scale)
    height = len(want)
    mask = (1 << width) - 1
    lines = []
    for row in pixels:
        bits = 0
        for x, v in enumerate(row):
            if v:
                bits |= 1 << x
        lines.append(bits)
    full = (1 << len(pixels[0])) - 1
    for inverted in (False, True):
        rows = [(~r & full) if inverted else r for r in lines]
        for y in range(len(rows) - height + 1):
            for x in range(len(pixels[0]) - width + 1):
                if all(((rows[y + i] >> x) & mask) == want[i] for i in range(height)):
                    return (x, y)
    return None
