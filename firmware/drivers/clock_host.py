"""The device clock's wrapping counters on CPython (the simulator run in real time),
emulated from `time.perf_counter_ns`: firmware.drivers.clock.Clock loads this only where the
time module has no ticks_us, so never on a board."""

TICKS_MAX = (1 << 30) - 1


class HostTicks:
    """tm: CPython's time module; ticks_diff, ticks_add: firmware.drivers.clock's (handed in,
    so that this module imports nothing back)."""

    def __init__(self, tm, ticks_diff, ticks_add):
        self._ns = getattr(tm, "perf_counter_ns")
        self._sleep = tm.sleep
        self.ticks_diff = ticks_diff
        self.ticks_add = ticks_add

    def ticks_us(self):
        return (self._ns() // 1000) & TICKS_MAX

    def ticks_ms(self):
        return (self._ns() // 1000000) & TICKS_MAX

    def sleep_ms(self, ms):
        if ms > 0:
            self._sleep(ms / 1000)
