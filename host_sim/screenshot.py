"""Pictures of the 128x64 screen: PNG files that look like the OLED, and text.

Both take any of: an ``SSD1306Emulator`` (what the panel shows, with its contrast),
a MONO_VLSB frame buffer (bytes/bytearray of 1,024, or an object with a ``buffer``
attribute such as the firmware's driver), or rows of pixels (a list of 64 lists of
128 ints).

    save_png(emu, "home.png")                  # 4x, light blue on black, pixel gaps
    print(to_text(emu))                        # 32 lines of half-block characters
"""

WIDTH = 128
HEIGHT = 64

# Light blue of the common modules' lit pixels, and the panel's black.
OLED_BLUE = (120, 200, 255)
OLED_WHITE = (235, 245, 255)
PANEL_BLACK = (0, 0, 0)


def _rows(source, width=WIDTH, height=HEIGHT):
    """Rows of 0/1 ints from any accepted source."""
    if hasattr(source, "pixels") and callable(source.pixels):
        return source.pixels()
    if hasattr(source, "buffer") and not isinstance(source, (bytes, bytearray, memoryview)):
        source = source.buffer
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        if len(data) < width * ((height + 7) // 8):
            raise ValueError("a %dx%d MONO_VLSB buffer needs %d bytes"
                             % (width, height, width * ((height + 7) // 8)))
        return [[(data[(y >> 3) * width + x] >> (y & 7)) & 1 for x in range(width)]
                for y in range(height)]
    rows = [list(r) for r in source]
    return [[1 if v else 0 for v in r] for r in rows]


def _brightness(source):
    """0..1 from the emulator's contrast (others: full)."""
    contrast = getattr(source, "contrast", None)
    if isinstance(contrast, int):
        return 0.35 + 0.65 * (contrast / 255)
    return 1.0


def render(source, scale=4, color=OLED_BLUE, background=PANEL_BLACK, gap=True,
           border=0, dim_with_contrast=True):
    """A Pillow RGB image of the screen. ``gap`` leaves a dark line between pixels
    (when scale >= 3); ``border`` adds black margin (in screen pixels)."""
    from PIL import Image, ImageChops, ImageDraw  # noqa: PLC0415

    rows = _rows(source)
    h = len(rows)
    w = len(rows[0]) if rows else 0
    if dim_with_contrast:
        k = _brightness(source)
        color = tuple(int(c * k) for c in color)
    mask = Image.new("L", (w, h))
    mask.putdata([255 if v else 0 for row in rows for v in row])
    size = (w * scale, h * scale)
    mask = mask.resize(size, Image.NEAREST)
    if gap and scale >= 3:  # dark line after each pixel, right and bottom
        grid = Image.new("L", size, 255)
        draw = ImageDraw.Draw(grid)
        for x in range(scale - 1, size[0], scale):
            draw.line((x, 0, x, size[1] - 1), fill=0)
        for y in range(scale - 1, size[1], scale):
            draw.line((0, y, size[0] - 1, y), fill=0)
        mask = ImageChops.multiply(mask, grid)
    pad = border * scale
    img = Image.new("RGB", (size[0] + 2 * pad, size[1] + 2 * pad), background)
    img.paste(Image.new("RGB", size, color), (pad, pad), mask)
    return img


def save_png(source, path, scale=4, **kw):
    """Write the screen as a PNG (see ``render`` for the options); returns path."""
    render(source, scale=scale, **kw).save(path, format="PNG")
    return path


_HALF = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}


def to_text(source, frame=True, invert=False):
    """The screen as text: one character per pixel column and two pixel rows
    (upper and lower half blocks), 32 lines of 128 characters; ``frame`` draws a
    box around it."""
    rows = _rows(source)
    if invert:
        rows = [[1 - v for v in r] for r in rows]
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))
    w = len(rows[0]) if rows else 0
    lines = []
    for y in range(0, len(rows), 2):
        top, bottom = rows[y], rows[y + 1]
        lines.append("".join(_HALF[(top[x], bottom[x])] for x in range(w)))
    if frame:
        lines = ["\u250c" + "\u2500" * w + "\u2510"] + ["\u2502" + ln + "\u2502" for ln in lines] \
            + ["\u2514" + "\u2500" * w + "\u2518"]
    return "\n".join(lines)
