"""Optional piezo buzzer on a PWM pin. Never blocks.

    bz = Buzzer(machine, board.BUZZER, clock)   # pin None: no buzzer, all calls silent
    bz.beep(2000, 40)          # starts the tone and returns at once
    bz.play(notes)             # a tune: ((freq_hz, ms), ...); freq 0 is a rest
    bz.update(now_ms)          # call every loop turn: moves on / stops when due
    bz.enabled = False         # silent (what sounds stops at the next update)
    bz.busy                    # a tone or tune is under way
    bz.available               # there is a buzzer (a PWM pin)
"""

from firmware.drivers.clock import ticks_diff


class Buzzer:
    def __init__(self, machine=None, pin=None, clock=None, enabled=True):
        self._clock = clock
        self._pwm = None
        self.enabled = enabled
        self._notes = ()  # type: tuple  # the note sounding and those after it
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
        self.available = self._pwm is not None

    def beep(self, freq=1760, ms=40, now_ms=None):
        return self.play(((freq, ms),), now_ms)

    def play(self, notes, now_ms=None):
        """Start a tune; replaces what sounds. False when silent (off or no pin)."""
        if not self.enabled or self._pwm is None or not notes:
            return False
        if now_ms is None:
            now_ms = self._clock.ticks_ms() if self._clock is not None else 0
        self._notes = notes
        self._start(now_ms)
        return True

    def _start(self, now_ms):
        freq, ms = self._notes[0]
        pwm = self._pwm
        if freq > 0:
            pwm.freq(freq)
            pwm.duty_u16(32768)  # 50 %: the loudest square wave
        else:
            pwm.duty_u16(0)
        self._until = (now_ms + ms) & 0x3FFFFFFF
        self.busy = True

    def update(self, now_ms=None):
        if not self.busy:
            return
        if not self.enabled:
            self.stop()
            return
        if now_ms is None:
            now_ms = self._clock.ticks_ms()
        if ticks_diff(now_ms, self._until) < 0:
            return
        self._notes = self._notes[1:]
        if self._notes:
            # the next note starts when the last one was due, not late
            self._start(self._until)
            if ticks_diff(now_ms, self._until) >= 0:
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
            self.available = False
