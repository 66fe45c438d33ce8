"""The SSD1306 driver (firmware/drivers/ssd1306.py), the emulated controller
(host_sim/ssd1306_emu.py) and the screenshots (host_sim/screenshot.py).

The firmware's driver and Adafruit's adafruit_ssd1306 both run against the
emulator; their traffic must decode to exactly the frame buffer that was drawn.
The figures (bytes per frame) are printed with -s and asserted.
"""

import random

import pytest

from host_sim import framebuf as host_framebuf

host_framebuf.install()

from firmware.drivers.ssd1306 import SSD1306, SSD1306_I2C  # noqa: E402
from host_sim.ssd1306_emu import (  # noqa: E402
    HORIZONTAL,
    PAGE,
    VERTICAL,
    FakeBusioI2C,
    SSD1306Emulator,
    adafruit_stubs,
)

ADDR = 0x3C
FULL_FRAME = 1 + 6 + 1 + 1024  # window: control + 6 commands; data: control + 1,024
ONE_COLUMN_WINDOW = 1 + 6 + 1 + 8  # the narrowest window: 8 columns of one page


class Bus:
    """machine.I2C as far as the driver uses it."""

    def __init__(self, device):
        self.device = device

    def writeto(self, addr, buf, stop=True):
        assert addr == ADDR
        self.device.write(bytes(buf))
        return len(buf)


@pytest.fixture
def rig():
    emu = SSD1306Emulator(ram_fill=0xA5)  # GDDRAM holds rubbish at power-up
    oled = SSD1306_I2C(128, 64, Bus(emu))
    emu.end_frame()
    return emu, oled


def assert_shows(emu, oled):
    assert emu.image_bytes() == bytes(oled.buffer)
    assert emu.ram_bytes() == bytes(oled.buffer)


def draw_scene(fb):
    fb.fill(0)
    fb.text("Stack 31", 30, 2, 1)
    fb.rect(0, 0, 128, 64, 1)
    fb.line(0, 63, 127, 12, 1)
    fb.ellipse(64, 40, 20, 10, 1, True)
    fb.text("P1: 7h", 4, 52, 1)


# --- the firmware's driver -----------------------------------------------------------

def test_init_configures_the_panel_the_standard_way(rig):
    emu, oled = rig
    assert emu.display_on and emu.charge_pump and emu.lit()
    assert emu.mode == HORIZONTAL and emu.seg_remap and emu.com_remap
    assert emu.mux == 64 and emu.offset == 0 and emu.start_line == 0
    assert emu.contrast == 0xFF and not emu.inverted and not emu.entire_on
    assert emu.com_pins == 0x12
    assert not emu.warnings
    assert emu.image_bytes() == bytes(1024)  # the rubbish was overwritten
    assert_shows(emu, oled)


def test_drawn_frame_decodes_to_the_buffer(rig):
    emu, oled = rig
    draw_scene(oled)
    oled.show()
    assert_shows(emu, oled)
    assert any(oled.buffer)


def test_full_frame_bytes(rig):
    emu, oled = rig
    draw_scene(oled)
    oled.show(full=True)
    stats = emu.end_frame()
    print("\nown driver, full frame:", stats)
    assert stats["bytes"] == FULL_FRAME == 1032
    assert stats["data_bytes"] == 1024 and stats["transactions"] == 2
    assert_shows(emu, oled)


def test_one_pixel_sends_its_column_window(rig):
    emu, oled = rig
    draw_scene(oled)
    oled.show()
    emu.end_frame()
    oled.pixel(100, 20, 1)
    assert [p for p in range(8)
            if oled.buffer[p * 128:(p + 1) * 128] != oled._shadow[p * 128:(p + 1) * 128]] == [2]
    oled.show()
    stats = emu.end_frame()
    print("\nown driver, one pixel changed:", stats)
    # a window of 8 columns on page 2: 7 command bytes, then control + 8 data bytes
    assert stats["bytes"] == ONE_COLUMN_WINDOW == 16
    assert stats["data_bytes"] == 8 and stats["transactions"] == 2
    assert emu.log[-1] == (0x22, 2, 2) and emu.log[-2] == (0x21, 100, 107)
    assert_shows(emu, oled)


def test_a_window_at_the_right_edge_stays_on_the_panel(rig):
    emu, oled = rig
    oled.pixel(126, 3, 1)
    oled.show()
    emu.end_frame()
    assert emu.log[-2] == (0x21, 120, 127) and emu.log[-1] == (0x22, 0, 0)
    assert_shows(emu, oled)


def test_one_value_changed_costs_at_most_64_bytes(rig):
    """A 6x8 counter, a two-digit big number (10x16 digits on a page boundary and off
    it), a menu marker moved: each at most 64 bytes."""
    from firmware import ui
    emu, oled = rig
    cases = [
        (lambda c: ui.text(oled, "7", 60, 24, c), None),
        (lambda c: ui.big(oled, "31", 40, 16, 2, c), None),
        (lambda c: ui.big(oled, "8", 40, 19, 2, c), None),
        (lambda c: ui.marker(oled, 0, 16, c), lambda c: ui.marker(oled, 0, 24, c)),
    ]
    for draw_a, draw_b in cases:
        oled.fill(0)
        draw_a(1)
        oled.show()
        emu.end_frame()
        draw_a(0)
        if draw_b:
            draw_b(1)
        oled.show()
        stats = emu.end_frame()
        assert 0 < stats["bytes"] <= 64, stats
        assert_shows(emu, oled)


def test_two_ends_of_a_page_go_as_two_windows(rig):
    """A title bar whose left and right texts change: two small windows, not the row."""
    emu, oled = rig
    oled.fill_rect(0, 0, 128, 8, 1)
    oled.show()
    emu.end_frame()
    oled.pixel(3, 3, 0)
    oled.pixel(120, 3, 0)
    oled.show()
    stats = emu.end_frame()
    assert stats["bytes"] == 2 * (7 + 1 + 8)
    assert [e for e in emu.log if e[0] == 0x21][-2:] == [(0x21, 3, 10), (0x21, 120, 127)]
    assert_shows(emu, oled)


def test_the_plan_sends_no_more_than_a_full_frame(rig):
    emu, oled = rig
    rnd = random.Random(3)
    for _ in range(40):
        for p in range(8):
            if rnd.random() < 0.7:
                x = rnd.randint(0, 127)
                oled.fill_rect(x, p * 8 + rnd.randint(0, 7), rnd.randint(1, 128 - x), 1,
                               rnd.randint(0, 1))
        oled.show()
        assert emu.end_frame()["bytes"] <= FULL_FRAME
        assert_shows(emu, oled)
    oled.fill(0)
    oled.show()
    emu.end_frame()
    oled.fill(1)
    oled.show()
    assert emu.end_frame()["bytes"] == FULL_FRAME


def test_nothing_changed_sends_nothing(rig):
    emu, oled = rig
    draw_scene(oled)
    oled.show()
    emu.end_frame()
    oled.pixel(5, 5, oled.pixel(5, 5))  # same value
    oled.show()
    assert emu.end_frame()["bytes"] == 0


def test_adjacent_pages_share_a_window_when_cheaper(rig):
    emu, oled = rig
    oled.hline(0, 15, 10, 1)  # page 1, columns 0..9
    oled.hline(0, 16, 10, 1)  # page 2, columns 0..9
    oled.hline(0, 60, 10, 1)  # page 7
    oled.show()
    stats = emu.end_frame()
    # pages 1-2 in one 16-column window (7 + 2 x (1 + 16)), page 7 alone (7 + 1 + 16)
    assert stats["data_bytes"] == 3 * 16
    assert stats["bytes"] == 7 + 2 * 17 + 7 + 17
    windows = [e for e in emu.log if e[0] in (0x21, 0x22)]
    assert windows[-4:] == [(0x21, 0, 15), (0x22, 1, 2), (0x21, 0, 15), (0x22, 7, 7)]
    assert_shows(emu, oled)
    # far apart columns on adjacent pages: two windows are cheaper than their union
    oled.pixel(0, 8, 1)
    oled.pixel(127, 16, 1)
    oled.show()
    stats = emu.end_frame()
    assert stats["bytes"] == 2 * (7 + 1 + 8)
    assert_shows(emu, oled)


def test_random_edits_always_decode_to_the_buffer(rig):
    emu, oled = rig
    rnd = random.Random(7)
    for _ in range(60):
        for _ in range(rnd.randint(0, 3)):
            op = rnd.randint(0, 3)
            x, y = rnd.randint(-5, 130), rnd.randint(-5, 70)
            c = rnd.randint(0, 1)
            if op == 0:
                oled.pixel(x, y, c)
            elif op == 1:
                oled.text("ab", x, y, c)
            elif op == 2:
                oled.fill_rect(x, y, rnd.randint(1, 40), rnd.randint(1, 20), c)
            else:
                oled.line(x, y, rnd.randint(0, 127), rnd.randint(0, 63), c)
        before = bytes(oled._shadow)  # what the panel held
        changed = {p for p in range(8)
                   if oled.buffer[p * 128:(p + 1) * 128] != before[p * 128:(p + 1) * 128]}
        oled.show()
        stats = emu.end_frame()
        assert (stats["data_bytes"] == 0) == (not changed)
        assert stats["bytes"] <= FULL_FRAME
        assert_shows(emu, oled)


def test_contrast_power_invert(rig):
    emu, oled = rig
    draw_scene(oled)
    oled.show()
    oled.contrast(0x20)
    assert emu.contrast == 0x20
    oled.contrast(300)
    assert emu.contrast == 300 & 0xFF
    oled.poweroff()
    assert not emu.display_on and emu.image_bytes() == bytes(1024)
    oled.poweron()
    assert emu.display_on and emu.image_bytes() == bytes(oled.buffer)
    oled.invert(True)
    assert emu.inverted
    assert emu.image_bytes() == bytes(b ^ 0xFF for b in oled.buffer)
    oled.invert(False)
    assert_shows(emu, oled)
    assert not emu.warnings


def test_flip_turns_the_picture_and_later_frames_stay_right(rig):
    emu, oled = rig
    draw_scene(oled)
    oled.show()
    emu.end_frame()
    oled.flip(True)
    assert oled.flipped and not emu.seg_remap and not emu.com_remap
    stats = emu.end_frame()
    assert stats["data_bytes"] == 1024  # the remap only applies to new data: resent

    def turned():
        px = emu.pixels()
        return all(px[63 - y][127 - x] == oled.pixel(x, y) for y in range(64) for x in range(128))

    assert turned()
    oled.text("moved", 60, 30, 1)
    oled.show()
    assert emu.end_frame()["data_bytes"] < 1024
    assert turned()
    oled.flip(False)
    assert_shows(emu, oled)


def test_the_seam_is_two_methods():
    """A transport needs only write_cmd and write_data."""
    emu = SSD1306Emulator()
    sent = []

    class Recorder(SSD1306):
        def write_cmd(self, cmd):
            sent.append(("cmd", cmd))
            emu.write(bytes((0x80, cmd)))

        def write_data(self, buf):
            sent.append(("data", len(buf)))
            emu.write(b"\x40" + bytes(buf))

    oled = Recorder(128, 64)
    assert ("data", 1024) in sent and ("cmd", 0x8D) in sent
    draw_scene(oled)
    oled.show()
    assert_shows(emu, oled)


def test_machine_i2c_stand_in_carries_the_traffic():
    machine = pytest.importorskip("host_sim.machine")
    machine.sim_reset()
    emu = SSD1306Emulator()
    machine.attach_i2c(ADDR, emu)
    try:
        oled = SSD1306_I2C(128, 64, machine.I2C(0, freq=400_000))
        draw_scene(oled)
        oled.show()
        assert_shows(emu, oled)
    finally:
        machine.sim_reset()


# --- Adafruit's driver --------------------------------------------------------------------

@pytest.fixture
def adafruit():
    with adafruit_stubs():
        import adafruit_ssd1306  # noqa: PLC0415

        emu = SSD1306Emulator(ram_fill=0x5A)
        i2c = FakeBusioI2C(emu)
        oled = adafruit_ssd1306.SSD1306_I2C(128, 64, i2c)
        emu.end_frame()
        yield emu, oled, adafruit_ssd1306


def test_adafruit_driver_decodes_to_its_buffer(adafruit):
    emu, oled, _ = adafruit
    assert emu.lit() and not emu.warnings
    draw_scene(oled)
    oled.show()
    stats = emu.end_frame()
    print("\nAdafruit driver, full frame:", stats)
    assert emu.image_bytes() == bytes(oled.buffer[1:])
    assert stats["bytes"] == 1037 and stats["data_bytes"] == 1024
    assert stats["transactions"] == 7
    oled.pixel(100, 20, 1)
    oled.show()
    stats = emu.end_frame()
    print("Adafruit driver, one pixel changed:", stats)
    assert stats["bytes"] == 1037
    assert emu.image_bytes() == bytes(oled.buffer[1:])
    oled.contrast(7)
    oled.invert(True)
    assert emu.contrast == 7 and emu.inverted
    oled.poweroff()
    assert not emu.lit()


def test_adafruit_driver_in_page_addressing_mode():
    """Adafruit's page_addressing=True sends 0x20 0x10, which selects horizontal mode
    (A[1:0] = 00), not page mode (0x02); its page-mode commands are then ignored and
    the frame still lands right because the pointer simply runs on. The emulator
    shows that, and flags the page-mode commands sent outside page mode."""
    with adafruit_stubs():
        import adafruit_ssd1306  # noqa: PLC0415

        emu = SSD1306Emulator(ram_fill=0xFF)
        oled = adafruit_ssd1306.SSD1306_I2C(128, 64, FakeBusioI2C(emu), page_addressing=True)
        assert (0x20, 0x10) in emu.log and emu.mode == HORIZONTAL
        assert any("outside page mode" in w for w in emu.warnings)
        draw_scene(oled)
        oled.show()
        assert emu.image_bytes() == bytes(oled.buffer[1:])


def test_fake_busio_i2c():
    emu = SSD1306Emulator()
    i2c = FakeBusioI2C(emu)
    assert i2c.scan() == [ADDR]
    with pytest.raises(RuntimeError):
        i2c.writeto(ADDR, b"\x80\xaf")  # not locked
    assert i2c.try_lock() and not i2c.try_lock()
    i2c.writeto(ADDR, b"xx\x80\xafyy", start=2, end=4)
    assert emu.display_on
    with pytest.raises(OSError):
        i2c.writeto(0x3D, b"\x80\xae")
    i2c.unlock()


# --- the emulator on its own ----------------------------------------------------------------

def cmds(emu, *b):
    emu.write(bytes((0x00,) + b))


def data(emu, *b):
    emu.write(bytes((0x40,) + b))


def ram(emu, page, col):
    """GDDRAM byte at column address col (the standard A1 remap)."""
    return emu.ram_bytes()[page * 128 + col]


@pytest.fixture
def emu():
    e = SSD1306Emulator()
    cmds(e, 0xA1, 0xC8, 0x8D, 0x14, 0xAF)
    return e


def test_reset_state():
    e = SSD1306Emulator()
    assert e.mode == PAGE and not e.display_on and not e.charge_pump and e.contrast == 0x7F
    assert not e.lit() and e.image_bytes() == bytes(1024)


def test_horizontal_mode_window_wraps(emu):
    cmds(emu, 0x20, 0x00, 0x21, 10, 12, 0x22, 1, 2)
    data(emu, *range(1, 8))  # 3 columns x 2 pages, then wraps to the start
    assert [ram(emu, 1, c) for c in (10, 11, 12)] == [7, 2, 3]
    assert [ram(emu, 2, c) for c in (10, 11, 12)] == [4, 5, 6]
    assert ram(emu, 1, 13) == 0 and ram(emu, 3, 10) == 0


def test_vertical_mode(emu):
    cmds(emu, 0x20, 0x01, 0x21, 5, 6, 0x22, 0, 2)
    data(emu, *range(1, 8))
    assert [ram(emu, p, 5) for p in range(3)] == [7, 2, 3]
    assert [ram(emu, p, 6) for p in range(3)] == [4, 5, 6]


def test_page_mode_start_addresses_and_wrap(emu):
    cmds(emu, 0x20, 0x02, 0xB3, 0x0E, 0x17)  # page 3, column 0x7E
    data(emu, 1, 2, 3)
    assert ram(emu, 3, 126) == 1 and ram(emu, 3, 127) == 2 and ram(emu, 3, 0) == 3
    assert ram(emu, 4, 0) == 0  # the page does not advance
    cmds(emu, 0xB5, 0x05, 0x12)  # page 5, column 0x25
    data(emu, 9)
    assert ram(emu, 5, 0x25) == 9
    assert not emu.warnings


def test_page_commands_outside_page_mode_are_flagged(emu):
    cmds(emu, 0x20, 0x00, 0xB3)
    assert emu.warnings


def test_control_bytes_co_bit_and_split_commands(emu):
    emu.reset_counters()
    emu.write(bytes((0x80, 0xAE, 0x80, 0x81, 0x80, 0x33, 0x40, 0xAA, 0xBB)))
    assert not emu.display_on and emu.contrast == 0x33
    assert emu.frame_stats()["data_bytes"] == 2 and emu.frame_stats()["control_bytes"] == 4
    emu.write(b"\x00\x21")  # arguments in later transactions
    emu.write(b"\x00\x04")
    emu.write(b"\x80\x05")
    emu.write(b"\xc0\x77")  # Co=1 data byte
    assert emu.col_start == 4 and emu.col_end == 5
    emu.write(b"\x00\xaf")
    assert emu.display_on


def test_argument_counts_of_commands_we_do_not_render(emu):
    cmds(emu, 0x26, 0x00, 0x00, 0x00, 0x07, 0x00, 0xFF)  # horizontal scroll set-up
    cmds(emu, 0x29, 0x00, 0x00, 0x00, 0x07, 0x01)
    cmds(emu, 0xA3, 0x00, 0x40, 0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30, 0xAD, 0x30, 0xE3)
    cmds(emu, 0xA6)  # must be read as a command, not as a leftover argument
    assert emu._pending is None and not emu.inverted
    assert emu.log[-1] == (0xA6,)
    cmds(emu, 0xFF)
    assert any("unknown" in w for w in emu.warnings)


def test_rendering_flags(emu):
    cmds(emu, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 7)
    data(emu, 0x01)  # pixel (0, 0)
    px = emu.pixels()
    assert px[0][0] == 1 and sum(map(sum, px)) == 1
    cmds(emu, 0x48)  # start line 8: RAM row 8 is the top row now
    assert emu.pixels()[56][0] == 1
    cmds(emu, 0x40, 0xA5)
    assert sum(map(sum, emu.pixels())) == 128 * 64  # entire display on
    cmds(emu, 0xA4, 0xA7)
    assert sum(map(sum, emu.pixels())) == 128 * 64 - 1
    cmds(emu, 0xA6, 0xC0)  # COM scan normal: upside down
    assert emu.pixels()[63][0] == 1
    cmds(emu, 0xC8, 0xA8, 31)  # mux 32: only half the rows are driven
    assert emu.mux == 32 and emu.pixels()[32][0] == 1 and emu.pixels()[0][0] == 0
    cmds(emu, 0xA8, 63, 0x8D, 0x10)  # charge pump off: dark
    assert not emu.lit() and sum(map(sum, emu.pixels())) == 0


def test_segment_remap_applies_to_later_writes(emu):
    cmds(emu, 0x20, 0x00, 0x21, 0, 127, 0x22, 0, 0)
    data(emu, 0x01)
    cmds(emu, 0xA0)  # the old data stays where it is
    assert emu.pixels()[0][0] == 1
    cmds(emu, 0x21, 0, 127, 0x22, 0, 0)
    data(emu, 0x02)  # column 0 now lands on the right-hand edge
    assert emu.pixels()[1][127] == 1


def test_counters_and_bus_time(emu):
    emu.reset_counters()
    emu.write(b"\x40" + bytes(1024))
    s = emu.end_frame()
    assert s["transactions"] == 1 and s["bytes"] == 1025 and s["data_bytes"] == 1024
    assert 23_000 < s["bus_us"] < 23_300  # about 23 ms at 400 kHz
    assert emu.frame_stats()["bytes"] == 0 and emu.total.bytes == 1025
    assert emu.frames == [s]


# --- screenshots -------------------------------------------------------------------------------

def test_png_looks_like_the_oled(rig, tmp_path):
    from PIL import Image  # noqa: PLC0415

    from host_sim.screenshot import save_png  # noqa: PLC0415

    emu, oled = rig
    oled.fill_rect(10, 10, 2, 2, 1)
    oled.show()
    path = save_png(emu, str(tmp_path / "s.png"), scale=4)
    img = Image.open(path).convert("RGB")
    assert img.size == (512, 256)
    r, g, b = img.getpixel((41, 41))
    assert b > 200 and g > 150  # light blue
    assert img.getpixel((43, 41)) == (0, 0, 0)  # the gap between pixels
    assert img.getpixel((100, 100)) == (0, 0, 0)
    save_png(oled, str(tmp_path / "from_driver.png"), scale=2, gap=False)
    small = Image.open(tmp_path / "from_driver.png").convert("RGB")
    assert small.size == (256, 128) and small.getpixel((21, 21)) != (0, 0, 0)


def test_text_view_half_blocks(rig):
    from host_sim.screenshot import to_text  # noqa: PLC0415

    emu, oled = rig
    oled.pixel(0, 0, 1)
    oled.pixel(1, 1, 1)
    oled.pixel(2, 0, 1)
    oled.pixel(2, 1, 1)
    oled.show()
    lines = to_text(emu, frame=False).splitlines()
    assert len(lines) == 32 and all(len(ln) == 128 for ln in lines)
    assert lines[0][:4] == "\u2580\u2584\u2588 "
    framed = emu.to_text().splitlines()
    assert len(framed) == 34 and framed[1][1:4] == lines[0][:3]
    assert to_text(bytes(oled.buffer), frame=False) == "\n".join(lines)


# --- on the real MicroPython interpreter ------------------------------------------------------

MP_DRIVER = r'''
import gc
from firmware.drivers.ssd1306 import SSD1306_I2C

class Bus:
    def __init__(self):
        self.log = []
        self.record = True
        self.n = 0
    def writeto(self, addr, buf):
        self.n += len(buf)
        if self.record:
            self.log.append(bytes(buf))

bus = Bus()
oled = SSD1306_I2C(128, 64, bus)
oled.fill(0)
oled.text("Stack 31", 30, 2, 1)
oled.rect(0, 0, 128, 64, 1)
oled.line(0, 63, 127, 12, 1)
oled.ellipse(64, 40, 20, 10, 1, True)
oled.show()
oled.pixel(100, 20, 1)
oled.show()
oled.contrast(40)
oled.invert(True)
oled.invert(False)
oled.flip(True)
oled.flip(False)
for t in bus.log:
    print("TX", t.hex())
print("BUF", bytes(oled.buffer).hex())

# show() allocates nothing: a partial frame, a full one, and one with no change
bus.record = False
def measure(fn):
    gc.collect()
    gc.disable()
    before = gc.mem_free()
    fn()
    after = gc.mem_free()
    gc.enable()
    return before - after
def partial():
    oled.show()
oled.pixel(3, 3, 1)
a = measure(partial)
oled.pixel(3, 40, 1)
oled.pixel(3, 60, 1)
b = measure(partial)
c = measure(partial)
def full():
    oled.show(True)
d = measure(full)
print("ALLOC", a, b, c, d)
'''


def test_driver_on_micropython_decodes_and_show_allocates_nothing():
    from host_sim.micropython import require_node, run_micropython  # noqa: PLC0415

    require_node()
    out = run_micropython(MP_DRIVER)
    emu = SSD1306Emulator(ram_fill=0xA5)
    buf = None
    alloc = None
    for line in out.splitlines():
        tag, _, rest = line.partition(" ")
        if tag == "TX":
            emu.write(bytes.fromhex(rest))
        elif tag == "BUF":
            buf = bytes.fromhex(rest)
        elif tag == "ALLOC":
            alloc = [int(v) for v in rest.split()]
    assert buf is not None and any(buf)
    assert emu.image_bytes() == buf and emu.contrast == 40 and not emu.warnings
    # the same drawing on CPython gives the same buffer
    here = SSD1306_I2C(128, 64, Bus(SSD1306Emulator()))
    here.fill(0)
    here.text("Stack 31", 30, 2, 1)
    here.rect(0, 0, 128, 64, 1)
    here.line(0, 63, 127, 12, 1)
    here.ellipse(64, 40, 20, 10, 1, True)
    here.pixel(100, 20, 1)
    assert bytes(here.buffer) == buf
    assert alloc == [0, 0, 0, 0], "show() allocated %r bytes on MicroPython" % alloc
