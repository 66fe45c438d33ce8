"""Stack the Deck: what the screens share: player names, the rows of totals in large
digits (scoreboard and final standings) at 2, 3 and 4 players, a card and a stack in
words ("1-2-3 Blue", "4 Red 5 Blue": never a colour letter beside a digit, "1B"
reads "18"), (a stack and an entry line in words, and the checker's verdict, are in
stack.py: only a round with named stacks loads them). The stack checker
(core.stackdeck.stacks) is imported only where a stack is shown: a match entered by
counters never loads it.
"""

from firmware import ui


def name(app, p):
    """Player p's name from the settings (1-based; up to 10 characters)."""
    return app.settings.player_name(p)


def signed(n):
    return "+%d" % n if n > 0 else "%d" % n


def draw_rows(fb, rows):
    """One row per player: (mark, name, sub, short, big number text, inverted).
    Up to 3 players, a row each below the title bar: "mark name" and under it (or
    after it) `sub`, the number large at the right, scale 3 when the row is tall (2
    players) and the widest number leaves room for the longest left text, else
    scale 2. At 4 players a row of 14 px cannot hold 16 px digits with a gap, so the
    players sit in a 2 x 2 grid: the name on top, the number large under it and
    `mark` and `short` in small text beside the number (each only where it fits)."""
    n = len(rows)
    if n == 4:  # a module of its own: only a table of four loads it
        from firmware.screens.stackdeck.grid import draw_grid
        draw_grid(fb, rows)
        return
    h = (ui.H - 8) // n
    widest = max([ui.big_width(r[4], 3) for r in rows])
    longest = max([len(r[0]) + 1 + len(r[1]) for r in rows])
    scale = 3 if h >= 26 and (ui.W - widest - 4) // ui.CHAR >= longest else 2
    for i in range(n):
        mark, who, sub, _, number, inverted = rows[i]
        left = (mark + " " + who) if mark else "  " + who
        y = 8 + i * h
        ink = 1
        if inverted:
            fb.fill_rect(0, y, ui.W, h, 1)
            ink = 0
        bw = ui.big_width(number, scale)
        ui.big(fb, number, ui.W - bw - 1, y + (h - ui.big_height(scale)) // 2, scale, ink)
        cols = (ui.W - bw - 4) // ui.CHAR
        if h >= 17:
            top = y + (h - 17) // 2 + 1
            ui.text(fb, left[:cols], 0, top, ink)
            ui.text(fb, sub[:cols], 0, top + 9, ink)
        else:
            text = left
            if sub:
                room = cols - len(sub) - 1
                text = (left[:room] if room > 0 else "") + " " + sub
            ui.text(fb, text[:cols], 0, y + (h - 8) // 2, ink)
