"""The device in this terminal: `python -m host_sim` (or `tools/sim`).

    python -m host_sim [--board pico|esp32_devkit] [--speed X] [--dir FOLDER] [--bell]

The 128x64 panel is drawn with half blocks (two pixel rows per character, one
column per pixel: true aspect in a usual terminal font), framed, with a status line
under it. The unchanged firmware runs on the simulated hardware; its clock is
virtual and follows the real one (times --speed). The flash is a folder on the
computer (default ./sim-data/, or $HOST_SIM_DIR: tools/sim sets it to the checkout's
sim-data/), so a game survives closing the simulator.

Keys (a terminal cannot report a key being held, so each key is a press of 80 ms):

    arrows                 UP DOWN LEFT RIGHT
    Enter (or Space)       OK
    Backspace or Esc       BACK
    l then a button key    a long press of that button (held 900 ms), e.g. l Esc
    1 2 3 4                the Stress call buttons of players 1-4
    q or Ctrl-C            quit (the terminal is left as it was)

The status line shows the key map, the I2C bytes and transactions of the last frame
the app sent (counted by the emulated SSD1306), and the virtual clock.

The pieces that do not need a terminal are plain functions, tested on their own:
`decode_keys` (bytes -> key names), `Keys.feed` (key name -> action) and `compose`
(pixels and status -> the lines to draw).
"""

import os
import sys
import time

from host_sim.screenshot import to_text

USAGE = ("usage: python -m host_sim [--board pico|esp32_devkit] [--speed X] "
         "[--dir FOLDER] [--bell]\n")

SCREEN_COLS = 128 + 2  # the panel and its frame
SCREEN_ROWS = 32 + 2
STATUS_ROWS = 2
NEED_COLS = SCREEN_COLS
NEED_ROWS = SCREEN_ROWS + STATUS_ROWS

KEY_HELP = "arrows move  Enter OK  Bksp/Esc BACK  l+key long  1-4 call  q quit"

# Keys ---------------------------------------------------------------------------------

_ESCAPES = {
    b"\x1b[A": "UP", b"\x1b[B": "DOWN", b"\x1b[C": "RIGHT", b"\x1b[D": "LEFT",
    b"\x1bOA": "UP", b"\x1bOB": "DOWN", b"\x1bOC": "RIGHT", b"\x1bOD": "LEFT",
    b"\x1bOM": "ENTER",
}
_SINGLE = {b"\r": "ENTER", b"\n": "ENTER", b"\x7f": "BACKSPACE", b"\x08": "BACKSPACE",
           b"\x03": "CTRL_C", b"\x04": "CTRL_D", b" ": "SPACE"}


def decode_keys(data):
    """Bytes read from the terminal -> key names: UP DOWN LEFT RIGHT ENTER BACKSPACE
    ESC CTRL_C CTRL_D SPACE, a printable character as itself, None for sequences we
    do not use (F keys, Home, ...). A lone ESC (not starting a sequence) is ESC."""
    keys = []
    i = 0
    n = len(data)
    while i < n:
        c = data[i:i + 1]
        if c == b"\x1b":
            if i + 1 < n and data[i + 1:i + 2] in (b"[", b"O"):
                j = i + 2
                # parameters, then one final byte in 0x40..0x7e
                while j < n and 0x30 <= data[j] <= 0x3f:
                    j += 1
                seq = data[i:j + 1]
                keys.append(_ESCAPES.get(seq))
                i = j + 1
                continue
            keys.append("ESC")
            i += 1
            continue
        if c in _SINGLE:
            # \r\n from some terminals is one Enter
            if c == b"\r" and data[i + 1:i + 2] == b"\n":
                i += 1
            keys.append(_SINGLE[c])
        elif 0x20 < data[i] < 0x7f:
            keys.append(c.decode("ascii"))
        else:
            keys.append(None)
        i += 1
    return keys


BUTTON_KEYS = {"UP": "UP", "DOWN": "DOWN", "LEFT": "LEFT", "RIGHT": "RIGHT",
               "ENTER": "OK", "SPACE": "OK", "BACKSPACE": "BACK", "ESC": "BACK"}


class Keys:
    """Key names -> actions: ("press", BUTTON), ("long", BUTTON), ("call", player),
    ("arm",) after `l` (the next button is long), ("quit",), or None (ignored)."""

    def __init__(self):
        self.armed = False  # `l` was typed: the next button key is a long press

    def feed(self, key):
        if key in ("q", "Q", "CTRL_C", "CTRL_D"):
            return ("quit",)
        if key in ("l", "L"):
            self.armed = not self.armed
            return ("arm",)
        if key in BUTTON_KEYS:
            kind = "long" if self.armed else "press"
            self.armed = False
            return (kind, BUTTON_KEYS[key])
        if key in ("1", "2", "3", "4"):
            self.armed = False
            return ("call", int(key))
        return None


# The frame ------------------------------------------------------------------------------

def status_lines(frame=None, now_us=0, speed=1.0, board="pico", armed=False, note="",
                 width=NEED_COLS):
    """The two lines under the panel: the key map; the last frame's I2C traffic and
    the clock (and what is going on: a long press armed, the screen off...)."""
    if frame:
        i2c = "I2C last frame %d B in %d tx" % (frame["bytes"], frame["transactions"])
    else:
        i2c = "I2C last frame -"
    s = now_us // 1_000_000
    clock = "clock %d:%02d:%02d.%03d" % (s // 3600, s // 60 % 60, s % 60,
                                          now_us // 1000 % 1000)
    speed_s = "" if speed == 1 else "  x%g" % speed
    parts = [i2c, clock + speed_s, board]
    if armed:
        parts.insert(0, "LONG: press a button")
    if note:
        parts.append(note)
    return [KEY_HELP[:width], "  |  ".join(parts)[:width]]


def too_small(cols, rows):
    """The message shown instead of the panel when the terminal is too small."""
    return ["Terminal %dx%d: the simulator needs %dx%d." % (cols, rows, NEED_COLS, NEED_ROWS),
            "Make the window larger (or the font smaller).",
            "q quits; the device keeps running."]


def compose(pixels, status, cols=NEED_COLS, rows=NEED_ROWS):
    """The lines to draw: the framed panel in half blocks (34 lines of 130 columns)
    and the status lines, or a short message when cols x rows cannot hold them."""
    if cols < NEED_COLS or rows < NEED_ROWS:
        return [line[:max(cols, 1)] for line in too_small(cols, rows)][:max(rows, 1)]
    return to_text(pixels, frame=True).split("\n") + list(status)[:STATUS_ROWS]


# The interactive loop ---------------------------------------------------------------------

class Session:
    """The device, its driver and the input queue: what the terminal view drives.
    Without a terminal (tests) call key()/advance() directly."""

    GAP_US = 40_000  # between two queued presses of the navigation buttons

    def __init__(self, root, board="pico", speed=1.0):
        from host_sim.device import SimDevice
        from host_sim.script import Driver
        self.board = board
        self.speed = speed
        self.dev = SimDevice(root, board=board)
        self.driver = Driver(self.dev)
        self.keys = Keys()
        self.queue = []  # ("press"|"long", button)
        self.free_at = 0  # when the navigation buttons are free for the next press
        self.calls_free = [0, 0, 0, 0]

    def key(self, key):
        """Feed one key name; returns the action taken (see Keys.feed)."""
        action = self.keys.feed(key)
        if action is None:
            return None
        if action[0] in ("press", "long"):
            self.queue.append(action)  # every key is played, in order
        elif action[0] == "call":
            self._call(action[1])
        return action

    def _call(self, player):
        from host_sim.script import PRESS_US
        d = self.driver
        if player > len(self.dev.board.CALL_PINS) or d.now < self.calls_free[player - 1]:
            return
        pin = d.call_pin(player)
        d.schedule(d.now, pin, True)
        d.schedule(d.now + PRESS_US, pin, False)
        self.calls_free[player - 1] = d.now + PRESS_US + 1

    def _feed_queue(self):
        from host_sim.script import LONG_US, PRESS_US
        d = self.driver
        if self.queue and d.now >= self.free_at:
            kind, button = self.queue.pop(0)
            hold = LONG_US if kind == "long" else PRESS_US
            pin = d.nav_pin(button)
            d.schedule(d.now, pin, True)
            d.schedule(d.now + hold, pin, False)
            self.free_at = d.now + hold + self.GAP_US

    def advance(self, us):
        """Let `us` of virtual time pass (queued presses start on the way)."""
        d = self.driver
        end = d.now + us
        while d.now < end:
            self._feed_queue()
            d.run_until(min(end, d.now + 10_000))

    def pixels(self):
        return self.dev.pixels()

    def panel_key(self):
        """Changes whenever what the panel shows may have changed."""
        e = self.dev.emu
        return (bytes(e.ram), e.display_on, e.charge_pump, e.inverted, e.entire_on,
                e.contrast, e.start_line, e.offset, e.seg_remap, e.com_remap, e.mux)

    def note(self):
        e = self.dev.emu
        if not e.lit():
            return "screen off: a key wakes it"
        if e.contrast < 32:
            return "dimmed"
        return ""

    def status(self, width=NEED_COLS):
        return status_lines(self.driver.frame, self.driver.now, self.speed, self.board,
                            self.keys.armed, self.note(), width)


def parse_args(argv):
    opts = {"board": "pico", "speed": 1.0, "bell": False,
            "dir": os.environ.get("HOST_SIM_DIR") or "sim-data"}
    i = 0
    while i < len(argv):
        a = argv[i]
        if "=" in a and a.startswith("--"):
            a, v = a.split("=", 1)
            argv = argv[:i] + [a, v] + argv[i + 1:]
        if a == "--bell":
            opts["bell"] = True
            i += 1
            continue
        if a in ("--board", "--speed", "--dir") and i + 1 < len(argv):
            v = argv[i + 1]
            if a == "--speed":
                try:
                    v = float(v)
                except ValueError:
                    raise SystemExit("--speed takes a number, e.g. 2 or 0.5")
                if not 0.01 <= v <= 100:
                    raise SystemExit("--speed between 0.01 and 100")
            if a == "--board" and v not in ("pico", "esp32_devkit"):
                raise SystemExit("--board pico or esp32_devkit")
            opts[a[2:]] = v
            i += 2
            continue
        raise SystemExit(USAGE.rstrip())
    return opts


class Terminal:
    """Raw keyboard input and ANSI output on a tty; restores everything on exit."""

    def __init__(self, fd_in, out):
        self.fd = fd_in
        self.out = out
        self.saved = None

    def __enter__(self):
        import termios
        self.saved = termios.tcgetattr(self.fd)
        mode = termios.tcgetattr(self.fd)
        mode[0] &= ~(termios.IXON | termios.ICRNL | termios.INLCR | termios.BRKINT)
        mode[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN)
        mode[6][termios.VMIN] = 0
        mode[6][termios.VTIME] = 0
        termios.tcsetattr(self.fd, termios.TCSAFLUSH, mode)
        # alternate screen, hide the cursor, no line wrap
        self.write("\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[2J")
        return self

    def __exit__(self, *exc):
        import termios
        self.write("\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l")
        if self.saved is not None:
            termios.tcsetattr(self.fd, termios.TCSAFLUSH, self.saved)
        return False

    def write(self, s):
        self.out.write(s)
        self.out.flush()

    def size(self):
        try:
            sz = os.get_terminal_size(self.out.fileno())
            return sz.columns, sz.lines
        except OSError:
            return NEED_COLS, NEED_ROWS

    def read(self, timeout):
        import select
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return b""
        data = os.read(self.fd, 1024)
        if data == b"\x1b":  # maybe the start of an arrow key: wait a moment for the rest
            r, _, _ = select.select([self.fd], [], [], 0.03)
            if r:
                data += os.read(self.fd, 1024)
        return data

    def draw(self, lines, dim=False):
        buf = ["\x1b[H"]
        attr = "\x1b[2m" if dim else ""
        for i, line in enumerate(lines):
            buf.append("\x1b[%dH%s%s\x1b[0m\x1b[K" % (i + 1, attr if i < SCREEN_ROWS else "", line))
        buf.append("\x1b[J")
        self.write("".join(buf))


def main(argv):
    if any(a in ("-h", "--help") for a in argv):
        sys.stdout.write(USAGE + "\n" + __doc__)
        return 0
    opts = parse_args(list(argv))
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        sys.stderr.write("python -m host_sim needs a terminal (for a run without one: "
                         "python -m host_sim script FILE)\n")
        return 2
    sim = Session(opts["dir"], board=opts["board"], speed=opts["speed"])
    try:
        with Terminal(sys.stdin.fileno(), sys.stdout) as term:
            run(sim, term, opts)
    except KeyboardInterrupt:
        pass
    return 0


def run(sim, term, opts):
    import signal

    def stop(*_):
        raise KeyboardInterrupt

    old_term = signal.signal(signal.SIGTERM, stop)
    old_hup = signal.signal(signal.SIGHUP, stop)
    try:
        _loop(sim, term, opts)
    finally:
        signal.signal(signal.SIGTERM, old_term)
        signal.signal(signal.SIGHUP, old_hup)


def _loop(sim, term, opts):
    speed = opts["speed"]
    t0 = time.monotonic()
    v0 = sim.driver.now
    last_panel = last_size = last_status = None
    status_at = 0.0
    beeps = sim.driver.beeps
    while True:
        for key in decode_keys(term.read(0.01)):
            if sim.key(key) == ("quit",):
                return
        now = time.monotonic()
        target = v0 + int((now - t0) * 1e6 * speed)
        if target - sim.driver.now > 500_000:  # the computer fell behind: do not race
            t0, v0 = now, sim.driver.now
            target = v0
        if target > sim.driver.now:
            sim.advance(target - sim.driver.now)
        if opts["bell"] and sim.driver.beeps != beeps:
            term.write("\a")
        beeps = sim.driver.beeps
        size = term.size()
        panel = sim.panel_key()
        status = sim.status(size[0])
        fits = size[0] >= NEED_COLS and size[1] >= NEED_ROWS
        if panel != last_panel or size != last_size:
            term.draw(compose(sim.pixels(), status, size[0], size[1]),
                      dim=sim.dev.emu.contrast < 32)
        elif fits and status != last_status and (now - status_at >= 0.1 or
                                                 status[1][:12] != last_status[1][:12]):
            term.write("".join("\x1b[%dH%s\x1b[K" % (SCREEN_ROWS + 1 + i, line)
                               for i, line in enumerate(status)))
        else:
            continue
        last_panel, last_size, last_status, status_at = panel, size, status, now
