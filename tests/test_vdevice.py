"""host_sim/vdevice.py on CPython: the virtual board's panel decodes the driver's I2C
stream to the same picture as the SSD1306 emulator, and the player presses the pins
of a script at the right times. (On the board itself: tests/test_e2e_deploy.py.)"""

import pytest

import host_sim.machine as machine
from firmware.boards import pico
from host_sim import framebuf
from host_sim.ssd1306_emu import SSD1306Emulator

framebuf.install()

from firmware.drivers.ssd1306 import SSD1306_I2C  # noqa: E402  (needs framebuf installed)
from host_sim import vdevice  # noqa: E402


@pytest.fixture(autouse=True)
def fresh_machine():
    machine.sim_reset()
    yield
    machine.sim_reset()


class Tee:
    def __init__(self, *devs):
        self.devs = devs

    def write(self, data):
        for d in self.devs:
            d.write(data)


def rows(pic):
    return [[(pic[y * 16 + x // 8] >> (7 - x % 8)) & 1 for x in range(128)] for y in range(64)]


def test_panel_shows_what_the_emulator_shows():
    panel, emu = vdevice.Panel(), SSD1306Emulator(0x3C)
    machine.attach_i2c(0x3C, Tee(panel, emu))
    oled = SSD1306_I2C(128, 64, machine.I2C(0), 0x3C)
    assert rows(panel.picture()) == emu.pixels()
    oled.text("Stack 31", 3, 5, 1)
    oled.fill_rect(100, 40, 20, 20, 1)
    oled.show()
    assert rows(panel.picture()) == emu.pixels()
    oled.text("D50", 60, 30, 1)
    oled.show()  # only the changed pages
    assert rows(panel.picture()) == emu.pixels()
    for step in (lambda: oled.invert(True), lambda: oled.flip(True), lambda: oled.invert(False),
                 lambda: oled.flip(False), oled.poweroff, oled.poweron, lambda: oled.contrast(7)):
        step()
        assert rows(panel.picture()) == emu.pixels()
    assert panel.contrast == 7
    assert vdevice.frame_info("vdevice boot 2 " + "frame 1 played 0 " + panel.meta()) == {
        "boot": 2, "frame": 1, "played": 0, "on": 1, "inverted": 0, "contrast": 7, "flipped": 0}


def test_pins_are_the_pico_map():
    assert [vdevice.PINS[n] for n in ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")] == list(pico.NAV_PINS)
    assert [vdevice.PINS["CALL%d" % p] for p in (1, 2, 3, 4)] == list(pico.CALL_PINS)
    assert vdevice.parse("press ok") == (pico.BTN_OK, 80, 60)
    assert vdevice.parse("long BACK  # home") == (pico.BTN_BACK, 900, 60)
    assert vdevice.parse("call 2 150") == (pico.CALL_P2, 150, 60)
    assert vdevice.parse("down GP7") == (7, 0, 0)
    assert vdevice.parse("wait 500") == (None, None, 500)
    assert vdevice.parse("  # nothing") is None
    with pytest.raises(ValueError):
        vdevice.parse("press START")


class Link:
    """The host side, as host_sim/vboard.mjs keeps it, in memory."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.taken = self.done = 0
        self.frames = []
        self.log = []

    def dev_next(self):
        if self.taken == len(self.lines):
            return None
        self.taken += 1
        return self.lines[self.taken - 1]

    def dev_done(self):
        self.done = self.taken

    def dev_log(self, text):
        self.log.append(text)

    def dev_frame(self, comment, hexdata):
        self.frames.append((comment, bytes.fromhex(hexdata)))


def test_player_presses_and_releases_on_time():
    now = [0]
    link = Link(["press OK", "oops", "wait 100", "down LEFT", "up LEFT", "long BACK"])
    dev = vdevice.VDevice(machine, link, clock=lambda: now[0])
    edges = []
    for pin in (pico.BTN_OK, pico.BTN_LEFT, pico.BTN_BACK):
        machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP).irq(
            lambda p: edges.append((now[0], p.id(), p.value())), machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING)
    while now[0] < 3000:
        machine.sim_idle()
        now[0] += 10
    ok, left, back = pico.BTN_OK, pico.BTN_LEFT, pico.BTN_BACK
    assert edges == [(0, ok, 0), (80, ok, 1), (240, left, 0), (240, left, 1),
                     (240, back, 0), (1140, back, 1)]  # down and up: in one turn
    assert link.done == 6
    assert dev.player.played == 5 and "oops" in link.log[0]
    comment, pic = link.frames[-1]
    assert comment.startswith("frame ") and " played 5 " in comment and len(pic) == 1024
