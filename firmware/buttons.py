"""Buttons: edges captured in the pin interrupt, decided outside it.

Three parts:

EdgeRing
    Preallocated ring buffer that the pin IRQ handlers fill with (source, down,
    ticks_us). `put` allocates nothing (arrays, small ints, prepared bound methods),
    so it is safe in a hard IRQ. Single producer (the IRQ) and single consumer
    (`get`, from the main loop): no locks needed. When full, the new edge is dropped
    and counted in `overflows`.

ButtonMachine
    Pure state machine for the navigation buttons. No hardware, no clock: it is fed
    `edge(button, down, t_us)` in time order and `tick(now_us)`, and decides debounce,
    press, release, short/long press and auto-repeat. Every timing comparison uses
    ticks_diff arithmetic (period 2**30), so the tick counter may wrap anywhere.

    Debounce: a change of a button counts once the raw level has stayed the same for
    DEBOUNCE_US after its last edge (glitches shorter than that are ignored; a press
    is reported DEBOUNCE_US after the contact settled, a bounce does not end a hold).
    A hold lasts from the last edge of the press's bounce burst to the first edge of
    the release's burst (edges less than DEBOUNCE_US apart form one burst): LONG and
    REPEAT are decided on that span, so a bouncy release never turns a short press
    into a long one.

    Events are tuples (kind, button) of small ints, in the order they happen:
        PRESS   the button went down (every button)
        RELEASE the button came up (every button)
        SHORT   released before LONG_US (with RELEASE; not after a LONG)
        LONG    held for LONG_US (once per hold; then no SHORT on release)
        REPEAT  buttons in REPEATING only: held REPEAT_DELAY_US, then every REPEAT_US
    Suggested use: arrows act on PRESS and REPEAT; OK and BACK act on SHORT and LONG.
    Buttons: UP DOWN LEFT RIGHT OK BACK = 0 1 2 3 4 5 (the order of board.NAV_PINS).

Buttons
    Ties the board's pins, their IRQs, the ring and the machine together.
    `poll(now_us=None)` -> (events, calls): the navigation events since the last poll
    and the raw edges of the Stress call buttons, `(player, down, t_us)` with player
    1..4, down 1/0 and t_us the wrapped ticks_us of the edge. Call edges are NOT
    debounced here: the rules core's arbiter does that itself (use
    firmware.clock.TickUnwrapper to turn t_us into the transcript's `@T`).
"""

from array import array

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


UP = const(0)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
OK = const(4)
BACK = const(5)

PRESS = const(1)
RELEASE = const(2)
SHORT = const(3)
LONG = const(4)
REPEAT = const(5)

_MASK = const(0x3FFFFFFF)  # ticks period 2**30
_HALF = const(0x20000000)


def _diff(end, start):
    return ((end - start + _HALF) & _MASK) - _HALF


class EdgeRing:
    def __init__(self, size=64):
        self.size = size
        self._wrap = 2 * size
        self._t = array("l", [0] * size)  # ticks_us
        self._k = bytearray(size)  # source << 1 | down
        self._c = array("l", (0, 0, 0))  # head, tail (both mod 2*size), overflows

    def put(self, source, down, t):
        """Called in the IRQ: no allocation."""
        c = self._c
        h = c[0]
        n = h - c[1]
        if n < 0:
            n += self._wrap
        if n >= self.size:
            c[2] += 1
            return
        i = h % self.size
        self._t[i] = t
        self._k[i] = (source << 1) | (down & 1)
        h += 1
        if h >= self._wrap:
            h = 0
        c[0] = h  # publish last

    def get(self):
        """Oldest edge as (source, down, t_us), or None when empty."""
        c = self._c
        tl = c[1]
        if tl == c[0]:
            return None
        i = tl % self.size
        k = self._k[i]
        e = (k >> 1, k & 1, self._t[i])
        tl += 1
        if tl >= self._wrap:
            tl = 0
        c[1] = tl
        return e

    def __len__(self):
        n = self._c[0] - self._c[1]
        return n + self._wrap if n < 0 else n

    @property
    def overflows(self):
        return self._c[2]


class ButtonMachine:
    DEBOUNCE_US = 20000
    LONG_US = 600000
    REPEAT_DELAY_US = 400000
    REPEAT_US = 120000
    REPEATING = (UP, DOWN, LEFT, RIGHT)

    def __init__(self, count=6):
        self.count = count
        # per button: flags in bytearrays, times (ticks_us, 30 bits) in arrays
        self.raw = bytearray(count)  # last raw level, 1 = down
        self.seen = bytearray(count)  # an edge was ever seen
        self.pending = bytearray(count)  # raw differs from state, since t_raw
        self.state = bytearray(count)  # debounced level, 1 = down
        self.long = bytearray(count)  # LONG sent in this hold
        self.t_raw = array("l", [0] * count)  # time of the last raw edge
        self.t_burst = array("l", [0] * count)  # first edge of the latest burst
        self.t_press = array("l", [0] * count)
        self.t_next = array("l", [0] * count)  # next REPEAT
        self._events = []

    def edge(self, button, down, t):
        """A raw edge (down 1/0) of `button` at ticks `t`. Feed edges in time order."""
        for b in range(self.count):
            self._advance(b, t)
        down = 1 if down else 0
        if not self.seen[button] or _diff(t, self.t_raw[button]) >= self.DEBOUNCE_US:
            self.t_burst[button] = t  # a new burst of edges begins
            self.seen[button] = 1
        self.raw[button] = down
        self.t_raw[button] = t
        self.pending[button] = 1 if down != self.state[button] else 0

    def tick(self, now):
        """Let time run to `now`; returns the events since the last tick (a list)."""
        for b in range(self.count):
            self._advance(b, now)
        ev = self._events
        self._events = []
        return ev

    def _advance(self, b, t):
        if self.state[b]:
            # held for sure until t, or only until the burst began while edges come
            # (they may be the release) and when they ended open
            if self.pending[b] or _diff(t, self.t_raw[b]) < self.DEBOUNCE_US:
                self._timers(b, self.t_burst[b])
            else:
                self._timers(b, t)
        if self.pending[b] and _diff(t, self.t_raw[b]) >= self.DEBOUNCE_US:
            self.pending[b] = 0
            down = self.raw[b]
            self.state[b] = down
            ev = self._events
            if down:
                tp = self.t_raw[b]
                self.t_press[b] = tp
                self.long[b] = 0
                self.t_next[b] = (tp + self.REPEAT_DELAY_US) & _MASK
                ev.append((PRESS, b))
                self._timers(b, t)
            else:
                ev.append((RELEASE, b))
                if not self.long[b]:
                    ev.append((SHORT, b))

    def _timers(self, b, limit):
        ev = self._events
        if b in self.REPEATING:
            if _diff(limit, self.t_next[b]) >= 0:
                ev.append((REPEAT, b))
                nxt = (self.t_next[b] + self.REPEAT_US) & _MASK
                if _diff(limit, nxt) >= 0:  # late: skip the missed ones
                    nxt = (limit + self.REPEAT_US) & _MASK
                self.t_next[b] = nxt
        if not self.long[b] and _diff(limit, self.t_press[b] + self.LONG_US) >= 0:
            self.long[b] = 1
            ev.append((LONG, b))


class Buttons:
    def __init__(self, machine, board, clock, ring_size=64, hard=True):
        Pin = machine.Pin
        self.clock = clock
        self.ring = ring = EdgeRing(ring_size)
        inv = 1 if getattr(board, "ACTIVE_LOW", True) else 0
        self._inv = inv
        pull = Pin.PULL_UP if inv else Pin.PULL_DOWN
        nav = tuple(board.NAV_PINS)
        calls = tuple(getattr(board, "CALL_PINS", ()))
        self.nav_count = n_nav = len(nav)
        self.machine = m = ButtonMachine(n_nav)
        self.pins = []
        self.handlers = []  # the IRQ handler of each pin (nav, then calls)
        self._seen_over = 0
        self._call_level = bytearray(len(calls))
        now = clock.ticks_us()
        trigger = Pin.IRQ_FALLING | Pin.IRQ_RISING
        for src, num in enumerate(nav + calls):
            p = Pin(num, Pin.IN, pull)

            # One pin's IRQ handler: (source, down, ticks_us) into the ring. Everything
            # it needs is bound here, as defaults: a call allocates nothing.
            def handler(pin, put=ring.put, src=src, p=p, ticks=clock.ticks_us, inv=inv):
                put(src, p.value() ^ inv, ticks())

            try:
                p.irq(handler=handler, trigger=trigger, hard=hard)
            except TypeError:  # a port without hard IRQs
                p.irq(handler=handler, trigger=trigger)
            self.pins.append(p)
            self.handlers.append(handler)
            down = p.value() ^ inv
            if src < n_nav:
                if down:
                    m.edge(src, 1, now)
            else:
                self._call_level[src - n_nav] = down

    def poll(self, now_us=None):
        """-> (events, calls) since the last poll. See the module docstring."""
        now = self.clock.ticks_us() if now_us is None else now_us
        m = self.machine
        nav = self.nav_count
        calls = []
        ring = self.ring
        e = ring.get()
        while e is not None:
            src, down, t = e
            if src < nav:
                m.edge(src, down, t)
            else:
                i = src - nav
                self._call_level[i] = down
                calls.append((i + 1, down, t))
            e = ring.get()
        if ring.overflows != self._seen_over:
            # edges were lost: take the levels the pins show now
            self._seen_over = ring.overflows
            for src in range(len(self.pins)):
                down = self.pins[src].value() ^ self._inv
                if src < nav:
                    if down != m.raw[src]:
                        m.edge(src, down, now)
                elif down != self._call_level[src - nav]:
                    self._call_level[src - nav] = down
                    calls.append((src - nav + 1, down, now))
        return m.tick(now), calls

    def held(self, button):
        return self.machine.state[button] == 1

    @property
    def overflows(self):
        return self.ring.overflows

    def deinit(self):
        for p in self.pins:
            p.irq(handler=None)
