"""host_sim.framebuf against known bytes (MicroPython's layouts and algorithms).

The comparison with frames drawn by the real MicroPython interpreter is in
tests/test_framebuf_mp.py; these tests need no Node.
"""

import sys
from array import array

import pytest

from host_sim import font8x8
from host_sim import framebuf as fbmod
from host_sim.framebuf import (
    GS2_HMSB,
    GS4_HMSB,
    GS8,
    MONO_HLSB,
    MONO_HMSB,
    MONO_VLSB,
    RGB565,
    FrameBuffer,
)


def vlsb(w=128, h=64):
    buf = bytearray(w * ((h + 7) // 8))
    return buf, FrameBuffer(buf, w, h, MONO_VLSB)


def lit(fb, w, h):
    return {(x, y) for y in range(h) for x in range(w) if fb.pixel(x, y)}


def test_constants_are_micropythons():
    assert (MONO_VLSB, RGB565, GS4_HMSB, MONO_HLSB, MONO_HMSB, GS2_HMSB, GS8) == (0, 1, 2, 3, 4, 5, 6)
    assert fbmod.MVLSB == MONO_VLSB


def test_install_puts_the_module_in_sys_modules():
    saved = sys.modules.pop("framebuf", None)
    try:
        assert fbmod.install() is fbmod
        import framebuf  # noqa: PLC0415

        assert framebuf is fbmod
        other = object()
        sys.modules["framebuf"] = other
        assert fbmod.install() is other  # an existing framebuf is left alone
        assert fbmod.install(force=True) is fbmod
    finally:
        if saved is None:
            sys.modules.pop("framebuf", None)
        else:
            sys.modules["framebuf"] = saved


def test_mono_layouts():
    buf, fb = vlsb(16, 16)
    fb.pixel(0, 0, 1)
    fb.pixel(3, 9, 1)
    assert buf[0] == 0x01 and buf[16 + 3] == 0x02
    assert fb.pixel(3, 9) == 1 and fb.pixel(3, 8) == 0
    assert fb.pixel(16, 0) is None and fb.pixel(-1, 0) is None  # outside: None
    fb.pixel(3, 9, 0)
    assert buf[16 + 3] == 0
    hl = bytearray(4)
    FrameBuffer(hl, 10, 2, MONO_HLSB).pixel(0, 0, 1)  # stride rounds up to 16
    assert hl == bytearray([0x80, 0, 0, 0])
    f = FrameBuffer(hl, 10, 2, MONO_HLSB)
    f.pixel(9, 1, 1)
    assert hl == bytearray([0x80, 0, 0, 0x40])
    hm = bytearray(2)
    FrameBuffer(hm, 8, 2, MONO_HMSB).pixel(1, 1, 1)
    assert hm == bytearray([0, 0x02])


def test_other_formats_store_micropythons_bytes():
    b = bytearray(8)
    FrameBuffer(b, 2, 2, RGB565).pixel(1, 0, 0x1234)
    assert b[2:4] == bytes([0x34, 0x12])
    g4 = bytearray(2)
    f4 = FrameBuffer(g4, 3, 1, GS4_HMSB)  # 3 wide: stride rounds to 4
    f4.pixel(0, 0, 0xA)
    f4.pixel(1, 0, 0x5)
    f4.pixel(2, 0, 0xF)
    assert g4 == bytearray([0xA5, 0xF0]) and f4.pixel(1, 0) == 5
    g2 = bytearray(1)
    f2 = FrameBuffer(g2, 4, 1, GS2_HMSB)
    f2.pixel(0, 0, 1)
    f2.pixel(3, 0, 2)
    assert g2 == bytearray([0b10000001]) and f2.pixel(3, 0) == 2
    g8 = bytearray(4)
    f8 = FrameBuffer(g8, 2, 2, GS8)
    f8.fill_rect(1, 0, 1, 2, 0x1FF)
    assert g8 == bytearray([0, 0xFF, 0, 0xFF])
    r = bytearray(8)
    FrameBuffer(r, 2, 2, RGB565).fill(0xF800)
    assert r == bytes([0x00, 0xF8]) * 4


def test_constructor_checks():
    with pytest.raises(ValueError):
        FrameBuffer(bytearray(10), 8, 8, 99)
    with pytest.raises(ValueError):
        FrameBuffer(bytearray(7), 8, 8, MONO_VLSB)
    with pytest.raises(ValueError):
        FrameBuffer(bytearray(100), 8, 8, MONO_VLSB, 4)  # stride < width
    FrameBuffer(bytearray(16), 8, 9, MONO_VLSB)  # 9 rows need 2 pages
    FrameBuffer(memoryview(bytearray(1025))[1:], 128, 64, MONO_VLSB)  # Adafruit's way


def test_fill_rect_clips_and_rect_outline():
    buf, fb = vlsb(8, 16)
    fb.fill_rect(-2, 6, 4, 4, 1)  # x 0..1, rows 6..9
    assert buf[0] == buf[1] == 0xC0 and buf[8] == buf[9] == 0x03 and buf[2] == 0
    fb.fill(0)
    fb.rect(1, 1, 4, 3, 1)
    assert lit(fb, 8, 16) == {(1, 1), (2, 1), (3, 1), (4, 1), (1, 2), (4, 2),
                             (1, 3), (2, 3), (3, 3), (4, 3)}
    fb.rect(1, 1, 4, 3, 1, True)
    assert (2, 2) in lit(fb, 8, 16)
    fb.fill(1)
    assert all(b == 0xFF for b in buf)
    fb.hline(0, 15, 100, 0)
    fb.vline(7, -5, 100, 0)
    assert buf[8] == 0x7F and buf[7] == 0 and buf[15] == 0


def test_line_is_micropythons_bresenham():
    _, fb = vlsb(16, 8)
    fb.line(0, 0, 5, 2, 1)
    assert lit(fb, 16, 8) == {(0, 0), (1, 0), (2, 1), (3, 1), (4, 2), (5, 2)}
    fb.fill(0)
    fb.line(3, 7, 3, 7, 1)  # a point
    assert lit(fb, 16, 8) == {(3, 7)}
    fb.fill(0)
    fb.line(-3, 2, 20, 2, 1)  # clipped
    assert lit(fb, 16, 8) == {(x, 2) for x in range(16)}


def test_ellipse_and_quadrants():
    _, fb = vlsb(32, 32)
    fb.ellipse(10, 10, 0, 0, 1)
    assert lit(fb, 32, 32) == {(10, 10)}
    fb.fill(0)
    fb.ellipse(10, 10, 3, 2, 1)
    pts = lit(fb, 32, 32)
    assert {(13, 10), (7, 10), (10, 8), (10, 12)} <= pts
    assert (10, 10) not in pts
    fb.fill(0)
    fb.ellipse(10, 10, 3, 2, 1, True)
    assert (10, 10) in lit(fb, 32, 32)
    fb.fill(0)
    fb.ellipse(10, 10, 4, 4, 1, False, 0b0001)  # top right only
    assert all(x >= 10 and y <= 10 for x, y in lit(fb, 32, 32))


def test_poly_outline_and_fill():
    _, fb = vlsb(32, 32)
    tri = array("h", [0, 0, 6, 0, 0, 6])
    fb.poly(2, 3, tri, 1)
    pts = lit(fb, 32, 32)
    assert {(2, 3), (8, 3), (2, 9)} <= pts and (3, 4) not in pts
    fb.fill(0)
    fb.poly(2, 3, tri, 1, True)
    assert (3, 4) in lit(fb, 32, 32)
    fb.fill(0)
    fb.poly(0, 0, array("h"), 1)  # nothing
    assert not lit(fb, 32, 32)


def test_text_uses_micropythons_font():
    buf, fb = vlsb(16, 16)
    fb.text("A", 0, 0)
    assert bytes(buf[:8]) == bytes.fromhex("007c7e0b0b7e7c00")  # drawn by MicroPython
    assert bytes(buf[:8]) == font8x8.FONT[(ord("A") - 32) * 8:(ord("A") - 31) * 8]
    fb.fill(0)
    fb.text("A", 0, 3)  # straddles two pages
    col = 0x7C
    assert buf[1] == (col << 3) & 0xFF and buf[16 + 1] == col >> 5
    fb.fill(1)
    fb.text("A", 0, 0, 0)  # colour 0 clears the glyph's pixels only
    assert buf[1] == 0xFF & ~0x7C
    fb.fill(0)
    fb.text("\u00e9", 0, 8)  # two UTF-8 bytes: two cells of glyph 127
    assert bytes(buf[16:32]) == font8x8.FONT[-8:] * 2
    fb.fill(0)
    fb.text("AB", -4, -3)  # clipped at the left and the top
    assert bytes(buf[:4]) == bytes(b >> 3 for b in font8x8.FONT[(65 - 32) * 8 + 4:(65 - 31) * 8])


def test_text_in_other_formats_matches_vlsb():
    buf, fb = vlsb(40, 16)
    fb.text("Hi!", 3, 5)
    ref = lit(fb, 40, 16)
    hb = bytearray(5 * 16)
    fh = FrameBuffer(hb, 40, 16, MONO_HLSB)
    fh.text("Hi!", 3, 5)
    assert lit(fh, 40, 16) == ref
    g = bytearray(40 * 16)
    fg = FrameBuffer(g, 40, 16, GS8)
    fg.text("Hi!", 3, 5, 7)
    assert {(x, y) for y in range(16) for x in range(40) if g[y * 40 + x] == 7} == ref


def test_blit_key_and_palette():
    _, fb = vlsb(16, 8)
    sbuf = bytearray(3)
    spr = FrameBuffer(sbuf, 3, 3, MONO_VLSB)
    spr.fill(1)
    spr.pixel(1, 1, 0)
    fb.fill(1)
    fb.blit(spr, 2, 2, 1)  # key 1: only the hole is copied
    assert {(x, y) for y in range(8) for x in range(16) if not fb.pixel(x, y)} == {(3, 3)}
    fb.fill(0)
    fb.blit(spr, -1, -1)  # clipped
    assert lit(fb, 16, 8) == {(1, 0), (0, 1), (1, 1)} - {(0, 0)}
    # palette: GS8 source through a 2-entry palette into mono
    src = bytearray([0, 1, 1, 0])
    pal = bytearray(2)
    palette = FrameBuffer(pal, 2, 1, GS8)
    palette.pixel(0, 0, 1)
    palette.pixel(1, 0, 0)
    fb.fill(0)
    fb.blit((src, 2, 2, GS8), 0, 0, -1, palette)
    assert lit(fb, 16, 8) == {(0, 0), (1, 1)}
    with pytest.raises(TypeError):
        fb.blit(object(), 0, 0)


def test_scroll():
    buf, fb = vlsb(8, 8)
    fb.pixel(1, 1, 1)
    fb.scroll(2, 3)
    assert fb.pixel(3, 4) == 1 and fb.pixel(1, 1) == 1  # the vacated area keeps its pixels
    fb.fill(0)
    fb.pixel(5, 5, 1)
    fb.scroll(-5, -5)
    assert fb.pixel(0, 0) == 1
    fb.fill(0)
    fb.pixel(2, 2, 1)
    fb.scroll(100, 0)  # nothing happens
    assert lit(fb, 8, 8) == {(2, 2)}


def test_subclass_keeps_its_own_attributes():
    class Display(FrameBuffer):
        def __init__(self):
            self.width = 16
            self.height = 8
            self.buffer = bytearray(16)
            self.buf = "mine"
            self.stride = "mine too"
            super().__init__(self.buffer, 16, 8, MONO_VLSB)

    d = Display()
    d.text("x", 0, 0)
    assert d.buf == "mine" and d.stride == "mine too" and any(d.buffer)
