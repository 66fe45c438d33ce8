"""The device in a web page: the unchanged firmware on the browser's hardware layer.

MicroPython code (WebAssembly port), loaded by host_sim/web/page.js after it has copied the
device files (core/, firmware/, boot.py, main.py) into /flash, the board's flash.

    start(board_name, root)   build the app as firmware/start.py does on the board
                              (firmware.start.build) on the browser's machine
                              (host_sim/web/py/machine.py) and clock, and show the home screen
                              (or the saved game)
    step()                    one turn of the app loop (App.step_safely): page.js
                              calls it every App.LOOP_MS from a timer, so the browser
                              never waits on the firmware (the board's App.run is the
                              same turn in a `while True` with a sleep)
    press(name) / release(name)   a button: UP DOWN LEFT RIGHT OK BACK CALL1..CALL4
    journal_text()            the journal in the table notation (checksums removed)
    settled()                 the firmware has done all it will do for the edges it was
                              given: no edge waits in the ring, every button is up and
                              decided, no frame, entry or collection waits (the page's
                              window.tabletop.settled, which tests wait on)

The clock is firmware.drivers.clock.Clock over the page's performance.now(): ticks_us and
ticks_ms wrap at 2**30 as on the board; ticks_diff and ticks_add are MicroPython's.
"""

import sys
import time

import _web
import machine

NAV = ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")

app = None
board = None


class _PageTime:
    """A `time` module for firmware.drivers.clock.Clock: the page's high-resolution clock."""

    def __init__(self):
        self.ticks_us = _web.ticks_us
        self.ticks_ms = _web.ticks_ms
        self.ticks_diff = time.ticks_diff
        self.ticks_add = time.ticks_add

    def sleep_ms(self, ms):
        # The page drives the loop, so the app never sleeps; if something does, it
        # waits here as it would on the board.
        t0 = self.ticks_ms()
        while time.ticks_diff(self.ticks_ms(), t0) < ms:
            pass


def start(board_name="pico", root="/flash"):
    global app, board
    from firmware import start as fw_start
    from firmware.drivers.clock import Clock

    board = fw_start.board_module(board_name)
    clock = Clock(_PageTime())
    app = fw_start.build(machine, board, clock, root)
    app.start()
    step()
    return app.LOOP_MS


def step():
    app.step_safely()
    return app.frames


def pin_of(name):
    name = name.upper()
    if name in NAV:
        return board.NAV_PINS[NAV.index(name)]
    if name.startswith("CALL"):
        return board.CALL_PINS[int(name[4:]) - 1]
    raise ValueError("no button " + name)


def press(name):
    machine.press(pin_of(name))


def release(name):
    machine.release(pin_of(name))


def settled():
    buttons = app.hw.buttons
    if len(buttons.ring):
        return False
    m = buttons.machine
    for i in range(m.count):
        if m.raw[i] or m.state[i]:  # held, or its release not yet decided
            return False
    wait_us = getattr(m, "wait_us", None)
    if wait_us is not None and wait_us() >= 0:
        return False  # a debounce (a bounce's end, a glitch check) still to run
    idle_ms = getattr(app, "idle_ms", None)
    if idle_ms is not None:
        return idle_ms() > 0  # 0: a frame, an entry or a collection is to do
    return not getattr(app, "_dirty", False)


def journal_name():
    from firmware.session import JOURNAL
    return JOURNAL


def journal_text():
    """The journal's records as table notation, one per line ('' when none)."""
    try:
        from firmware.journal import unseal
    except ImportError:
        unseal = None
    data = app.hw.storage.read_bytes(journal_name())
    if not data:
        return ""
    out = []
    for raw in data.split(b"\n"):
        if not raw.strip():
            continue
        text = unseal(raw) if unseal is not None else None
        if text is None:  # a damaged line: shown as it is
            try:
                text = raw.decode().rstrip()
            except UnicodeError:
                text = "(unreadable line)"
        if text:
            out.append(text)
    return "\n".join(out)


def info():
    v = sys.implementation.version
    return "%s, MicroPython %d.%d.%d" % (board.NAME, v[0], v[1], v[2])


def pins():
    """[[UP, DOWN, LEFT, RIGHT, OK, BACK], [CALL1..]]: the board's GPIO numbers."""
    return [list(board.NAV_PINS), list(board.CALL_PINS)]


def mem():
    """(allocated, free) bytes of the MicroPython heap."""
    import gc
    return [gc.mem_alloc(), gc.mem_free()]
