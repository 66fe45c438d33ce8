"""An emulated SSD1306 OLED controller behind I2C, for the simulator and the tests.

``SSD1306Emulator.write(data)`` takes one I2C write transaction addressed to the chip
(the bytes after the address byte) and decodes it as the controller does: control
bytes (Co and D/C# bits), commands with their argument bytes (which may be split
over several transactions), GDDRAM writes in horizontal, vertical and page
addressing modes with the column and page windows and their wrap-around. It keeps
the 128x64 GDDRAM and renders what the panel shows (display on/off, charge pump,
entire-display-on, inversion, segment remap, COM scan direction, display start line,
mux ratio, display offset; contrast is kept for the screenshots).

Orientation: the usual module is mounted so that the standard initialisation
(segment remap A1 and COM scan C8) shows an upright picture whose pixel (x, y) is
frame-buffer pixel (x, y). ``pixels()`` uses that frame; A0/C0 turn it by 180 degrees.
As on the chip, the segment remap takes effect for data written after it, the COM
direction at once.

Traffic is counted: every transaction and byte (the control bytes included, the
address byte not), split into command and GDDRAM bytes, in total and per frame
(``frame_stats()``, ``end_frame()``, ``reset_counters()``).

``FakeBusioI2C`` is a stand-in for CircuitPython's ``busio.I2C`` and
``adafruit_stubs()`` installs what Adafruit's ``adafruit_ssd1306`` needs to run on
CPython against the emulator.
"""

import sys
import types

WIDTH = 128
HEIGHT = 64
PAGES = 8

# Addressing modes (command 0x20)
HORIZONTAL = 0
VERTICAL = 1
PAGE = 2

# Commands with argument bytes: opcode -> number of arguments. Opcodes not listed
# (and not in a range below) take none.
_ARGS = {
    0x20: 1,  # memory addressing mode
    0x21: 2,  # column address window
    0x22: 2,  # page address window
    0x23: 1,  # fade out / blinking (SSD1306B)
    0x26: 6,  # right horizontal scroll setup
    0x27: 6,  # left horizontal scroll setup
    0x29: 5,  # vertical and right horizontal scroll setup
    0x2A: 5,  # vertical and left horizontal scroll setup
    0x81: 1,  # contrast
    0x8D: 1,  # charge pump
    0xA3: 2,  # vertical scroll area
    0xA8: 1,  # multiplex ratio
    0xAD: 1,  # internal IREF select (SSD1306B; sent by Adafruit's driver)
    0xD3: 1,  # display offset
    0xD5: 1,  # display clock divide / oscillator
    0xD6: 1,  # zoom in (SSD1306B)
    0xD9: 1,  # pre-charge period
    0xDA: 1,  # COM pins hardware configuration
    0xDB: 1,  # VCOMH deselect level
}

_KNOWN_SINGLE = set(range(0x00, 0x20)) | set(range(0x40, 0x80)) | set(range(0xB0, 0xB8)) | {
    0x2E, 0x2F, 0xA0, 0xA1, 0xA4, 0xA5, 0xA6, 0xA7, 0xAE, 0xAF, 0xE3,
} | set(range(0xC0, 0xD0))


class Counters:
    """Traffic since the last reset."""

    __slots__ = ("transactions", "bytes", "command_bytes", "data_bytes", "control_bytes",
                 "data_transactions", "command_transactions")

    def __init__(self):
        self.reset()

    def reset(self):
        self.transactions = 0  # I2C write transactions to the chip
        self.bytes = 0  # bytes after the address byte (control bytes included)
        self.command_bytes = 0  # command and argument bytes
        self.data_bytes = 0  # GDDRAM bytes
        self.control_bytes = 0
        self.data_transactions = 0  # transactions that carried GDDRAM bytes
        self.command_transactions = 0  # transactions that carried only commands

    def as_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}

    def bus_time_us(self, freq=400_000):
        """Time on the wire: 9 clocks per byte, the address byte and start/stop
        (about 2 clocks) per transaction. Ignores clock stretching and gaps."""
        clocks = 9 * (self.bytes + self.transactions) + 2 * self.transactions
        return clocks * 1_000_000 / freq


class SSD1306Emulator:
    """The controller: feed it I2C write transactions with ``write``."""

    def __init__(self, address=0x3C, ram_fill=0x00):
        self.address = address
        self.ram = bytearray([ram_fill]) * (WIDTH * PAGES)  # [page * 128 + segment]
        self.total = Counters()
        self.frame = Counters()
        self.frames = []  # Counters.as_dict() of each ended frame
        self.log = []  # decoded commands: tuples (opcode, *args)
        self.keep_log = True
        self.warnings = []
        self.hard_reset()

    # -- state ---------------------------------------------------------------------
    def hard_reset(self):
        """Power-on reset values (GDDRAM is left as it is)."""
        self.display_on = False
        self.contrast = 0x7F
        self.entire_on = False
        self.inverted = False
        self.charge_pump = False
        self.mode = PAGE
        self.col_start, self.col_end = 0, WIDTH - 1
        self.page_start, self.page_end = 0, PAGES - 1
        self.col = 0
        self.page = 0
        self.start_line = 0
        self.seg_remap = False
        self.com_remap = False
        self.mux = 64
        self.offset = 0
        self.com_pins = 0x12
        self.scroll_active = False
        self.clock_div = 0x80
        self.precharge = 0x22
        self.vcomh = 0x20
        self._pending = None  # [opcode, args...] of a command awaiting arguments
        self._need = 0

    # -- the I2C side ----------------------------------------------------------------
    def write(self, data):
        """One I2C write transaction addressed to the chip (address byte excluded)."""
        data = bytes(data)
        n = len(data)
        self.total.transactions += 1
        self.frame.transactions += 1
        self.total.bytes += n
        self.frame.bytes += n
        i = 0
        had_data = False
        while i < n:
            ctl = data[i]
            i += 1
            self._count("control_bytes", 1)
            if ctl & 0x3F:
                self.warnings.append("control byte 0x%02x has low bits set" % ctl)
            is_data = bool(ctl & 0x40)
            if ctl & 0x80:  # Co=1: exactly one byte follows, then another control byte
                if i >= n:
                    break
                chunk = data[i:i + 1]
                i += 1
            else:  # Co=0: the rest of the transaction
                chunk = data[i:]
                i = n
            if is_data:
                had_data = had_data or bool(chunk)
                self._count("data_bytes", len(chunk))
                for b in chunk:
                    self._write_ram(b)
            else:
                self._count("command_bytes", len(chunk))
                for b in chunk:
                    self._command_byte(b)
        if n:
            self._count("data_transactions" if had_data else "command_transactions", 1)

    def _count(self, name, k):
        setattr(self.total, name, getattr(self.total, name) + k)
        setattr(self.frame, name, getattr(self.frame, name) + k)

    # -- counters ------------------------------------------------------------------
    def frame_stats(self):
        """Traffic since the last end_frame()/reset_counters(), as a dict (with
        ``bus_us``, the time on a 400 kHz bus)."""
        d = self.frame.as_dict()
        d["bus_us"] = round(self.frame.bus_time_us())
        return d

    def end_frame(self):
        """Close the current frame: returns its stats and starts counting a new one."""
        d = self.frame_stats()
        self.frames.append(d)
        self.frame.reset()
        return d

    def reset_counters(self):
        self.total.reset()
        self.frame.reset()
        self.frames = []
        self.log = []

    # -- commands -------------------------------------------------------------------
    def _command_byte(self, b):
        if self._pending is not None:
            self._pending.append(b)
            self._need -= 1
            if self._need == 0:
                cmd = self._pending
                self._pending = None
                self._execute(cmd[0], cmd[1:])
            return
        need = _ARGS.get(b, 0)
        if need:
            self._pending = [b]
            self._need = need
        else:
            if b not in _KNOWN_SINGLE:
                self.warnings.append("unknown command 0x%02x" % b)
            self._execute(b, [])

    def _execute(self, op, args):
        if self.keep_log:
            self.log.append((op,) + tuple(args))
        if op == 0x81:
            self.contrast = args[0]
        elif op == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        elif op in (0xA4, 0xA5):
            self.entire_on = op == 0xA5
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7
        elif op in (0xAE, 0xAF):
            self.display_on = op == 0xAF
        elif op == 0x20:
            mode = args[0] & 0x03
            if mode == 3:
                self.warnings.append("invalid addressing mode 3")
            else:
                self.mode = mode
        elif op == 0x21:
            self.col_start, self.col_end = args[0] & 0x7F, args[1] & 0x7F
            self.col = self.col_start
        elif op == 0x22:
            self.page_start, self.page_end = args[0] & 0x07, args[1] & 0x07
            self.page = self.page_start
        elif 0x00 <= op <= 0x0F:  # page mode: lower nibble of the column
            if self.mode == PAGE:
                self.col = (self.col & 0xF0) | op
            else:
                self.warnings.append("0x%02x (page-mode column) outside page mode" % op)
        elif 0x10 <= op <= 0x1F:  # page mode: upper nibble of the column
            if self.mode == PAGE:
                self.col = ((op & 0x07) << 4) | (self.col & 0x0F)
            else:
                self.warnings.append("0x%02x (page-mode column) outside page mode" % op)
        elif 0xB0 <= op <= 0xB7:
            if self.mode == PAGE:
                self.page = op & 0x07
            else:
                self.warnings.append("0x%02x (page-mode page) outside page mode" % op)
        elif 0x40 <= op <= 0x7F:
            self.start_line = op & 0x3F
        elif op in (0xA0, 0xA1):
            self.seg_remap = op == 0xA1
        elif 0xC0 <= op <= 0xCF:
            self.com_remap = bool(op & 0x08)
        elif op == 0xA8:
            mux = (args[0] & 0x3F) + 1
            if mux < 16:
                self.warnings.append("invalid multiplex ratio %d" % mux)
            else:
                self.mux = mux
        elif op == 0xD3:
            self.offset = args[0] & 0x3F
        elif op == 0xDA:
            self.com_pins = args[0]
            if args[0] & 0x30 != 0x10:
                self.warnings.append("COM pins 0x%02x: a 128x64 panel wants 0x12" % args[0])
        elif op == 0xD5:
            self.clock_div = args[0]
        elif op == 0xD9:
            self.precharge = args[0]
        elif op == 0xDB:
            self.vcomh = args[0]
        elif op == 0x2E:
            self.scroll_active = False
        elif op == 0x2F:
            self.scroll_active = True
            self.warnings.append("hardware scrolling is not rendered")
        # everything else (scroll set-up, NOP, IREF, zoom, fade) is accepted and ignored

    # -- GDDRAM ---------------------------------------------------------------------
    def _write_ram(self, b):
        seg = (WIDTH - 1 - self.col) if self.seg_remap else self.col
        self.ram[self.page * WIDTH + seg] = b
        if self.mode == HORIZONTAL:
            if self.col >= self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
            else:
                self.col += 1
        elif self.mode == VERTICAL:
            if self.page >= self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col >= self.col_end else self.col + 1
            else:
                self.page += 1
        else:  # page mode: the column wraps within the page
            self.col = 0 if self.col >= WIDTH - 1 else self.col + 1

    def ram_bytes(self):
        """GDDRAM as 1,024 MONO_VLSB bytes in column-address order for the standard
        remap (A1), i.e. what an upright driver's buffer should equal."""
        out = bytearray(WIDTH * PAGES)
        for p in range(PAGES):
            row = self.ram[p * WIDTH:(p + 1) * WIDTH]
            out[p * WIDTH:(p + 1) * WIDTH] = row[::-1]
        return bytes(out)

    # -- what the panel shows ----------------------------------------------------------
    def lit(self):
        """True when the panel emits light at all (on, and the charge pump running)."""
        return self.display_on and self.charge_pump

    def pixels(self):
        """The visible picture: 64 rows of 128 ints (1 = lit), upright frame."""
        if not self.lit():
            return [[0] * WIDTH for _ in range(HEIGHT)]
        if self.entire_on:
            return [[1] * WIDTH for _ in range(HEIGHT)]
        inv = 1 if self.inverted else 0
        rows = []
        for y in range(HEIGHT):
            # The upright picture's row y is lit by COM line 63 - y (the module is
            # mounted that way round, so that C8 gives an upright picture).
            com = HEIGHT - 1 - y
            if com >= self.mux:
                rows.append([0] * WIDTH)
                continue
            # C8 scans COM[N-1]..COM0: COM k shows scan row N-1-k; C0: scan row k.
            scan = (self.mux - 1 - com) if self.com_remap else com
            line = (scan + self.start_line + self.offset) % HEIGHT
            bit = line & 7
            base = (line >> 3) * WIDTH
            ram = self.ram
            # x = 127 - segment (with A1, column address x went to segment 127 - x)
            rows.append([((ram[base + WIDTH - 1 - x] >> bit) & 1) ^ inv for x in range(WIDTH)])
        return rows

    def image_bytes(self):
        """The visible picture packed as MONO_VLSB (1,024 bytes), comparable with a
        128x64 frame buffer."""
        out = bytearray(WIDTH * PAGES)
        for y, row in enumerate(self.pixels()):
            bit = 1 << (y & 7)
            base = (y >> 3) * WIDTH
            for x, v in enumerate(row):
                if v:
                    out[base + x] |= bit
        return bytes(out)

    def to_text(self, **kw):
        from .screenshot import to_text  # noqa: PLC0415
        return to_text(self, **kw)

    def save_png(self, path, **kw):
        from .screenshot import save_png  # noqa: PLC0415
        return save_png(self, path, **kw)


# --- buses -------------------------------------------------------------------------------

class FakeBusioI2C:
    """CircuitPython's ``busio.I2C`` for CPython, with devices attached by address.

        emu = SSD1306Emulator()
        i2c = FakeBusioI2C(emu)            # or FakeBusioI2C({0x3C: emu})
    """

    def __init__(self, devices=None, frequency=400_000):
        if devices is None:
            devices = {}
        elif not isinstance(devices, dict):
            devices = {devices.address: devices}
        self.devices = devices
        self.frequency = frequency
        self._locked = False

    def try_lock(self):
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._locked = False

    def deinit(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
        return False

    def scan(self):
        return sorted(self.devices)

    def _device(self, address):
        if not self._locked:
            raise RuntimeError("I2C bus used without try_lock()")
        dev = self.devices.get(address)
        if dev is None:
            raise OSError(19, "No such device at 0x%02x" % address)
        return dev

    def writeto(self, address, buffer, *, start=0, end=None):
        dev = self._device(address)
        if end is None:
            end = len(buffer)
        dev.write(bytes(memoryview(buffer).cast("B")[start:end]))

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        self._device(address)
        if end is None:
            end = len(buffer)
        for i in range(start, end):
            buffer[i] = 0x00  # status byte: display on, not busy

    def writeto_then_readfrom(self, address, out_buffer, in_buffer, *, out_start=0,
                              out_end=None, in_start=0, in_end=None):
        self.writeto(address, out_buffer, start=out_start, end=out_end)
        self.readfrom_into(address, in_buffer, start=in_start, end=in_end)


class _Stubs:
    """Context manager and handle for the modules ``adafruit_stubs`` installed."""

    def __init__(self, saved):
        self._saved = saved

    def restore(self):
        for name, mod in self._saved.items():
            if mod is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = mod
        self._saved = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.restore()
        return False


def adafruit_stubs():
    """Make ``import adafruit_ssd1306`` work on CPython against the emulator: installs
    our ``framebuf`` and stand-ins for ``busio``, ``digitalio`` and ``micropython``
    (const) in sys.modules, and forgets any adafruit_ssd1306 imported before so that
    it binds to them. Use as a context manager (restores sys.modules on exit) or call
    ``.restore()`` on the result.

        with adafruit_stubs():
            import adafruit_ssd1306
            emu = SSD1306Emulator()
            oled = adafruit_ssd1306.SSD1306_I2C(128, 64, FakeBusioI2C(emu))
    """
    from . import framebuf as fb  # noqa: PLC0415

    busio = types.ModuleType("busio")
    busio.I2C = FakeBusioI2C

    class SPI:  # named in adafruit_bus_device's annotations; never used here
        pass

    busio.SPI = SPI
    digitalio = types.ModuleType("digitalio")

    class DigitalInOut:  # only the reset pin, which the tests do not use
        def __init__(self, pin=None):
            self.value = 0

        def switch_to_output(self, value=False, **_):
            self.value = value

    digitalio.DigitalInOut = DigitalInOut
    micropython = types.ModuleType("micropython")
    micropython.const = lambda x: x
    micropython.native = lambda f: f
    micropython.viper = lambda f: f
    replacements = {"framebuf": fb, "busio": busio, "digitalio": digitalio,
                    "micropython": micropython, "adafruit_ssd1306": None}
    saved = {}
    for name, mod in replacements.items():
        saved[name] = sys.modules.get(name)
        if mod is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = mod
    return _Stubs(saved)
