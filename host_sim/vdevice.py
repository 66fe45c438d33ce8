"""The virtual board's devices: an SSD1306 panel and a button player.

MicroPython-compatible code. The virtual board (host_sim/vboard.mjs, started by
``VirtualBoard(vdevice=True)``) loads this file as a built-in module at every boot,
before boot.py and main.py run, and calls ``install(machine, _vboard)``:

- ``Panel`` sits on the stand-in I2C bus at 0x3C (``machine.attach_i2c``) and decodes
  what the driver (firmware/drivers/ssd1306.py) sends: ``[0x00, cmd...]`` command runs,
  ``[0x80, cmd]`` single commands, ``[0x40, data...]`` GDDRAM runs in horizontal (also
  page and vertical) addressing mode inside the ``0x21``/``0x22`` windows; display
  on/off, inversion, entire-on, contrast, segment remap and COM direction are kept.
- ``Player`` reads a script of button presses from the host, line by line, and
  presses and releases the stand-in pins (``machine.press`` / ``machine.release``,
  which fire the pin interrupts as hardware does) at the right times.
- Both run from ``machine.sim_idle()``, which the firmware's app loop calls once per
  turn (about every 10 ms): after the turn's drawing, a panel that changed sends its
  picture to the host as one finished frame.

The host side (``link``, the board's ``_vboard`` module) keeps the files in a host
folder, outside the board's flash (``VirtualBoard.vdevice_dir``):

    frame.pbm    the newest finished frame: a binary PBM (P4) image of the 128x64
                 picture the panel shows, replaced whole at every frame; PBM's 1 is
                 black, so a lit pixel is stored as 0 and any viewer shows the panel
                 as it looks (light on black);
                 its comment line holds ``vdevice boot B frame N played P on 1
                 inverted 0 contrast C flipped 0`` (B counts the interpreters the
                 board started; N frames and P script lines since that boot; a
                 frame is also sent when a line has been played)
    boots        the count B
    input.txt    the script; the host appends lines while the firmware runs
    input.done   byte offset of input.txt played so far (kept across resets)
    log.txt      what the player did, and lines it could not read

Script lines (one action each, played one after the other; ``#`` starts a comment):

    press OK          press, hold 80 ms, release, then 60 ms before the next line
    press OK 900      hold for 900 ms (a long press)
    long BACK         the same as press BACK 900
    down LEFT / up LEFT   only the press or only the release
    call 2            the Stress call button of player 2 (press CALL2 also works)
    wait 500          nothing for 500 ms

Button names: UP DOWN LEFT RIGHT OK BACK CALL1..CALL4 (the Pico pin map,
firmware/boards/pico.py) or GPn for any pin.
"""

import binascii
import time

try:
    import framebuf
except ImportError:  # CPython: host_sim.framebuf.install() provides it
    framebuf = None

WIDTH = 128
HEIGHT = 64
ADDR = 0x3C

PINS = {"UP": 10, "DOWN": 11, "LEFT": 12, "RIGHT": 13, "OK": 14, "BACK": 15,
        "CALL1": 16, "CALL2": 17, "CALL3": 18, "CALL4": 19}
PRESS_MS = 80
LONG_MS = 900
GAP_MS = 60

# Commands with argument bytes (the rest take none).
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x23: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5,
         0x81: 1, 0x8D: 1, 0xA3: 2, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD6: 1,
         0xD9: 1, 0xDA: 1, 0xDB: 1}


class Panel:
    """An SSD1306 behind I2C: ``write(data)`` takes one write transaction."""

    def __init__(self):
        self.ram = bytearray(WIDTH * HEIGHT // 8)  # by picture column x (segment order undone)
        self.mode = 2  # page addressing after power-up
        self.c0, self.c1, self.p0, self.p1 = 0, WIDTH - 1, 0, HEIGHT // 8 - 1
        self.col = 0
        self.page = 0
        self.on = False
        self.inverted = False
        self.entire_on = False
        self.contrast = 0x7F
        self.seg_remap = False  # A1: column c shows at x = c (the upright module)
        self.com_remap = False  # C8: rows top to bottom
        self.changed = False
        self._op = -1  # command waiting for argument bytes
        self._args = []
        self._pic = bytearray(WIDTH * HEIGHT // 8)
        self._fb_ram = self._fb_pic = None

    # -- the I2C side ----------------------------------------------------------------
    def write(self, data):
        n = len(data)
        i = 0
        while i < n:
            ctl = data[i]
            i += 1
            if ctl & 0x80:  # Co = 1: one byte, then another control byte
                if i < n:
                    if ctl & 0x40:
                        self._data(data, i, i + 1)
                    else:
                        self._cmd(data[i])
                    i += 1
            else:  # Co = 0: the rest of the transaction
                if ctl & 0x40:
                    self._data(data, i, n)
                else:
                    for j in range(i, n):
                        self._cmd(data[j])
                return

    def _cmd(self, c):
        if self._op >= 0:
            self._args.append(c)
            if len(self._args) == _ARGS[self._op]:
                op = self._op
                self._op = -1
                self._apply(op, self._args)
            return
        if c in _ARGS:
            self._op = c
            self._args = []
            return
        if c == 0xAE or c == 0xAF:
            self.on = c == 0xAF
        elif c == 0xA6 or c == 0xA7:
            self.inverted = c == 0xA7
        elif c == 0xA4 or c == 0xA5:
            self.entire_on = c == 0xA5
        elif c == 0xA0 or c == 0xA1:
            self.seg_remap = c == 0xA1
        elif 0xC0 <= c <= 0xCF:
            self.com_remap = bool(c & 0x08)
        elif 0xB0 <= c <= 0xB7:
            self.page = c & 7
        elif c < 0x10:
            self.col = (self.col & 0xF0) | c
        elif c < 0x20:
            self.col = (self.col & 0x0F) | ((c & 0x0F) << 4)
        else:
            return  # start line, scrolling, nop: nothing the picture needs
        self.changed = True

    def _apply(self, op, a):
        if op == 0x20:
            self.mode = a[0] & 3
        elif op == 0x21:
            self.c0, self.c1 = a[0] & 0x7F, a[1] & 0x7F
            self.col = self.c0
        elif op == 0x22:
            self.p0, self.p1 = a[0] & 7, a[1] & 7
            self.page = self.p0
        elif op == 0x81:
            self.contrast = a[0]
            self.changed = True

    def _data(self, data, i, j):
        ram = self.ram
        while i < j:
            if self.mode == 0:  # horizontal: along the page row, then the next page
                k = min(self.c1 - self.col + 1, j - i)
            elif self.mode == 2:  # page: along the page row, wraps to its start
                k = min(WIDTH - self.col, j - i)
            else:  # vertical: one byte per page, then the next column
                k = 1
            if k <= 0:
                k = 1
            off = self.page * WIDTH
            if self.seg_remap:
                ram[off + self.col:off + self.col + k] = data[i:i + k]
            else:  # A0: column c shows at x = 127 - c
                for m in range(k):
                    ram[off + WIDTH - 1 - self.col - m] = data[i + m]
            i += k
            self.col += k
            if self.mode == 0:
                if self.col > self.c1:
                    self.col = self.c0
                    self.page = self.p0 if self.page >= self.p1 else self.page + 1
            elif self.mode == 2:
                if self.col >= WIDTH:
                    self.col = 0
            else:
                self.col -= 1
                if self.page >= self.p1:
                    self.page = self.p0
                    self.col = self.c0 if self.col >= self.c1 else self.col + 1
                else:
                    self.page += 1
        self.changed = True

    # -- what the panel shows ------------------------------------------------------------
    def picture(self):
        """The visible picture, row by row (MONO_HLSB: 16 bytes a row, bit 7 leftmost)."""
        pic = self._pic
        if not self.on:
            for k in range(len(pic)):
                pic[k] = 0
            return pic
        if self.entire_on:
            for k in range(len(pic)):
                pic[k] = 0xFF
            return pic
        if self._fb_ram is None:
            self._fb_ram = framebuf.FrameBuffer(self.ram, WIDTH, HEIGHT, framebuf.MONO_VLSB)
            self._fb_pic = framebuf.FrameBuffer(pic, WIDTH, HEIGHT, framebuf.MONO_HLSB)
        self._fb_pic.blit(self._fb_ram, 0, 0)
        if not self.com_remap:  # C0: COM scan from the bottom, the rows come upside down
            row = WIDTH // 8
            for y in range(HEIGHT // 2):
                a = y * row
                b = (HEIGHT - 1 - y) * row
                top = pic[a:a + row]
                pic[a:a + row] = pic[b:b + row]
                pic[b:b + row] = top
        if self.inverted:
            for k in range(len(pic)):
                pic[k] ^= 0xFF
        return pic

    def meta(self):
        return "on %d inverted %d contrast %d flipped %d" % (
            self.on, self.inverted, self.contrast, not self.seg_remap)


def parse(line):
    """A script line -> (pin or None, hold_ms or None (down/up: 0 / -1), wait_ms), or
    None for a blank or comment line. Raises ValueError for a line it cannot read."""
    line = line.split("#")[0].strip()
    if not line:
        return None
    words = line.split()
    verb = words[0].lower()
    if verb == "wait" and len(words) == 2:
        return (None, None, int(words[1]))
    if verb == "call" and len(words) in (2, 3):
        words = ["press", "CALL" + words[1]] + words[2:]
        verb = "press"
    if len(words) < 2:
        raise ValueError("no button")
    name = words[1].upper()
    if name in PINS:
        pin = PINS[name]
    elif name.startswith("GP") and name[2:].isdigit():
        pin = int(name[2:])
    else:
        raise ValueError("unknown button " + words[1])
    if verb == "press" and len(words) in (2, 3):
        return (pin, int(words[2]) if len(words) == 3 else PRESS_MS, GAP_MS)
    if verb == "long" and len(words) == 2:
        return (pin, LONG_MS, GAP_MS)
    if verb == "down" and len(words) == 2:
        return (pin, 0, 0)
    if verb == "up" and len(words) == 2:
        return (pin, -1, 0)
    raise ValueError("cannot read")


class Player:
    """Plays the host's script of presses on the stand-in pins, one line at a time."""

    def __init__(self, machine, link, clock=None):
        self.machine = machine
        self.link = link
        self.ticks_ms = clock or time.ticks_ms  # pyright: ignore[reportAttributeAccessIssue]
        self.step = None  # (pin, release at, done at) of the line being played
        self.played = 0

    def idle(self):
        now = self.ticks_ms()
        while True:  # lines that take no time (down, up) are played in the same turn
            s = self.step
            if s is not None:
                pin, release_at, done_at = s
                if pin is not None and _diff(now, release_at) >= 0:
                    self.machine.release(pin)
                    self.step = (None, release_at, done_at)
                if _diff(now, done_at) < 0:
                    return
                self.step = None
                self.played += 1
                self.link.dev_done()
            line = self.link.dev_next()
            if line is None:
                return
            try:
                act = parse(line)
            except ValueError as e:
                self.link.dev_log("line not played: %r (%s)" % (line, e))
                act = None
            if act is None:
                self.link.dev_done()
            else:
                self._start(act, now)

    def _start(self, act, now):
        pin, hold, wait = act
        if pin is None:  # wait
            self.step = (None, now, _add(now, wait))
        elif hold == 0:
            self.machine.press(pin)
            self.step = (None, now, now)
        elif hold == -1:
            self.machine.release(pin)
            self.step = (None, now, now)
        else:
            self.machine.press(pin)
            release_at = _add(now, hold)
            self.step = (pin, release_at, _add(release_at, wait))


def _diff(a, b):
    return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000


def _add(t, d):
    return (t + d) & 0x3FFFFFFF


class VDevice:
    """The panel and the player, run from machine.sim_idle()."""

    def __init__(self, machine, link, clock=None):
        self.panel = Panel()
        self.player = Player(machine, link, clock)
        self.link = link
        self.frames = 0
        self._done = -1
        machine.attach_i2c(ADDR, self.panel)
        machine.add_idle_hook(self.idle)

    def idle(self):
        self.player.idle()
        played = self.player.played
        if self.panel.changed or played != self._done:
            self.panel.changed = False
            self._done = played
            self.frames += 1
            self.link.dev_frame("frame %d played %d %s" % (
                self.frames, played, self.panel.meta()), binascii.hexlify(self.panel.picture()).decode())


def install(machine, link):
    """At boot on the virtual board: panel on the I2C bus, player on sim_idle."""
    return VDevice(machine, link)


# -- host side (CPython) --------------------------------------------------------------
def frame_info(comment):
    """The comment of a frame as a dict of ints: boot, frame, played, on, ..."""
    words = comment.split()
    info = {}
    for i in range(1, len(words) - 1, 2):
        try:
            info[words[i]] = int(words[i + 1])
        except ValueError:
            pass
    return info


def read_pbm(path):
    """(comment, pixels) of a binary PBM written by the virtual board: pixels is a list
    of rows of ints, 1 = lit (the file's 0, PBM's white); None when the file is not
    there (yet)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    fields = []
    comment = ""
    i = 0
    while len(fields) < 3:
        j = data.index(b"\n", i)
        line = data[i:j]
        i = j + 1
        if line.startswith(b"#"):
            comment = line[1:].strip().decode()
        else:
            fields += line.split()
    if fields[0] != b"P4":
        raise ValueError("not a binary PBM")
    w, h = int(fields[1]), int(fields[2])
    row = (w + 7) // 8
    bits = data[i:i + row * h]
    pixels = [[1 - ((bits[y * row + x // 8] >> (7 - x % 8)) & 1) for x in range(w)]
              for y in range(h)]
    return comment, pixels
