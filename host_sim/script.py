"""Scripted runs: play the device headless from a script of button presses and times.

    python -m host_sim script FILE [--out DIR] [--dir FLASH] [--board pico|esp32_devkit]
                                   [--scale N] [--start-us N]

The script (FILE, or - for standard input) is read whole and checked first: a line
that does not parse stops the run before anything happens. Then the lines run in
order on a fresh simulated device (the unchanged firmware; an empty flash in a
temporary folder unless --dir names one to use and keep). Time is virtual and
exact: the app loop turns every 10 ms as on the board, and every pin edge happens at
its own microsecond, so a run takes a fraction of the real time and is the same
every time.

One instruction per line; `#` starts a comment; blank lines are skipped; words are
separated by spaces; button names are any case.

    press OK                 a short press: 80 ms down, then 60 ms for the screen
    press DOWN DOWN OK       several, one after another
    press DOWN*3             the same, counted
    long BACK                a long press (held 900 ms, then 60 ms)
    hold OK / release OK     press or let go of a button now (no time passes)
    wait 500                 let time pass: 500 (ms), 250ms, 1.5s, 900us
    call 1                   Stress call button 1: down now, up 80 ms later
    call 2 +900us            call button 2 down exactly 900 us after the previous
                             call's press (same group: nothing runs in between)
    call 3 hold 5ms          held 5 ms instead of 80 (bounces, taps)
    expect Stack 31          fail unless the text shows on the screen (in the
                             8x8 font, lit or inverted; spaces count)
    absent Undo              fail if the text shows
    shot home Home menu      write home.png into --out (the rest of the line is
                             the caption, used by tools/gallery)
    restart                  power the device off and on again (the flash stays)
    print                    write the screen as text (half blocks) to stdout

Calls: consecutive `call` lines with a `+T` offset form one group whose presses are
placed exactly (T after the previous call's press, in us, ms or s). A `call` without
an offset starts a new group. The group is played out (every call released, then
60 ms for the screen) before the next line that is not a call of the group.

Exit status: 0 when every line ran; 1 when an `expect`/`absent` failed, with
`line N: reason` and the screen as text on standard error (and, with --out, the
screen in fail-line-N.png); 2 for a line that does not parse or a missing file,
also as `line N: reason`.

The same machinery drives the interactive view (host_sim.terminal): `Driver` runs
the loop in virtual time and fires scheduled pin edges at their exact microsecond.
"""

import heapq
import os
import re
import shutil
import sys
import tempfile

from host_sim import machine as _machine
from host_sim.device import BUTTONS, SimDevice

PRESS_US = 80_000  # a short, human press
LONG_US = 900_000  # longer than ButtonMachine's long press
AFTER_US = 60_000  # time for the screen after a press
TURN_US = 10_000  # the app loop's pace (App.LOOP_MS)
PLAYERS = 4

USAGE = ("usage: python -m host_sim script FILE [--out DIR] [--dir FLASH] "
         "[--board pico|esp32_devkit] [--scale N] [--start-us N]\n")


class ScriptError(Exception):
    """A line that does not parse (status 2) or fails (status 1)."""

    def __init__(self, line, reason, status=2):
        Exception.__init__(self, "line %d: %s" % (line, reason))
        self.line = line
        self.reason = reason
        self.status = status


# The driver: the app loop in virtual time, pin edges at exact microseconds --------------

class Driver:
    """Runs a SimDevice's app loop turn by turn in virtual time and fires scheduled
    pin edges at their exact microsecond (between loop turns, as real edges come).

    `now` is the virtual time in us since the device was built (clock.elapsed_us).
    `frame` holds the I2C traffic of the last frame the app sent (emulator counters).
    """

    def __init__(self, dev):
        self.dev = dev
        self.clock = dev.clock
        self.next_turn = self.clock.elapsed_us
        self._events = []  # heap of (t_us, seq, pin, down)
        self._seq = 0
        self.frame = dev.emu.end_frame()  # what the start sent
        del dev.emu.frames[:]
        self.frames = dev.app.frames
        self.beeps = 0
        dev.emu.keep_log = False

    @property
    def now(self):
        return self.clock.elapsed_us

    def schedule(self, t_us, pin, down):
        """Press (down=True) or release a pin at virtual time t_us (not before now)."""
        if t_us < self.now:
            raise ValueError("that time has passed")
        self._seq += 1
        heapq.heappush(self._events, (t_us, self._seq, pin, down))

    def pending(self):
        """The time of the last scheduled edge, or None."""
        return max(e[0] for e in self._events) if self._events else None

    def nav_pin(self, name):
        return self.dev.board.NAV_PINS[BUTTONS.index(name.upper())]

    def call_pin(self, player):
        return self.dev.board.CALL_PINS[player - 1]

    def run_until(self, t_us):
        """Run loop turns and fire edges in time order up to t_us, then stand at t_us."""
        clock = self.clock
        events = self._events
        while True:
            t_edge = events[0][0] if events else None
            if t_edge is not None and t_edge <= self.next_turn and t_edge <= t_us:
                if t_edge > clock.elapsed_us:
                    clock.advance_us(t_edge - clock.elapsed_us)
                _t, _s, pin, down = heapq.heappop(events)
                if down:
                    _machine.press(pin)
                else:
                    _machine.release(pin)
                continue
            if self.next_turn > t_us:
                break
            if self.next_turn > clock.elapsed_us:
                clock.advance_us(self.next_turn - clock.elapsed_us)
            self._turn()
            self.next_turn = max(self.next_turn + TURN_US, clock.elapsed_us)
        if t_us > clock.elapsed_us:
            clock.advance_us(t_us - clock.elapsed_us)

    def _turn(self):
        dev = self.dev
        log = _machine.pwm_log
        n = len(log)
        dev.app.step_safely()
        if dev.app.frames != self.frames:
            self.frames = dev.app.frames
            self.frame = dev.emu.end_frame()
            del dev.emu.frames[:]
        if len(log) > n:
            self.beeps += sum(1 for e in log[n:] if e[3])
        if len(log) > 1000:
            del log[:]

    def settle(self, extra_us=AFTER_US):
        """Play out every scheduled edge, then `extra_us` more."""
        last = self.pending()
        if last is not None:
            self.run_until(max(last, self.now) + extra_us)


# Parsing ------------------------------------------------------------------------------

_TIME = re.compile(r"^(\d+(?:\.\d+)?)(us|ms|s)?$")
_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")


def parse_time(word):
    """'500' or '500ms' -> 500000 (us); '1.5s', '900us'. None when it is no time."""
    m = _TIME.match(word.strip().lower())
    if not m:
        return None
    unit = m.group(2) or "ms"
    value = float(m.group(1)) * {"us": 1, "ms": 1000, "s": 1_000_000}[unit]
    if value != int(value):
        return None
    return int(value)


def _buttons(n, words):
    out = []
    for w in words:
        name, _, count = w.partition("*")
        if name.upper() not in BUTTONS:
            raise ScriptError(n, "unknown button %r (one of %s)" % (name, " ".join(BUTTONS)))
        times = 1
        if count:
            if not count.isdigit() or not 1 <= int(count) <= 100:
                raise ScriptError(n, "bad count %r after %s*" % (count, name))
            times = int(count)
        out += [name.upper()] * times
    return out


def _time(n, word, what="a time"):
    t = parse_time(word)
    if t is None:
        raise ScriptError(n, "%r is not %s (500, 250ms, 1.5s, 900us)" % (word, what))
    return t


def parse_line(n, text):
    """One line -> an instruction tuple (command, line number, ...) or None."""
    body = text.split("#", 1)[0].strip()
    if not body:
        return None
    cmd, _, rest = body.partition(" ")
    cmd = cmd.lower()
    rest = rest.strip()
    words = rest.split()
    if cmd == "press":
        if not words:
            raise ScriptError(n, "press what? (press OK, press DOWN*3)")
        return ("press", n, _buttons(n, words))
    if cmd in ("long", "hold", "release"):
        if len(words) != 1:
            raise ScriptError(n, "%s takes one button" % cmd)
        return (cmd, n, _buttons(n, words)[0])
    if cmd == "wait":
        if len(words) != 1:
            raise ScriptError(n, "wait takes one time (500, 250ms, 1.5s, 900us)")
        return ("wait", n, _time(n, words[0]))
    if cmd == "call":
        if not words or not words[0].isdigit() or not 1 <= int(words[0]) <= PLAYERS:
            raise ScriptError(n, "call takes a player 1..%d" % PLAYERS)
        player = int(words[0])
        offset = None
        hold = PRESS_US
        i = 1
        while i < len(words):
            w = words[i]
            if w.startswith("+"):
                offset = _time(n, w[1:], "an offset")
            elif w.lower() == "hold" and i + 1 < len(words):
                i += 1
                hold = _time(n, words[i])
                if hold == 0:
                    raise ScriptError(n, "a call is held for at least 1us")
            else:
                raise ScriptError(n, "unexpected %r (call P [+900us] [hold 80ms])" % w)
            i += 1
        return ("call", n, player, offset, hold)
    if cmd in ("expect", "absent"):
        if not rest:
            raise ScriptError(n, "%s what text?" % cmd)
        return (cmd, n, rest)
    if cmd == "shot":
        if not words:
            raise ScriptError(n, "shot takes a name (and a caption)")
        if not _NAME.match(words[0]):
            raise ScriptError(n, "shot name %r: letters, digits, _ . - only" % words[0])
        return ("shot", n, words[0], rest[len(words[0]):].strip())
    if cmd in ("restart", "print"):
        if words:
            raise ScriptError(n, "%s takes nothing" % cmd)
        return (cmd, n)
    raise ScriptError(n, "unknown command %r (press long hold release wait call expect "
                         "absent shot restart print)" % cmd)


def parse(text):
    """The whole script -> instruction tuples; raises ScriptError at the first bad line."""
    out = []
    names = {}
    for n, line in enumerate(text.splitlines(), 1):
        ins = parse_line(n, line)
        if ins is None:
            continue
        if ins[0] == "call" and ins[3] is not None and not (out and out[-1][0] == "call"):
            raise ScriptError(n, "a call with +offset must follow another call")
        if ins[0] == "shot":
            if ins[2] in names:
                raise ScriptError(n, "shot %r already taken on line %d" % (ins[2], names[ins[2]]))
            names[ins[2]] = n
        out.append(ins)
    return out


def shots(text):
    """[(name, caption, line)] of a script's `shot` lines (for tools/gallery)."""
    return [(i[2], i[3], i[1]) for i in parse(text) if i[0] == "shot"]


# Running ------------------------------------------------------------------------------

class Runner:
    def __init__(self, root, board="pico", out=None, scale=4, start_us=0, stdout=None):
        self.root = root
        self.board = board
        self.out = out
        self.scale = scale
        self.stdout = stdout or sys.stdout
        self.dev = SimDevice(root, board=board, start_us=start_us)
        self.driver = Driver(self.dev)
        self.written = []  # paths of the screenshots
        self._last_call = None  # virtual time of the previous call's press

    def run(self, instructions):
        for ins in instructions:
            self.do(ins)
        self.driver.settle()

    def do(self, ins):
        cmd, n = ins[0], ins[1]
        d = self.driver
        if not (cmd == "call" and ins[3] is not None):
            d.settle()  # play out a group of calls first
        if cmd == "press":
            for name in ins[2]:
                self._press(name, PRESS_US)
        elif cmd == "long":
            self._press(ins[2], LONG_US)
        elif cmd in ("hold", "release"):
            d.schedule(d.now, d.nav_pin(ins[2]), cmd == "hold")
            d.run_until(d.now)
        elif cmd == "wait":
            d.run_until(d.now + ins[2])
        elif cmd == "call":
            _, _, player, offset, hold = ins
            t = d.now if offset is None else self._last_call + offset
            if t < d.now:
                raise ScriptError(n, "+offset lands before now", 2)
            pin = d.call_pin(player)
            d.schedule(t, pin, True)
            d.schedule(t + hold, pin, False)
            self._last_call = t
        elif cmd in ("expect", "absent"):
            shown = self.dev.shows(ins[2])
            if shown != (cmd == "expect"):
                self._fail(n, ("%r is not on the screen" if shown is False else
                               "%r is on the screen") % ins[2])
        elif cmd == "shot":
            self.shot(ins[2])
        elif cmd == "restart":
            clock = self.dev.clock
            self.dev = SimDevice(self.root, board=self.board, clock=clock)
            self.driver = Driver(self.dev)
        elif cmd == "print":
            self.stdout.write(self.dev.text() + "\n")

    def _press(self, name, hold_us):
        d = self.driver
        pin = d.nav_pin(name)
        t = d.now
        d.schedule(t, pin, True)
        d.schedule(t + hold_us, pin, False)
        d.run_until(t + hold_us + AFTER_US)

    def shot(self, name):
        if self.out is None:
            return None
        os.makedirs(self.out, exist_ok=True)
        path = os.path.join(self.out, name + ".png")
        self.dev.screenshot(path, scale=self.scale)
        self.written.append(path)
        return path

    def _fail(self, n, reason):
        if self.out is not None:
            self.shot("fail-line-%d" % n)
        raise ScriptError(n, reason, 1)


def run_text(text, root=None, **kw):
    """Parse and run a script; returns the Runner. Raises ScriptError."""
    instructions = parse(text)
    if root is not None:
        runner = Runner(root, **kw)
        runner.run(instructions)
        return runner
    tmp = tempfile.mkdtemp(prefix="sim-flash-")
    try:
        runner = Runner(tmp, **kw)
        runner.run(instructions)
        return runner
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    opts = {"--out": None, "--dir": None, "--board": "pico", "--scale": "4", "--start-us": "0"}
    path = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("-h", "--help"):
            sys.stdout.write(USAGE + "\n" + __doc__)
            return 0
        if a in opts:
            if i + 1 >= len(argv):
                sys.stderr.write(USAGE)
                return 2
            opts[a] = argv[i + 1]
            i += 2
            continue
        if "=" in a and a.split("=", 1)[0] in opts:
            k, v = a.split("=", 1)
            opts[k] = v
        elif path is None and (a == "-" or not a.startswith("-")):
            path = a
        else:
            sys.stderr.write(USAGE)
            return 2
        i += 1
    if path is None:
        sys.stderr.write(USAGE)
        return 2
    if opts["--board"] not in ("pico", "esp32_devkit"):
        sys.stderr.write("unknown board %r (pico or esp32_devkit)\n" % opts["--board"])
        return 2
    try:
        scale = int(opts["--scale"])
        start_us = int(opts["--start-us"])
    except ValueError:
        sys.stderr.write(USAGE)
        return 2
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        sys.stderr.write("%s: %s\n" % (path, e.strerror or e))
        return 2
    runner = None
    try:
        instructions = parse(text)
        root = opts["--dir"]
        tmp = None
        if root is None:
            root = tmp = tempfile.mkdtemp(prefix="sim-flash-")
        try:
            runner = Runner(root, board=opts["--board"], out=opts["--out"], scale=scale,
                            start_us=start_us)
            runner.run(instructions)
        finally:
            if tmp:
                shutil.rmtree(tmp, ignore_errors=True)
    except ScriptError as e:
        sys.stderr.write(str(e) + "\n")
        if e.status == 1 and runner is not None:
            sys.stderr.write(runner.dev.text() + "\n")
        return e.status
    sys.stdout.write("ok: %d lines, %d screenshots, %.3f s of device time\n"
                     % (len(instructions), len(runner.written), runner.driver.now / 1e6))
    return 0
