"""The device clock: the only way firmware reads time.

`Clock` wraps MicroPython's `time.ticks_us`, `ticks_ms`, `ticks_diff`, `ticks_add`
and `sleep_ms`. Tick values wrap (period 2**30 on every port), so compare them only
with `ticks_diff(later, earlier)`. On CPython (the simulator run in real time) the same
wrapping counters are emulated from `time.perf_counter_ns` (firmware/drivers/clock_host.py,
never loaded on a board). Tests inject
`host_sim.vclock.VirtualClock`, which has the same methods.

`TickUnwrapper` turns wrapped tick values into a monotonic count (for transcript
timestamps `@T`, which never go back): feed it values at least every 2**29 ticks.
"""

import time

TICKS_PERIOD = 1 << 30
TICKS_MAX = TICKS_PERIOD - 1
TICKS_HALF = TICKS_PERIOD >> 1


def ticks_diff(end, start):
    """MicroPython's time.ticks_diff, in plain arithmetic (same results)."""
    return ((end - start + TICKS_HALF) & TICKS_MAX) - TICKS_HALF


def ticks_add(t, delta):
    """MicroPython's time.ticks_add (same OverflowError for too large a delta)."""
    if not -TICKS_HALF < delta < TICKS_HALF:
        raise OverflowError("ticks interval overflow")
    return (t + delta) & TICKS_MAX


class Clock:
    """Device clock. Its methods are the time module's own functions where they exist
    (no wrapper call in the IRQ path), else the emulation below."""

    def __init__(self, time_module=None):
        tm = time_module or time
        if not hasattr(tm, "ticks_us"):  # CPython: emulate the wrapping counters
            from firmware.drivers.clock_host import HostTicks  # never on a board
            tm = HostTicks(tm, ticks_diff, ticks_add)
        self.ticks_us = tm.ticks_us
        self.ticks_ms = tm.ticks_ms
        self.ticks_diff = tm.ticks_diff
        self.ticks_add = tm.ticks_add
        self.sleep_ms = tm.sleep_ms


class TickUnwrapper:
    """Wrapped ticks -> monotonic integer (starts at `start` for the first value).

    `unwrap(t)` must see values that lie within 2**29 ticks of the previous one;
    values slightly older than the last (an edge stamped before the poll that reads
    it) are fine: they come back smaller than the last result, never wrapped.
    """

    def __init__(self, start=0):
        self._last_t = None
        self._last_mono = start

    def unwrap(self, t):
        if self._last_t is None:
            self._last_t = t
            return self._last_mono
        d = ticks_diff(t, self._last_t)
        mono = self._last_mono + d
        if d > 0:
            self._last_t = t
            self._last_mono = mono
        return mono
