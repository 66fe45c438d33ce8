"""The hardware layer on the stand-in machine: boards, clock, buzzer, open_hardware;
and the layer's modules on the real MicroPython interpreter."""

import json
import os

import pytest
from hypothesis import given, strategies as st

import host_sim.machine as machine
from firmware.drivers import buttons as B
from firmware.boards import esp32_devkit, pico
from firmware.drivers.buzzer import Buzzer
from firmware.drivers.clock import Clock, TickUnwrapper, ticks_add, ticks_diff
from firmware.drivers.hardware import open_hardware
from host_sim.vclock import VirtualClock

WRAP = 1 << 30
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def fresh_machine():
    machine.sim_reset()
    yield
    machine.sim_reset()


# --- boards -----------------------------------------------------------------

@pytest.mark.parametrize("board", [pico, esp32_devkit], ids=["pico", "esp32"])
def test_pin_map(board):
    pins = list(board.NAV_PINS) + list(board.CALL_PINS) + [board.I2C_SDA, board.I2C_SCL]
    if board.BUZZER is not None:
        pins.append(board.BUZZER)
    assert len(pins) == len(set(pins)), "a pin used twice"
    assert len(board.NAV_PINS) == 6 and len(board.CALL_PINS) == 4
    assert board.NAV_PINS[B.OK] == board.BTN_OK and board.NAV_PINS[B.BACK] == board.BTN_BACK
    assert board.I2C_FREQ == 400000 and board.OLED_ADDR == 0x3C
    assert (board.OLED_WIDTH, board.OLED_HEIGHT) == (128, 64)
    assert board.ACTIVE_LOW is True
    if board is pico:
        assert (board.I2C_ID, board.I2C_SDA, board.I2C_SCL) == (0, 4, 5)
        assert all(0 <= p <= 22 or 26 <= p <= 28 for p in pins)  # GP23-25, 29 are internal
    else:  # no input-only pins (no pull-ups), no strapping pins for buttons
        buttons = list(board.NAV_PINS) + list(board.CALL_PINS)
        assert not set(buttons) & {0, 2, 5, 12, 15, 34, 35, 36, 37, 38, 39}


# --- clocks -----------------------------------------------------------------

def test_virtual_clock_wraps_like_micropython():
    c = VirtualClock(start_us=WRAP - 1000, start_ms=WRAP - 2)
    t0, m0 = c.ticks_us(), c.ticks_ms()
    c.advance_us(2500)
    assert c.ticks_us() == 1500 and c.ticks_diff(c.ticks_us(), t0) == 2500
    assert c.ticks_ms() == 0 and c.ticks_diff(c.ticks_ms(), m0) == 2
    c.sleep_ms(5)
    assert c.ticks_diff(c.ticks_us(), t0) == 7500 and c.elapsed_us == 7500
    assert c.ticks_add(WRAP - 1, 1) == 0
    with pytest.raises(OverflowError):
        c.ticks_add(0, 1 << 29)
    assert c.ticks_add(0, -(1 << 29) + 1) == (1 << 29) + 1
    with pytest.raises(ValueError):
        c.advance_us(-1)


@given(st.integers(0, WRAP - 1), st.integers(0, WRAP - 1))
def test_ticks_diff_is_micropython_ticks_diff(a, b):
    # MicroPython: ((a - b + HALF) & MAX) - HALF, result in [-2**29, 2**29)
    d = ticks_diff(a, b)
    assert -(1 << 29) <= d < (1 << 29)
    assert (b + d) % WRAP == a
    assert VirtualClock().ticks_diff(a, b) == d
    assert B._diff(a, b) == d


def test_clock_on_cpython_wraps():
    c = Clock()
    t = c.ticks_us()
    assert 0 <= t < WRAP and 0 <= c.ticks_ms() < WRAP
    c.sleep_ms(1)
    assert 500 <= c.ticks_diff(c.ticks_us(), t) < 1000000
    assert c.ticks_add is ticks_add


def test_clock_uses_the_time_module_functions():
    class FakeTime:
        ticks_us = staticmethod(lambda: 7)
        ticks_ms = staticmethod(lambda: 8)
        ticks_diff = staticmethod(lambda a, b: 9)
        ticks_add = staticmethod(lambda a, b: 10)
        sleep_ms = staticmethod(lambda ms: 11)
    c = Clock(FakeTime)
    assert (c.ticks_us(), c.ticks_ms(), c.ticks_diff(1, 2), c.ticks_add(1, 2), c.sleep_ms(1)) == (7, 8, 9, 10, 11)


def test_tick_unwrapper():
    u = TickUnwrapper()
    t = WRAP - 300
    assert u.unwrap(t) == 0
    assert u.unwrap((t + 200) % WRAP) == 200
    assert u.unwrap((t + 500) % WRAP) == 500  # across the wrap
    assert u.unwrap((t + 450) % WRAP) == 450  # an edge read late: older, never wrapped
    assert u.unwrap((t + 500 + (1 << 28)) % WRAP) == 500 + (1 << 28)


# --- the stand-in machine ---------------------------------------------------

def test_pins_and_interrupts():
    seen = []
    p = machine.Pin(10, machine.Pin.IN, machine.Pin.PULL_UP)
    p.irq(handler=lambda pin: seen.append(pin.value()), trigger=machine.Pin.IRQ_FALLING)
    assert p.value() == 1
    machine.press(10)
    machine.press(10)  # no change, no interrupt
    machine.release(10)  # rising: not asked for
    assert seen == [0]
    p.irq(handler=lambda pin: seen.append(("r", pin.value())), trigger=machine.Pin.IRQ_RISING)
    machine.set_level(10, 0)
    machine.set_level(10, 1)
    assert seen == [0, ("r", 1)]
    q = machine.Pin(25, machine.Pin.OUT, value=1)
    assert machine.level(25) == 1
    q.toggle()
    assert q() == 0
    d = machine.Pin(3, machine.Pin.IN, machine.Pin.PULL_DOWN)
    assert d.value() == 0


def test_i2c_registry_and_pwm_log():
    class Dev:
        def __init__(self):
            self.got = []

        def write(self, data):
            self.got.append(data)

    i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4), freq=400000)
    assert i2c.scan() == []
    with pytest.raises(OSError):
        i2c.writeto(0x3C, b"\x00\xaf")
    dev = Dev()
    machine.attach_i2c(0x3C, dev)
    assert i2c.scan() == [0x3C]
    assert i2c.writeto(0x3C, bytearray(b"\x00\xaf")) == 2
    i2c.writevto(0x3C, (b"\x40", memoryview(b"\x01\x02")))
    assert dev.got == [b"\x00\xaf", b"\x40\x01\x02"]
    assert machine.i2c_stats[0x3C] == [2, 5]
    assert i2c.readfrom(0x3C, 2) == b"\x00\x00"
    clock = VirtualClock()
    machine.set_time_source(clock.ticks_ms)
    pwm = machine.PWM(machine.Pin(20), freq=1000, duty_u16=0)
    clock.advance_ms(5)
    pwm.freq(440)
    pwm.duty_u16(32768)
    assert pwm.sounding()
    pwm.deinit()
    assert machine.pwm_log == [(0, 20, 1000, 0), (5, 20, 440, 0), (5, 20, 440, 32768), (5, 20, 440, 0)]
    with pytest.raises(machine.SimReset):
        machine.reset()
    assert machine.resets[0] == 1
    assert len(machine.unique_id()) == 8 and machine.freq() == 125000000


# --- buzzer -----------------------------------------------------------------

def tones():
    return [(t, f, d) for t, _, f, d in machine.pwm_log]


def test_beep_does_not_block_and_stops_in_update():
    clock = VirtualClock(start_us=(WRAP - 10) * 1000, start_ms=WRAP - 10)
    machine.set_time_source(clock.ticks_ms)
    bz = Buzzer(machine, 20, clock)
    assert bz.available and not bz.busy
    assert bz.beep(2000, 40) is True
    assert bz.busy and clock.elapsed_us == 0  # returned at once
    clock.advance_ms(39)
    bz.update(clock.ticks_ms())
    assert bz.busy
    clock.advance_ms(1)  # across the ticks_ms wrap
    bz.update()
    assert not bz.busy
    assert [(f, d) for _, f, d in tones()] == [(1000, 0), (2000, 0), (2000, 32768), (2000, 0)]


TUNE_ERROR = ((440, 90), (0, 30), (330, 140))


def test_tune_plays_note_by_note():
    clock = VirtualClock()
    machine.set_time_source(clock.ticks_ms)
    bz = Buzzer(machine, 20, clock)
    bz.play(TUNE_ERROR)
    for _ in range(40):
        clock.advance_ms(10)
        bz.update()
    assert not bz.busy
    played = [(t, f) for t, f, d in tones() if d]
    assert played == [(0, 440), (120, 330)]  # 90 ms, a 30 ms rest, then 330 Hz


def test_silent_buzzers():
    clock = VirtualClock()
    assert Buzzer(None, None, clock).beep(1000, 10) is False
    bz = Buzzer(machine, 20, clock, enabled=False)
    assert bz.beep(1000, 10) is False
    bz.enabled = True
    bz.beep(1000, 1000)
    bz.enabled = False
    bz.update()  # what sounds stops at the next update
    assert not bz.busy and machine.pwm_log[-1][3] == 0


# --- open_hardware ----------------------------------------------------------

def attach_panel():
    from host_sim import framebuf
    from host_sim.ssd1306_emu import SSD1306Emulator

    framebuf.install()
    emu = SSD1306Emulator()
    machine.attach_i2c(0x3C, emu)
    return emu


@pytest.mark.parametrize("board", [pico, esp32_devkit], ids=["pico", "esp32"])
def test_open_hardware(tmp_path, board):
    attach_panel()
    clock = VirtualClock(start_us=WRAP - 30000)
    hw = open_hardware(board, machine, clock, str(tmp_path / "flash"))
    assert hw.problems == []
    assert hw.board_name == board.NAME and hw.clock is clock
    assert type(hw.display).__name__ == "SSD1306_I2C"
    assert machine.i2c_stats[0x3C][1] > 0  # the panel was set up
    hw.display.fill(0)
    hw.display.text("hi", 0, 0, 1)
    hw.display.show()
    # buttons through the pins' interrupts
    machine.press(board.BTN_OK)
    clock.advance_ms(30)
    machine.release(board.BTN_OK)
    machine.press(board.CALL_P1)
    clock.advance_ms(30)
    events, calls = hw.buttons.poll(clock.ticks_us())
    assert events == [(B.PRESS, B.OK), (B.RELEASE, B.OK), (B.SHORT, B.OK)]
    assert [c[:2] for c in calls] == [(1, 1)]
    # storage under the root, buzzer on the board's pin
    hw.storage.append("x.txt", "1\n")
    assert (tmp_path / "flash" / "x.txt").read_text() == "1\n"
    assert hw.buzzer.available and hw.buzzer.beep(1000, 10)
    assert machine.pwm_log[-1][1] == board.BUZZER
    hw.deinit()
    with pytest.raises(machine.SimReset):
        hw.reset()


def test_open_hardware_without_panel_or_buzzer(tmp_path):
    class NoBuzzer:
        pass
    for k in dir(pico):
        if k.isupper():
            setattr(NoBuzzer, k, getattr(pico, k))
    NoBuzzer.BUZZER = None
    hw = open_hardware(NoBuzzer, machine, VirtualClock(), str(tmp_path))
    assert hw.display is None and "not answering" in hw.problems[0]
    assert not hw.buzzer.available and hw.buzzer.beep(1000, 10) is False
    assert [list(x) for x in hw.buttons.poll(0)] == [[], []]  # an idle poll: empty tuples


def test_open_hardware_recovers_interrupted_writes(tmp_path):
    (tmp_path / "settings.json.new").write_text("{half")
    (tmp_path / "settings.json").write_text("{}")
    hw = open_hardware(pico, machine, VirtualClock(), str(tmp_path), display=False)
    assert hw.recovered == ["settings.json: dropped unfinished write"]
    assert sorted(os.listdir(tmp_path)) == ["settings.json"]


# --- on the real MicroPython interpreter --------------------------------------

MP_SCRIPT = r"""
import micropython, json
import machine
from firmware.drivers import buttons as B
from firmware.boards import pico
from firmware.journal.crc import crc16
from firmware.storage import Storage
from firmware.journal import Journal
from firmware.settings import Settings
from firmware.drivers.buzzer import Buzzer
from firmware.drivers.hardware import open_hardware
from host_sim.vclock import VirtualClock

out = {}
res = [None]

def locked(fn):
    micropython.heap_lock()
    try:
        fn()
        res[0] = "ok"
    except MemoryError:
        res[0] = "allocates"
    micropython.heap_unlock()
    return res[0]

clock = VirtualClock(start_us=(1 << 30) - 15000)
import os
os.mkdir("/flash")
hw = open_hardware(pico, machine, clock, "/flash", display=False)
h = hw.buttons.handlers[B.OK]
pin = hw.buttons.pins[B.OK]
machine.press(pico.BTN_OK)
def irq_many():
    for i in range(100):  # fills the ring and overflows it
        h(pin)
out["irq"] = locked(irq_many)
out["overflows"] = hw.buttons.overflows
machine.release(pico.BTN_OK)
hw.buttons.poll()
clock.advance_ms(1000)
hw.buttons.poll()
# a press across the wrap point, with bounce
machine.press(pico.BTN_BACK)
clock.advance_us(300)
machine.release(pico.BTN_BACK)
clock.advance_us(300)
machine.press(pico.BTN_BACK)
ev = []
for i in range(80):
    clock.advance_ms(10)
    e, c = hw.buttons.poll()
    ev.extend(e)
machine.release(pico.BTN_BACK)
clock.advance_ms(30)
ev.extend(hw.buttons.poll()[0])
out["events"] = ev
out["crc"] = crc16(b"123456789")
st = hw.storage
j = Journal(st, "game.txt")
j.start(["game stack31 players 2"])
j.append("P1 draw")
j.append("P2 draw")
out["pop"] = j.pop()
st.append("game.txt", b"P2 pla")
out["load"] = j.load()
s = Settings(st)
s.set("brightness", 999)
s.set_player_name(1, "Ann")
out["settings"] = [Settings(st).get("brightness"), Settings(st).player_name(1), s.report]
st.write_atomic("settings.json", "{bad")
out["bad_settings"] = Settings(st).report
out["files"] = st.listdir()
bz = Buzzer(machine, 20, clock)
bz.beep(1000, 20)
clock.advance_ms(25)
bz.update()
out["buzz"] = [bz.busy, machine.pwm_log[-1][3]]
print(json.dumps(out))
"""


def test_layer_on_micropython():
    from host_sim.micropython import require_node, run_micropython

    require_node()
    with open(os.path.join(ROOT, "host_sim", "vclock.py"), encoding="utf-8") as f:
        vclock = f.read()
    out = run_micropython(MP_SCRIPT, files={"host_sim/__init__.py": "", "host_sim/vclock.py": vclock})
    got = json.loads(out.strip().splitlines()[-1])
    assert got["irq"] == "ok"  # the IRQ handler allocates nothing
    assert got["overflows"] == 1 + 100 - 64  # the press itself, then 100 more
    assert got["events"] == [[B.PRESS, B.BACK], [B.LONG, B.BACK], [B.RELEASE, B.BACK]]
    assert got["crc"] == 0x29B1
    assert got["pop"] == "P2 draw"
    assert got["load"] == [["game stack31 players 2", "P1 draw"], "Last entry lost"]
    assert got["settings"] == [255, "Ann", None]
    assert got["bad_settings"] == "Settings file damaged: reset"
    # the damaged file kept aside, and the defaults written back so the message shows once
    assert got["files"] == ["game.txt", "settings.bad1", "settings.json"]
    assert got["buzz"] == [False, 0]
