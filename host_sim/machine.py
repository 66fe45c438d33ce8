"""Stand-in `machine` module for the simulator and the tests.

Only what the firmware uses, with MicroPython's names and signatures. This file is
MicroPython-compatible code: the tests also load it as `machine` into the real
MicroPython interpreter.

Firmware side (as on the board):
    Pin(id, mode=-1, pull=-1, value=None)   .value([x]) .on() .off() .irq(handler, trigger)
    I2C(id, scl=, sda=, freq=)              .writeto(addr, buf, stop=True) .writevto
                                            .readfrom(addr, n) .readfrom_into .scan()
    PWM(pin, freq=, duty_u16=)              .freq([f]) .duty_u16([d]) .deinit()
    reset() unique_id() freq([hz]) idle() disable_irq() enable_irq(state)

Simulator side (not on the board):
    set_level(id, level)   drive a pin from outside (0, 1, or None = let go: the
                           pull decides); fires the pin's IRQ handler synchronously,
                           as the hardware would, when the level changes and the
                           trigger matches
    press(id) / release(id)  set_level(id, 0) / set_level(id, None)
    level(id)              the level a pin shows now
    attach_i2c(addr, dev)  a device on the bus: dev.write(data: bytes) gets each
                           write transaction (the buffer itself, not a copy, when
                           dev.views is true); dev.read(n) (optional) answers reads
    detach_i2c(addr)
    i2c_stats              {addr: [transactions, bytes]} written since sim_reset()
    pwm_log                [(t_ms or None, pin id, freq, duty_u16)] for every change
    set_time_source(fn)    fn() -> ms, stamps pwm_log entries
    add_idle_hook(fn)      fn() runs at every sim_idle() (remove_idle_hook(fn) undoes it)
    sim_idle()             the firmware's app loop calls it once per turn when this
                           module defines it (firmware.start: a simulated board only);
                           runs the idle hooks (host_sim/vdevice.py: panel, presses)
    sim_reset()            forget pins, devices, logs, idle hooks (between tests)
    SimReset               raised by reset(): the host restarts the app
"""


class SimReset(Exception):
    pass


_lines = {}  # pin id -> _Line
_i2c_devices = {}  # addr -> device
i2c_stats = {}
pwm_log = []
resets = [0]
_time = [None]
_freq = [125000000]
_irq_state = [0]
_idle_hooks = []


def sim_reset():
    _lines.clear()
    _i2c_devices.clear()
    del _idle_hooks[:]
    i2c_stats.clear()
    del pwm_log[:]
    resets[0] = 0
    _time[0] = None


def set_time_source(fn):
    _time[0] = fn


def add_idle_hook(fn):
    if fn not in _idle_hooks:
        _idle_hooks.append(fn)


def remove_idle_hook(fn):
    if fn in _idle_hooks:
        _idle_hooks.remove(fn)


def sim_idle():
    for fn in _idle_hooks:
        fn()


def _now_ms():
    fn = _time[0]
    return fn() if fn is not None else None


class _Line:
    """Shared state of one GPIO (every Pin object on that id shares it)."""

    def __init__(self, pin_id):
        self.id = pin_id
        self.mode = -1
        self.pull = -1
        self.out = 0
        self.ext = None  # driven from outside: 0, 1 or None
        self.handler = None
        self.trigger = 0
        self.pin = None  # the Pin object handed to the handler
        self.irq_count = 0

    def level(self):
        if self.mode == Pin.OUT or self.mode == Pin.OPEN_DRAIN:
            if self.mode == Pin.OPEN_DRAIN and self.out:
                return 0 if self.ext == 0 else 1
            return self.out
        if self.ext is not None:
            return self.ext
        if self.pull == Pin.PULL_DOWN:
            return 0
        return 1  # pull-up, or floating (reads high here)


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
        ln.irq_count += 1
        ln.handler(ln.pin)


def set_level(pin_id, level):
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
        return sorted(_i2c_devices)

    def _dev(self, addr):
        dev = _i2c_devices.get(addr)
        if dev is None:
            raise OSError(5)  # EIO: no ACK, as the rp2 port reports it
        return dev

    def _count(self, addr, n):
        s = i2c_stats.get(addr)
        if s is None:
            s = [0, 0]
            i2c_stats[addr] = s
        s[0] += 1
        s[1] += n

    def writeto(self, addr, buf, stop=True):
        dev = self._dev(addr)
        if getattr(dev, "views", False):
            # a device that reads the buffer at once (a counting sink on the unix
            # port): no copy, so a write allocates nothing here, as on a board
            self._count(addr, len(buf))
            dev.write(buf)
            return len(buf)
        data = bytes(buf)
        self._count(addr, len(data))
        dev.write(data)
        return len(data)

    def writevto(self, addr, vector, stop=True):
        dev = self._dev(addr)
        data = b"".join([bytes(b) for b in vector])
        self._count(addr, len(data))
        dev.write(data)
        return len(data)

    def readfrom(self, addr, nbytes, stop=True):
        dev = self._dev(addr)
        if hasattr(dev, "read"):
            return bytes(dev.read(nbytes))
        return bytes(nbytes)

    def readfrom_into(self, addr, buf, stop=True):
        data = self.readfrom(addr, len(buf))
        for i in range(len(buf)):
            buf[i] = data[i]


SoftI2C = I2C


def attach_i2c(addr, device):
    _i2c_devices[addr] = device


def detach_i2c(addr):
    if addr in _i2c_devices:
        del _i2c_devices[addr]


class PWM:
    def __init__(self, pin, freq=None, duty_u16=None, duty_ns=None):
        self.pin_id = pin.id() if isinstance(pin, Pin) else pin
        self._freq = 0
        self._duty = 0
        self.active = True
        if freq is not None:
            self._freq = freq
        if duty_u16 is not None:
            self._duty = duty_u16
        self._log()

    def _log(self):
        pwm_log.append((_now_ms(), self.pin_id, self._freq, self._duty))

    def freq(self, f=None):
        if f is None:
            return self._freq
        if f <= 0:
            raise ValueError("freq")
        self._freq = f
        self._log()

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        if not 0 <= d <= 65535:
            raise ValueError("duty")
        self._duty = d
        self._log()

    def deinit(self):
        self.active = False
        self._duty = 0
        self._log()

    def sounding(self):
        """Simulator side: is a tone audible right now?"""
        return self.active and self._duty > 0 and self._freq > 0


def reset():
    resets[0] += 1
    raise SimReset("machine.reset()")


def soft_reset():
    reset()


def unique_id():
    return b"\xe6\x60\x58\x38\x83\x4a\x2c\x29"


def freq(hz=None):
    if hz is None:
        return _freq[0]
    _freq[0] = hz


def idle():
    pass


def disable_irq():
    _irq_state[0] += 1
    return _irq_state[0]


def enable_irq(state=0):
    _irq_state[0] = 0
