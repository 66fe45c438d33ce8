"""The same drawing calls give the same bytes on CPython (host_sim.framebuf) and in the
real MicroPython 1.27 interpreter (its built-in framebuf), for every format.

Each test builds one program, runs it in both interpreters and compares what it
prints: one line per frame, "name hexbytes".
"""

import contextlib
import io
import random
import sys

import pytest

from host_sim import font8x8
from host_sim import framebuf as host_framebuf
from host_sim.micropython import require_node, run_micropython

SCENE = r'''
import framebuf
from array import array

def scene(fmt, w, h, size, c1, c0):
    buf = bytearray(size)
    fb = framebuf.FrameBuffer(buf, w, h, fmt)
    fb.fill(c0)
    fb.text("Hello, table! ~{}", 3, 2, c1)
    fb.text("Stack 31: 7h", -5, 13, c1)
    fb.text("neg", w - 28, -3, c1)
    fb.text("\xe9\x01", w // 2, h - 4, c1)
    fb.line(0, 0, w - 1, h - 1, c1)
    fb.line(w - 8, 5, 3, h * 2 // 3, c1)
    fb.line(10, h - 4, 12, 20, c1)
    fb.line(-10, h + 6, w + 12, -5, c1)
    fb.line(30, 30, 30, 30, c1)
    fb.rect(5, 30, 40, 20, c1)
    fb.rect(50, 30, 20, 10, c1, True)
    fb.rect(-4, -4, 10, 10, c1)
    fb.fill_rect(52, 32, 5, 3, c0)
    fb.fill_rect(w - 3, h - 3, 10, 10, c1)
    fb.hline(0, h - 1, w, c1)
    fb.vline(w - 1, 0, h, c1)
    fb.hline(-5, 20, 3, c1)
    fb.ellipse(90, 40, 20, 12, c1)
    fb.ellipse(90, 40, 8, 5, c1, True)
    fb.ellipse(30, 20, 10, 10, c1, False, 0b0101)
    fb.ellipse(30, 20, 6, 3, c0, True, 0b1010)
    fb.ellipse(126, 62, 9, 4, c1, True)
    fb.ellipse(60, 5, 0, 0, c1)
    fb.ellipse(70, 50, 12, 0, c1)
    fb.poly(70, 10, array('h', [0, 0, 20, 5, 10, 20, -5, 12]), c1)
    fb.poly(100, 5, array('h', [0, 0, 15, 3, 8, 18, 2, 9]), c1, True)
    fb.poly(10, 40, array('h', [0, 10, 5, 0, 10, 10, 15, 0, 20, 10, 10, 20]), c1, True)
    fb.poly(40, 44, bytes([0, 0, 12, 0, 12, 6, 0, 6]), c1, True)
    spr = bytearray(8)
    sp = framebuf.FrameBuffer(spr, 8, 8, framebuf.MONO_VLSB)
    sp.fill(1)
    sp.pixel(3, 3, 0)
    sp.rect(1, 1, 6, 6, 0)
    fb.blit(sp, 40, 50, 0)
    fb.blit(sp, w - 4, h - 4, 1)
    fb.blit(sp, -3, -2)
    pal = bytearray(4)
    pf = framebuf.FrameBuffer(pal, 2, 1, framebuf.RGB565)
    pf.pixel(0, 0, c0)
    pf.pixel(1, 0, c1)
    fb.blit(sp, 20, 52, -1, pf)
    fb.blit((spr, 8, 8, framebuf.MONO_VLSB), 110, 20, 1, pf)
    fb.scroll(3, -2)
    fb.scroll(-1, 5)
    fb.text("after scroll", 10, 44, c0)
    fb.pixel(5, 5, c1)
    fb.pixel(-1, 5, c1)
    return buf

for name, fmt, size, c1, c0 in (
    ("MONO_VLSB", framebuf.MONO_VLSB, 1024, 1, 0),
    ("MONO_VLSB_inv", framebuf.MONO_VLSB, 1024, 0, 1),
    ("MONO_HLSB", framebuf.MONO_HLSB, 1024, 1, 0),
    ("MONO_HMSB", framebuf.MONO_HMSB, 1024, 1, 0),
    ("GS2_HMSB", framebuf.GS2_HMSB, 2048, 3, 1),
    ("GS4_HMSB", framebuf.GS4_HMSB, 4096, 0xB, 0x2),
    ("GS8", framebuf.GS8, 8192, 0xC8, 0x11),
    ("RGB565", framebuf.RGB565, 16384, 0xF81F, 0x07E0),
):
    print(name, bytes(scene(fmt, 128, 64, size, c1, c0)).hex())

# odd sizes: strides that round up, a height that is not a multiple of 8
for name, fmt, w, h, size in (
    ("VLSB_61x21", framebuf.MONO_VLSB, 61, 21, 61 * 3),
    ("HLSB_61x21", framebuf.MONO_HLSB, 61, 21, 8 * 21),
    ("GS2_61x21", framebuf.GS2_HMSB, 61, 21, 16 * 21),
    ("GS4_61x21", framebuf.GS4_HMSB, 61, 21, 31 * 21),
):
    buf = bytearray(size)
    fb = framebuf.FrameBuffer(buf, w, h, fmt)
    fb.text("Odd sizes", 2, 15, 1)
    fb.ellipse(30, 10, 25, 9, 1)
    fb.line(0, 20, 60, 0, 1)
    fb.scroll(-2, 1)
    print(name, bytes(buf).hex())
'''


def run_here(code):
    """Run ``code`` on CPython with host_sim's framebuf as ``framebuf``."""
    saved = sys.modules.get("framebuf")
    sys.modules["framebuf"] = host_framebuf
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(code, "<scene>", "exec"), {"__name__": "__scene__"})
    finally:
        if saved is None:
            sys.modules.pop("framebuf", None)
        else:
            sys.modules["framebuf"] = saved
    return out.getvalue()


def frames(out):
    result = {}
    for line in out.splitlines():
        name, _, data = line.partition(" ")
        result[name] = bytes.fromhex(data)
    return result


def compare(code):
    require_node()
    mine = frames(run_here(code))
    theirs = frames(run_micropython(code, project=False))
    assert mine.keys() == theirs.keys() and mine
    bad = []
    for name in mine:
        a, b = mine[name], theirs[name]
        if a != b:
            first = next(i for i in range(len(a)) if a[i] != b[i])
            bad.append("%s: %d bytes differ, first at %d (ours %02x, MicroPython's %02x)"
                       % (name, sum(x != y for x, y in zip(a, b)), first, a[first], b[first]))
    assert not bad, "\n".join(bad)
    return mine


def test_varied_scene_is_byte_identical_in_every_format():
    got = compare(SCENE)
    assert any(got["MONO_VLSB"]) and len(got) == 12


def test_the_font_is_micropythons():
    require_node()
    code = (
        "import framebuf\n"
        "buf = bytearray(96 * 8)\n"
        "fb = framebuf.FrameBuffer(buf, 96 * 8, 8, framebuf.MONO_VLSB)\n"
        "fb.text(''.join(chr(c) for c in range(32, 128)), 0, 0, 1)\n"
        "print(bytes(buf).hex())\n"
    )
    assert bytes.fromhex(run_micropython(code, project=False).strip()) == font8x8.FONT


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_calls_are_byte_identical(seed):
    """Random drawing calls with coordinates partly off the frame."""
    rnd = random.Random(seed)

    def n(lo=-20, hi=150):
        return rnd.randint(lo, hi)

    lines = [
        "import framebuf",
        "from array import array",
        "buf = bytearray(1024)",
        "fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)",
        "spr = bytearray(32)",
        "sp = framebuf.FrameBuffer(spr, 16, 16, framebuf.MONO_HLSB)",
    ]
    for _ in range(200):
        c = rnd.randint(0, 1)
        kind = rnd.choice(["pixel", "hline", "vline", "line", "rect", "fill_rect", "text",
                           "ellipse", "poly", "blit", "scroll", "sprite"])
        if kind == "pixel":
            call = "fb.pixel(%d, %d, %d)" % (n(), n(-10, 80), c)
        elif kind in ("hline", "vline"):
            call = "fb.%s(%d, %d, %d, %d)" % (kind, n(), n(-10, 80), n(-5, 140), c)
        elif kind == "line":
            call = "fb.line(%d, %d, %d, %d, %d)" % (n(), n(-30, 90), n(), n(-30, 90), c)
        elif kind == "rect":
            call = "fb.rect(%d, %d, %d, %d, %d, %s)" % (n(), n(-10, 80), n(-3, 60), n(-3, 40),
                                                      c, rnd.choice(["True", "False"]))
        elif kind == "fill_rect":
            call = "fb.fill_rect(%d, %d, %d, %d, %d)" % (n(), n(-10, 80), n(-3, 60), n(-3, 40), c)
        elif kind == "text":
            s = "".join(chr(rnd.randint(32, 127)) for _ in range(rnd.randint(0, 12)))
            call = "fb.text(%r, %d, %d, %d)" % (s, n(-30, 130), n(-10, 70), c)
        elif kind == "ellipse":
            call = "fb.ellipse(%d, %d, %d, %d, %d, %s, %d)" % (
                n(), n(-10, 80), rnd.randint(0, 40), rnd.randint(0, 30), c,
                rnd.choice(["True", "False"]), rnd.randint(0, 15))
        elif kind == "poly":
            pts = [rnd.randint(-15, 40) for _ in range(2 * rnd.randint(1, 6))]
            call = "fb.poly(%d, %d, array('h', %r), %d, %s)" % (
                n(-10, 120), n(-10, 60), pts, c, rnd.choice(["True", "False"]))
        elif kind == "blit":
            call = "fb.blit(sp, %d, %d, %d)" % (n(), n(-20, 70), rnd.choice([-1, 0, 1]))
        elif kind == "scroll":
            call = "fb.scroll(%d, %d)" % (rnd.randint(-10, 10), rnd.randint(-10, 10))
        else:
            call = "sp.line(%d, %d, %d, %d, %d)" % (rnd.randint(-2, 17), rnd.randint(-2, 17),
                                                   rnd.randint(-2, 17), rnd.randint(-2, 17), c)
        lines.append(call)
    lines.append("print('random', bytes(buf).hex())")
    lines.append("print('sprite', bytes(spr).hex())")
    compare("\n".join(lines) + "\n")
