"""MicroPython's ``framebuf`` module for CPython, byte for byte.

The same drawing calls give the same buffer bytes as MicroPython 1.27's built-in
``framebuf`` (``tests/test_framebuf_mp.py`` compares the two on a varied scene).
Pixel access for MONO_VLSB, MONO_HLSB and GS2_HMSB comes from
``adafruit-circuitpython-framebuf``; everything else (fast MONO_VLSB fills and text,
the other formats, MicroPython's line, ellipse and polygon algorithms, blit with key
and palette, scroll, the 8x8 font) is our own code, written to MicroPython's documented
behaviour and checked against the real interpreter.

    from host_sim import framebuf
    framebuf.install()          # `import framebuf` now finds this module
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    fb.text("Hello", 0, 0, 1)

Differences that cannot be helped: a FrameBuffer here does not expose the buffer
protocol (CPython 3.11 classes cannot), so ``bytes(fb)`` does not work; keep the
buffer you passed in (every driver does).
"""

import sys

import adafruit_framebuf as _ada

try:
    from .font8x8 import FONT as _FONT
except ImportError:  # loaded as a top-level module from host_sim/ on sys.path
    from font8x8 import FONT as _FONT

# Format constants: the same numbers as MicroPython's.
MONO_VLSB = 0
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

_FORMATS = (MONO_VLSB, RGB565, GS4_HMSB, MONO_HLSB, MONO_HMSB, GS2_HMSB, GS8)


def install(force=False):
    """Make ``import framebuf`` find this module (unless a framebuf is already loaded,
    or ``force``). Returns the module that ``import framebuf`` now gives."""
    mod = sys.modules[__name__]
    if force or "framebuf" not in sys.modules:
        sys.modules["framebuf"] = mod
    return sys.modules["framebuf"]


def uninstall():
    """Undo ``install()`` (only if this module is the installed one)."""
    if sys.modules.get("framebuf") is sys.modules[__name__]:
        del sys.modules["framebuf"]


class _Plane:
    """What adafruit_framebuf's format helpers expect: ``buf`` and ``stride``."""

    __slots__ = ("buf", "stride", "width", "height", "fmt")

    def __init__(self, buf, width, height, fmt, stride):
        self.buf = buf
        self.width = width
        self.height = height
        self.fmt = fmt
        self.stride = stride


# --- per-format pixel access ---------------------------------------------------------
# Each format has setpixel(plane, x, y, c), getpixel(plane, x, y) and
# fill_rect(plane, x, y, w, h, c) for an already clipped rectangle.

_ada_mvlsb = _ada.MVLSBFormat
_ada_mhmsb = _ada.MHMSBFormat  # Adafruit's MHMSB is MicroPython's MONO_HLSB (bit 7 left)
_ada_gs2 = _ada.GS2HMSBFormat


def _mvlsb_fill_rect(p, x, y, w, h, c):
    buf = p.buf
    stride = p.stride
    end_y = y + h
    while y < end_y:
        page = y >> 3
        top = y & 7
        bottom = min(8, top + end_y - y)
        mask = ((1 << bottom) - 1) & ~((1 << top) - 1)
        start = page * stride + x
        if c:
            buf[start:start + w] = bytes(b | mask for b in buf[start:start + w])
        else:
            keep = 0xFF & ~mask
            buf[start:start + w] = bytes(b & keep for b in buf[start:start + w])
        y += bottom - top


def _mono_h_setpixel(p, x, y, c):
    index = (x + y * p.stride) >> 3
    offset = (x & 7) if p.fmt == MONO_HMSB else 7 - (x & 7)
    p.buf[index] = (p.buf[index] & ~(1 << offset) & 0xFF) | ((c != 0) << offset)


def _mono_h_getpixel(p, x, y):
    offset = (x & 7) if p.fmt == MONO_HMSB else 7 - (x & 7)
    return (p.buf[(x + y * p.stride) >> 3] >> offset) & 1


def _mhlsb_setpixel(p, x, y, c):
    _ada_mhmsb.set_pixel(p, x, y, c)


def _mhlsb_getpixel(p, x, y):
    return _ada_mhmsb.get_pixel(p, x, y)


def _generic_fill_rect(setpixel):
    def fill_rect(p, x, y, w, h, c):
        for yy in range(y, y + h):
            for xx in range(x, x + w):
                setpixel(p, xx, yy, c)
    return fill_rect


def _rgb565_setpixel(p, x, y, c):
    i = (x + y * p.stride) * 2
    c &= 0xFFFF
    p.buf[i] = c & 0xFF
    p.buf[i + 1] = c >> 8


def _rgb565_getpixel(p, x, y):
    i = (x + y * p.stride) * 2
    return p.buf[i] | (p.buf[i + 1] << 8)


def _rgb565_fill_rect(p, x, y, w, h, c):
    c &= 0xFFFF
    row = bytes((c & 0xFF, c >> 8)) * w
    for yy in range(y, y + h):
        i = (x + yy * p.stride) * 2
        p.buf[i:i + 2 * w] = row


def _gs2_setpixel(p, x, y, c):
    _ada_gs2.set_pixel(p, x, y, c)


def _gs2_getpixel(p, x, y):
    return _ada_gs2.get_pixel(p, x, y)


def _gs4_setpixel(p, x, y, c):
    i = (x + y * p.stride) >> 1
    if x & 1:
        p.buf[i] = (c & 0x0F) | (p.buf[i] & 0xF0)
    else:
        p.buf[i] = ((c << 4) & 0xF0) | (p.buf[i] & 0x0F)


def _gs4_getpixel(p, x, y):
    v = p.buf[(x + y * p.stride) >> 1]
    return v & 0x0F if x & 1 else v >> 4


def _gs8_setpixel(p, x, y, c):
    p.buf[x + y * p.stride] = c & 0xFF


def _gs8_getpixel(p, x, y):
    return p.buf[x + y * p.stride]


def _gs8_fill_rect(p, x, y, w, h, c):
    row = bytes((c & 0xFF,)) * w
    for yy in range(y, y + h):
        i = x + yy * p.stride
        p.buf[i:i + w] = row


_ACCESS = {
    MONO_VLSB: (_ada_mvlsb.set_pixel, _ada_mvlsb.get_pixel, _mvlsb_fill_rect),
    MONO_HLSB: (_mhlsb_setpixel, _mhlsb_getpixel, _generic_fill_rect(_mhlsb_setpixel)),
    MONO_HMSB: (_mono_h_setpixel, _mono_h_getpixel, _generic_fill_rect(_mono_h_setpixel)),
    RGB565: (_rgb565_setpixel, _rgb565_getpixel, _rgb565_fill_rect),
    GS2_HMSB: (_gs2_setpixel, _gs2_getpixel, _generic_fill_rect(_gs2_setpixel)),
    GS4_HMSB: (_gs4_setpixel, _gs4_getpixel, _generic_fill_rect(_gs4_setpixel)),
    GS8: (_gs8_setpixel, _gs8_getpixel, _gs8_fill_rect),
}


def _cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _make_plane(buf, width, height, fmt, stride):
    if fmt not in _FORMATS:
        raise ValueError("invalid format")
    if stride is None:
        stride = width
    if width < 1 or height < 1 or width > 0xFFFF or height > 0xFFFF or stride > 0xFFFF \
            or stride < width:
        raise ValueError()
    bpp = 1
    height_required = height
    width_required = width
    strides_required = height - 1
    if fmt == MONO_VLSB:
        height_required = (height + 7) & ~7
        strides_required = height_required - 8
    elif fmt in (MONO_HLSB, MONO_HMSB):
        stride = (stride + 7) & ~7
        width_required = (width + 7) & ~7
    elif fmt == GS2_HMSB:
        stride = (stride + 3) & ~3
        width_required = (width + 3) & ~3
        bpp = 2
    elif fmt == GS4_HMSB:
        stride = (stride + 1) & ~1
        width_required = (width + 1) & ~1
        bpp = 4
    elif fmt == GS8:
        bpp = 8
    elif fmt == RGB565:
        bpp = 16
    view = memoryview(buf)
    if view.readonly:
        raise TypeError("object with buffer protocol required (writable)")
    view = view.cast("B")
    need = (strides_required * stride + (height_required - strides_required) * width_required) \
        * bpp // 8
    if need > len(view):
        raise ValueError()
    return _Plane(view, width, height, fmt, stride)


class FrameBuffer:
    """FrameBuffer(buffer, width, height, format[, stride]) as in MicroPython."""

    def __init__(self, buffer, width, height, format, stride=None):  # noqa: A002
        plane = _make_plane(buffer, int(width), int(height), int(format),
                            None if stride is None else int(stride))
        self.__p = plane
        self.__buf_obj = buffer
        self.__set, self.__get, self.__fill = _ACCESS[plane.fmt]

    # -- helpers ----------------------------------------------------------------------
    def __fill_rect(self, x, y, w, h, c):
        p = self.__p
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= p.height or x >= p.width:
            return
        xend = min(p.width, x + w)
        yend = min(p.height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        self.__fill(p, x, y, xend - x, yend - y, c)

    def __setpixel_checked(self, x, y, c, mask=1):
        p = self.__p
        if mask and 0 <= x < p.width and 0 <= y < p.height:
            self.__set(p, x, y, c)

    # -- drawing ----------------------------------------------------------------------
    def fill(self, c):
        p = self.__p
        self.__fill(p, 0, 0, p.width, p.height, int(c))

    def fill_rect(self, x, y, w, h, c):
        self.__fill_rect(int(x), int(y), int(w), int(h), int(c))

    def pixel(self, x, y, c=None):
        p = self.__p
        x = int(x)
        y = int(y)
        if 0 <= x < p.width and 0 <= y < p.height:
            if c is None:
                return self.__get(p, x, y)
            self.__set(p, x, y, int(c))
        return None

    def hline(self, x, y, w, c):
        self.__fill_rect(int(x), int(y), int(w), 1, int(c))

    def vline(self, x, y, h, c):
        self.__fill_rect(int(x), int(y), 1, int(h), int(c))

    def rect(self, x, y, w, h, c, f=False):
        x, y, w, h, c = int(x), int(y), int(w), int(h), int(c)
        if f:
            self.__fill_rect(x, y, w, h, c)
        else:
            self.__fill_rect(x, y, w, 1, c)
            self.__fill_rect(x, y + h - 1, w, 1, c)
            self.__fill_rect(x, y, 1, h, c)
            self.__fill_rect(x + w - 1, y, 1, h, c)

    def __line(self, x1, y1, x2, y2, c):
        p = self.__p
        setpixel = self.__set
        width, height = p.width, p.height
        dx = x2 - x1
        if dx > 0:
            sx = 1
        else:
            dx = -dx
            sx = -1
        dy = y2 - y1
        if dy > 0:
            sy = 1
        else:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                if 0 <= y1 < width and 0 <= x1 < height:
                    setpixel(p, y1, x1, c)
            elif 0 <= x1 < width and 0 <= y1 < height:
                setpixel(p, x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < width and 0 <= y2 < height:
            setpixel(p, x2, y2, c)

    def line(self, x1, y1, x2, y2, c):
        self.__line(int(x1), int(y1), int(x2), int(y2), int(c))

    def __ellipse_points(self, cx, cy, x, y, c, mask):
        if mask & 0x10:
            if mask & 1:
                self.__fill_rect(cx, cy - y, x + 1, 1, c)
            if mask & 2:
                self.__fill_rect(cx - x, cy - y, x + 1, 1, c)
            if mask & 4:
                self.__fill_rect(cx - x, cy + y, x + 1, 1, c)
            if mask & 8:
                self.__fill_rect(cx, cy + y, x + 1, 1, c)
        else:
            self.__setpixel_checked(cx + x, cy - y, c, mask & 1)
            self.__setpixel_checked(cx - x, cy - y, c, mask & 2)
            self.__setpixel_checked(cx - x, cy + y, c, mask & 4)
            self.__setpixel_checked(cx + x, cy + y, c, mask & 8)

    def ellipse(self, x, y, xr, yr, c, f=False, m=None):
        """Midpoint ellipse; ``m`` selects quadrants (bit 0 top right, then anticlockwise)."""
        cx, cy, xr, yr, c = int(x), int(y), int(xr), int(yr), int(c)
        mask = 0x10 if f else 0
        mask |= 0x0F if m is None else (int(m) & 0x0F)
        if xr == 0 and yr == 0:
            self.__setpixel_checked(cx, cy, c, mask & 0x0F)
            return
        two_asquare = 2 * xr * xr
        two_bsquare = 2 * yr * yr
        px = xr
        py = 0
        xchange = yr * yr * (1 - 2 * xr)
        ychange = xr * xr
        err = 0
        stoppingx = two_bsquare * xr
        stoppingy = 0
        while stoppingx >= stoppingy:
            self.__ellipse_points(cx, cy, px, py, c, mask)
            py += 1
            stoppingy += two_asquare
            err += ychange
            ychange += two_asquare
            if 2 * err + xchange > 0:
                px -= 1
                stoppingx -= two_bsquare
                err += xchange
                xchange += two_bsquare
        px = 0
        py = yr
        xchange = yr * yr
        ychange = xr * xr * (1 - 2 * yr)
        err = 0
        stoppingx = 0
        stoppingy = two_asquare * yr
        while stoppingx <= stoppingy:
            self.__ellipse_points(cx, cy, px, py, c, mask)
            px += 1
            stoppingx += two_bsquare
            err += xchange
            xchange += two_bsquare
            if 2 * err + ychange > 0:
                py -= 1
                stoppingy -= two_asquare
                err += ychange
                ychange += two_asquare

    def poly(self, x, y, coords, c, f=False):
        """Polygon through the (x, y) pairs in ``coords`` (an array('h', ...) or similar),
        offset by x, y; filled if ``f``."""
        x, y, c = int(x), int(y), int(c)
        try:
            pts = memoryview(coords).tolist()
        except TypeError:
            pts = list(coords)
        pts = [int(v) for v in pts]
        n = len(pts) // 2
        if n == 0:
            return
        if f:
            ys = pts[1:2 * n:2]
            for row in range(min(ys), max(ys) + 1):
                nodes = []
                px1, py1 = pts[0], pts[1]
                i = n * 2 - 1
                while True:
                    py2 = pts[i]
                    px2 = pts[i - 1]
                    i -= 2
                    if py1 != py2 and ((py1 > row >= py2) or (py1 <= row < py2)):
                        nodes.append(_cdiv(32 * px1 + _cdiv(32 * (px2 - px1) * (row - py1),
                                                            py2 - py1) + 16, 32))
                    elif row == max(py1, py2):
                        if py1 < py2:
                            self.__setpixel_checked(x + px2, y + py2, c)
                        elif py2 < py1:
                            self.__setpixel_checked(x + px1, y + py1, c)
                        else:
                            self.__line(x + px1, y + py1, x + px2, y + py2, c)
                    px1, py1 = px2, py2
                    if i < 0:
                        break
                if not nodes:
                    continue
                nodes.sort()
                for k in range(0, len(nodes) - 1, 2):
                    self.__fill_rect(x + nodes[k], y + row, nodes[k + 1] - nodes[k] + 1, 1, c)
        else:
            px1, py1 = pts[0], pts[1]
            i = n * 2 - 1
            while True:
                py2 = pts[i]
                px2 = pts[i - 1]
                i -= 2
                self.__line(x + px1, y + py1, x + px2, y + py2, c)
                px1, py1 = px2, py2
                if i < 0:
                    break

    def blit(self, fbuf, x, y, key=-1, palette=None):
        """Draw another FrameBuffer (or a (buffer, w, h, format[, stride]) tuple) at x, y.
        Pixels equal to ``key`` are skipped; ``palette`` maps source colours."""
        src = _plane_of(fbuf)
        pal = None if palette is None else _plane_of(palette)
        p = self.__p
        x, y = int(x), int(y)
        key = int(key) & 0xFFFFFFFF
        if x >= p.width or y >= p.height or -x >= src.width or -y >= src.height:
            return
        get = _ACCESS[src.fmt][1]
        setpixel = self.__set
        pget = _ACCESS[pal.fmt][1] if pal is not None else None
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = max(0, -x)
        y1 = max(0, -y)
        x0end = min(p.width, x + src.width)
        y0end = min(p.height, y + src.height)
        while y0 < y0end:
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = get(src, cx1, y1)
                if pal is not None:
                    col = pget(pal, col, 0)
                if col != key:
                    setpixel(p, cx0, y0, col)
                cx1 += 1
            y0 += 1
            y1 += 1

    def scroll(self, xstep, ystep):
        p = self.__p
        xstep, ystep = int(xstep), int(ystep)
        get, setpixel = self.__get, self.__set
        if xstep < 0:
            sx = 0
            xend = p.width + xstep
            if xend <= 0:
                return
            dx = 1
        else:
            sx = p.width - 1
            xend = xstep - 1
            if xend >= sx:
                return
            dx = -1
        if ystep < 0:
            yy = 0
            yend = p.height + ystep
            if yend <= 0:
                return
            dy = 1
        else:
            yy = p.height - 1
            yend = ystep - 1
            if yend >= yy:
                return
            dy = -1
        xs = range(sx, xend, dx)
        while yy != yend:
            for xx in xs:
                setpixel(p, xx, yy, get(p, xx - xstep, yy - ystep))
            yy += dy

    def text(self, s, x, y, c=1):
        """Draw ``s`` in MicroPython's 8x8 font, top left at x, y. Each byte of the UTF-8
        text is one 8-pixel cell; bytes outside 32..127 draw glyph 127."""
        p = self.__p
        x0, y0, c = int(x), int(y), int(c)
        data = s.encode() if isinstance(s, str) else bytes(s)
        width, height = p.width, p.height
        fast = p.fmt == MONO_VLSB
        if fast:
            buf, stride = p.buf, p.stride
            # rows of the cell that exist: clip the glyph column to the frame
            if y0 >= height or y0 <= -8:
                return
            if y0 < 0:
                shift, lo = 0, -y0
            else:
                shift, lo = y0 & 7, 0
            rows = min(8, height - y0)
            keep = ((1 << rows) - 1) & ~((1 << lo) - 1)
            page = y0 >> 3 if y0 >= 0 else 0
            idx0 = page * stride
            idx1 = idx0 + stride if (page + 1) * 8 < height else -1
        setpixel = self.__set
        for ch in data:
            if ch < 32 or ch > 127:
                ch = 127
            base = (ch - 32) * 8
            for j in range(8):
                if 0 <= x0 < width:
                    col = _FONT[base + j]
                    if fast:
                        col &= keep
                        if col:
                            if y0 < 0:
                                v = col >> lo
                            else:
                                v = col << shift
                            lo_b = v & 0xFF
                            hi_b = v >> 8
                            if c:
                                if lo_b:
                                    buf[idx0 + x0] |= lo_b
                                if hi_b and idx1 >= 0:
                                    buf[idx1 + x0] |= hi_b
                            else:
                                if lo_b:
                                    buf[idx0 + x0] &= ~lo_b & 0xFF
                                if hi_b and idx1 >= 0:
                                    buf[idx1 + x0] &= ~hi_b & 0xFF
                    else:
                        yy = y0
                        while col:
                            if col & 1 and 0 <= yy < height:
                                setpixel(p, x0, yy, c)
                            col >>= 1
                            yy += 1
                x0 += 1


def _plane_of(obj):
    if isinstance(obj, tuple):
        return _make_plane(obj[0], int(obj[1]), int(obj[2]), int(obj[3]),
                           int(obj[4]) if len(obj) > 4 else None)
    try:
        return obj._FrameBuffer__p
    except AttributeError:
        raise TypeError("FrameBuffer or tuple expected") from None


def FrameBuffer1(buffer, width, height, stride=None):  # noqa: N802 (MicroPython's name)
    """The legacy MONO_VLSB constructor."""
    return FrameBuffer(buffer, width, height, MONO_VLSB, width if stride is None else stride)
