"""Stack the Deck: a player's round as six counters (the `counts` line, STD-34).

    ANN counts
      Pairs     2             the counters, in the order a player reads the
      Runs      1             table: pairs, runs, unturned stacks, then the rarer
      Unturned  0      +20    one-colour pairs and runs and the wilds standing in
      1col pairs 0            unturned stacks; the round's points large at the right
      1col runs 0
      W unturned 0

It opens on the player's round as entered so far: their counts, and what the checker
found in the stacks entered card by card (those set the lowest a counter can go:
they stay as entered). UP/DOWN go round the six counters, LEFT/RIGHT change the
selected one (held: they run). OK saves: a new counts line, or the player's counts
lines replaced by one (Session.rewrite); an unchanged sheet (a zero round: nothing
in front of the player) needs no line. Back on the round sheet the cursor is on the
next player. Editing an ended round, OK asks before it saves. BACK with changes asks
"Save changes?" (OK saves, BACK discards), a long BACK goes home.
"""

from core.stackdeck_counts import COUNTS, FIELDS, MAX_COUNT, format_counts, points
from core.errors import IllegalAction
from firmware import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step
from firmware.screens.stackdeck import view as v

# the counters top to bottom (indexes of the counts line): pairs, runs, unturned,
# one-colour pairs, one-colour runs, wilds; UP from the top goes to the bottom
ORDER = (0, 2, 4, 1, 3, 5)


class CountsScreen(Screen):
    def __init__(self, app, target, p, sheet=None):
        Screen.__init__(self, app)
        self.target = target
        self.p = p
        self.sheet = sheet  # the round sheet it was opened from: the next player after
        floor = [0] * FIELDS  # what the checker found: the named stacks as counts
        counts = [0] * FIELDS
        for _, a in target.actions(p):
            if a[1] == COUNTS:
                for i in range(FIELDS):
                    counts[i] += a[2][i]
            elif a[1] != "out":
                from core import stackdeck_stacks as st
                for s in a[2]:
                    if a[1] == "turned":
                        floor[(0 if st.complete_kind(s) == st.PAIR else 2)
                              + (1 if st.one_colour(s) else 0)] += 1
                    else:
                        floor[4] += 1
                        floor[5] += s.count(st.WILD)
        self.floor = floor
        self.counts = [floor[i] + counts[i] for i in range(FIELDS)]
        self.start = list(self.counts)
        self.pos = 0

    def on_button(self, kind, button):
        if button in (b.UP, b.DOWN) and is_step(kind):
            self.pos = (self.pos + (1 if button == b.DOWN else -1)) % FIELDS
        elif button in (b.LEFT, b.RIGHT) and is_step(kind):
            i = ORDER[self.pos]
            n = self.counts[i] + (1 if button == b.RIGHT else -1)
            self.counts[i] = max(self.floor[i], min(MAX_COUNT, n))
        elif button == b.OK and kind == b.SHORT:
            self.save(self.target.live)
            return
        elif button == b.BACK and kind == b.SHORT and self.counts != self.start:
            from firmware.screens.stackdeck.ask import Ask
            self.app.push(Ask(self.app, "Save changes?", lambda: self.save(True),
                              self.app.pop, "OK: save", "BACK: discard"))
            return
        else:
            Screen.on_button(self, kind, button)  # BACK back, long BACK home
            return
        self.app.redraw()

    def save(self, sure):
        """Write the counters (sure: asked, or a live round), then back."""
        t = self.target
        app = self.app
        name = v.name(app, self.p)
        if self.counts != self.start:
            if not sure:  # an ended round: ask first
                from firmware.screens.stackdeck.ask import Ask
                app.push(Ask(app, "Save %s, round %d: %s %s?" % (
                    name, t.r, words(self.counts, 60), v.signed(points(self.counts))),
                    lambda: self.save(True)))
                return
            extra = [self.counts[i] - self.floor[i] for i in range(FIELDS)]
            line = "P%d counts %s" % (self.p, format_counts(extra))
            old = [i for i, a in t.actions(self.p) if a[1] == COUNTS]
            try:
                if not old:
                    t.add(line)
                else:  # in place: the player's counts lines become this one
                    lines = t.lines()
                    new = [lines[i] for i in range(len(lines)) if i not in old]
                    if any(extra):
                        new.insert(old[0] - len([i for i in old if i < old[0]]), line)
                    t.edit(new)
            except IllegalAction as e:
                app.refuse(e.reason)
                return
            app.beep()
        sheet = self.sheet
        if sheet is not None:  # the table flows: the next player's row
            sheet.menu.index = self.p
        app.pop()
        app.toast("%s: %s %s" % (name, words(self.counts),
                                 v.signed(t.scores()[self.p - 1])))

    def draw(self, fb):
        ui.bar(fb, "%s counts" % v.name(self.app, self.p))
        for row in range(FIELDS):
            i = ORDER[row]
            y = 8 + row * 8
            ui.text(fb, ("Pairs", "Runs", "Unturned", "1col pairs", "1col runs",
                         "W unturned")[row], 0, y)
            text = "%d" % self.counts[i]
            if row == self.pos:
                fb.fill_rect(64, y, 18, 8, 1)
                ui.text(fb, text, 66, y, 0)
            else:
                ui.text(fb, text, 66, y)
        total = v.signed(points(self.counts))
        if ui.big_width(total, 2) <= ui.W - 86:
            ui.big(fb, total, ui.W - ui.big_width(total, 2) - 1, 24, 2)
        else:  # a 4-glyph total: small, clear of the counters
            ui.right(fb, total, 28)
        ui.text(fb, "OK: save", 0, 56)


def words(counts, most=29):
    """'2 pairs, 1 run', 'nothing': the counters in words (at most `most`
    characters: 29 so that 'NAME: words +NN' fits a message of two lines)."""
    parts = []
    for i in range(FIELDS):
        n = counts[ORDER[i]]
        if n:
            parts.append("%d %s%s" % (n, ("pair", "run", "unturned", "1col pair",
                                          "1col run", "W")[i],
                                      "s" if n > 1 and i not in (2, 5) else ""))
    text = ", ".join(parts) or "nothing"
    if len(text) > most:
        text = "%d stacks" % (sum(counts) - counts[5])
    return text
