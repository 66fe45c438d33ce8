"""Optional piezo buzzer on a PWM pin. Never blocks.

    bz = Buzzer(machine, board.BUZZER, clock)   # pin None: no buzzer, all calls silent
    bz.beep(2000, 40)          # starts the tone and returns at once
    bz.play(TUNE_WIN)          # notes ((freq_hz, ms), ...); freq 0 is a rest
    bz.update(now_ms)          # call every loop turn: moves on / stops when due
    bz.enabled = False         # silent (stops what sounds)
    bz.busy                    # a tone or tune is under way
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)
DUTY = const(32768)  # 50 %: the loudest square wave

TUNE_CLICK = ((3000, 12),)
TUNE_OK = ((1760, 40),)
TUNE_ERROR = ((440, 90), (0, 30), (330, 140))
TUNE_CALL = ((2637, 70), (0, 30), (2637, 70))
TUNE_WIN = ((1319, 90), (1568, 90), (2093, 200))


def _diff(a, b):
    return ((a - b + _HALF) & _MASK) - _HALF


class Buzzer:
    def __init__(self, machine=None, pin=None, clock=None, enabled=True):
        self._clock = clock
        self._pwm = None
        self._enabled = enabled
        self._notes = ()
        self._i = 0
        self._until = 0
        self.busy = False
        if machine is not None and pin is not None:
            p = machine.Pin(pin, machine.Pin.OUT, value=0)
            try:
                self._pwm = machine.PWM(p, freq=1000, duty_u16=0)
            except TypeError:  # older ports: no keyword arguments
                self._pwm = machine.PWM(p)
                self._pwm.freq(1000)
                self._pwm.duty_u16(0)

    @property
    def available(self):
        return self._pwm is not None

    @property
    def enabled(self):
        return self._enabled

    @enabled.setter
    def enabled(self, on):
        self._enabled = bool(on)
        if not on:
            self.stop()

    def beep(self, freq=1760, ms=40, now_ms=None):
        return self.play(((freq, ms),), now_ms)

    def play(self, notes, now_ms=None):
        """Start a tune; replaces what sounds. False when silent (off or no pin)."""
        if not self._enabled or self._pwm is None or not notes:
            return False
        if now_ms is None:
            now_ms = self._clock.ticks_ms() if self._clock is not None else 0
        self._notes = notes
        self._i = 0
        self._start(now_ms)
        return True

    def _start(self, now_ms):
        freq, ms = self._notes[self._i]
        pwm = self._pwm
        if freq > 0:
            pwm.freq(freq)
            pwm.duty_u16(DUTY)
        else:
            pwm.duty_u16(0)
        self._until = (now_ms + ms) & _MASK
        self.busy = True

    def update(self, now_ms=None):
        if not self.busy:
            return
        if now_ms is None:
            now_ms = self._clock.ticks_ms()
        if _diff(now_ms, self._until) < 0:
            return
        self._i += 1
        if self._i < len(self._notes):
            # the next note starts when the last one was due, not late
            self._start(self._until)
            if _diff(now_ms, self._until) >= 0:
                self.update(now_ms)
        else:
            self.stop()

    def stop(self):
        if self._pwm is not None and self.busy:
            self._pwm.duty_u16(0)
        self.busy = False
        self._notes = ()

    def deinit(self):
        self.stop()
        if self._pwm is not None:
            self._pwm.deinit()
            self._pwm = None
