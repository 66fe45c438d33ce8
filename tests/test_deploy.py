"""tools/deploy against the virtual board (host_sim/virtual_board.py).

The deploys here use a small tree written into a temporary folder (core/, firmware/,
a placeholder main.py, plus tests/ and host_sim/ that must not reach the board), so the
file stays quick. Helpers for an end-to-end test with the real firmware:

    with VirtualBoard(str(tmp_path / "flash")) as board:
        r = run_deploy(board.port)            # the real tree (this checkout)
        assert r.returncode == 0, r.stderr
        ...                                   # board.state_dir is the board's flash
"""

import os
import shutil
import subprocess
import sys
import time

import pytest

from host_sim.virtual_board import VirtualBoard

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEPLOY = os.path.join(ROOT, "tools", "deploy")
MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")

pytestmark = pytest.mark.skipif(
    not (shutil.which("node") and os.path.exists(MPREMOTE)
         and os.path.isdir(os.path.join(ROOT, "node_modules", "@micropython"))),
    reason="needs node, node_modules and mpremote (tools/setup)")


def run_deploy(port, *args, root=None, timeout=180):
    """tools/deploy --port PORT ARGS... on `root` (default: this checkout)."""
    cmd = [sys.executable, DEPLOY]
    if port:
        cmd += ["--port", port]
    if root:
        cmd += ["--root", str(root)]
    cmd += list(args)
    env = dict(os.environ, DEPLOY_NO_VENV="1")
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)


def mpremote(port, *args, timeout=30):
    cmd = ["timeout", "-k", "3", str(timeout), MPREMOTE, "connect", port, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 10)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_tree(dst):
    """A tiny device tree with a placeholder main.py, and host-only folders beside it."""
    write(os.path.join(dst, "core", "__init__.py"), "")
    write(os.path.join(dst, "core", "rules.py"), "def total(cards):\n    return sum(cards)\n")
    write(os.path.join(dst, "firmware", "__init__.py"), "")
    write(os.path.join(dst, "firmware", "app.py"),
          "from core.rules import total\n\ndef run():\n    return total([10, 11, 10])\n")
    write(os.path.join(dst, "main.py"),
          "from firmware.app import run\nf = open('ran.txt', 'w')\nf.write(str(run()))\nf.close()\n")
    write(os.path.join(dst, "tests", "test_x.py"), "def test(): pass\n")
    write(os.path.join(dst, "host_sim", "machine.py"), "# host only\n")
    write(os.path.join(dst, "tools", "helper.py"), "# host only\n")
    return dst


def wait_for(pred, timeout=10):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return pred()


def lines(r, word):
    return [ln for ln in r.stdout.splitlines() if ln.startswith(word + " ")]


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    with VirtualBoard(str(tmp_path_factory.mktemp("flash"))) as b:
        yield b


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return make_tree(str(tmp_path_factory.mktemp("tree")))


def test_first_deploy_puts_the_files_and_runs_main(board, tree):
    r = run_deploy(board.port, root=tree)
    assert r.returncode == 0, r.stdout + r.stderr
    flash = board.state_dir
    for rel in ("core/__init__.mpy", "core/rules.mpy", "firmware/__init__.mpy", "firmware/app.mpy",
                "main.py", ".deploy_manifest"):
        assert os.path.isfile(os.path.join(flash, rel)), rel
    for rel in ("core/rules.py", "main.mpy", "tests", "host_sim", "tools"):
        assert not os.path.exists(os.path.join(flash, rel)), rel
    assert "reset: the board restarted" in r.stdout
    # After the reset main.py ran, importing the compiled modules.
    ran = os.path.join(flash, "ran.txt")
    assert wait_for(lambda: os.path.exists(ran) and open(ran).read() == "31")


def test_second_deploy_copies_nothing(board, tree):
    r = run_deploy(board.port, root=tree)
    assert r.returncode == 0, r.stderr
    assert lines(r, "copy") == []
    assert "done: 0 copied, 0 removed, 5 unchanged" in r.stdout


def test_only_the_changed_file_is_copied(board, tree):
    write(os.path.join(tree, "core", "rules.py"), "def total(cards):\n    return sum(cards) + 1\n")
    r = run_deploy(board.port, root=tree)
    assert r.returncode == 0, r.stderr
    assert [ln.split()[1] for ln in lines(r, "copy")] == ["core/rules.mpy"]
    ran = os.path.join(board.state_dir, "ran.txt")
    assert wait_for(lambda: open(ran).read() == "32")


def test_journal_and_settings_survive_deploys(board, tree):
    r = mpremote(board.port, "exec", "open('journal.txt', 'w').write('S31 game 1')\n"
                 "open('settings.json', 'w').write('{}')")
    assert r.returncode == 0, r.stderr
    for extra in ((), ("--source",), ()):  # source, then compiled again: everything changes
        r = run_deploy(board.port, *extra, root=tree)
        assert r.returncode == 0, r.stderr
        assert open(os.path.join(board.state_dir, "journal.txt")).read() == "S31 game 1"
        assert open(os.path.join(board.state_dir, "settings.json")).read() == "{}"
    # The .py files of the --source deploy were removed again (they would shadow the .mpy).
    assert not os.path.exists(os.path.join(board.state_dir, "core", "rules.py"))
    assert os.path.exists(os.path.join(board.state_dir, "core", "rules.mpy"))


def test_dry_run_changes_nothing(board, tree):
    write(os.path.join(tree, "firmware", "app.py"),
          "from core.rules import total\n\ndef run():\n    return total([1])\n")
    before = open(os.path.join(board.state_dir, ".deploy_manifest")).read()
    r = run_deploy(board.port, "--dry-run", root=tree)
    assert r.returncode == 0, r.stderr
    assert [ln.split()[2] for ln in lines(r, "would")] == ["firmware/app.mpy"]
    assert open(os.path.join(board.state_dir, ".deploy_manifest")).read() == before


def test_romfs_and_mount_say_when_the_board_cannot(board, tree):
    r = run_deploy(board.port, "--romfs", root=tree)
    assert r.returncode == 2
    assert "no ROMFS partition" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = run_deploy(board.port, "--mount", root=tree)
    assert r.returncode == 2
    assert "--mount does not work on the virtual board" in r.stderr


def test_too_old_micropython(tmp_path, tree):
    with VirtualBoard(str(tmp_path / "flash"), report_version=(1, 22, 2)) as old:
        r = run_deploy(old.port, root=tree)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "deploy: the board runs MicroPython 1.22.2, too old: this firmware needs MicroPython 1.27 "
        "or newer (update the board: https://micropython.org/download/RPI_PICO/)"]
    assert not os.path.exists(tmp_path / "flash" / "main.py")


def test_flash_full(tmp_path, tree):
    big = make_tree(str(tmp_path / "tree"))
    write(os.path.join(big, "core", "big.py"), "DATA = %r\n" % ("x" * 40000))
    with VirtualBoard(str(tmp_path / "flash"), flash_size=32 * 1024) as small:
        r = run_deploy(small.port, root=big)
    assert r.returncode == 2
    assert r.stderr.startswith("deploy: the board's flash is full")
    assert len(r.stderr.strip().splitlines()) == 1


def test_no_board(tmp_path, tree):
    r = run_deploy(str(tmp_path / "ttyACM9"), root=tree)
    assert r.returncode == 2
    assert r.stderr.strip() == "deploy: no board on %s (is it plugged in, and not in use by another program?)" % (
        tmp_path / "ttyACM9")
    from serial.tools import list_ports
    if any(p.vid is not None for p in list_ports.comports()):
        pytest.skip("a USB serial device is connected to this machine")
    r = run_deploy(None, root=tree)
    assert r.returncode == 2
    assert r.stderr.strip() == "deploy: no board connected: plug in the Pico (with a data USB cable) or give --port"
