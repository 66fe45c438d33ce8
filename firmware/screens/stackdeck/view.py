"""Stack the Deck: what the screens share: player names, the rows of totals in large
digits (scoreboard and final standings) at 2, 3 and 4 players, a card and a stack in
words ("1 Blue", "1-2-3 Blue": never a colour letter beside a digit, "1B" reads
"18"), an entry line in words, a stack's verdict. The stack checker
(core.stackdeck_stacks) is imported only where a stack is shown: a match entered by
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
    if n == 4:
        for i in range(4):
            mark, who, _, short, number, inverted = rows[i]
            x = 0 if i % 2 == 0 else 65
            y = 8 + (i // 2) * 28
            ink = 1
            if inverted:
                fb.fill_rect(x, y, 63, 28, 1)
                ink = 0
            ui.text(fb, who[:10], x + 1, y + 2, ink)
            ui.big(fb, number, x + 1, y + 11, 2, ink)
            room = 62 - ui.big_width(number, 2) - 3  # pixels right of the number
            sx = x + 63 - 1
            for j, word in ((0, mark), (1, short)):
                if word and len(word) * ui.CHAR <= room:
                    ui.text(fb, word, sx - len(word) * ui.CHAR + 1, y + 11 + 9 * j, ink)
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


def say(app, text, short):
    """A confirmation in words; `short` when `text` needs more than the message's
    two lines."""
    app.toast(text if len(ui.wrap(text, ui.BOX_COLS)) <= 2 else short)


def card_words(card, names):
    """'1 Blue', 'Wild': a card in words (names: the colours' display names)."""
    if card == 50:  # core.stackdeck_stacks.WILD
        return "Wild"
    return "%d %s" % (card % 10 + 1, names[card // 10])


def stack_words(stack, names):
    """A stack in words: '1-2-3 Blue' when its numbered cards share a colour (a wild
    is W: '7-W Blue', 'W-W'), else each card with its colour: '4 Red 5 Blue'."""
    nums = "-".join(["W" if c == 50 else str(c % 10 + 1) for c in stack])
    colours = [c // 10 for c in stack if c != 50]
    if not colours:
        return nums
    if colours.count(colours[0]) == len(colours):
        return nums + " " + names[colours[0]]
    return " ".join(["W" if c == 50 else card_words(c, names) for c in stack])


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
    """A player's entry line in a menu row (20 characters), points first:
    '+20 4-5-6 Green', '-25 open W', '+15 counts', 'went out'."""
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
    names = game.colour_names()
    words = " ".join([stack_words(s, names) for s in action[2]])
    mark = "" if verb == "turned" else "open "
    text = "%s %s%s" % (signed(total), mark, words)
    if len(text) > ui.Menu.LABEL_COLS:  # the numbers alone
        words = " ".join(["-".join(["W" if c == 50 else str(c % 10 + 1) for c in s])
                          for s in action[2]])
        text = "%s %s%s" % (signed(total), mark, words)
    return text
