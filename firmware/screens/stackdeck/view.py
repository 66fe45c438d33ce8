"""Stack the Deck: what the screens share: player names, the rows of totals in large
digits (scoreboard and final standings), an entry line in words, a stack's verdict.
The stack checker (core.stackdeck_stacks) is imported only where a stack is shown:
a match entered by counters never loads it.
"""

from firmware import ui


def name(app, p):
    """Player p's name from the settings (1-based)."""
    return app.settings.player_name(p)


def signed(n):
    return "+%d" % n if n > 0 else "%d" % n


def draw_rows(fb, rows):
    """One row per player: (left text, second text, big number text, inverted).
    Rows share the height below the title bar (8 rows of pixels); the big number sits at the right, scale 3 when
    there is room (2 players) and 2 otherwise; with two lines of room the second
    text goes under the first, else after it."""
    n = len(rows)
    h = (ui.H - 8) // n
    scale = 3 if h >= 26 else 2
    for i in range(n):
        left, sub, number, inverted = rows[i]
        y = 8 + i * h
        ink = 1
        if inverted:
            fb.fill_rect(0, y, ui.W, h, 1)
            ink = 0
        bw = ui.big_width(number, scale)
        ui.big(fb, number, ui.W - bw - 1, y + (h - 7 * scale) // 2, scale, ink)
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


def stack_verdict(stack, turned):
    """(ok, words, points) for a stack being built as turned or unturned:
    the checker's verdict, or its reason when it may not be saved so."""
    if not stack:
        return False, "add a card", 0
    from core import stackdeck_stacks as st
    if turned:
        reason = st.turned_reason(stack)
        if reason is not None:
            return False, reason, 0
        points = st.turned_points(stack)
        kind = st.complete_kind(stack)
        one = " 1 colour" if st.one_colour(stack) else ""
        return True, "%s%s %s" % (kind, one, signed(points)), points
    reason = st.unturned_reason(stack)
    if reason is not None:
        return False, reason, 0
    points = st.unturned_points(stack)
    return True, "stands %s" % signed(points), points


def entry_words(game, action):
    """A player's entry line in a menu row (15 characters), points first:
    '+20 4G-5G-6G', '-25 unt W', '+15 counts', 'went out'."""
    from core.stackdeck_counts import COUNTS, points
    verb = action[1]
    if verb == "out":
        return "went out"
    if verb == COUNTS:
        return "%s counts" % signed(points(action[2]))
    from core import stackdeck_stacks as st
    total = 0
    for s in action[2]:
        total += st.turned_points(s) if verb == "turned" else st.unturned_points(s)
    names = " ".join([st.stack_name(s, game.letters) for s in action[2]])
    mark = "" if verb == "turned" else "unt "
    return "%s %s%s" % (signed(total), mark, names)
