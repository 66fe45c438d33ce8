"""Stack the Deck: a player's round as six counters (the `counts` line, STD-34).

    BOB counts
    Pairs  2   1col 0        a grid: the kinds in rows, the plain count on the
    Runs   1   1col 0        left and the one-colour count (the wilds standing in
    Untrn  0   wild 0        unturned stacks) on the right
           +20               the round's points, large
    ANN: 2 pairs +10         what was saved for the player before (or OK: save)

UP/DOWN go round the six counters: down the left column, then up the right one (UP
on Pairs is the one-colour pairs beside it), LEFT/RIGHT change the selected one
(held: they run; a step draws only the counts and the points: update). The wilds
stand only in unturned stacks, two at most in each: while Untrn is 0 the cursor goes
past "wild" (a press saved on the way round, and no wild that the save would
refuse), it never goes above twice Untrn, and lowering Untrn lowers it with it. It
opens on the player's round as entered so far: their counts, and what the checker
found in the stacks entered card by card (those set the lowest a counter can go: they
stay as entered).

OK saves: a new counts line, or the player's counts lines replaced by one
(Session.rewrite); an unchanged sheet (a zero round: nothing in front of the player)
needs no line. Opened from the sheet of the open round, OK then opens the next
player's counters (the table flows: a zero round is one press; the bottom line says
what was saved, in words with the name), and after the last player the sheet is back
on End round. Editing an ended round, OK asks before it saves. BACK with changes asks
"Save changes?" (OK saves, BACK discards), a long BACK goes home.
"""

from core.stackdeck.counts import COUNTS, FIELDS, MAX_COUNT, format_counts, points
from core.errors import IllegalAction
from firmware.drivers import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step
from firmware.screens.stackdeck import view as v

# the ring of counters (indexes of the counts line): down the left column (pairs,
# runs, unturned), then up the right one (wilds, one-colour runs, one-colour pairs)
ORDER = (0, 2, 4, 5, 3, 1)


class CountsScreen(Screen):
    def __init__(self, app, target, p, sheet=None, said="OK: save"):
        Screen.__init__(self, app)
        self.target = target
        self.p = p
        self.sheet = sheet  # the round sheet it was opened from: the next player after
        self.said = said  # the bottom line: what was saved for the player before
        counts = [0] * FIELDS
        named = False
        for _, a in target.actions(p):
            if a[1] == COUNTS:
                for i in range(FIELDS):
                    counts[i] += a[2][i]
            elif a[1] != "out":
                named = True
        self.floor = [0] * FIELDS
        if named:  # what the checker found: the named stacks as counts (rare: a module)
            from firmware.screens.stackdeck.counts_edit import floor
            self.floor = floor(target.actions(p))
        self.counts = [self.floor[i] + counts[i] for i in range(FIELDS)]
        self.start = list(self.counts)
        self.pos = 0

    def on_button(self, kind, button):
        c = self.counts
        if button in (b.UP, b.DOWN) and is_step(kind):
            step = 1 if button == b.DOWN else -1
            self.pos = (self.pos + step) % FIELDS
            if ORDER[self.pos] == 5 and not c[4] and not c[5]:  # no unturned: no wild
                self.pos = (self.pos + step) % FIELDS
        elif button in (b.LEFT, b.RIGHT) and is_step(kind):
            i = ORDER[self.pos]
            n = c[i] + (1 if button == b.RIGHT else -1)
            c[i] = max(self.floor[i], min(2 * c[4] if i == 5 else MAX_COUNT, n))
            if c[5] > 2 * c[4]:  # fewer unturned stacks: fewer wilds in them
                c[5] = max(self.floor[5], 2 * c[4])
        elif button == b.OK and kind == b.SHORT:
            self.save(self.target.live)
            return
        elif button == b.BACK and kind == b.SHORT and self.counts != self.start:
            from firmware.screens.stackdeck.counts_edit import ask
            ask(self)
            return
        else:
            Screen.on_button(self, kind, button)  # BACK back, long BACK home
            return
        self.app.redraw(True)  # a counter or the cursor: update()

    def save(self, sure, chain=True):
        """Write the counters (sure: asked, or a live round), then the next player's
        counters (chain, from the sheet of the open round) or back."""
        t = self.target
        app = self.app
        name = v.name(app, self.p)
        if self.counts != self.start:
            if not sure:  # an ended round: ask first
                from firmware.screens.stackdeck.counts_edit import ask
                ask(self, "Save %s, round %d: %s %s?" % (name, t.r, words(self.counts, 60),
                                                         v.signed(points(self.counts))))
                return
            extra = [self.counts[i] - self.floor[i] for i in range(FIELDS)]
            line = "P%d counts %s" % (self.p, format_counts(extra))
            try:
                if [1 for _, a in t.actions(self.p) if a[1] == COUNTS]:
                    from firmware.screens.stackdeck.counts_edit import replace
                    replace(t, self.p, line, any(extra))  # in place: one counts line
                else:
                    t.add(line)
            except IllegalAction as e:
                app.refuse(e.reason)
                return
            app.beep()
        text = "%s: %s %s" % (name, words(self.counts), v.signed(t.scores()[self.p - 1]))
        sheet = self.sheet
        if sheet is not None:  # the table flows: the next player's row
            sheet.menu.index = self.p
            if chain and t.live and self.p < t.game.players:  # and their counters
                if len(text) > ui.COLS:  # one line: the words closer, or the points
                    text = text.replace(":", "").replace(",", "")
                if len(text) > ui.COLS:
                    text = "%s %s saved" % (name, v.signed(t.scores()[self.p - 1]))
                app.replace(CountsScreen(app, t, self.p + 1, sheet, text))
                return
        app.pop()
        app.toast(text)

    def draw(self, fb):
        ui.bar(fb, "%s counts" % v.name(self.app, self.p))
        for pos in range(FIELDS):
            ui.text(fb, ("Pairs", "Runs", "Untrn", "wild", "1col", "1col")[pos],
                    0 if pos < 3 else 60, 10 + 9 * (pos if pos < 3 else 5 - pos))
        self.update(fb)
        ui.center(fb, self.said, 56)

    def update(self, fb):
        """The six counts (each in its own 16 x 9 box, lit on the cursor) and the points
        drawn anew; the title, the labels and the bottom line stay."""
        for pos in range(FIELDS):
            x = 0 if pos < 3 else 60
            y = 10 + 9 * (pos if pos < 3 else 5 - pos)
            on = 1 if pos == self.pos else 0
            fb.fill_rect(x + 34, y - 1, 16, 9, on)
            ui.text(fb, "%d" % self.counts[ORDER[pos]], x + 36, y, 1 - on)
        fb.fill_rect(0, 38, ui.W, 16, 0)
        ui.big_center(fb, v.signed(points(self.counts)), 38, 2)
        return True


def words(counts, most=29):
    """'2 pairs, 1 run', 'nothing': the counters in words (at most `most`
    characters: 29 so that 'NAME: words +NN' fits a message of two lines)."""
    parts = []
    for i in range(FIELDS):  # pairs, runs, unturned, 1col pairs, 1col runs, W
        n = counts[(0, 2, 4, 1, 3, 5)[i]]
        if n:
            parts.append("%d %s%s" % (n, ("pair", "run", "unturned", "1col pair",
                                          "1col run", "W")[i],
                                      "s" if n > 1 and i not in (2, 5) else ""))
    text = ", ".join(parts) or "nothing"
    if len(text) > most:
        text = "%d stacks" % (sum(counts) - counts[5])
    return text
