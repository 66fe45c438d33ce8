"""A virtual clock for the simulator and the tests.

Same methods as `firmware.drivers.clock.Clock` (`ticks_us`, `ticks_ms`, `ticks_diff`,
`ticks_add`, `sleep_ms`), plus `advance_us(n)` / `advance_ms(n)` to move time.
Nothing moves by itself: time passes only through advance_* and sleep_*.

Tick values wrap at 2**30 exactly like MicroPython, and `ticks_diff` / `ticks_add`
behave identically (including the OverflowError of ticks_add). `start_us` and
`start_ms` set the first tick values, e.g. `VirtualClock(start_us=2**30 - 5000)`
to cross the wrap point five milliseconds into a test.

MicroPython-compatible code (no CPython-only features).
"""

TICKS_PERIOD = 1 << 30
TICKS_MAX = TICKS_PERIOD - 1
TICKS_HALF = TICKS_PERIOD >> 1


class VirtualClock:
    def __init__(self, start_us=0, start_ms=None):
        if start_ms is None:
            start_ms = start_us // 1000
        self._start_us = start_us
        self._start_ms = start_ms
        self.elapsed_us = 0  # virtual microseconds since creation, never wraps
        self.sleeps = 0  # number of sleep_ms/sleep_us calls (for tests)
        self._listeners = []

    # --- time.* ---------------------------------------------------------
    def ticks_us(self):
        return (self._start_us + self.elapsed_us) & TICKS_MAX

    def ticks_ms(self):
        return (self._start_ms + self.elapsed_us // 1000) & TICKS_MAX

    def ticks_cpu(self):
        return self.ticks_us()

    def ticks_diff(self, end, start):
        return ((end - start + TICKS_HALF) & TICKS_MAX) - TICKS_HALF

    def ticks_add(self, t, delta):
        if not -TICKS_HALF < delta < TICKS_HALF:
            raise OverflowError("ticks interval overflow")
        return (t + delta) & TICKS_MAX

    def sleep_ms(self, ms):
        self.sleeps += 1
        if ms > 0:
            self.advance_us(ms * 1000)

    def sleep_us(self, us):
        self.sleeps += 1
        if us > 0:
            self.advance_us(us)

    def sleep(self, s):
        self.sleep_ms(int(s * 1000))

    # --- simulator side -------------------------------------------------
    def advance_us(self, n):
        if n < 0:
            raise ValueError("time never goes back")
        self.elapsed_us += n
        for fn in self._listeners:
            fn(self)

    def advance_ms(self, n):
        self.advance_us(n * 1000)

    def on_advance(self, fn):
        """Call fn(clock) after every advance (e.g. to let a scripted input fire)."""
        self._listeners.append(fn)

    def elapsed_ms(self):
        return self.elapsed_us // 1000
