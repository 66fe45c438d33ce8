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

    def __init__(self, root, board="pico", start_us=0, clock=None):
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
        self.app = start.build(_machine, self.board, self.clock, root)
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

    def find_text(self, text):
        """(x, y) where `text` shows on the panel in the 8x8 font (lit or inverted), or None."""
        return find_text(self.pixels(), text)

    def shows(self, text):
        return self.find_text(text) is not None

    def text(self):
        from host_sim.screenshot import to_text
        return to_text(self.emu)

    def screenshot(self, path, scale=4):
        from host_sim.screenshot import save_png
        save_png(self.emu, path, scale=scale)


_glyph_cache = {}


def _glyph_rows(text):
    """The rows of `text` drawn in the 8x8 font, as ints (bit 0 = leftmost pixel)."""
    rows = _glyph_cache.get(text)
    if rows is None:
        width = 8 * len(text)
        buf = bytearray(width)
        fb = _framebuf.FrameBuffer(buf, width, 8, _framebuf.MONO_VLSB)
        fb.text(text, 0, 0, 1)
        rows = []
        for y in range(8):
            bits = 0
            for x in range(width):
                if fb.pixel(x, y):
                    bits |= 1 << x
            rows.append(bits)
        _glyph_cache[text] = rows
    return rows


def find_text(pixels, text):
    want = _glyph_rows(text)
    width = 8 * len(text)
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
        for y in range(len(rows) - 7):
            for x in range(len(pixels[0]) - width + 1):
                if all(((rows[y + i] >> x) & mask) == want[i] for i in range(8)):
                    return (x, y)
    return None
