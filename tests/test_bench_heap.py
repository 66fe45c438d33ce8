"""tools/bench_heap, shortened (issue 11): the whole firmware, compiled to .mpy as
tools/deploy lays it out, on MicroPython's unix port with a limited heap, replaying
presses recorded on the simulator: it must end in the same game state as CPython, with
no MemoryError (raised, or caught by the app into error.log) and no game set aside.

Shortened: one heap size, the menus session of tools/bench_device, and a Stress journal
of 400 lines (simulated, journalled through Session, with checkpoints) resumed at boot
with 12 calls played live after it.

The issue's goal is 160 KB (the 64-bit equivalent of about 100 KB on a 32-bit board).
The menus run there (tested with a margin); the game sessions need more (tools/bench_heap
prints their smallest heaps), so the long Stress session is tested at HEAP_KB: a
regression (a list growing with the match, a bigger module) fails here before it reaches
a board.
"""

import importlib.util
import os
import shutil
from importlib.machinery import SourceFileLoader

import pytest

from host_sim.unixport import find_binary

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("BENCH_NO_REEXEC", "1")
_loader = SourceFileLoader("bench_heap", os.path.join(ROOT, "tools", "bench_heap"))
bh = importlib.util.module_from_spec(importlib.util.spec_from_loader("bench_heap", _loader))
_loader.exec_module(bh)

HEAP_KB = 320
GOAL_KB = 160
# Issue 19: the resumed Stress journal runs at the goal (the stand-in's pins no longer
# charged to the firmware, the journal's undo stack 192 records), with or without its
# checkpoints (the one without runs in 156 KB).
RESUMED_OVER_KB = 0
BARE_OVER_KB = 0  # a journal without checkpoints (see its test)
ROM_MENUS_KB = 116 + 8  # with the code in ROM (--romfs) they run at 116 KB; 8 KB of margin

pytestmark = pytest.mark.skipif(find_binary() is None, reason="unix port not installed")


def recorded(tmp_path, name, prepare, flow):
    return bh.record(name, prepare, flow, str(tmp_path / name))


@pytest.fixture(scope="module")
def menus(tmp_path_factory):
    flow = dict(bh.bench_device_flows())["menus"]
    return bh.record("menus", None, flow, str(tmp_path_factory.mktemp("menus")))


def test_the_menus_run_in_a_limited_heap(menus):
    flash0, log, want, presses = menus
    assert presses >= 10
    res = bh.run_mp(flash0, log, HEAP_KB, True)
    ok, why = bh.verdict(res, want)
    assert ok, why
    assert 0 < res["started"] <= res["peak"] < HEAP_KB * 1024
    assert res["max_free"] > 16 * 1024  # room for a game's modules after start


def test_a_resumed_stress_journal_and_calls_played_live(tmp_path):
    folder = tmp_path / "flash-prep"

    def prepare(flash):
        assert bh.stress_journal(flash, n_lines=400) == 400
        with open(os.path.join(flash, "game.txt")) as f:
            assert any(line.startswith("#] ") for line in f)  # it holds checkpoints

    flash0, log, want, presses = bh.record("stress-short", prepare, bh.flow_stress_calls(12),
                                           str(folder))
    assert presses >= 24
    import json
    assert len(json.loads(want)["calls"]) >= 12
    roomy = bh.run_mp(flash0, log, HEAP_KB, True)
    assert bh.verdict(roomy, want)[0]
    # the goal heap (160 KB for the firmware, the harness's data added), no gc.collect()
    # added: as on a board (tools/bench_heap's stress-long: 2,000 lines, 1,000 calls)
    res = bh.run_mp(flash0, log, GOAL_KB + RESUMED_OVER_KB + bh.harness_kb(roomy), False)
    ok, why = bh.verdict(res, want)
    assert ok, why
    shutil.rmtree(str(folder), ignore_errors=True)


def test_a_resumed_stress_journal_without_checkpoints_runs_in_the_goal_heap(tmp_path):
    """The same 400-line journal with its checkpoint records taken out (an older
    firmware's, a transcript, the browser's Copy): the resume streams it and writes it
    anew with checkpoints (firmware/session/stream.py), then 12 calls are played live,
    with no gc.collect() added (tools/bench_heap's stress-bare: 2,000 lines, 1,000
    calls). In the goal heap since issue 19's heap work (it runs in 156 KB; 163 KB the
    version before, 166 before the stream gave the game's lists their room and let its
    modules go)."""
    folder = tmp_path / "flash-prep"

    def prepare(flash):
        assert bh.bare_stress_journal(flash, n_lines=400) == 400
        with open(os.path.join(flash, "game.txt")) as f:
            text = f.read()
        assert "\n#] " not in text and "\n#= " not in text and "\n#( " in text
        assert len(text) > 4096  # long enough to be written anew (not replayed whole)

    flash0, log, want, presses = bh.record("stress-bare-short", prepare,
                                           bh.flow_stress_calls(12), str(folder))
    roomy = bh.run_mp(flash0, log, HEAP_KB, True)
    assert bh.verdict(roomy, want)[0]
    res = bh.run_mp(flash0, log, GOAL_KB + BARE_OVER_KB + bh.harness_kb(roomy), False)
    ok, why = bh.verdict(res, want)
    assert ok, why
    shutil.rmtree(str(folder), ignore_errors=True)


def test_the_menus_run_in_the_goal_heap(menus):
    """The home menu, settings pages and back (the menus session) in the issue's goal
    heap: 160 KB for the firmware, plus the harness's data (the stand-in machine's
    classes and pins, the replay's globals: a board has none of it), with no
    gc.collect() added."""
    flash0, log, want, _ = menus
    roomy = bh.run_mp(flash0, log, HEAP_KB, True)
    # its code is in ROM: only its data counts (19 KB, of which the state of the Pico
    # map's 13 pins, made before the firmware starts: on rp2 a pin is hardware)
    assert 0 < roomy["harness"] < 24 * 1024
    ok, why = bh.verdict(bh.run_mp(flash0, log, GOAL_KB + bh.harness_kb(roomy), False), want)
    assert ok, why


def test_the_code_in_rom_stays_out_of_the_heap(menus):
    """tools/bench_heap --romfs: the same .mpy files in a ROMFS image (the pinned
    mpremote's builder) mounted with vfs.VfsRom over memory outside the GC heap. Every
    core/ and firmware/ module comes from /rom (run_mp reports any that do not, and
    verdict fails on them), the session ends as on CPython, and the heap after start is
    smaller by the bytecode and qstrs run in place (32 KB today; 16 KB asked: it shrinks
    as the code loaded at start does)."""
    flash0, log, want, _ = menus
    heap = bh.run_mp(flash0, log, HEAP_KB, True)
    rom = bh.run_mp(flash0, log, HEAP_KB, True, romfs=True)
    for res in (heap, rom):
        ok, why = bh.verdict(res, want)
        assert ok, why
        assert res["misplaced"] == []
    assert "rom" not in heap and rom["rom"] > 64 * 1024  # the image, in bytes
    assert rom["started"] < heap["started"] - 16 * 1024
    assert rom["peak"] < heap["peak"] - 16 * 1024


def test_the_menus_with_the_code_in_rom_run_in_a_smaller_heap(menus):
    """The menus session with --romfs and no gc.collect() added, at 116 KB + 8 KB of
    margin (harness included). The game sessions do not fit at 160 KB even so
    (tools/bench_heap --romfs: 164-192 KB)."""
    flash0, log, want, _ = menus
    ok, why = bh.verdict(bh.run_mp(flash0, log, ROM_MENUS_KB, False, romfs=True), want)
    assert ok, why


# Issue 19's heap work put each game one 4 KB step under where the last version ran:
# Stack 31 at 152 KB, Stress at 156, Stack the Deck at the goal (its game part holds
# 42 KB of rules and screens with the stack checker open). The headroom the issue asks
# (136 KB) is not reached yet; these margins keep what was won.
@pytest.mark.parametrize("name,margin_kb", [("stack31", 8), ("stress", 4), ("stackdeck", 0)])
def test_each_game_runs_in_the_goal_heap(tmp_path, name, margin_kb):
    """Issue 11's figure for the games of tools/bench_device: each session runs with
    -X heapsize 160 KB plus the harness's data, with no gc.collect() added, less a
    margin where the game has one today (Stack 31 runs at 152 KB, Stress at 156 KB,
    Stack the Deck at 160 KB), so a regression fails here first."""
    flow = dict(bh.bench_device_flows())[name]
    flash0, log, want, _ = bh.record(name, None, flow, str(tmp_path / name))
    roomy = bh.run_mp(flash0, log, HEAP_KB, True)
    assert bh.verdict(roomy, want)[0]
    heap = GOAL_KB - margin_kb + bh.harness_kb(roomy)
    ok, why = bh.verdict(bh.run_mp(flash0, log, heap, False), want)
    assert ok, "%s at %d KB (harness included): %s" % (name, heap, why)
