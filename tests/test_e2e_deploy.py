"""End to end: tools/deploy flashes the virtual board, the firmware runs on it.

A board owner's path, without a board: a fresh VirtualBoard (the MicroPython 1.27
WebAssembly interpreter behind a pseudo-terminal, host_sim/virtual_board.py) with its
devices (host_sim/vdevice.py: an SSD1306 panel on the stand-in I2C bus at 0x3C whose
frames reach the host as PBM images, and a player of scripted button presses).

1. tools/deploy compiles the device files with mpy-cross and copies them with the
   unchanged mpremote; after its reset, main.py starts the firmware and the panel
   shows the home screen;
2. a short Stack 31 game by presses (OK opens Stack 31, OK starts a 2-player game,
   OK draws for P1, OK draws for P2): the journal game.txt on the board holds the two
   draws;
3. a second deploy (main.py touched: one file copied) keeps the journal, and after
   its reset the firmware resumes the saved game (the title bar shows D50).

The tests run in order on one board. Every mpremote call runs under a timeout.
"""

import os
import shutil
import time

import pytest

from host_sim.device import find_text
from host_sim.micropython import require_node
from host_sim.virtual_board import VirtualBoard
from tests.test_deploy import MPREMOTE, ROOT, mpremote, run_deploy

DEVICE_DIRS = ("core", "firmware")
DEVICE_FILES = ("boot.py", "main.py")
GAME = "game.txt"
SCREEN_S = 20  # the longest wait for a screen (the WebAssembly board is slow to start)


def device_file_count(root):
    n = sum(1 for name in DEVICE_FILES if os.path.isfile(os.path.join(root, name)))
    for d in DEVICE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, d)):
            dirnames[:] = [x for x in dirnames if x != "__pycache__" and not x.startswith(".")]
            n += sum(1 for f in filenames if f.endswith(".py"))
    return n


def ascii_art(pixels):
    return "\n".join("".join("#" if v else "." for v in row) for row in pixels)


def wait_screen(board, *texts, boot_after=0, timeout=SCREEN_S):
    """The first frame (of a boot later than boot_after) that shows every text, in the
    8x8 font at scale 1; fails with the last frame drawn as text."""
    end = time.monotonic() + timeout
    last = None
    while True:
        got = board.frame()
        if got is not None and got[0].get("boot", 0) > boot_after:
            last = got
            if all(find_text(got[1], t) is not None for t in texts):
                return got
        if time.monotonic() > end:
            break
        time.sleep(0.05)
    if last is None:
        pytest.fail("no frame from the panel within %d s" % timeout)
    pytest.fail("%r not on the panel within %d s; last frame %r:\n%s"
                % (texts, timeout, last[0], ascii_art(last[1])))


def journal(board):
    try:
        with open(os.path.join(board.state_dir, GAME)) as f:
            return f.read()
    except OSError:
        return None


def actions(text):
    """The action lines of a journal (after the game line), without their checksums."""
    rows = [ln.split("#")[0].strip() for ln in (text or "").splitlines()]
    return [r for r in rows[1:] if r]


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    require_node()  # skips only off CI when node is missing; under CI it fails
    assert os.path.exists(MPREMOTE), "mpremote is missing: run tools/setup"
    with VirtualBoard(str(tmp_path_factory.mktemp("flash")), vdevice=True) as b:
        yield b


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("build") / "device")


def copy_device_files(dst):
    """What tools/deploy puts on a board, copied from this checkout into dst (a Path)."""
    for d in DEVICE_DIRS:
        shutil.copytree(os.path.join(ROOT, d), dst / d,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in DEVICE_FILES:
        shutil.copyfile(os.path.join(ROOT, name), dst / name)


def deploy(board, build_dir, *args, root=None):
    t0 = time.monotonic()
    r = run_deploy(board.port, "--build-dir", build_dir, *args, root=root, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return r, time.monotonic() - t0


def test_deploy_flashes_the_firmware_and_the_home_screen_appears(board, build_dir):
    n = device_file_count(ROOT)
    r, took = deploy(board, build_dir)
    assert "done: %d copied, 0 removed, 0 unchanged" % n in r.stdout, r.stdout
    assert "reset: the board restarted and runs main.py" in r.stdout
    # Compiled, as a board owner gets it: .mpy in nested folders, boot.py and main.py as source.
    flash = board.state_dir
    for rel in ("core/stack31/__init__.mpy", "firmware/start.mpy", "firmware/boards/pico.mpy",
                "firmware/screens/stack31/__init__.mpy", "main.py", "boot.py", ".deploy_manifest"):
        assert os.path.isfile(os.path.join(flash, rel)), rel
    for d in DEVICE_DIRS:
        for dirpath, _, filenames in os.walk(os.path.join(flash, d)):
            assert not [f for f in filenames if f.endswith(".py")], dirpath
    for rel in ("tests", "host_sim", "tools", "seeds", "machine.py", "vdevice.py"):
        assert not os.path.exists(os.path.join(flash, rel)), rel
    info, pixels = wait_screen(board, "Tabletop companion", "Stack 31")
    assert info["on"] == 1 and info["played"] == 0
    print("first deploy: %d files in %.1f s" % (n, took))


def test_a_short_stack31_game_by_presses(board):
    assert journal(board) is None  # a fresh board: no game yet
    board.send("press OK")  # home: Stack 31 is the first entry
    assert board.wait_played(10)
    wait_screen(board, "Players", "OK: start")
    board.send("press OK")  # 2 players (the default): the game starts
    assert board.wait_played(10)
    wait_screen(board, "D52", "Draw")
    board.send("press OK", "press OK")  # P1 draws, P2 draws
    assert board.wait_played(10)
    wait_screen(board, "P1", "D50")
    text = journal(board)
    assert text, os.listdir(board.state_dir)
    assert text.splitlines()[0].startswith("game stack31 players 2")
    assert actions(text) == ["draw", "draw"], text
    # The same file through mpremote (this interrupts the firmware, as on a board).
    r = mpremote(board.port, "fs", "cat", ":" + GAME, timeout=30)
    assert r.returncode == 0, r.stderr
    assert r.stdout == text, (r.stdout, text)


def test_a_second_deploy_keeps_the_journal_and_the_game_resumes(board, build_dir, tmp_path):
    before = journal(board)
    assert actions(before) == ["draw", "draw"], before
    # A checkout where one file changed since the first deploy.
    tree = tmp_path / "tree"
    copy_device_files(tree)
    with open(tree / "main.py", "a") as f:
        f.write("# touched by tests/test_e2e_deploy.py\n")
    booted = (board.frame() or ({}, None))[0].get("boot", 0)
    n = device_file_count(ROOT)
    r, took = deploy(board, build_dir, root=str(tree))
    copied = [ln for ln in r.stdout.splitlines() if ln.startswith("copy ")]
    assert copied == ["copy main.py (%d bytes)" % os.path.getsize(tree / "main.py")], r.stdout
    assert "done: 1 copied, 0 removed, %d unchanged" % (n - 1) in r.stdout, r.stdout
    assert journal(board) == before, (journal(board), before, os.listdir(board.state_dir))
    # After the reset the firmware starts again, straight into the saved game.
    wait_screen(board, "P1", "D50", boot_after=booted)
    assert journal(board) == before, (journal(board), before, os.listdir(board.state_dir))
    print("second deploy: 1 file in %.1f s" % took)


# Modules of the flat layout before the house was ordered by concept (issue 21): where
# each is now, and where an earlier deploy put it (folder, module: kept apart so that
# no rename of the tree rewrites them).
FLAT_LAYOUT = [(now, folder + "/" + stem + ".py") for now, folder, stem in [
    ("firmware/journal/read.py", "firmware", "journal_read"),
    ("firmware/journal/record.py", "firmware", "record"),
    ("firmware/session/resume.py", "firmware", "session_resume"),
    ("firmware/archive/store.py", "firmware", "archive"),
    ("firmware/settings/store.py", "firmware", "settings_store"),
    ("firmware/storage/atomic.py", "firmware", "storage_atomic"),
    ("firmware/drivers/buttons.py", "firmware", "buttons"),
    ("firmware/drivers/font6x8.py", "firmware", "font6x8"),
    ("firmware/screens/stress/centre.py", "firmware/screens", "stress_centre"),
    ("firmware/screens/history/summary.py", "firmware/screens", "history_game"),
    ("core/stress/arbiter.py", "core", "stress_arbiter"),
    ("core/stackdeck/sheet.py", "core", "stackdeck_round"),
]]


def test_a_deploy_over_the_old_flat_layout_removes_its_files(board, build_dir, tmp_path):
    """A board flashed before the move holds the flat modules (the old journal reader's
    .mpy beside what is now the firmware/journal/ folder): the next deploy removes every
    one of them, keeps the journal, and the board resumes the saved game."""
    before = journal(board)
    assert actions(before) == ["draw", "draw"], before
    old = tmp_path / "old"
    copy_device_files(old)
    for now, was in FLAT_LAYOUT:
        assert os.path.isfile(os.path.join(ROOT, now)), now
        shutil.copyfile(os.path.join(ROOT, now), old / was)
    deploy(board, build_dir, "--no-reset", root=str(old))
    flash = board.state_dir
    for _now, was in FLAT_LAYOUT:
        assert os.path.isfile(os.path.join(flash, was[:-3] + ".mpy")), was
    booted = (board.frame() or ({}, None))[0].get("boot", 0)
    r, _took = deploy(board, build_dir)
    for _now, was in FLAT_LAYOUT:
        mpy = was[:-3] + ".mpy"
        assert "remove %s (left by an earlier deploy)" % mpy in r.stdout, r.stdout
        assert not os.path.exists(os.path.join(flash, mpy)), mpy
    assert "%d removed" % len(FLAT_LAYOUT) in r.stdout, r.stdout
    assert journal(board) == before
    wait_screen(board, "P1", "D50", boot_after=booted)
    assert journal(board) == before
