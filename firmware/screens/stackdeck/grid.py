"""Stack the Deck: the totals of a table of four, in a 2 x 2 grid (a row of 14 px
cannot hold 16 px digits with a gap): the name on top, the total large under it,
the mark (D, >, a rank) after the name when it fits, else beside the total, and "out"
beside the total; a line between the cells, so a mark is read with its own player.
Loaded only at four players."""

from firmware import ui


def draw_grid(fb, rows):
    """rows: (mark, name, sub, short, big number text, inverted), as view.draw_rows."""
    fb.vline(63, 9, 55, 1)  # the cells apart: a mark belongs to the total beside it
    fb.hline(0, 36, ui.W, 1)
    for i in range(4):
        mark, who, _, short, number, inverted = rows[i]
        x = 0 if i % 2 == 0 else 65
        y = 8 + (i // 2) * 28
        ink = 1
        if inverted:
            fb.fill_rect(x, y, 62, 28, 1)
            ink = 0
        if mark and len(who) + 2 <= 10:  # the mark by the name: "CY >", "BOB D"
            who = who + " " + mark
            mark = ""
        ui.text(fb, who[:10], x + 1, y + 2, ink)
        ui.big(fb, number, x + 1, y + 11, 2, ink)
        room = 62 - ui.big_width(number, 2) - 3  # pixels right of the number
        sx = x + 63 - 1
        for j, word in ((0, mark), (1, short)):
            if word and len(word) * ui.CHAR <= room:
                ui.text(fb, word, sx - len(word) * ui.CHAR + 1, y + 11 + 9 * j, ink)
