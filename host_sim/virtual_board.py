"""A virtual board: the real MicroPython interpreter behind a pseudo-terminal.

The unchanged ``mpremote`` talks to it as to a board (exec, eval, run, fs ls/cp/rm/
mkdir/cat, soft-reset, reset, resume, df)::

    with VirtualBoard(state_dir) as board:
        subprocess.run(["mpremote", "connect", board.port, "exec", "print(1)"], timeout=30)

or from a terminal (prints the port, runs until Ctrl-C)::

    .venv/bin/python -m host_sim.virtual_board [--dir D]

What it is: ``host_sim/vboard.mjs`` runs the MicroPython WebAssembly port (pinned in
package.json) under Node and answers as a board does (see there); this module owns the
pseudo-terminal, a symlink to it (mpremote must not be given ``/dev/pts/N`` itself: it
then reads without a timeout and can block forever on a silent line), the Node process
and a watchdog: running code cannot take a Ctrl-C in that build, so a Ctrl-C that is
not acknowledged within ``watchdog_s`` restarts the interpreter (as if the program had
been interrupted), replaying what arrived after the Ctrl-C.

The board's flash is ``state_dir`` (a temporary folder when None): read in at every
reset, every change written through at once, so files survive soft resets, hard resets
and restarts of the board, and a test can look at them on the host while code runs.
``host_sim/machine.py``, when present, is the board's built-in ``machine`` module (not a
file in its flash); ``machine.reset()`` and ``machine.soft_reset()`` reset the board.
Known limit: ``mpremote mount`` does not work (that build cannot read stdin while code
runs).

Devices (``vdevice=True``, or the environment variable ``VBOARD_VDEVICE=1``): at every
boot, before boot.py and main.py run, ``host_sim/vdevice.py`` puts an SSD1306 panel on
the stand-in I2C bus at 0x3C and a button player on ``machine.sim_idle()`` (which the
firmware's app loop calls once per turn). The host side, in ``board.vdevice_dir``
(outside the board's flash)::

    board.send("press OK", "long BACK")     # append script lines (host_sim/vdevice.py)
    board.wait_played(timeout=10)           # every line played?
    board.frame()                           # (info, 64 rows of 128 ints) or None;
                                            # info: {"boot": B, "frame": N, ...}
"""

import argparse
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
NODE_SCRIPT = os.path.join(HERE, "vboard.mjs")
MACHINE_PY = os.path.join(HERE, "machine.py")
VDEVICE_PY = os.path.join(HERE, "vdevice.py")
PICO_FLASH_BYTES = 1408 * 1024  # the file system of a Raspberry Pi Pico (rp2 port)
OUT_QUEUE_LIMIT = 256 * 1024  # bytes held for a reader that is not there; older ones are dropped


def _die_with_parent():
    # The interpreter may be busy forever (a main.py that never returns): make sure it
    # does not outlive the Python process that owns the board (Linux only).
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


class VirtualBoardError(RuntimeError):
    pass


class VirtualBoard:
    """A MicroPython board on a pseudo-terminal. Use as a context manager.

    state_dir      the board's flash (a host folder; created if missing; None: temporary)
    flash_size     bytes of flash the board reports and allows (ENOSPC beyond)
    machine_py     the stand-in machine module (default host_sim/machine.py, if present)
    report_version (major, minor, patch) the board claims to run, for tests of tools
                   that check it; the interpreter is still MicroPython 1.27
    link           where to put the symlink to the pty (default: in a temporary folder)
    watchdog_s     how long a Ctrl-C may go unacknowledged before the restart
    vdevice        install host_sim/vdevice.py at every boot (panel frames out, scripted
                   presses in, through vdevice_dir); default: VBOARD_VDEVICE=1 in the
                   environment
    """

    def __init__(self, state_dir=None, *, flash_size=PICO_FLASH_BYTES, machine_py=None,
                 report_version=None, link=None, watchdog_s=0.5, node="node",
                 log=None, vdevice=None):
        self._tmp = tempfile.mkdtemp(prefix="vboard-")
        self.state_dir = os.path.abspath(state_dir) if state_dir else os.path.join(self._tmp, "flash")
        os.makedirs(self.state_dir, exist_ok=True)
        self.flash_size = int(flash_size)
        self.machine_py = machine_py if machine_py is not None else MACHINE_PY
        self.report_version = report_version
        self.port = link or os.path.join(self._tmp, "ttyVB0")
        self.watchdog_s = watchdog_s
        self.node = node
        self.restarts = 0  # watchdog restarts so far
        if vdevice is None:
            vdevice = os.environ.get("VBOARD_VDEVICE", "") not in ("", "0")
        self.vdevice_dir = os.path.join(self._tmp, "vdevice") if vdevice else None
        if self.vdevice_dir:
            os.makedirs(self.vdevice_dir)
        self._log = log
        self._proc = None
        self._ctrl_r = None
        self._master = self._slave = None
        self._thread = None
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self._lock = threading.Lock()
        self._to_node = bytearray()  # waiting to be written to the interpreter
        self._to_pty = bytearray()  # waiting to be written to the serial line
        self._after_ctrl_c = None  # bytes sent since the oldest unacknowledged Ctrl-C
        self._unacked = 0
        self._ctrl_c_time = 0.0
        self._started = threading.Event()
        self._stderr_tail = b""

    # ------------------------------------------------------------ lifecycle
    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self, timeout=20):
        if not shutil.which(self.node):
            raise VirtualBoardError("node (20+) is needed for the virtual board; run tools/setup")
        if not os.path.isdir(os.path.join(ROOT, "node_modules", "@micropython")):
            raise VirtualBoardError("node_modules missing: run tools/setup")
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.set_blocking(self._master, False)
        slave_name = os.ttyname(self._slave)
        if os.path.lexists(self.port):
            os.unlink(self.port)
        os.symlink(slave_name, self.port)
        self._spawn("boot")
        self._thread = threading.Thread(target=self._pump, name="vboard-pump", daemon=True)
        self._thread.start()
        self._wait_started(timeout)
        return self

    def stop(self):
        self._stop.set()
        try:
            os.write(self._wake_w, b"x")
        except OSError:
            pass
        if self._thread:
            self._thread.join(5)
        self._kill()
        for fd in (self._master, self._slave, self._wake_r, self._wake_w):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = self._wake_r = self._wake_w = None
        try:
            if os.path.islink(self.port):
                os.unlink(self.port)
        except OSError:
            pass
        shutil.rmtree(self._tmp, ignore_errors=True)

    def restart(self):
        """Power-cycle the board: a fresh interpreter that runs boot.py and main.py."""
        with self._lock:
            self._kill()
            self._to_node.clear()
            self._after_ctrl_c = None
            self._unacked = 0
            self._spawn("boot")
            os.write(self._wake_w, b"x")
        self._wait_started(20)

    # ------------------------------------------------------------ devices
    def _vd(self, name):
        if not self.vdevice_dir:
            raise VirtualBoardError("this board has no devices: VirtualBoard(vdevice=True)")
        return os.path.join(self.vdevice_dir, name)

    def send(self, *lines):
        """Append lines to the button script (played in order; host_sim/vdevice.py)."""
        with open(self._vd("input.txt"), "a") as f:
            f.write("".join(line + "\n" for line in lines))

    def played(self):
        """Has the board played every line sent so far?"""
        try:
            size = os.path.getsize(self._vd("input.txt"))
        except OSError:
            return True
        try:
            with open(self._vd("input.done")) as f:
                done = int(f.read() or 0)
        except (OSError, ValueError):
            done = 0
        return done >= size

    def wait_played(self, timeout=10):
        end = time.monotonic() + timeout
        while not self.played():
            if time.monotonic() > end:
                return False
            time.sleep(0.02)
        return True

    def frame(self):
        """The newest frame of the panel: (info, 64 rows of 128 ints), or None. info
        holds the numbers of the frame's comment (host_sim/vdevice.py): boot (which
        start of the interpreter drew it), frame, played, on, inverted, contrast."""
        from host_sim.vdevice import frame_info, read_pbm
        got = read_pbm(self._vd("frame.pbm"))
        return None if got is None else (frame_info(got[0]), got[1])

    # ------------------------------------------------------------ process
    def _spawn(self, start):
        ctrl_r, ctrl_w = os.pipe()
        cmd = [self.node, NODE_SCRIPT, "--flash", self.state_dir, "--flash-size",
               str(self.flash_size), "--start", start, "--ctrl-fd", str(ctrl_w)]
        if self.machine_py and os.path.exists(self.machine_py):
            cmd += ["--machine", self.machine_py]
        if self.vdevice_dir:
            cmd += ["--vdevice", self.vdevice_dir, "--vdevice-py", VDEVICE_PY]
        if self.report_version:
            cmd += ["--report-version", ".".join(str(x) for x in self.report_version)]
        env = dict(os.environ)
        self._proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            pass_fds=(ctrl_w,), cwd=ROOT, env=env, start_new_session=True,
            preexec_fn=_die_with_parent)
        os.close(ctrl_w)
        if self._ctrl_r is not None:
            try:
                os.close(self._ctrl_r)
            except OSError:
                pass
        self._ctrl_r = ctrl_r
        self._started.clear()
        os.set_blocking(self._proc.stdin.fileno(), False)
        os.set_blocking(self._proc.stdout.fileno(), False)
        os.set_blocking(self._proc.stderr.fileno(), False)

    def _wait_started(self, timeout):
        if self._started.wait(timeout):
            return
        with self._lock:
            err = self._stderr_tail
        self.stop()
        raise VirtualBoardError("the virtual board did not start: " + err.decode(errors="replace")[-2000:])

    def _kill(self):
        p = self._proc
        if p is None:
            return
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except (OSError, ProcessLookupError):
                p.kill()
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            pass
        for f in (p.stdin, p.stdout, p.stderr):
            try:
                f.close()
            except OSError:
                pass
        self._proc = None

    # ------------------------------------------------------------ the pump
    def _pump(self):
        while not self._stop.is_set():
            with self._lock:
                p = self._proc
                if p is None:
                    return
                p_in, p_out, p_err = p.stdin.fileno(), p.stdout.fileno(), p.stderr.fileno()
                rlist = [self._master, self._wake_r, self._ctrl_r, p_out, p_err]
                wlist = []
                if self._to_node:
                    wlist.append(p_in)
                if self._to_pty:
                    wlist.append(self._master)
            try:
                r, w, _ = select.select(rlist, wlist, [], 0.05)
            except (OSError, ValueError):
                if self._stop.is_set():
                    return
                time.sleep(0.01)
                continue
            with self._lock:
                if self._stop.is_set():
                    return
                if p is not self._proc:
                    continue
                if self._wake_r in r:
                    os.read(self._wake_r, 64)
                if self._master in r:
                    self._from_line()
                if self._ctrl_r in r:
                    self._from_ctrl()
                if p_err in r:
                    try:
                        data = os.read(p_err, 65536)
                    except OSError:
                        data = b""
                    if data:
                        self._stderr_tail = (self._stderr_tail + data)[-4000:]
                        if self._log:
                            self._log(data.decode(errors="replace"))
                if p_in in w and self._to_node:
                    try:
                        n = os.write(p_in, self._to_node)
                        del self._to_node[:n]
                    except BlockingIOError:
                        pass
                    except OSError:
                        pass
                if self._master in w and self._to_pty:
                    try:
                        n = os.write(self._master, self._to_pty)
                        del self._to_pty[:n]
                    except BlockingIOError:
                        pass
                    except OSError:
                        self._to_pty.clear()
                if p_out in r:
                    self._from_node()  # may restart the interpreter: last
                if p is self._proc:
                    self._check_watchdog()

    def _from_line(self):
        try:
            data = os.read(self._master, 65536)
        except (BlockingIOError, OSError):
            return
        if not data:
            return
        if self._after_ctrl_c is not None:
            self._after_ctrl_c += data
        else:
            i = data.find(b"\x03")
            if i >= 0:
                self._after_ctrl_c = bytearray(data[i + 1:])
                self._ctrl_c_time = time.monotonic()
        self._unacked += data.count(b"\x03")
        self._to_node += data

    def _from_ctrl(self):
        try:
            data = os.read(self._ctrl_r, 4096)
        except OSError:
            return
        n = data.count(b"A")
        if n:
            self._unacked = max(0, self._unacked - n)
            if self._unacked == 0:
                self._after_ctrl_c = None
            else:
                # Later Ctrl-Cs are still waiting: the clock restarts at the next one.
                pend = self._after_ctrl_c or bytearray()
                j = pend.find(b"\x03")
                for _ in range(n - 1):
                    if j < 0:
                        break
                    j = pend.find(b"\x03", j + 1)
                self._after_ctrl_c = bytearray(pend[j + 1:]) if j >= 0 else bytearray()
                self._ctrl_c_time = time.monotonic()
        if b"S" in data:
            self._started.set()

    def _from_node(self):
        p = self._proc
        try:
            data = os.read(p.stdout.fileno(), 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if data:
            self._to_pty += data
            if len(self._to_pty) > OUT_QUEUE_LIMIT:
                del self._to_pty[:len(self._to_pty) - OUT_QUEUE_LIMIT]
            return
        # The interpreter's process ended: restart it (a crash; a board would reboot).
        if p.poll() is None:
            try:
                p.wait(2)
            except subprocess.TimeoutExpired:
                pass
        self._restart_interpreter(replay=b"")

    def _check_watchdog(self):
        if self._unacked and self._after_ctrl_c is not None and \
                time.monotonic() - self._ctrl_c_time > self.watchdog_s:
            replay = bytes(self._after_ctrl_c)
            self._restart_interpreter(replay)

    def _restart_interpreter(self, replay):
        self.restarts += 1
        self._kill()
        self._after_ctrl_c = None
        self._unacked = 0
        self._to_node = bytearray()
        self._spawn("interrupted")
        # Whatever came after the Ctrl-C goes to the new interpreter, and is looked at
        # again for Ctrl-Cs of its own.
        if replay:
            i = replay.find(b"\x03")
            if i >= 0:
                self._after_ctrl_c = bytearray(replay[i + 1:])
                self._ctrl_c_time = time.monotonic()
                self._unacked = replay.count(b"\x03")
            self._to_node += replay


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python -m host_sim.virtual_board",
        description="Run a virtual MicroPython board on a pseudo-terminal; print its port.")
    ap.add_argument("--dir", help="folder kept as the board's flash (default: a temporary one)")
    ap.add_argument("--link", help="where to create the port (a symlink to the pty)")
    ap.add_argument("--flash-size", type=int, default=PICO_FLASH_BYTES)
    ap.add_argument("--vdevice", action="store_true",
                    help="panel and button player (host_sim/vdevice.py); files in a folder printed at start")
    args = ap.parse_args(argv)
    board = VirtualBoard(args.dir, link=args.link, flash_size=args.flash_size,
                         log=lambda s: sys.stderr.write(s), vdevice=args.vdevice or None)
    try:
        board.start()
    except VirtualBoardError as e:
        print("virtual board: %s" % e, file=sys.stderr)
        return 1
    print(board.port, flush=True)
    if board.vdevice_dir:
        print("devices: frames in %s/frame.pbm, script lines to %s/input.txt"
              % (board.vdevice_dir, board.vdevice_dir), file=sys.stderr, flush=True)
    print("virtual board on %s, flash in %s; try: mpremote connect %s exec \"import os; print(os.uname())\"   (Ctrl-C to stop)"
          % (board.port, board.state_dir, board.port), file=sys.stderr, flush=True)
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        board.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
