"""Drawing helpers for the 128x64 screen: text placement, big digits, bars, a list menu.

The built-in font is 8x8, so the screen holds 16 columns by 8 rows of text. Numbers
that matter are drawn 2x or 3x with `big`, so they read from across the table.
"""

import framebuf

W = 128
H = 64
CHAR = 8
COLS = W // CHAR  # 16
ROWS = H // CHAR  # 8

# One glyph, drawn once into this scratch buffer and scaled up by `big`.
_glyph_buf = bytearray(8)
_glyph = framebuf.FrameBuffer(_glyph_buf, 8, 8, framebuf.MONO_VLSB)


def center(fb, s, y, c=1):
    fb.text(s, (W - len(s) * CHAR) // 2, y, c)


def center_in(fb, s, x0, width, y, c=1):
    fb.text(s, x0 + (width - len(s) * CHAR) // 2, y, c)


def right(fb, s, y, c=1, margin=0):
    fb.text(s, W - len(s) * CHAR - margin, y, c)


def bar(fb, left, y=0, right_text=""):
    """An inverted full-width row: titles and the status line."""
    fb.fill_rect(0, y, W, CHAR, 1)
    room = COLS - len(right_text) - 1 if right_text else COLS  # a space between the two
    fb.text(left[:room], 0, y, 0)
    if right_text:
        fb.text(right_text, W - len(right_text) * CHAR, y, 0)


def big_width(s, scale):
    return len(s) * CHAR * scale


def big(fb, s, x, y, scale=2, c=1):
    """Text at `scale` times the font size (2: 16 px tall, 3: 24 px)."""
    for ch in s:
        _glyph.fill(0)
        _glyph.text(ch, 0, 0, 1)
        for gx in range(8):
            column = _glyph_buf[gx]
            if not column:
                continue
            gy = 0
            while gy < 8:
                if column & (1 << gy):
                    run = 1
                    while gy + run < 8 and column & (1 << (gy + run)):
                        run += 1
                    fb.fill_rect(x + gx * scale, y + gy * scale, scale, run * scale, c)
                    gy += run
                else:
                    gy += 1
        x += CHAR * scale


def big_center(fb, s, y, scale=2, c=1, x0=0, width=W):
    big(fb, s, x0 + (width - big_width(s, scale)) // 2, y, scale, c)


def wrap(text, cols=COLS):
    """Split text into lines of at most `cols` characters, at spaces where possible."""
    lines = []
    for para in text.split("\n"):
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


def box(fb, x, y, w, h, text_lines):
    """A framed box with centred lines: pop-ups and refusals."""
    fb.fill_rect(x, y, w, h, 0)
    fb.rect(x, y, w, h, 1)
    top = y + (h - len(text_lines) * 9) // 2 + 1
    for i, line in enumerate(text_lines):
        fb.text(line, x + (w - len(line) * CHAR) // 2, top + i * 9, 1)


class Menu:
    """A scrolling list with one selected row (the selected row is drawn inverted)."""

    def __init__(self, items, index=0):
        self.items = items  # labels (str)
        self.index = index
        self.top = 0

    def move(self, step):
        if self.items:
            self.index = (self.index + step) % len(self.items)

    def selected(self):
        return self.index

    def draw(self, fb, y=CHAR, rows=ROWS - 1):
        if self.index < self.top:
            self.top = self.index
        elif self.index >= self.top + rows:
            self.top = self.index - rows + 1
        for row in range(rows):
            i = self.top + row
            if i >= len(self.items):
                break
            label = self.items[i][:COLS - 1]
            yy = y + row * CHAR
            if i == self.index:
                fb.fill_rect(0, yy, W, CHAR, 1)
                fb.text(">" + label, 0, yy, 0)
            else:
                fb.text(" " + label, 0, yy, 1)
        if len(self.items) > rows:  # a scroll mark on the right edge
            span = rows * CHAR
            h = max(3, span * rows // len(self.items))
            pos = y + (span - h) * self.top // max(1, len(self.items) - rows)
            fb.vline(W - 1, pos, h, 1)
