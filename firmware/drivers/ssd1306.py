# The project's SSD1306 OLED driver (128x64 by default) for MicroPython 1.27+ and for
# CPython with host_sim's framebuf installed as `framebuf`.
#
# The driver is a framebuf.FrameBuffer (MONO_VLSB): draw on it, then show(). show()
# keeps a copy of what the panel already holds and sends only the changed columns of
# the changed pages (8-pixel rows), through the controller's column and page window
# (0x21/0x22, horizontal addressing); adjacent pages share a window when that is
# cheaper. show(full=True) sends everything. All buffers are allocated in __init__;
# show() allocates nothing on MicroPython.
#
# Transport seam: a subclass provides write_cmd(cmd) (one command byte) and
# write_data(buf) (GDDRAM bytes), and may override write_cmds(buf) to send several
# command bytes at once. SSD1306_I2C is the I2C transport.

import framebuf

try:
    from micropython import const
except ImportError:  # CPython without the micropython shim

    def const(x):
        return x


_SET_CONTRAST = const(0x81)
_SET_ENTIRE_ON = const(0xA4)
_SET_NORM_INV = const(0xA6)
_SET_DISP = const(0xAE)
_SET_MEM_ADDR = const(0x20)
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_SET_DISP_START_LINE = const(0x40)
_SET_SEG_REMAP = const(0xA0)
_SET_MUX_RATIO = const(0xA8)
_SET_COM_OUT_DIR = const(0xC0)
_SET_DISP_OFFSET = const(0xD3)
_SET_COM_PIN_CFG = const(0xDA)
_SET_DISP_CLK_DIV = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_VCOM_DESEL = const(0xDB)
_SET_CHARGE_PUMP = const(0x8D)


class SSD1306(framebuf.FrameBuffer):
    """Frame buffer plus panel control; subclasses supply the transport."""

    # Bytes a transport sends in front of a run of GDDRAM bytes in the same transaction
    # (the I2C control byte): the driver's views of its buffers start that much early.
    _LEAD = 0

    def __init__(self, width=128, height=64, external_vcc=False):
        self.width = width
        self.height = height
        self.external_vcc = external_vcc
        self.pages = pages = height // 8
        # The frame with one byte in front of it (raw[0]): a run of pages is sent with
        # its control byte in the byte before it (borrowed for the send, then put back),
        # so no copy of the frame is needed for the transport.
        self._raw = raw = memoryview(bytearray(1 + pages * width))
        self.buffer = buf = raw[1:]
        super().__init__(buf, width, height, framebuf.MONO_VLSB)
        # What the panel holds (after the last show()); compared page by page.
        self._shadow = bytearray(pages * width)
        shadow = memoryview(self._shadow)
        # One view per run of pages p0..p1 (in the order p0, then p1 >= p0), so that
        # sending a run needs no slicing (a memoryview slice is an allocation on MicroPython).
        lead = self._LEAD
        self._runs = [raw[1 + p0 * width - lead:1 + (p1 + 1) * width]
                      for p0 in range(pages) for p1 in range(p0, pages)]
        # Column window: narrow panels sit in the middle of the 128 columns.
        self._col0 = (128 - width) // 2 if width < 128 else 0
        # 0x21 c0 c1 0x22 p0 p1 (show), or two commands (contrast, flip)
        self._win = bytearray(6)
        self._win2 = memoryview(self._win)[:2]  # two commands: dimming allocates nothing
        # The send plan's buffers (see show()), one attribute: per page the changed
        # columns lo..hi and the gap split..split_end (split = width: none); the best
        # cost and its last group per run of pages; the groups to send; each page of
        # the frame and of what the panel holds.
        self._plan = (bytearray(pages), bytearray(pages), bytearray(pages), bytearray(pages),
                      [0] * (pages + 1), [0] * (pages + 1), bytearray(pages), bytearray(pages),
                      [buf[p * width:(p + 1) * width] for p in range(pages)],
                      [shadow[p * width:(p + 1) * width] for p in range(pages)])
        # Staging for narrow windows: byte 0 is the control byte 0x40, bytes 1..w one
        # page's columns; a ready view for each window width (multiples of 8, and the
        # panel's width), indexed by (w + 7) // 8 (17 slots on a 128-wide panel).
        self._stage = bytearray(1 + width)
        self._stage[0] = 0x40
        stage = memoryview(self._stage)
        self._stage_views = [stage[1 - lead:1 + w] if w else None
                             for w in range(0, width + 8, 8)]
        if width % 8:
            self._stage_views[(width + 7) // 8] = stage[1 - lead:1 + width]
        self.flipped = False
        self.init_display()

    # -- transport seam ----------------------------------------------------------------
    def write_cmd(self, c):
        """One command byte."""
        raise NotImplementedError

    def write_data(self, buf):
        raise NotImplementedError

    def write_cmds(self, buf):
        """Send several command bytes; a transport may do it in one transaction."""
        for c in buf:
            self.write_cmd(c)

    # -- panel control -----------------------------------------------------------------
    def init_display(self):
        """The standard power-up sequence, then a blank frame."""
        self.write_cmds(
            bytes(
                (
                    _SET_DISP,  # display off while configuring
                    _SET_MEM_ADDR, 0x00,  # horizontal addressing
                    _SET_DISP_START_LINE | 0x00,
                    _SET_SEG_REMAP | 0x01,  # column 127 -> SEG0 (upright)
                    _SET_MUX_RATIO, self.height - 1,
                    _SET_COM_OUT_DIR | 0x08,  # scan COM[N-1] -> COM0 (upright)
                    _SET_DISP_OFFSET, 0x00,
                    _SET_COM_PIN_CFG, 0x02 if self.width > 2 * self.height else 0x12,
                    _SET_DISP_CLK_DIV, 0x80,
                    _SET_PRECHARGE, 0x22 if self.external_vcc else 0xF1,
                    _SET_VCOM_DESEL, 0x30,  # 0.83 x Vcc
                    _SET_CONTRAST, 0xFF,
                    _SET_ENTIRE_ON,  # follow RAM
                    _SET_NORM_INV,  # not inverted
                    _SET_CHARGE_PUMP, 0x10 if self.external_vcc else 0x14,
                    _SET_DISP | 0x01,  # display on
                )
            )
        )
        self.flipped = False
        self.fill(0)
        self.show(True)

    def poweroff(self):
        """Power save: the panel goes dark, GDDRAM is kept."""
        self.write_cmd(_SET_DISP)

    def poweron(self):
        self.write_cmd(_SET_DISP | 0x01)

    def contrast(self, contrast):
        """Brightness, 0..255."""
        win = self._win  # free between frames
        win[0] = _SET_CONTRAST
        win[1] = contrast & 0xFF
        self.write_cmds(self._win2)

    def invert(self, invert):
        self.write_cmd(_SET_NORM_INV | (1 if invert else 0))

    def flip(self, flipped=True):
        """Turn the picture by 180 degrees (segment remap and COM scan direction).
        The segment remap applies to data written afterwards, so the whole frame is
        sent again."""
        flipped = bool(flipped)
        win = self._win
        win[0] = _SET_SEG_REMAP | (0 if flipped else 1)
        win[1] = _SET_COM_OUT_DIR | (0 if flipped else 0x08)
        self.write_cmds(self._win2)
        self.flipped = flipped
        self.show(True)

    # -- frames ------------------------------------------------------------------------
    def show(self, full=False):
        """Send what changed since the last show() (everything if full).

        Per page (8-pixel row) the changed columns lo..hi are found; the window is
        widened to a multiple of 8 columns (the transport has a ready buffer for each
        such width, so nothing is allocated). Adjacent changed pages share one window
        when that costs fewer bytes than a window each: the plan with the fewest I2C
        bytes is chosen (a small dynamic programme over the pages). A window is one
        command transaction (0x21 c0 c1 0x22 p0 p1, 7 bytes); its data goes as one
        transaction when the window is full width, else one per page. The width of
        the window for changed columns a..b is min((b - a + 8) & ~7, width)."""
        pages = self.pages
        width = self.width
        lo, hi, split, split_end, best, back, starts, ends, page, shadow = self._plan
        changed = 0
        for p in range(pages):
            a = page[p]
            b = shadow[p]
            if full:
                lo[p] = 0
                hi[p] = width - 1
                split[p] = width
            elif a == b:
                lo[p] = width  # nothing
                continue
            else:
                i = 0
                while a[i] == b[i]:
                    i += 1
                j = width - 1
                while a[j] == b[j]:
                    j -= 1
                lo[p] = i
                hi[p] = j
                # The longest run of unchanged columns inside i..j: two windows
                # around it may cost less than one across it (a title bar's two ends).
                split[p] = width
                gap = 0
                best_gap = 0
                gap_end = 0
                for k in range(i + 1, j):
                    if a[k] == b[k]:
                        gap += 1
                        if gap > best_gap:
                            best_gap = gap
                            gap_end = k
                    else:
                        gap = 0
                if best_gap > 8:
                    g0 = gap_end - best_gap + 1  # first unchanged column
                    if min((g0 - i + 7) & ~7, width) + min((j - gap_end + 7) & ~7, width) + 8 \
                            < min((j - i + 8) & ~7, width):
                        split[p] = g0
                        split_end[p] = gap_end + 1  # first changed column after the gap
            b[:] = a
            changed += 1
        if not changed:
            return
        # best[i]: fewest bytes for pages 0..i-1; back[i]: where its last group starts
        # (-1: page i-1 is unchanged and skipped).
        best[0] = 0
        for i in range(1, pages + 1):
            best[i] = -1
            p = i - 1
            if lo[p] >= width:
                best[i] = best[p]
                back[i] = -1
                continue
            if split[p] < width:  # alone, a split page goes as two windows
                best[i] = best[p] + 16 + min((split[p] - lo[p] + 7) & ~7, width) + \
                    min((hi[p] - split_end[p] + 8) & ~7, width) if best[p] >= 0 else -1
                back[i] = p
            g_lo = width
            g_hi = 0
            for j in range(p, -1, -1):  # group j..i-1 (in a group a page goes whole)
                if lo[j] < width:
                    if lo[j] < g_lo:
                        g_lo = lo[j]
                    if hi[j] > g_hi:
                        g_hi = hi[j]
                    if best[j] >= 0:
                        w = min((g_hi - g_lo + 8) & ~7, width)
                        k = i - j  # pages in the group
                        cost = best[j] + (8 + k * w if w == width else 7 + k * (1 + w))
                        if best[i] < 0 or cost < best[i]:
                            best[i] = cost
                            back[i] = j
        # Walk the plan back, then send the groups from the top.
        n = 0
        i = pages
        while i > 0:
            if back[i] < 0:
                i -= 1
            else:
                starts[n] = back[i]
                ends[n] = i - 1
                n += 1
                i = back[i]
        while n > 0:
            n -= 1
            p = starts[n]
            k = ends[n]
            if p == k and split[p] < width:  # one page, two windows around its gap
                self._send_window(p, p, lo[p], split[p] - 1)
                self._send_window(p, p, split_end[p], hi[p])
                continue
            g_lo = width
            g_hi = 0
            for j in range(p, k + 1):
                if lo[j] < width:
                    if lo[j] < g_lo:
                        g_lo = lo[j]
                    if hi[j] > g_hi:
                        g_hi = hi[j]
            self._send_window(p, k, g_lo, g_hi)

    def _send_window(self, p, k, a, b):
        """Pages p..k, changed columns a..b: the window (it starts at a, or ends at the
        right edge if that is nearer), then its data."""
        width = self.width
        w = min((b - a + 8) & ~7, width)
        c0 = a if a + w <= width else width - w
        win = self._win
        win[0] = _SET_COL_ADDR
        win[3] = _SET_PAGE_ADDR
        win[1] = self._col0 + c0
        win[2] = self._col0 + c0 + w - 1
        win[4] = p
        win[5] = k
        self.write_cmds(win)
        if w == width:
            self._send(self._raw, p * width, self._runs[p * (2 * self.pages + 1 - p) // 2 + k - p])
            return
        buf = self.buffer
        stage = self._stage
        view = self._stage_views[(w + 7) // 8]
        for p in range(p, k + 1):
            j = p * width + c0
            for x in range(1, w + 1):
                stage[x] = buf[j]
                j += 1
            self._send(stage, 0, view)

    def _send(self, buf, k, view):
        """Send GDDRAM bytes: `view` (a run of whole pages of the frame, or the stage's
        bytes), which starts _LEAD bytes early, at buf[k]."""
        self.write_data(view)


class SSD1306_I2C(SSD1306):
    """SSD1306 on I2C: every command and data write is one i2c.writeto()."""

    _LEAD = 1  # the control byte [0x40] (Co=0, D/C#=1) in front of GDDRAM bytes

    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        self.i2c = i2c
        self.addr = addr
        # [0x80, cmd]: one command; [0x00, cmd...]: control byte Co=0, D/C#=0, the rest
        # of the transaction is command bytes (the 6-byte window before each run of
        # pages), and its 2-command view.
        one = bytearray(2)
        one[0] = 0x80
        cmds = memoryview(bytearray(7))
        self._ctl = (one, cmds, cmds[:3])
        super().__init__(width, height, external_vcc)

    def write_cmd(self, c):
        one = self._ctl[0]
        one[1] = c
        self.i2c.writeto(self.addr, one)

    def write_cmds(self, buf):
        n = len(buf)
        if n == 6 or n == 2:
            ctl = self._ctl
            ctl[1][1:n + 1] = buf
            self.i2c.writeto(self.addr, ctl[1] if n == 6 else ctl[2])
        else:  # init: allocation is fine here
            self.i2c.writeto(self.addr, b"\x00" + bytes(buf))

    def _send(self, buf, k, view):
        # buf[k], the byte before the view's data, is the control byte for the send
        # (a page's neighbour in the frame, put back after; the stage's is 0x40 anyway)
        keep = buf[k]
        buf[k] = 0x40
        self.i2c.writeto(self.addr, view)
        buf[k] = keep

    def write_data(self, buf):
        """GDDRAM bytes in one transaction (show() does not come here: it sends from
        views that already hold the control byte)."""
        self.i2c.writeto(self.addr, b"\x40" + bytes(buf))
