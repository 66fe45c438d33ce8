"""The device clock: the only way firmware reads time.

`Clock` wraps MicroPython's `time.ticks_us`, `ticks_ms`, `ticks_diff`, `ticks_add`
and `sleep_ms`. Tick values wrap (period 2**30 on every port), so compare them only
with `ticks_diff(later, earlier)`. On CPython (the simulator run in real time) the same
wrapping counters are emulated from `time.perf_counter_ns` (firmware/drivers/clock_host.py,
never loaded on a board). Tests inject
`host_sim.vclock.VirtualClock`, which has the same methods.

`TickUnwrapper` turns wrapped tick values into a monotonic count (for transcript
timestamps `@T`, which never go back): feed it values at least every 2**29 ticks. The
count passes 2**30 after 18 minutes, and on a 32-bit board (31-bit small ints) an int of
2**30 or more is a long int on the heap, so every sum with one allocates: the unwrapper
keeps the count in two small ints, and `feed` and `since` (for a loop turn that only
keeps the count going and measures from a known @T) allocate nothing at any length;
`unwrap` (for an edge that is journalled) builds the whole count.
"""

import time

TICKS_PERIOD = 1 << 30
TICKS_MAX = TICKS_PERIOD - 1
TICKS_HALF = TICKS_PERIOD >> 1


def ticks_diff(end, start):
    """MicroPython's time.ticks_diff, in plain arithmetic (same results). Every step
    stays a small int on a 32-bit port ((end - start + TICKS_HALF) would not)."""
    d = (end - start) & TICKS_MAX
    if d >= TICKS_HALF:
        d -= TICKS_HALF
        d -= TICKS_HALF
    return d


def ticks_add(t, delta):
    """MicroPython's time.ticks_add (same OverflowError for too large a delta); small
    ints only for a tick value t (t + delta may pass 2**30, the steps below do not)."""
    if not -TICKS_HALF < delta < TICKS_HALF:
        raise OverflowError("ticks interval overflow")
    if delta < 0:
        return (t + delta) & TICKS_MAX
    return ((t - TICKS_HALF) + (delta - TICKS_HALF)) & TICKS_MAX


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

    The count is kept as hi * 2**29 + lo with 0 <= lo < 2**29: both stay small ints on
    a 32-bit board whatever the count (see the module docstring).
    """

    def __init__(self, start=0):
        self._last_t = None
        self._hi = start >> 29
        self._lo = start - (self._hi << 29)
        self._ref = None  # since(): the last T asked about, and its halves
        self._ref_hi = 0
        self._ref_lo = 0

    def feed(self, t):
        """Take the tick value t (the rules of unwrap); allocates nothing. Returns t's
        ticks after the latest value taken before (<= 0: not later)."""
        if self._last_t is None:
            self._last_t = t
            return 0
        d = ticks_diff(t, self._last_t)
        if d > 0:
            self._last_t = t
            lo = self._lo + d  # < 2**30
            if lo >= TICKS_HALF:
                lo -= TICKS_HALF
                self._hi += 1
            self._lo = lo
        return d

    def unwrap(self, t):
        d = self.feed(t)
        mono = (self._hi << 29) + self._lo  # a long int past 2**30 us: for an edge
        return mono + d if d < 0 else mono

    def since(self, T, limit):
        """The latest count minus T (any count: the game's latest @T), clamped to
        -limit..limit (limit < 2**29), from small ints only. T's halves are worked out
        when T is another object than at the last call (a new @T: a line went in, which
        allocates anyway) and kept, so asking about the same T every turn is free."""
        if T is not self._ref:
            self._ref = T
            self._ref_hi = T >> 29
            self._ref_lo = T - (self._ref_hi << 29)
        dh = self._hi - self._ref_hi
        d = self._lo - self._ref_lo  # the count - T is dh * 2**29 + d, |d| < 2**29
        if dh > 1 or dh == 1 and d >= limit - TICKS_HALF:
            return limit
        if dh < -1 or dh == -1 and d <= TICKS_HALF - limit:
            return -limit
        d += dh * TICKS_HALF  # dh is -1, 0 or 1 here, and d inside -2**29..2**29
        return limit if d > limit else (-limit if d < -limit else d)
