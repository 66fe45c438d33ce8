"""The idle loop allocates nothing (issue 19), on MicroPython's unix port.

Each screen that can sit waiting (home, Stack 31 and Stack the Deck waiting for an
entry, the Stress match view before a game and during one, History) is reached by
presses recorded on the simulator and replayed on the unix port by the unchanged
firmware (tools/bench_loop's harness). Then App.run's turns (App.step, then App.wait
for App.idle_ms()) run with micropython.heap_lock() held: any allocation raises
MemoryError and fails the test. The same turns, unlocked, allocate 0 bytes, and a screen
that waits for input wakes the loop at most once a second (it sleeps until an input or
the next deadline instead of turning every 10 ms)."""

import importlib.util
import os
import tempfile
from importlib.machinery import SourceFileLoader

import pytest

from host_sim.unixport import find_binary

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("BENCH_NO_REEXEC", "1")
_loader = SourceFileLoader("bench_loop", os.path.join(ROOT, "tools", "bench_loop"))
bl = importlib.util.module_from_spec(importlib.util.spec_from_loader("bench_loop", _loader))
_loader.exec_module(bl)

pytestmark = pytest.mark.skipif(find_binary() is None, reason="unix port not installed")

# the loop's pace while a screen runs by itself: every screen here, the Stress view during
# a game too (StressScreen.due_ms: 10 ms turns only for a countdown or lines to write),
# turns about once a second while nobody presses
PACED = {}


@pytest.mark.parametrize("name", [n for n, _ in bl.SCREENS])
def test_the_idle_loop_allocates_nothing(name):
    flow = dict(bl.SCREENS)[name]
    with tempfile.TemporaryDirectory() as tmp:
        log, screen = bl.record(flow, os.path.join(tmp, "sim"))
    res = bl.run(log, timing=False, idle_s=20, locked_turns=400)
    assert res["screen"] == screen  # the unix port got where the simulator did
    failed, turns = res["locked"]
    assert failed == -1, "%s: idle turn %d allocated with the heap locked" % (name, failed)
    turns, nbytes, _busy, secs = res["idle"]
    assert nbytes == 0, "%s: %d bytes in %d idle turns" % (name, nbytes, turns)
    assert turns <= PACED.get(name, 1) * secs + 1, "%s: %d turns in %d s" % (name, turns, secs)
