"""Drawing helpers for the 128x64 screen: text, large digits, bars, boxes, a list menu.

Text is the project's 6x8 font (firmware/drivers/font6x8.py): 21 columns by 8 rows, drawn
with `text(fb, s, x, y, c)` (never fb.text, whose built-in font is 8x8). Numbers that
matter are drawn with `big`: a number (digits, + - and spaces) in the large digit font
(firmware/drivers/digits.py: 10x16 at scale 2, 14x24 at scale 3, 20x32 at scale 4, no
slashed zero); any other big text (a card, a name) is the 6x8 font scaled up.

Glyphs are copied with framebuf.blit from font strips allocated once at import. A
string is drawn from its bytes (s.encode(), one small temporary): on MicroPython,
iterating or indexing a str makes each character a name (qstr) that is never freed,
so drawing the characters of a screen would add up to 79 names to every session.
A character beyond ASCII is its lead byte (the placeholder glyph); the bytes that
continue it are skipped. The bytes 1..4 are the suit pips (heart, diamond, club,
spade): "7\x01" is a seven of hearts in small text.
"""

import framebuf

from firmware.drivers.digits import CHARS, SIZES
from firmware.drivers.font6x8 import COUNT, FONT

W = 128
H = 64
CHAR = 6  # text advance (5 pixels of glyph, 1 blank)
LINE = 8  # text row height
COLS = W // CHAR  # 21
ROWS = H // LINE  # 8

_N = COUNT
# ASCII byte -> its glyph in the digit font (255: none) (chr() would make each
# character a name).
_DIGIT = bytes(CHARS.encode().find(bytes((c,))) & 255 for c in range(128))
# The whole font as one MONO_VLSB strip, glyph i at x = 6 * i.
_font_buf = bytearray(FONT)
_font_fb = framebuf.FrameBuffer(_font_buf, CHAR * _N, 8, framebuf.MONO_VLSB)
# One glyph cell: cut out of the strip (blit clips to it), then blitted with a key.
# (A FrameBuffer keeps its buffer alive.)
_cell = framebuf.FrameBuffer(bytearray(CHAR), CHAR, 8, framebuf.MONO_VLSB)
# Palette for dark text on a lit background: glyph 1 -> 0, background 0 -> 1 (the key).
_inv = framebuf.FrameBuffer(bytearray(1), 2, 1, framebuf.MONO_HLSB)
_inv.pixel(0, 0, 1)
_inv.pixel(1, 0, 0)


def text(fb, s, x, y, c=1):
    """`s` in the 6x8 font, top left at x, y, in colour c (0 on a lit background)."""
    if y <= -LINE or y >= H or x >= W:
        return
    cell = _cell
    strip = _font_fb
    for i in s.encode():
        if 0x80 <= i < 0xC0:
            continue  # the rest of a character beyond ASCII
        if x > -CHAR:
            i -= 32
            if i < 0 or i >= _N - 5:
                # bytes 1..4: the suit pips, the font's last four glyphs; else DEL's box
                i = i + _N + 27 if -32 < i < -27 else _N - 5
            cell.blit(strip, -CHAR * i, 0)
            if c:
                fb.blit(cell, x, y, 0)
            else:
                fb.blit(cell, x, y, 1, _inv)
        x += CHAR
        if x >= W:
            return


def width(s):
    """Pixels taken by `s` in the text font (its last blank column included)."""
    return len(s) * CHAR


def fits(s, room=W):
    """True when `s` fits in `room` pixels (the last glyph's blank column may hang out)."""
    return len(s) * CHAR - 1 <= room


def center(fb, s, y, c=1):
    text(fb, s, (W - len(s) * CHAR + 1) // 2, y, c)


def center_in(fb, s, x0, width, y, c=1):
    text(fb, s, x0 + (width - len(s) * CHAR + 1) // 2, y, c)


def right(fb, s, y, c=1, margin=0):
    text(fb, s, W - len(s) * CHAR + 1 - margin, y, c)


def bar(fb, left, y=0, right_text=""):
    """An inverted full-width row: titles and the status line. The left text is cut
    to leave a space before the right-hand text."""
    fb.fill_rect(0, y, W, LINE, 1)
    room = COLS - len(right_text) - 1 if right_text else COLS
    text(fb, left[:room], 1, y, 0)
    if right_text:
        right(fb, right_text, y, 0, 1)


# -- large digits ------------------------------------------------------------------------
# scale -> (height, glyph width, gap after a digit, strip, cell): the strip holds the
# font of that size, the cell is where a glyph is cut out before it is blitted.
# scale 2: 16 px, 3: 24 px, 4: 32 px.
# (a comprehension: its names are its own, none a module global)
_BIG = {h // 8: (h, s[0], s[1],
                 framebuf.FrameBuffer(bytearray(s[2]), s[0] * len(CHARS), h,
                                     framebuf.MONO_VLSB),
                 framebuf.FrameBuffer(bytearray(s[0] * ((h + 7) // 8)), s[0], h, framebuf.MONO_VLSB))
        for h, s in SIZES.items()}

# The font modules' data now lives in the strips above: on MicroPython their modules
# (the glyph bytes, about 3.5 KB of heap on the unix port) are let go.
import sys  # noqa: E402

if sys.implementation.name == "micropython":
    from firmware.modules import forget_module
    forget_module("firmware.drivers.digits")
    forget_module("firmware.drivers.font6x8")
    del forget_module
del CHARS, SIZES, COUNT, FONT, sys


def _numeric(s):
    """True when every character of `s` is in the digit font (or a space)."""
    for ch in s.encode():
        if ch != 32 and (ch > 127 or _DIGIT[ch] == 255):
            return False
    return True


def big_height(scale):
    """Pixel height of `big` digits at `scale` (other text is 7 * scale, bottom-aligned
    with them)."""
    f = _BIG.get(scale)
    return f[0] if f else LINE * scale


def big_width(s, scale=2):
    """Pixels from the left of `s` to the right of its last glyph."""
    if not s:
        return 0
    f = _BIG.get(scale)
    if f is None or not _numeric(s):
        return len(s) * CHAR * scale - scale
    _, w, gap, _, _ = f
    spaces = s.count(" ")
    n = (len(s) - spaces) * (w + gap) + spaces * (w // 2)
    return n if s.endswith(" ") else n - gap


def big(fb, s, x, y, scale=2, c=1):
    """Large text, top left at x, y. A number (digits, + - and spaces) is drawn in the
    digit font: scale 2 is 16 px tall, 3 is 24, 4 is 32. Any other text is the 6x8
    font times `scale` (7 * scale tall), its bottom on the digits' bottom line. Scale 1
    is plain text."""
    if scale < 2:
        text(fb, s, x, y, c)
        return
    f = _BIG.get(scale)
    if f is not None and _numeric(s):
        _, w, gap, strip, cell = f
        for ch in s.encode():
            if ch == 32:
                x += w // 2
                continue
            cell.blit(strip, -w * _DIGIT[ch], 0)
            if c:
                fb.blit(cell, x, y, 0)
            else:
                fb.blit(cell, x, y, 1, _inv)
            x += w + gap
        return
    top = y + big_height(scale) - 7 * scale
    data = _font_buf
    for i in s.encode():
        if 0x80 <= i < 0xC0:
            continue
        i -= 32
        if i < 0 or i >= _N - 5:
            i = i + _N + 27 if -32 < i < -27 else _N - 5  # as in text()
        base = CHAR * i
        for gx in range(CHAR - 1):
            column = data[base + gx]
            gy = 0
            while column:
                if column & 1:
                    run = 1
                    column >>= 1
                    while column & 1:
                        run += 1
                        column >>= 1
                    fb.fill_rect(x + gx * scale, top + gy * scale, scale, run * scale, c)
                    gy += run
                else:
                    column >>= 1
                    gy += 1
        x += CHAR * scale


def big_center(fb, s, y, scale=2, c=1, x0=0, width=W):
    big(fb, s, x0 + (width - big_width(s, scale)) // 2, y, scale, c)


# -- blocks of text ----------------------------------------------------------------------
def wrap(s, cols=COLS):
    """Split text into lines of at most `cols` characters, at spaces where possible."""
    lines = []
    for para in s.split("\n"):
        line = ""
        for word in para.split(" "):
            while len(word) > cols:
                if line:
                    lines.append(line)
                    line = ""
                lines.append(word[:cols])
                word = word[cols:]
            if not line:
                line = word
            elif len(line) + 1 + len(word) <= cols:
                line += " " + word
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


BOX_COLS = (W - 4) // CHAR  # 20: text inside a full-width framed box


def box(fb, x, y, w, h, lines):
    """A framed box with centred lines: pop-ups and refusals."""
    fb.fill_rect(x, y, w, h, 0)
    fb.rect(x, y, w, h, 1)
    top = y + (h - len(lines) * 9) // 2 + 1
    for i, line in enumerate(lines):
        text(fb, line, x + (w - len(line) * CHAR + 1) // 2, top + i * 9, 1)


class Menu:
    """A scrolling list with one selected row, marked by an arrow at the left (a
    marker rather than an inverted row: moving the cursor changes a few columns, not
    two whole rows, so it costs few bytes on the bus). update() draws only what a
    press changed since draw(): the marker, the rows whose labels changed (new labels
    come as a new list, never changed in place)."""

    LABEL_COLS = COLS - 1  # 20: after the marker's column
    drawn = None  # the labels the last draw or update showed (None: none yet)

    def __init__(self, items, index=0):
        self.items = items  # labels (str)
        self.index = index
        self.top = 0

    def move(self, step):
        if self.items:
            self.index = (self.index + step) % len(self.items)

    def selected(self):
        return self.index

    def draw(self, fb, y=LINE, rows=ROWS - 1):
        if self.index < self.top:
            self.top = self.index
        elif self.index >= self.top + rows:
            self.top = self.index - rows + 1
        self.drawn = None  # every row
        self.update(fb, y, rows)
        if len(self.items) > rows:  # a scroll mark on the right edge
            span = rows * LINE
            h = max(3, span * rows // len(self.items))
            pos = y + (span - h) * self.top // max(1, len(self.items) - rows)
            fb.vline(W - 1, pos, h, 1)

    def update(self, fb, y=LINE, rows=ROWS - 1):
        """Over the last draw (same y, rows): the marker, and each row whose label
        changed, cleared and drawn again (the scroll mark, in the last column, stays).
        False, nothing drawn, when the list must be drawn whole: it scrolls, or the
        number of rows changed."""
        items = self.items
        was = self.drawn
        top = self.top
        if was is not None and (not items or len(was) != len(items) or
                                not top <= self.index < top + rows):
            return False
        fb.fill_rect(0, y, CHAR, rows * LINE, 0)
        if self.index < len(items):
            marker(fb, 0, y + (self.index - top) * LINE)
        for i in range(top, min(top + rows, len(items))):
            if was is None or was[i] != items[i]:
                yy = y + (i - top) * LINE
                if was is not None:  # (draw: on a cleared frame)
                    fb.fill_rect(CHAR, yy, W - 1 - CHAR, LINE, 0)
                text(fb, items[i][:self.LABEL_COLS], CHAR, yy, 1)
        self.drawn = items
        return True


def marker(fb, x, y, c=1):
    """A solid arrow pointing right, 4x7, in a text cell: the selected row."""
    for k in range(4):
        fb.vline(x + k, y + k, 7 - 2 * k, c)
