"""The browser's `machine` module: what the firmware's hardware layer uses, in a web page.

MicroPython code for the WebAssembly port, loaded by host_sim/web/page.js as the top-level
module `machine` (outside the device's flash, as a board's built-in module is). It
is the browser counterpart of host_sim/machine.py, with the same names and
signatures the firmware uses, and the page's JavaScript behind it (the JS module
`_web` that page.js registers before anything is imported):

    Pin(id, mode, pull, value)  .value([x]) .irq(handler, trigger) ...
        An input with a pull-up reads 1 until the page holds its button down:
        press(id) / release(id) (called by webdevice.py for a click or a key) change
        the level and run the pin's IRQ handler at once, as the hardware does; the
        handler stamps the edge with the clock (performance.now(), microseconds).
    I2C(id, scl=, sda=, freq=)  .writeto .writevto .readfrom .readfrom_into .scan
        Devices on the bus are the page's: each write transaction goes to
        _web.i2c_write(addr, hex) (the SSD1306 emulation in host_sim/web/ssd1306.js, which
        draws the canvas); an address nobody answers raises OSError(5) (EIO), as the
        rp2 port does.
    PWM(pin, freq=, duty_u16=)  .freq([f]) .duty_u16([d]) .deinit()
        Every change goes to _web.pwm(pin, freq, duty_u16): the page's WebAudio
        oscillator sounds while the duty is not 0 (the piezo).
    reset()       the page restarts the device (a fresh interpreter; the flash stays)
    unique_id() freq([hz]) idle() disable_irq() enable_irq(state) soft_reset()
"""

import binascii

import _web

_lines = {}  # pin id -> _Line
i2c_stats = {}  # addr -> [transactions, bytes] (for the page's figures)
_freq = [125000000]


class _Line:
    def __init__(self, pin_id):
        self.id = pin_id
        self.mode = -1
        self.pull = -1
        self.out = 0
        self.ext = None  # held from outside (a button): 0, or None = let go
        self.handler = None
        self.trigger = 0
        self.pin = None

    def level(self):
        if self.mode == Pin.OUT:
            return self.out
        if self.mode == Pin.OPEN_DRAIN and self.out == 0:
            return 0
        if self.ext is not None:
            return self.ext
        if self.pull == Pin.PULL_DOWN:
            return 0
        return 1


def _line(pin_id):
    ln = _lines.get(pin_id)
    if ln is None:
        ln = _Line(pin_id)
        _lines[pin_id] = ln
    return ln


def _change(ln, before):
    after = ln.level()
    if after == before or ln.handler is None:
        return
    if (before == 1 and after == 0 and ln.trigger & Pin.IRQ_FALLING) or (
        before == 0 and after == 1 and ln.trigger & Pin.IRQ_RISING
    ):
        ln.handler(ln.pin)


def set_level(pin_id, level):
    """Page side: drive a pin from outside (0, 1, or None = let go)."""
    ln = _line(pin_id)
    before = ln.level()
    ln.ext = None if level is None else (1 if level else 0)
    _change(ln, before)


def press(pin_id):
    set_level(pin_id, 0)


def release(pin_id):
    set_level(pin_id, None)


def level(pin_id):
    return _line(pin_id).level()


class _Irq:
    def __init__(self, ln):
        self._ln = ln

    def trigger(self):
        return self._ln.trigger

    def flags(self):
        return 0


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, pin_id, mode=-1, pull=-1, value=None):
        self._ln = _line(pin_id)
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        ln = self._ln
        before = ln.level()
        if mode != -1:
            ln.mode = mode
        if pull != -1:
            ln.pull = pull
        if value is not None:
            ln.out = 1 if value else 0
        _change(ln, before)

    def value(self, x=None):
        ln = self._ln
        if x is None:
            return ln.level()
        before = ln.level()
        ln.out = 1 if x else 0
        _change(ln, before)

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def low(self):
        self.value(0)

    def high(self):
        self.value(1)

    def toggle(self):
        self.value(1 - self._ln.out)

    def irq(self, handler=None, trigger=12, hard=False):
        ln = self._ln
        ln.handler = handler
        ln.trigger = trigger if handler is not None else 0
        ln.pin = self
        return _Irq(ln)

    def id(self):
        return self._ln.id

    def __repr__(self):
        return "Pin(%r)" % (self._ln.id,)


class I2C:
    def __init__(self, i2c_id=0, scl=None, sda=None, freq=400000, timeout=50000):
        self.id = i2c_id
        self.scl = scl
        self.sda = sda
        self.freq = freq

    def scan(self):
        return [a for a in range(0x08, 0x78) if _web.i2c_present(a)]

    def _send(self, addr, data):
        if not _web.i2c_present(addr):
            raise OSError(5)  # EIO: no ACK, as the rp2 port reports it
        s = i2c_stats.get(addr)
        if s is None:
            s = [0, 0]
            i2c_stats[addr] = s
        s[0] += 1
        s[1] += len(data)
        _web.i2c_write(addr, binascii.hexlify(data).decode())
        return len(data)

    def writeto(self, addr, buf, stop=True):
        return self._send(addr, bytes(buf))

    def writevto(self, addr, vector, stop=True):
        return self._send(addr, b"".join([bytes(b) for b in vector]))

    def readfrom(self, addr, nbytes, stop=True):
        if not _web.i2c_present(addr):
            raise OSError(5)
        return bytes(nbytes)

    def readfrom_into(self, addr, buf, stop=True):
        data = self.readfrom(addr, len(buf))
        for i in range(len(buf)):
            buf[i] = data[i]


SoftI2C = I2C


class PWM:
    def __init__(self, pin, freq=None, duty_u16=None, duty_ns=None):
        self.pin_id = pin.id() if isinstance(pin, Pin) else pin
        self._freq = 0
        self._duty = 0
        if freq is not None:
            self._freq = freq
        if duty_u16 is not None:
            self._duty = duty_u16
        self._tell()

    def _tell(self):
        _web.pwm(self.pin_id, self._freq, self._duty)

    def freq(self, f=None):
        if f is None:
            return self._freq
        if f <= 0:
            raise ValueError("freq")
        self._freq = f
        self._tell()

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        if not 0 <= d <= 65535:
            raise ValueError("duty")
        self._duty = d
        self._tell()

    def deinit(self):
        self._duty = 0
        self._tell()


class ResetRequested(BaseException):
    """Unwinds the firmware after reset(); the page starts a fresh interpreter."""


def reset():
    _web.reset()
    raise ResetRequested("machine.reset()")


def soft_reset():
    reset()


def bootloader(*args):
    reset()


def unique_id():
    return b"WEBPAGE1"


def freq(hz=None):
    if hz is None:
        return _freq[0]
    _freq[0] = hz


def idle():
    pass


def disable_irq():
    return 0


def enable_irq(state=0):
    pass
