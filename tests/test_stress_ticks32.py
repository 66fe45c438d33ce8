"""A long Stress match allocates nothing while it waits, on a 32-bit MicroPython.

On a 32-bit board (a Pico) small ints are 31-bit: any int of 2**30 or more is a long int
on the heap, and every sum with one allocates. A Stress match's @T (the notation's
unwrapped microseconds) passes 2**30 after about 18 minutes, so a view that computes
with @T on every loop turn allocates on every turn from then on (the collector then runs
every few hundred ms and its pauses land under the next press). The unix port that
tests/test_idle_alloc.py runs on is a 64-bit build (62-bit small ints) and cannot see
this; MicroPython's WebAssembly port is a 32-bit build with 31-bit small ints and
micropython.heap_lock(), so the test runs there (host_sim.micropython).

A match is played by presses on the unchanged firmware and its waits are App.run's turns
(App.step, then the wait App.idle_ms() asks for) with the heap locked, so any allocation
raises MemoryError: an armed game for 40 minutes of virtual time (T passes 2**30 and
2**31 meanwhile), a call waiting 12 minutes for the table's ruling (longer than half the
tick period), the re-deal countdown between its beeps, the centre picker and the "P1
out" question over the armed game, the match view between games; then the device
restarts, resumes the journal (its last @T past 2**31), and a game is started and waited
on again: armed, a tie waiting for OK, the turns inside a call's slow window (10 ms
apart, as while another deadline paces the loop) and a lone call waiting for the table.
Presses and the turns that draw their frames may allocate; the waits may not. (Before
the Stress view kept its idle turns in small ints, every one of these waits allocated:
the armed one from its turn 1069, 2**30 us into the match, the others at once.)
"""

import json
import random

import pytest

from firmware.drivers.clock import TICKS_MAX, TickUnwrapper
from host_sim.micropython import require_node, run_micropython

PROGRAM = r'''
import gc
import json
import micropython
import os
import machine
from firmware import start
from firmware.boards import pico
from firmware.drivers.clock import TICKS_MAX, ticks_add, ticks_diff

MINUTE = 60000  # ms


class Ticks32:
    """The time module as a board has it, for the app: wrapped tick counters (us and ms)
    that stay small ints, as the board's C functions do. (host_sim's VirtualClock counts
    elapsed microseconds in one int that never wraps, a long int after 18 minutes on
    this port, and its ticks_diff passes 2**30 inside: the clock itself would allocate
    on the turns measured here.)"""

    ticks_diff = staticmethod(ticks_diff)  # (firmware.drivers.clock: small ints only)
    ticks_add = staticmethod(ticks_add)

    def __init__(self, start_us):
        self.us = start_us & TICKS_MAX
        self.ms = (start_us // 1000) & TICKS_MAX
        self.sub = start_us % 1000  # us past the last whole ms

    def ticks_us(self):
        return self.us

    def ticks_ms(self):
        return self.ms

    def advance_us(self, n):
        self.us = ticks_add(self.us, n)
        s = self.sub + n
        self.ms = ticks_add(self.ms, s // 1000)
        self.sub = s % 1000

    def advance_ms(self, n):
        self.advance_us(n * 1000)

    def sleep_ms(self, ms):
        self.advance_us(ms * 1000)


clock = Ticks32(START_US)
machine.set_time_source(clock.ticks_ms)
os.mkdir("/flash")
report = {"waits": []}


def boot():
    global app
    machine.sim_reset()
    a = start.build(machine, pico, clock, "/flash")
    a.start()
    app = a


def step(ms):
    """Turns for ms of virtual time at the loop's 10 ms pace, unlocked (presses)."""
    for i in range(max(1, ms // 10)):
        app.step_safely()
        clock.advance_ms(10)
    del machine.pwm_log[:]


def press(pin, hold=80):
    machine.press(pin)
    step(hold)
    machine.release(pin)
    step(120)


def call(first, second, gap_us):
    """Two call presses gap_us apart, held 100 ms, then decided (2 s: the slow window)."""
    machine.press(pico.CALL_PINS[first - 1])
    clock.advance_us(gap_us)
    machine.press(pico.CALL_PINS[second - 1])
    step(100)
    machine.release(pico.CALL_PINS[first - 1])
    machine.release(pico.CALL_PINS[second - 1])
    step(2000)


def turn(left, pace_ms, turns):
    app.step()
    ms = app.idle_ms()
    ms = 1 if ms < 1 else ms
    if pace_ms and ms > pace_ms:
        ms = pace_ms
    ms = left if ms > left else ms
    if turns & 63:
        clock.advance_ms(ms)
    else:
        app.wait(ms)
    return ms


def wait(name, ms, pace_ms=0):
    """App.run's turns with the heap locked: App.step, then App.wait(App.idle_ms()),
    for `ms` of virtual time (pace_ms: at most that long, e.g. inside a countdown's
    second). Every 64th wait is App.wait's own 1 ms sleeps; the others move the clock
    at once (the same turns, far fewer sleeps to run). A turn that allocates is
    noted and the rest of the wait runs unlocked, so the match goes on as on a board."""
    app.step_safely()  # the turn before: a frame asked for is drawn unlocked
    del machine.pwm_log[:]
    gc.collect()
    turns = 0
    failed = -1
    left = ms
    micropython.heap_lock()
    while left > 0:
        try:
            ms = turn(left, pace_ms, turns)
        except MemoryError:
            failed = turns
            micropython.heap_unlock()
            ms = turn(left, pace_ms, turns)  # the turn again, unlocked
        turns += 1
        left -= ms
    if failed < 0:
        micropython.heap_unlock()
    report["waits"].append([name, turns, failed, type(app.screen).__name__, view_t()])


def game():
    return app.session.game


def view_t():
    """The Stress view's time now (the @T an edge would get)."""
    for s in app.screens:
        if type(s).__name__ == "StressScreen":
            return s.ticks.unwrap(clock.ticks_us())
    return None


def last_call():
    c = game().state()["calls"][-1]
    return [c["winner"], c["margin_us"], c["loser"], c["tie"]]


boot()
for pin in (pico.BTN_DOWN, pico.BTN_DOWN, pico.BTN_OK, pico.BTN_OK, pico.BTN_OK):
    press(pin)  # home -> Stress -> 2 players -> the match view
press(pico.BTN_OK)  # the flip 3-2-1
step(3100)
press(pico.BTN_BACK)  # the centre skipped: armed
wait("armed", 40 * MINUTE)
call(2, 1, 900)
report["call"] = [game().last_t, game().arbiter.winner(), game().arbiter.margin_us(),
                  game().arbiter.loser()]
wait("call", 12 * MINUTE)  # the ruling waits; longer than half the tick period
press(pico.BTN_OK)  # Confirm: the re-deal, P1 takes the stacks
step(100)
wait("countdown", 500, pace_ms=10)  # inside the second "3", its beep over
step(2600)  # the flip: resume, then the centre picker
wait("picker", 30000)
press(pico.BTN_BACK)
for pin in (pico.BTN_RIGHT, pico.BTN_RIGHT, pico.BTN_OK):
    press(pin)  # "P1 out": the question first
wait("question", 30000)
press(pico.BTN_OK)
step(7000)  # its message runs out
wait("match", MINUTE)
report["first"] = [last_call(), game().games_won]

# The device restarts (power pulled and back) and resumes the journal, its @T past 2**31
boot()
report["resumed"] = [type(app.screen).__name__, game().last_t, game().games_won]
wait("resumed", 30000)
press(pico.BTN_OK)
step(3100)
press(pico.BTN_BACK)
wait("resumed-armed", 10 * MINUTE)
call(1, 2, 300)
report["tie"] = last_call()
wait("tie", MINUTE)
press(pico.BTN_OK)  # tie: play on
step(7000)
machine.press(pico.CALL_PINS[1])  # P2 alone: the call waits for the table to rule
step(150)  # the call drawn (the tie window is over) and its beep played
wait("window", 700, pace_ms=10)  # turns inside the slow window read the time since
machine.release(pico.CALL_PINS[1])
step(2000)
wait("alone", MINUTE)
press(pico.BTN_OK)  # Confirm: P1 takes (did not press in time)
step(3100)
report["alone"] = last_call()
report["crashes"] = app.crashes
print(json.dumps(report))
'''

WAITS = ["armed", "call", "countdown", "picker", "question", "match", "resumed",
         "resumed-armed", "tie", "window", "alone"]


def run_program(start_us):
    """The program's report; start_us: where the tick counters start."""
    out = run_micropython("START_US = %d\n" % start_us + PROGRAM, timeout=600)
    return json.loads(out.strip().splitlines()[-1])


# the ticks 5 s before a wrap, or 3 s before half the period (a Python ticks_diff that
# goes through end - start + 2**29 passes 2**30 for some pairs of stamps, not others)
@pytest.mark.parametrize("start_us", [(1 << 30) - 5000000, (1 << 29) - 3000000])
def test_a_long_match_waits_without_allocating_on_a_32_bit_micropython(start_us):
    require_node()
    r = run_program(start_us)
    waits = {w[0]: w[1:] for w in r["waits"]}
    assert list(waits) == WAITS
    for name, (turns, failed, screen, t) in waits.items():
        assert failed == -1, "%s (%s): turn %d of %d allocated with the heap locked, " \
            "the view's time at %d us" % (name, screen, failed, turns, t)
    # the match really was that long: the view's time (the @T an edge would get) passed
    # 2**30 and 2**31 during the armed wait, and the call was stamped 40 minutes in
    assert waits["armed"][3] > 40 * 60 * 10 ** 6 > 1 << 31
    assert waits["armed"][0] <= 40 * 60 + 1  # (a turn a second: App.IDLE_MAX_MS)
    assert r["call"][0] > 1 << 31 and r["call"][1:] == [1, 900, 0]
    assert [waits[n][2] for n in ("picker", "question")] == ["CentrePicker", "ConfirmScreen"]
    assert r["first"] == [[2, 900, 1, False], [1, 0]]
    # the restart resumed the journal at its last @T, and the referee still decides
    assert r["resumed"][0] == "StressScreen" and r["resumed"][1] > 1 << 31
    assert r["resumed"][2] == [1, 0]
    assert waits["alone"][3] > 3 * 10 ** 9
    assert r["tie"] == [None, 300, None, True]
    assert r["alone"] == [2, None, 1, False]
    assert r["crashes"] == 0


# The unwrapper alone: exact, and allocation-free where a loop turn uses it ----------------

UNWRAPPER = r'''
import json
import micropython
from firmware.drivers.clock import TickUnwrapper, ticks_add

MAX = (1 << 30) - 1
start = 3 * 24 * 3600 * 10 ** 6  # a count three days on: a long int here
u = TickUnwrapper(start)
t = MAX - 20000  # ticks about to wrap
u.feed(t)
T = start - 5000  # the game's last @T, 5 ms before
u.since(T, 1 << 27)  # T's halves worked out (a new T: not a loop turn's work)
got = [0] * 2000


def turns(t):
    # (a function: a new global name would allocate; an uncaught MemoryError with the
    # heap locked hangs this port)
    for i in range(2000):
        t = ticks_add(t, 700001)  # 0.7 s a turn: 23 minutes, the ticks wrap, T falls behind
        u.feed(t)
        got[i] = u.since(T, 1 << 27)
    return t


failed = True
micropython.heap_lock()
try:
    t = turns(t)
    failed = False
except MemoryError:
    pass
micropython.heap_unlock()
print(json.dumps([failed, got, u.unwrap(t) - start, u.unwrap((t - 300) & MAX) - start]))
'''


def test_the_unwrapper_keeps_going_and_measures_without_allocating_on_32_bits():
    require_node()
    failed, got, last, older = json.loads(run_micropython(UNWRAPPER).strip().splitlines()[-1])
    assert not failed
    exact = [min(5000 + 700001 * (i + 1), 1 << 27) for i in range(2000)]
    assert got == exact
    assert last == 2000 * 700001 and older == last - 300  # an older stamp: smaller, unwrapped


def test_the_unwrapper_matches_plain_arithmetic():
    """Against a plain count (CPython ints): unwrap for steps up to 2**29 ticks and late
    stamps, since() for every kind of distance and limit, from any start."""
    rng = random.Random(19)
    for _ in range(3000):
        start = rng.choice([0, 5, (1 << 29) - 1, 1 << 30, rng.randrange(1 << 31),
                            rng.randrange(1 << 45)])
        u = TickUnwrapper(start)
        t = rng.randrange(1 << 30)
        assert u.unwrap(t) == start
        mono = start
        for _ in range(6):
            d = rng.choice([1, rng.randrange(1, 1000), rng.randrange(1, 1 << 29), (1 << 29) - 1])
            t = (t + d) & TICKS_MAX
            mono += d
            assert u.unwrap(t) == mono
            late = rng.randrange(1000)
            assert u.unwrap((t - late) & TICKS_MAX) == mono - late
            limit = rng.choice([1, 1000, 1 << 27, (1 << 29) - 1])
            for gap in (0, limit, -limit, limit + 1, -limit - 1, (1 << 29) - limit,
                        (1 << 29) + limit, rng.randrange(-(1 << 31), 1 << 31),
                        rng.randrange(-(1 << 28), 1 << 28)):
                expect = max(-limit, min(limit, gap))
                assert u.since(mono - gap, limit) == expect
                assert u.since(mono - gap, limit) == expect  # (its halves kept)
