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

    Debounce: a change counts on its first edge when that edge is clean: it comes
    after the contact was still (no edge) for DEBOUNCE_US, and its new level holds: it
    is still there at some moment from GLITCH_US (2 ms) to DEBOUNCE_US after that edge
    (the first tick from then on reports it, dated at the edge). The bounce after it is
    ignored until DEBOUNCE_US after the first edge. A single glitch shorter than
    GLITCH_US (noise on the line) is no press; a contact that bounces longer than that
    is still a press at its first edge. Edges that do not come out of a still contact
    (a release within DEBOUNCE_US of the press's bounce, a level left changed when a
    bounce ended) fall back to settling: the change counts once the raw level has
    stayed the same for DEBOUNCE_US after its last edge.
    A hold lasts from the first edge of the press to the first edge of the release
    (of the release's burst, edges less than DEBOUNCE_US apart, when it was not clean):
    LONG and REPEAT are decided on that span, so a bouncy release never turns a short
    press into a long one. `wait_us()` says how long the next tick may wait (the app
    loop sleeps until then or until an edge); `tick` and an idle `Buttons.poll`
    allocate nothing.

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
    (empty tuples when there are none) and the raw edges of the Stress call buttons, `(player, down, t_us)` with player
    1..4, down 1/0 and t_us the wrapped ticks_us of the edge. Call edges are NOT
    debounced here: the rules core's arbiter does that itself (use
    firmware.drivers.clock.TickUnwrapper to turn t_us into the transcript's `@T`).
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
_GLITCH_US = const(2000)  # a level that does not hold this long is noise, not a press
_HOLD_US = const(10000)  # the pace of ticks while a button is held
_QUIET = const(0)
_CLEAN = const(1)
_BOUNCE = const(2)
_REPEAT_DELAY_US = const(400000)
_REPEAT_US = const(120000)


_IDLE = ((), ())  # what an idle poll returns: no events, no call edges


def _diff(end, start):
    # (end - start + _HALF) would pass 2**30, a long int on a 32-bit board, for half
    # of all pairs of stamps: an idle poll would allocate. Every step here stays small.
    d = (end - start) & _MASK
    if d >= _HALF:
        d -= _HALF
        d -= _HALF
    return d


class EdgeRing:
    def __init__(self, size=64):
        self.size = size
        # ticks_us of each edge; source << 1 | down; head, tail (both mod 2*size),
        # overflows
        self._b = (array("l", [0] * size), bytearray(size), array("l", (0, 0, 0)))
        self.counts = self._b[2]  # head, tail, overflows: head == tail while empty

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
        # seen: an edge was ever seen; phase: _QUIET, _CLEAN (a clean first edge waits
        # for its level to hold) or _BOUNCE (a change counted at its first edge: edges
        # ignored until the debounce time after it); long: LONG sent in this hold; the
        # times of the last raw edge, of the first edge of the latest burst, of the
        # press, of the next REPEAT, of the first edge of the change under way
        self._per = (bytearray(count), bytearray(count), bytearray(count),
                     array("l", z), array("l", z), array("l", z), array("l", z),
                     array("l", z))
        self._events = []

    def edge(self, button, down, t):
        """A raw edge (down 1/0) of `button` at ticks `t`. Feed edges in time order."""
        for b in range(self.count):
            self._advance(b, t)
        seen, phase, _, t_raw, t_burst, _, _, t_first = self._per
        down = 1 if down else 0
        quiet = not seen[button] or _diff(t, t_raw[button]) >= _DEBOUNCE_US
        if quiet:
            # A new burst of edges begins (what came before, a bounce or a glitch, is
            # over): its first edge is clean when it changes the level
            t_burst[button] = t
            phase[button] = _QUIET
            if down != self.state[button]:
                phase[button] = _CLEAN
                t_first[button] = t
        seen[button] = 1
        self.raw[button] = down
        t_raw[button] = t

    def tick(self, now):
        """Let time run to `now`; returns the events since the last tick (a list, or an
        empty tuple when there are none: an idle tick allocates nothing)."""
        for b in range(self.count):
            self._advance(b, now)
        ev = self._events
        if not ev:
            return ()
        self._events = []
        return ev

    def wait_us(self):
        """-1 while no contact moves and no button is held (the app loop may sleep until
        an edge), else how long it may wait for its next tick: GLITCH_US while a contact
        moves (a clean edge waiting to hold, a bounce, a settling change), HOLD_US while
        a button is held (its LONG or REPEAT comes)."""
        wait = -1
        phase = self._per[1]
        for b in range(self.count):
            if phase[b] or self.raw[b] != self.state[b]:
                return _GLITCH_US
            if self.state[b]:
                wait = _HOLD_US
        return wait

    def _advance(self, b, t):
        _, phase, _, t_raw, t_burst, _, _, t_first = self._per
        ph = phase[b]
        new = self.raw[b] != self.state[b]
        if self.state[b]:
            # Held for sure until t; a clean release under way ends the hold at its
            # first edge, and edges that may be a release (not clean: close after
            # others) end it at the first edge of their burst.
            limit = t
            if ph == _CLEAN:
                limit = t_first[b]
            elif not ph and (new or _diff(t, t_raw[b]) < _DEBOUNCE_US):
                limit = t_burst[b]
            self._timers(b, limit)
        since = _diff(t, t_first[b])
        if ph == _CLEAN and new and since >= _GLITCH_US and \
                _diff(t_raw[b], t_first[b]) < _DEBOUNCE_US:
            # The new level held at a moment from GLITCH_US to DEBOUNCE_US after the
            # first edge: the change counts, dated at that edge, and the bounce after
            # it is ignored until DEBOUNCE_US after that edge.
            phase[b] = _BOUNCE
            self._change(b, t_first[b], t)
        elif not ph or since >= _DEBOUNCE_US:
            # No change under way, or its bounce (or a glitch: a level that never held)
            # is over. Edges that did not come out of a still contact, and a level left
            # changed when a bounce ended, count once the raw level has stayed the same
            # for DEBOUNCE_US after its last edge.
            phase[b] = _QUIET
            if new and _diff(t, t_raw[b]) >= _DEBOUNCE_US:
                self._change(b, t_raw[b], t)

    def _change(self, b, at, t):
        """The debounced level of `b` becomes the raw one, the change dated `at`."""
        _, _, long, _, _, t_press, t_next, _ = self._per
        down = self.raw[b]
        self.state[b] = down
        ev = self._events
        if down:
            t_press[b] = at
            long[b] = 0
            t_next[b] = (at + _REPEAT_DELAY_US) & _MASK
            ev.append((PRESS, b))
            self._timers(b, t)
        else:
            ev.append((RELEASE, b))
            if not long[b]:
                ev.append((SHORT, b))

    def _timers(self, b, limit):
        _, _, long, _, _, t_press, t_next, _ = self._per
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
        calls = ()  # a list from the first call edge on: an idle poll allocates nothing
        ring = self.ring
        e = ring.get()  # None, allocating nothing, when the ring is empty
        while e is not None:
            src, down, t = e
            if src < nav:
                m.edge(src, down, t)
            else:
                i = src - nav
                level[i] = down
                if not calls:
                    calls = []
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
                    if not calls:
                        calls = []
                    calls.append((src - nav + 1, down, now))
        events = m.tick(now)
        if not events and not calls:
            return _IDLE
        return events, calls

    def held(self, button):
        return self.machine.state[button] == 1

    @property
    def overflows(self):
        return self.ring.overflows

    def deinit(self):
        for p in self.pins:
            p.irq(handler=None)
