"""Buttons: the pure state machine driven by timestamped edges, the ring, the
Buttons class on the stand-in machine with the virtual clock."""

import pytest
from hypothesis import given, settings, strategies as st

import host_sim.machine as machine
from firmware.drivers import buttons as B
from firmware.boards import pico
from host_sim.vclock import VirtualClock

WRAP = 1 << 30
MS = 1000
STARTS = [0, WRAP - 5 * MS, WRAP - 300 * MS, WRAP - 1]


def at(start, us):
    return (start + us) % WRAP


def run(script, until_us, start=0, step_us=5 * MS):
    """script: [(t_us, button, down)] relative to start. Ticks every step_us.
    Returns [(t_us relative, kind, button)] with the tick time that reported it."""
    m = B.ButtonMachine()
    out = []
    script = sorted(script)
    i = 0
    t = 0
    while t <= until_us:
        while i < len(script) and script[i][0] <= t:
            te, b, d = script[i]
            m.edge(b, d, at(start, te))
            i += 1
        for kind, b in m.tick(at(start, t)):
            out.append((t, kind, b))
        t += step_us
    return out


def kinds(out):
    return [(k, b) for _, k, b in out]


GLITCH = 2 * MS  # a level must hold this long after the first edge to count


@pytest.mark.parametrize("start", STARTS)
def test_clean_short_press(start):
    out = run([(100 * MS, B.OK, 1), (250 * MS, B.OK, 0)], 600 * MS, start, step_us=MS // 2)
    assert kinds(out) == [(B.PRESS, B.OK), (B.RELEASE, B.OK), (B.SHORT, B.OK)]
    # reported at the first edge, as soon as its level has held GLITCH: not 20 ms later
    assert out[0][0] == 100 * MS + GLITCH
    assert out[1][0] == 250 * MS + GLITCH


@pytest.mark.parametrize("start", STARTS)
def test_bounce_on_press_and_release(start):
    press = [(100 * MS, 1), (100 * MS + 300, 0), (100 * MS + 900, 1), (101 * MS + 500, 0), (103 * MS, 1)]
    release = [(300 * MS, 0), (300 * MS + 200, 1), (301 * MS, 0), (304 * MS, 1), (305 * MS, 0)]
    script = [(t, B.BACK, d) for t, d in press + release]
    out = run(script, 500 * MS, start, step_us=1 * MS)
    assert kinds(out) == [(B.PRESS, B.BACK), (B.RELEASE, B.BACK), (B.SHORT, B.BACK)]
    # the first moment from GLITCH on when the contact is closed (it bounced open at
    # 101.5 ms, closed again at 103 ms), not 20 ms after the last bounce (123 ms)
    assert out[0][0] == 103 * MS
    assert out[1][0] == 302 * MS  # open at 302 ms (bounces until 305 ms are ignored)


@pytest.mark.parametrize("width_us", [5, 300, 1000, 1999])
def test_a_single_glitch_is_no_press(width_us):
    """Noise on the line (one short pulse after a still contact) is not a press, at
    any poll rate."""
    for step in (100, MS, 3 * MS, 10 * MS):
        script = [(100 * MS, B.UP, 1), (100 * MS + width_us, B.UP, 0)]
        assert run(script, 500 * MS, step_us=step) == []
    # nor is one while a button is held: the hold goes on, LONG on time
    script = [(0, B.OK, 1), (300 * MS, B.OK, 0), (300 * MS + width_us, B.OK, 1),
              (900 * MS, B.OK, 0)]
    out = run(script, 1200 * MS, step_us=MS)
    assert kinds(out) == [(B.PRESS, B.OK), (B.LONG, B.OK), (B.RELEASE, B.OK)]
    assert out[1][0] == 600 * MS


def test_a_contact_that_holds_past_the_glitch_time_is_a_press():
    # 10 ms closed: short for a finger, but no noise; it counts at its first edge
    out = run([(100 * MS, B.UP, 1), (110 * MS, B.UP, 0)], 500 * MS, step_us=MS)
    assert kinds(out) == [(B.PRESS, B.UP), (B.RELEASE, B.UP), (B.SHORT, B.UP)]
    assert out[0][0] == 102 * MS
    # the release came inside the press's bounce time: it waits for the contact to settle
    assert out[1][0] == 130 * MS


def test_two_glitches_inside_the_debounce_time_are_a_bouncing_press():
    # closed 1 ms, open, closed 1 ms again 5 ms later: closed at a moment past GLITCH
    script = [(100 * MS, B.UP, 1), (101 * MS, B.UP, 0), (105 * MS, B.UP, 1), (106 * MS, B.UP, 0)]
    out = run(script, 500 * MS, step_us=MS // 2)
    assert kinds(out)[0] == (B.PRESS, B.UP)
    assert out[0][0] == 105 * MS  # the first tick that saw it closed


def test_wait_us_says_how_long_the_loop_may_sleep():
    m = B.ButtonMachine()
    assert m.wait_us() == -1  # nothing moves, nothing held: until an edge
    m.edge(B.OK, 1, 1000)
    assert m.wait_us() == GLITCH  # a clean edge waits to hold
    assert m.tick(1000 + GLITCH - 1) == ()
    assert m.tick(1000 + GLITCH) == [(B.PRESS, B.OK)]
    assert m.wait_us() == GLITCH  # its bounce time runs
    assert m.tick(1000 + 20 * MS) == ()
    assert m.wait_us() == 10 * MS  # held: LONG comes, at the loop's pace
    m.edge(B.OK, 0, 200 * MS)
    assert m.wait_us() == GLITCH
    assert m.tick(200 * MS + GLITCH) == [(B.RELEASE, B.OK), (B.SHORT, B.OK)]
    m.tick(220 * MS)
    assert m.wait_us() == -1


def test_release_that_is_only_a_glitch_does_not_end_the_hold():
    script = [(0, B.OK, 1), (500 * MS, B.OK, 0), (501 * MS, B.OK, 1), (900 * MS, B.OK, 0)]
    out = run(script, 1200 * MS, step_us=1 * MS)
    assert kinds(out) == [(B.PRESS, B.OK), (B.LONG, B.OK), (B.RELEASE, B.OK)]


@pytest.mark.parametrize("start", STARTS)
def test_long_press(start):
    out = run([(0, B.OK, 1), (900 * MS, B.OK, 0)], 1200 * MS, start, step_us=1 * MS)
    assert kinds(out) == [(B.PRESS, B.OK), (B.LONG, B.OK), (B.RELEASE, B.OK)]
    assert out[1][0] == 600 * MS
    # released just before the long time: a short press
    out = run([(0, B.OK, 1), (599 * MS, B.OK, 0)], 1200 * MS, start, step_us=1 * MS)
    assert kinds(out) == [(B.PRESS, B.OK), (B.RELEASE, B.OK), (B.SHORT, B.OK)]


def test_release_edge_before_long_time_but_settled_after_it_is_short():
    out = run([(0, B.OK, 1), (590 * MS, B.OK, 0)], 1000 * MS, step_us=50 * MS)
    assert kinds(out) == [(B.PRESS, B.OK), (B.RELEASE, B.OK), (B.SHORT, B.OK)]


@pytest.mark.parametrize("start", STARTS)
def test_auto_repeat(start):
    out = run([(0, B.DOWN, 1), (990 * MS, B.DOWN, 0)], 1200 * MS, start, step_us=1 * MS)
    reps = [t for t, k, b in out if k == B.REPEAT]
    assert reps == [400 * MS, 520 * MS, 640 * MS, 760 * MS, 880 * MS]
    assert kinds(out)[0] == (B.PRESS, B.DOWN)
    assert kinds(out)[-1] == (B.RELEASE, B.DOWN)
    # OK and BACK do not repeat
    out = run([(0, B.OK, 1), (1000 * MS, B.OK, 0)], 1200 * MS, start, step_us=1 * MS)
    assert all(k != B.REPEAT for _, k, _ in out)


def test_late_tick_keeps_the_order_and_skips_missed_repeats():
    m = B.ButtonMachine()
    m.edge(B.OK, 1, 0)
    m.edge(B.OK, 0, 100 * MS)
    assert m.tick(5000 * MS) == [(B.PRESS, B.OK), (B.RELEASE, B.OK), (B.SHORT, B.OK)]
    m.edge(B.OK, 1, 6000 * MS)
    m.edge(B.OK, 0, 7000 * MS)
    assert m.tick(9000 * MS) == [(B.PRESS, B.OK), (B.LONG, B.OK), (B.RELEASE, B.OK)]
    m.edge(B.UP, 1, 10000 * MS)
    ev = m.tick(15000 * MS)
    assert ev.count((B.REPEAT, B.UP)) == 1  # no burst after a stall
    assert list(m.tick(15100 * MS)) == []
    assert m.tick(15120 * MS) == [(B.REPEAT, B.UP)]


def test_two_buttons_at_once():
    script = [(0, B.UP, 1), (10 * MS, B.OK, 1), (100 * MS, B.UP, 0), (200 * MS, B.OK, 0)]
    out = run(script, 400 * MS, step_us=1 * MS)
    assert kinds(out) == [
        (B.PRESS, B.UP), (B.PRESS, B.OK), (B.RELEASE, B.UP), (B.SHORT, B.UP),
        (B.RELEASE, B.OK), (B.SHORT, B.OK),
    ]


def test_duplicate_levels_count_as_activity():
    # the IRQ reads the pin, so a fast bounce may show as down, down
    script = [(0, B.OK, 1), (5 * MS, B.OK, 1), (50 * MS, B.OK, 0), (55 * MS, B.OK, 0)]
    out = run(script, 300 * MS, step_us=1 * MS)
    assert out[0] == (2 * MS, B.PRESS, B.OK)
    assert out[1] == (52 * MS, B.RELEASE, B.OK)


@settings(max_examples=300, deadline=None)
@given(
    start=st.integers(0, WRAP - 1),
    press_bounces=st.lists(st.integers(50, 4000), max_size=7),
    release_bounces=st.lists(st.integers(50, 4000), max_size=7),
    hold_ms=st.one_of(st.integers(60, 2000), st.integers(590, 610)),
    button=st.integers(0, 5),
)
def test_any_bounce_pattern_gives_one_press(start, press_bounces, release_bounces, hold_ms, button):
    script = []
    t = 0
    level = 1
    for gap in press_bounces:  # bouncing while closing: ends closed
        script.append((t, button, level))
        t += gap
        level ^= 1
    script.append((t, button, 1))
    settled = t
    t = settled + hold_ms * MS
    level = 0
    for gap in release_bounces:
        script.append((t, button, level))
        t += gap
        level ^= 1
    script.append((t, button, 0))
    out = run(script, t + 100 * MS, start, step_us=3 * MS)
    ks = kinds(out)
    # reported at the first edge: the press within GLITCH plus one bounce and a tick
    assert out[0][0] <= max(g for g in [GLITCH] + press_bounces) + GLITCH + 3 * MS
    assert ks.count((B.PRESS, button)) == 1
    assert ks.count((B.RELEASE, button)) == 1
    assert ks[0] == (B.PRESS, button)
    assert ks[-1][0] in (B.RELEASE, B.SHORT)
    # held from the first closing edge to the first opening one
    if settled + hold_ms * MS >= B.ButtonMachine.LONG_US:
        assert (B.LONG, button) in ks and (B.SHORT, button) not in ks
    else:
        assert (B.SHORT, button) in ks and (B.LONG, button) not in ks


# --- the ring ---------------------------------------------------------------

def test_ring_order_and_overflow():
    r = B.EdgeRing(4)
    assert r.get() is None
    for i in range(6):
        r.put(i, i & 1, 1000 + i)
    assert r.overflows == 2 and len(r) == 4
    assert [r.get() for _ in range(5)] == [(0, 0, 1000), (1, 1, 1001), (2, 0, 1002), (3, 1, 1003), None]
    # keeps working across its own index wrap, many times over
    for i in range(1000):
        r.put(i % 10, 1, (WRAP - 500 + i) % WRAP)
        assert r.get() == (i % 10, 1, (WRAP - 500 + i) % WRAP)
    assert r.overflows == 2


# --- Buttons on the stand-in machine ----------------------------------------

@pytest.fixture
def hw():
    machine.sim_reset()
    clock = VirtualClock(start_us=WRAP - 50 * MS)
    return clock, B.Buttons(machine, pico, clock, ring_size=16)


def test_buttons_on_stand_in_machine(hw):
    clock, btn = hw
    pins = pico.NAV_PINS
    for p in pins + pico.CALL_PINS:  # pulled up, open
        assert machine.level(p) == 1
    machine.press(pins[B.OK])
    clock.advance_us(500)
    machine.release(pins[B.OK])  # bounce
    clock.advance_us(500)
    machine.press(pins[B.OK])
    assert btn.poll() == ((), ())
    clock.advance_ms(1)  # 2 ms after the first edge, the contact is closed: a press
    assert btn.poll() == ([(B.PRESS, B.OK)], ())
    assert btn.held(B.OK)
    clock.advance_ms(100)
    machine.release(pins[B.OK])
    clock.advance_ms(30)
    assert btn.poll() == ([(B.RELEASE, B.OK), (B.SHORT, B.OK)], ())


def test_call_buttons_pass_raw_edges(hw):
    machine.sim_reset()
    clock = VirtualClock(start_us=WRAP - 200)
    btn = B.Buttons(machine, pico, clock)
    t0 = clock.ticks_us()
    machine.press(pico.CALL_P2)
    clock.advance_us(150)
    machine.release(pico.CALL_P2)
    clock.advance_us(150)
    machine.press(pico.CALL_P2)
    clock.advance_us(70)
    machine.press(pico.CALL_P1)
    ev, calls = btn.poll()
    assert list(ev) == []
    assert calls == [(2, 1, t0), (2, 0, (t0 + 150) % WRAP), (2, 1, (t0 + 300) % WRAP), (1, 1, (t0 + 370) % WRAP)]
    assert t0 + 370 > WRAP  # crossed the wrap point


def test_ring_overflow_resyncs_to_pin_levels(hw):
    clock, btn = hw
    up = pico.NAV_PINS[B.UP]
    for _ in range(20):  # 40 edges into a ring of 16
        machine.press(up)
        clock.advance_us(100)
        machine.release(up)
        clock.advance_us(100)
    machine.press(up)
    assert btn.overflows > 0
    ev = list(btn.poll()[0])
    clock.advance_ms(25)
    ev += btn.poll()[0]
    assert ev.count((B.PRESS, B.UP)) == 1 and btn.held(B.UP)
    machine.release(up)
    clock.advance_ms(25)
    ev, _ = btn.poll()
    assert ev[0] == (B.RELEASE, B.UP)


def test_button_held_at_start_is_seen(hw):
    machine.sim_reset()
    clock = VirtualClock()
    machine.press(pico.BTN_BACK)
    btn = B.Buttons(machine, pico, clock)
    clock.advance_ms(25)
    assert btn.poll()[0] == [(B.PRESS, B.BACK)]


def test_bouncy_release_just_before_the_long_time_stays_short():
    # opened at 599 ms, the IRQ saw it open again at 600 ms (a closing in between lost)
    script = [(0, B.OK, 1), (599 * MS, B.OK, 0), (600 * MS, B.OK, 0)]
    out = run(script, 1000 * MS, step_us=1 * MS)
    assert kinds(out) == [(B.PRESS, B.OK), (B.RELEASE, B.OK), (B.SHORT, B.OK)]
    # closings inside the release burst do not make it long either
    script = [(0, B.OK, 1), (599 * MS, B.OK, 0), (600 * MS + 200, B.OK, 1), (600 * MS + 500, B.OK, 0)]
    out = run(script, 1000 * MS, step_us=100)
    assert kinds(out) == [(B.PRESS, B.OK), (B.RELEASE, B.OK), (B.SHORT, B.OK)]
