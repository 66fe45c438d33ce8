"""The virtual board answers the unchanged mpremote as a board does.

Every mpremote call runs under `timeout` (and a subprocess timeout on top), so the
suite cannot hang on a silent line.
"""

import os
import shutil
import subprocess
import sys
import time

import pytest

from host_sim.virtual_board import VirtualBoard

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")

pytestmark = pytest.mark.skipif(
    not (shutil.which("node") and os.path.exists(MPREMOTE)
         and os.path.isdir(os.path.join(ROOT, "node_modules", "@micropython"))),
    reason="needs node, node_modules and mpremote (tools/setup)")


def mpremote(port, *args, timeout=30):
    """mpremote connect PORT ARGS..., never longer than `timeout` seconds."""
    cmd = ["timeout", "-k", "3", str(timeout), MPREMOTE, "connect", port, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 10)


def ok(port, *args, timeout=30):
    r = mpremote(port, *args, timeout=timeout)
    assert r.returncode == 0, (args, r.returncode, r.stdout, r.stderr)
    return r.stdout


def wait_for(pred, timeout=10):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return pred()


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    state = tmp_path_factory.mktemp("flash")
    with VirtualBoard(str(state)) as b:
        yield b


def test_exec_and_identity(board):
    assert ok(board.port, "exec", "print(1)") == "1\n"
    out = ok(board.port, "exec", "import os, sys\n"
             "print(sys.implementation.name, sys.implementation.version[:2])\n"
             "print(os.uname().machine)\nprint(os.uname().sysname)")
    assert out.splitlines() == ["micropython (1, 27)", "Virtual Pico with RP2040", "rp2"]
    assert ok(board.port, "eval", "6*7") == "42\n"


def test_root_looks_like_flash(board):
    out = ok(board.port, "exec", "import os\nprint(sorted(os.listdir('/')), os.getcwd())")
    names, cwd = out.rsplit(" ", 1)
    for name in ("tmp", "dev", "proc", "home", "vb_builtin", "flash"):
        assert "'%s'" % name not in names
    assert cwd.strip() == "/"


def test_machine_is_builtin_not_a_file(board):
    out = ok(board.port, "exec", "import machine, os\n"
             "print(hasattr(machine, 'Pin'), hasattr(machine, 'reset'))\n"
             "print('machine.py' in os.listdir('/'))")
    assert out.split() == ["True", "True", "False"]


def test_fs_cp_r_ls_cat_rm(board, tmp_path):
    src = tmp_path / "pkg"
    (src / "sub").mkdir(parents=True)
    (src / "a.py").write_text("A = 1\n")
    (src / "sub" / "b.bin").write_bytes(bytes(range(256)) * 3)
    ok(board.port, "fs", "cp", "-r", str(src), ":")
    out = ok(board.port, "fs", "ls", ":pkg")
    assert "a.py" in out and "sub/" in out
    out = ok(board.port, "fs", "ls", ":pkg/sub")
    assert "768 b.bin" in out
    assert ok(board.port, "fs", "cat", ":pkg/a.py") == "A = 1\n"
    back = tmp_path / "back.bin"
    ok(board.port, "fs", "cp", ":pkg/sub/b.bin", str(back))
    assert back.read_bytes() == bytes(range(256)) * 3
    # The flash is the state folder on the host.
    assert os.path.getsize(os.path.join(board.state_dir, "pkg", "sub", "b.bin")) == 768
    assert open(os.path.join(board.state_dir, "pkg", "a.py")).read() == "A = 1\n"
    ok(board.port, "fs", "rm", "-r", ":pkg")
    assert "pkg" not in ok(board.port, "fs", "ls")
    assert not os.path.exists(os.path.join(board.state_dir, "pkg"))


def test_errors_have_micropython_errno(board):
    r = mpremote(board.port, "fs", "ls", ":nope")
    assert r.returncode == 1
    assert "No such file or directory" in r.stderr
    out = ok(board.port, "exec", "import os\n"
             "for f in (lambda: open('nope'), lambda: os.mkdir('d'), lambda: os.mkdir('d'), lambda: os.rmdir('d')):\n"
             " try:\n  f()\n except OSError as e:\n  print(e.errno)")
    assert out.split() == ["2", "17"]
    r = mpremote(board.port, "exec", "open('nope')")
    assert "OSError: [Errno 2] ENOENT" in r.stdout + r.stderr


def test_rename_with_absolute_paths(board):
    """os.rename('/a', '/b') as the firmware's atomic writes do it (VfsPosix with a root
    folder loses the first path in MicroPython 1.27; the board renames on the host)."""
    out = ok(board.port, "exec", "import os\n"
             "open('/r_new.txt', 'w').write('new')\nopen('/r.txt', 'w').write('old')\n"
             "os.rename('/r_new.txt', '/r.txt')\n"
             "print(open('/r.txt').read(), 'r_new.txt' in os.listdir('/'))\n"
             "os.mkdir('rd')\nos.rename('r.txt', 'rd/r.txt')\nprint(os.listdir('/rd'))\n"
             "try:\n os.rename('/nope', '/x')\nexcept OSError as e:\n print(e.errno)")
    assert out.split() == ["new", "False", "['r.txt']", "2"]
    assert open(os.path.join(board.state_dir, "rd", "r.txt")).read() == "new"
    assert not os.path.exists(os.path.join(board.state_dir, "r_new.txt"))
    ok(board.port, "fs", "rm", "-r", ":rd")


def test_run_and_resume(board, tmp_path):
    script = tmp_path / "script.py"
    script.write_text("x = 6 * 7\nprint('ran', x)\n")
    assert ok(board.port, "run", str(script)) == "ran 42\n"
    ok(board.port, "exec", "y = 5")
    assert ok(board.port, "resume", "exec", "print(y)") == "5\n"  # no soft reset
    r = mpremote(board.port, "exec", "print(y)")  # soft reset first: y is gone
    assert "NameError" in r.stdout + r.stderr


def test_soft_reset_keeps_files_and_runs_boot(board):
    ok(board.port, "exec", "f = open('boot.py', 'w')\nf.write(\"open('boots.txt', 'a').write('b')\\n\")\nf.close()\n"
       "f = open('keep.txt', 'w')\nf.write('kept')\nf.close()")
    ok(board.port, "soft-reset")
    out = ok(board.port, "exec", "print(open('keep.txt').read(), len(open('boots.txt').read()) >= 2)")
    assert out.split() == ["kept", "True"]
    ok(board.port, "fs", "rm", ":boot.py", ":boots.txt", ":keep.txt")


def test_reset_runs_main_and_watchdog_interrupts_it(board):
    """machine.reset() boots as a board does (boot.py, main.py); a main.py that never
    ends is interrupted by the next mpremote (Ctrl-C, then the watchdog restart)."""
    marker = os.path.join(board.state_dir, "started.txt")
    ok(board.port, "exec", "f = open('main.py', 'w')\nf.write(\"import time\\nopen('started.txt', 'w').write('yes')\\n"
       "while True:\\n    time.sleep_ms(5)\\n\")\nf.close()")
    before = board.restarts
    ok(board.port, "reset")
    assert wait_for(lambda: os.path.exists(marker)), "main.py did not run after reset"
    # main.py is still running: the next call must still work.
    assert ok(board.port, "exec", "print('back')") == "back\n"
    assert board.restarts == before + 1
    ok(board.port, "fs", "rm", ":main.py", ":started.txt")


def test_files_survive_a_restart_of_the_board(tmp_path):
    state = tmp_path / "flash"
    with VirtualBoard(str(state)) as b:
        ok(b.port, "exec", "open('journal.txt', 'w').write('game 1')")
    with VirtualBoard(str(state)) as b:
        assert ok(b.port, "fs", "cat", ":journal.txt") == "game 1"


def test_flash_full_is_enospc(tmp_path):
    with VirtualBoard(str(tmp_path / "flash"), flash_size=64 * 1024) as b:
        out = ok(b.port, "exec", "import os\nprint(os.statvfs('/')[2] * os.statvfs('/')[0])\n"
                 "f = open('big', 'wb')\ntry:\n for i in range(40):\n  f.write(bytes(4096))\n"
                 "except OSError as e:\n print('errno', e.errno)\nf.close()")
        assert out.split() == ["65536", "errno", "28"]
        r = mpremote(b.port, "fs", "cp", os.path.join(ROOT, "README.md"), ":readme")
        assert r.returncode != 0 and "No space left on device" in r.stderr


def test_repeated_calls(board, tmp_path):
    """30 mpremote calls of every kind in a row, none may fail."""
    f = tmp_path / "f.txt"
    calls = failures = 0
    problems = []
    for i in range(6):
        f.write_text("round %d\n" % i)
        for args in (("exec", "print(%d)" % i), ("fs", "cp", str(f), ":f.txt"), ("fs", "ls"),
                     ("fs", "cat", ":f.txt"), ("soft-reset",)):
            calls += 1
            r = mpremote(board.port, *args, timeout=20)
            good = r.returncode == 0
            if args[0] == "exec":
                good = good and r.stdout == "%d\n" % i
            if args[-1] == ":f.txt" and args[1] == "cat":
                good = good and r.stdout == "round %d\n" % i
            if not good:
                failures += 1
                problems.append((args, r.returncode, r.stdout[-200:], r.stderr[-200:]))
    assert calls == 30
    assert failures == 0, problems
