"""The Stress referee's call arbiter (rules STR-9 to STR-16, STR-20, STR-21 in
seeds/stress.md).

The device captures its call buttons' edges in an interrupt handler (button, level,
`ticks_us()`) into a ring buffer and, outside the interrupt, feeds them here one by
one with `edge(button, closed, t)`. The main loop calls `poll(t)` now and then (every
frame is plenty; at least every 2**28 us), `arm(t)` when calls are to be taken and reads
the decision with `winner()`, `tie()`, `margin_us()`, `loser()`.

Ticks wrap (period 2**30 on every MicroPython port), so stamps are compared only by
`ticks_diff`, never by subtracting raw values. Nothing here allocates per edge: the
per-button state lives in lists made once, and every value kept is a small int, a bool
or None. (The only exception: a call left open for more than 2**30 us, about 18
minutes, turns the age counter into a long int.)

What is guaranteed about delivery order (STR-21): the decision depends only on each
button's own edges with their stamps and on the arm time, not on how the edges of
different buttons are interleaved, provided each button's edges arrive in their own
order and every stamp lies within 2**27 us of the latest stamp fed. So edges of
different buttons with equal stamps may come in either order, and edges with ordered
stamps may come in time order or not.
"""

TICKS_PERIOD = 1 << 30
TICKS_MAX = TICKS_PERIOD - 1
TICKS_HALF = TICKS_PERIOD >> 1

# A button open for this long has certainly settled, whatever the debounce time:
# remembered as a flag so that ticks_diff never has to span more than half a period.
LONG_US = 1 << 28
MAX_OPTION_US = 1 << 26  # the largest debounce / tie / slow window accepted (~67 s)

# Defaults (reasons in seeds/stress.md, STR-17).
DEBOUNCE_US = 20000
TIE_WINDOW_US = 500
SLOW_WINDOW_US = 1000000

# What edge() reports.
BOUNCE = 0  # not a press: bounce, a release, or a closing edge of a held button
PRESS = 1  # a press that is not a call (disarmed, or stamped before the arm)
CALL = 2  # a press that is (so far) the first of the armed period: it makes the call
LATE = 3  # a press in the armed period after the call (margin and loser only)


def ticks_diff(end, start):
    """MicroPython's time.ticks_diff for the 2**30 period: end - start in -2**29 .. 2**29-1.

    Written so that no intermediate value leaves MicroPython's small-int range
    (-2**30 .. 2**30-1 on a 32-bit port): no long int is made, nothing is allocated.
    """
    d = (end - start) & TICKS_MAX
    if d >= TICKS_HALF:
        d -= TICKS_HALF
        d -= TICKS_HALF
    return d


def ticks_add(t, delta):
    """MicroPython's time.ticks_add for the 2**30 period."""
    if not -TICKS_HALF < delta < TICKS_HALF:
        raise OverflowError("ticks interval overflow")
    return (t + delta) & TICKS_MAX


# What EdgeFilter.offer() says about an edge.
KEEP = 0  # journal it now, after the held openings (take() them first)
HOLD = 1  # an opening kept back: take() gives it later, unless bounce makes it moot
DROP = 2  # changes nothing the referee can ever decide: leave it out of the journal


class EdgeFilter:
    """Which call-button edges the journal needs (seeds/stress.md, the edge filter).

    The journal's game is fed only what offer() keeps; the guarantee is that it then
    decides exactly as a game fed every edge: same calls (winner, tie, margin, loser),
    same buttons held, and the same answer to any edge that comes later. Per button:

    - A closing edge of a button that is closed in the journal: bounce that changes
      nothing (STR-12). DROP.
    - An opening edge of a button closed in the journal: HOLD it (one per button; a
      newer opening replaces a held one, as the newer opening is the one that counts).
    - A closing edge while an opening is held and less than debounce_us after it: the
      pair is bounce of a button that stays closed (the release bounced, or the press
      chattered). Both are dropped: DROP.
    - Anything else: KEEP. The caller first journals every held opening (take()) in
      stamp order, so the journal stays in time order, then this edge.

    The caller also takes the held openings before any other line, and may take one
    once it is due (debounce_us old: no bounce can cancel it any more) so that the
    game shows the button open. What the journal does not see is time: its last T may
    be earlier, so `t`, `moves` and the arm time differ, never a decision.

    t: the notation's unwrapped microseconds (`@T`, which only grows), never wrapped
    ticks: gaps of any length are compared by plain subtraction. Allocates nothing but
    what take() returns (and long ints once T passes 2**30 on MicroPython).
    """

    def __init__(self, players, debounce_us=DEBOUNCE_US):
        self.players = players
        self.debounce_us = debounce_us
        self._held = [None] * players  # T of a held opening edge, per button

    def clear(self):
        """Forget the held openings (after an undo or a failed write)."""
        for i in range(self.players):
            self._held[i] = None

    def offer(self, button, closed, t, journal_closed):
        """One edge, in stamp order; journal_closed: the journal's game holds the button
        closed now (Arbiter.is_closed). Returns KEEP, HOLD or DROP."""
        held = self._held[button]
        if not closed:
            if held is not None or journal_closed:
                self._held[button] = t
                return HOLD
            return KEEP
        if held is not None:
            if t - held < self.debounce_us:
                self._held[button] = None
                return DROP
            return KEEP
        if journal_closed:
            return DROP
        return KEEP

    def take(self, now=None):
        """The earliest held opening as (button, T), forgotten here; the caller journals
        it. With now: only one that is due (debounce_us or more before now). None when
        there is none."""
        best = -1
        for i in range(self.players):
            h = self._held[i]
            if h is not None and (best < 0 or h < self._held[best]):
                best = i
        if best < 0:
            return None
        t = self._held[best]
        if now is not None and now - t < self.debounce_us:
            return None
        self._held[best] = None
        return (best, t)


class Arbiter:
    """Decides Stress calls from raw button edges. Buttons are 0-based player indexes."""

    def __init__(self, players, debounce_us=DEBOUNCE_US, tie_window_us=TIE_WINDOW_US,
                 slow_window_us=SLOW_WINDOW_US, now=0):
        self.players = players
        self.debounce_us = debounce_us
        self.tie_window_us = tie_window_us
        self.slow_window_us = slow_window_us
        # Every button open and settled, nothing armed, no call:
        self._closed = [False] * players
        self._opened = [0] * players  # tick of the button's last opening edge
        self._settled = [True] * players  # open long enough for sure (or never pressed)
        self._press = [None] * players  # us after the arm of the player's first press
        self._now = now & TICKS_MAX  # the latest stamp seen
        self._age = 0  # us from the arm time to _now (negative during a countdown)
        self._armed = False

    # Time ------------------------------------------------------------------

    def _step(self, d, t):
        """Move the latest stamp on by d > 0 microseconds, to tick t."""
        self._now = t
        self._age += d
        for i in range(self.players):
            if not self._closed[i] and not self._settled[i]:
                if d >= LONG_US or ticks_diff(self._now, self._opened[i]) >= LONG_US:
                    self._settled[i] = True

    def advance(self, delta_us):
        """Time has moved on by exactly delta_us (any size) with no edge: for a caller that
        knows the true gap (the notation's unwrapped T, a wake from a long sleep)."""
        if delta_us > 0:
            self._step(delta_us, (self._now + delta_us) & TICKS_MAX)

    def poll(self, t):
        """Tell the arbiter the time: call at least every 2**28 us (each frame is fine)."""
        d = ticks_diff(t, self._now)
        if d > 0:
            self._step(d, t)

    # Arming ----------------------------------------------------------------

    def arm(self, t, delay_us=0):
        """Take calls from t + delay_us on (a countdown when delay_us > 0).

        Presses stamped before that are not calls; a button held at that moment cannot
        call until it has been released and has settled open. Forgets the last call.
        """
        self.poll(t)
        self._age = ticks_diff(self._now, t) - delay_us
        for i in range(self.players):
            self._press[i] = None
        self._armed = True

    def disarm(self):
        """Stop taking calls (the game is over). The last call stays readable."""
        self._armed = False

    def countdown_us(self, t):
        """Microseconds until calls are taken (0 once they are; None when disarmed)."""
        if not self._armed:
            return None
        left = -(self._age + ticks_diff(t, self._now))
        return left if left > 0 else 0

    # Edges -----------------------------------------------------------------

    def edge(self, button, closed, t):
        """One edge of a call button at tick t. Returns BOUNCE, PRESS, CALL or LATE."""
        rel = ticks_diff(t, self._now)
        if rel > 0:
            self._step(rel, t)
            rel = 0
        if not closed:
            # An opening edge (also a repeated one: the pin must have closed in between
            # unseen): the button opened at t and must now stay open for debounce_us.
            self._closed[button] = False
            self._opened[button] = t
            self._settled[button] = False
            return BOUNCE
        if self._closed[button]:
            return BOUNCE
        self._closed[button] = True
        if not self._settled[button] and ticks_diff(t, self._opened[button]) < self.debounce_us:
            return BOUNCE
        if not self._armed:
            return PRESS
        offset = self._age + rel
        if offset < 0:
            return PRESS
        if self._press[button] is not None:
            return LATE
        self._press[button] = offset
        for i in range(self.players):
            other = self._press[i]
            if i != button and other is not None and other <= offset:
                return LATE
        return CALL

    def is_closed(self, button):
        return self._closed[button]

    def pressed_at(self, button):
        """Microseconds after the arm of the player's first press this period, or None."""
        return self._press[button]

    # The decision ------------------------------------------------------------

    def _first(self):
        """Index of the earliest press (lowest index among equals), or -1."""
        best = -1
        for i in range(self.players):
            off = self._press[i]
            if off is not None and (best < 0 or off < self._press[best]):
                best = i
        return best

    def called(self):
        """True once somebody has pressed in this armed period."""
        return self._first() >= 0

    def margin_us(self):
        """Gap from the first press to the first press of another player, or None."""
        first = self._first()
        if first < 0:
            return None
        second = None
        for i in range(self.players):
            off = self._press[i]
            if i != first and off is not None and (second is None or off < second):
                second = off
        if second is None:
            return None
        return second - self._press[first]

    def tie(self):
        margin = self.margin_us()
        return margin is not None and margin <= self.tie_window_us

    def winner(self):
        """The 0-based player who won the call, or None (no call yet, or a tie)."""
        first = self._first()
        if first < 0 or self.tie():
            return None
        return first

    def loser(self):
        """Who takes the stacks (STR-16): 0-based, or None when nobody can be named.

        The last to press, where not pressing within slow_window_us of the first press
        counts as last; None when two or more did not press in time, or when the two
        latest presses are within the tie window of each other.
        """
        first = self._first()
        if first < 0:
            return None
        start = self._press[first]
        absent = 0
        absent_i = -1
        last_i = -1
        last = None
        runner_up = None
        for i in range(self.players):
            off = self._press[i]
            if off is None or off - start > self.slow_window_us:
                absent += 1
                absent_i = i
            elif last is None or off > last:
                runner_up = last
                last = off
                last_i = i
            elif runner_up is None or off > runner_up:
                runner_up = off
        if absent >= 2:
            return None
        if absent == 1:
            return absent_i
        if runner_up is not None and last - runner_up <= self.tie_window_us:
            return None
        return last_i

    def since_call_us(self, t):
        """Microseconds from the first press to t, or None without a call."""
        first = self._first()
        if first < 0:
            return None
        return self._age + ticks_diff(t, self._now) - self._press[first]

    def winner_known(self, t):
        """The call's winner / tie can no longer change (the screen may show it)."""
        if self.margin_us() is not None:
            return True
        since = self.since_call_us(t)
        return since is not None and since > self.tie_window_us

    def loser_known(self, t):
        """Everybody has pressed, or the slow window has passed since the first press."""
        since = self.since_call_us(t)
        if since is None:
            return False
        if since > self.slow_window_us:
            return True
        for i in range(self.players):
            if self._press[i] is None:
                return False
        return True

    # Undo support (allocates: not for the edge path) ---------------------------

    def save(self):
        return (self._now, self._age, self._armed, tuple(self._closed), tuple(self._opened),
                tuple(self._settled), tuple(self._press))

    def restore(self, saved):
        self._now, self._age, self._armed = saved[0], saved[1], saved[2]
        for i in range(self.players):
            self._closed[i] = saved[3][i]
            self._opened[i] = saved[4][i]
            self._settled[i] = saved[5][i]
            self._press[i] = saved[6][i]
