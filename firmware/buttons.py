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
        REPEAT  UP DOWN LEFT RIGHT only: held REPEAT_DELAY_US, then every REPEAT_US
    Suggested use: arrows act on PRESS and REPEAT; OK and BACK act on SHORT and LONG.
    Buttons: UP DOWN LEFT RIGHT OK BACK = 0 1 2 3 4 5 (the order of board.NAV_PINS).

Buttons
    Ties the board's pins, their IRQs, the ring and the machine together.
    `poll(now=None)` -> (events, calls): the navigation events since the last poll
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
# ButtonMachine's timing (LONG_US is its attribute: others read it)
_DEBOUNCE_US = const(20000)
_REPEAT_DELAY_US = const(400000)
_REPEAT_US = const(120000)


def _diff(end, start):
    return ((end - start + _HALF) & _MASK) - _HALF


class EdgeRing:
    def __init__(self, size=64):
        self.size = size
        # ticks_us of each edge; source << 1 | down; head, tail (both mod 2*size),
        # overflows
        self._b = (array("l", [0] * size), bytearray(size), array("l", (0, 0, 0)))

    def put(self, p, down, t):
        """Edge of source p, called in the IRQ: no allocation."""
        ts, ks, c = self._b
        size = self.size
        h = c[0]
        n = h - c[1]
        if n < 0:
            n += 2 * size
        if n >= size:
            c[2] += 1
            return
        i = h % size
        ts[i] = t
        ks[i] = (p << 1) | (down & 1)
        h += 1
        if h >= 2 * size:
            h = 0
        c[0] = h  # publish last

    def get(self):
        """Oldest edge as (source, down, t_us), or None when empty."""
        ts, ks, c = self._b
        tl = c[1]
        if tl == c[0]:
            return None
        i = tl % self.size
        k = ks[i]
        e = (k >> 1, k & 1, ts[i])
        tl += 1
        if tl >= 2 * self.size:
            tl = 0
        c[1] = tl
        return e

    def __len__(self):
        c = self._b[2]
        n = c[0] - c[1]
        return n + 2 * self.size if n < 0 else n

    @property
    def overflows(self):
        return self._b[2][2]


class ButtonMachine:
    LONG_US = 600000

    def __init__(self, count=6):
        self.count = count
        # per button: flags in bytearrays, times (ticks_us, 30 bits) in arrays
        self.raw = bytearray(count)  # last raw level, 1 = down
        self.state = bytearray(count)  # debounced level, 1 = down
        z = [0] * count
        # seen: an edge was ever seen; pending: raw differs from state, since t_raw;
        # long: LONG sent in this hold; the times of the last raw edge, of the first
        # edge of the latest burst, of the press, of the next REPEAT
        self._per = (bytearray(count), bytearray(count), bytearray(count),
                     array("l", z), array("l", z), array("l", z), array("l", z))
        self._events = []

    def edge(self, button, down, t):
        """A raw edge (down 1/0) of `button` at ticks `t`. Feed edges in time order."""
        for b in range(self.count):
            self._advance(b, t)
        seen, pending, _, t_raw, t_burst, _, _ = self._per
        down = 1 if down else 0
        if not seen[button] or _diff(t, t_raw[button]) >= _DEBOUNCE_US:
            t_burst[button] = t  # a new burst of edges begins
            seen[button] = 1
        self.raw[button] = down
        t_raw[button] = t
        pending[button] = 1 if down != self.state[button] else 0

    def tick(self, now):
        """Let time run to `now`; returns the events since the last tick (a list)."""
        for b in range(self.count):
            self._advance(b, now)
        ev = self._events
        self._events = []
        return ev

    def _advance(self, b, t):
        _, pending, long, t_raw, t_burst, t_press, t_next = self._per
        if self.state[b]:
            # held for sure until t, or only until the burst began while edges come
            # (they may be the release) and when they ended open
            if pending[b] or _diff(t, t_raw[b]) < _DEBOUNCE_US:
                self._timers(b, t_burst[b])
            else:
                self._timers(b, t)
        if pending[b] and _diff(t, t_raw[b]) >= _DEBOUNCE_US:
            pending[b] = 0
            down = self.raw[b]
            self.state[b] = down
            ev = self._events
            if down:
                tp = t_raw[b]
                t_press[b] = tp
                long[b] = 0
                t_next[b] = (tp + _REPEAT_DELAY_US) & _MASK
                ev.append((PRESS, b))
                self._timers(b, t)
            else:
                ev.append((RELEASE, b))
                if not long[b]:
                    ev.append((SHORT, b))

    def _timers(self, b, limit):
        _, _, long, _, _, t_press, t_next = self._per
        ev = self._events
        if b <= RIGHT:  # UP DOWN LEFT RIGHT repeat
            if _diff(limit, t_next[b]) >= 0:
                ev.append((REPEAT, b))
                nxt = (t_next[b] + _REPEAT_US) & _MASK
                if _diff(limit, nxt) >= 0:  # late: skip the missed ones
                    nxt = (limit + _REPEAT_US) & _MASK
                t_next[b] = nxt
        if not long[b] and _diff(limit, t_press[b] + self.LONG_US) >= 0:
            long[b] = 1
            ev.append((LONG, b))


class Buttons:
    def __init__(self, machine, board, clock, ring_size=64, hard=True):
        Pin = machine.Pin
        self.clock = clock
        self.ring = ring = EdgeRing(ring_size)
        inv = 1 if getattr(board, "ACTIVE_LOW", True) else 0
        pull = Pin.PULL_UP if inv else Pin.PULL_DOWN
        nav = tuple(board.NAV_PINS)
        calls = tuple(getattr(board, "CALL_PINS", ()))
        n_nav = len(nav)
        self.machine = m = ButtonMachine(n_nav)
        self.pins = []
        self.handlers = []  # the IRQ handler of each pin (nav, then calls)
        self._seen_over = 0
        # the count of navigation pins, the level of a pressed pin, each call pin's level
        level = bytearray(len(calls))
        self._calls = (n_nav, inv, level)
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
                level[src - n_nav] = down

    def poll(self, now=None):
        """-> (events, calls) since the last poll (now: ticks_us). See the module
        docstring."""
        if now is None:
            now = self.clock.ticks_us()
        m = self.machine
        nav, inv, level = self._calls
        calls = []
        ring = self.ring
        e = ring.get()
        while e is not None:
            src, down, t = e
            if src < nav:
                m.edge(src, down, t)
            else:
                i = src - nav
                level[i] = down
                calls.append((i + 1, down, t))
            e = ring.get()
        if ring.overflows != self._seen_over:
            # edges were lost: take the levels the pins show now
            self._seen_over = ring.overflows
            for src in range(len(self.pins)):
                down = self.pins[src].value() ^ inv
                if src < nav:
                    if down != m.raw[src]:
                        m.edge(src, down, now)
                elif down != level[src - nav]:
                    level[src - nav] = down
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
