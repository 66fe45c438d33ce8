"""Stack the Deck: a player's stacks as six counters (the `counts` line, STD-34).

    Pairs 1  1col 0      pairs, pairs of one colour
    Runs  2  1col 1      runs, runs of one colour
    Untrn 1  wild 0      unturned stacks, wilds standing in them
          +45            the points, large

UP/DOWN move between the six counters, LEFT/RIGHT change the selected one (held:
they run), OK saves the line (a refusal shows the core's reason and nothing
changes), BACK leaves without saving, a long BACK goes home.
"""

from core.stackdeck_counts import FIELDS, MAX_COUNT, format_counts, points
from core.errors import IllegalAction
from firmware import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step
from firmware.screens.stackdeck import view as v


class CountsScreen(Screen):
    def __init__(self, app, target, p):
        Screen.__init__(self, app)
        self.target = target
        self.p = p
        self.counts = [0] * FIELDS
        self.index = 0

    def on_button(self, kind, button):
        if button in (b.UP, b.DOWN) and is_step(kind):
            self.index = (self.index + (1 if button == b.DOWN else -1)) % FIELDS
        elif button in (b.LEFT, b.RIGHT) and is_step(kind):
            n = self.counts[self.index] + (1 if button == b.RIGHT else -1)
            self.counts[self.index] = max(0, min(MAX_COUNT, n))
        elif button == b.OK and kind == b.SHORT:
            self.save()
            return
        else:
            Screen.on_button(self, kind, button)  # BACK back, long BACK home
            return
        self.app.redraw()

    def save(self):
        line = "P%d counts %s" % (self.p, format_counts(self.counts))
        try:
            self.target.add(line)
        except IllegalAction as e:
            self.app.refuse(e.reason)
            return
        self.app.beep()
        self.app.pop()
        self.app.toast("saved %s" % v.signed(points(self.counts)))

    def draw(self, fb):
        ui.bar(fb, "%s counts" % v.name(self.app, self.p)[:9])
        for row in range(3):
            y = 11 + row * 10
            ui.text(fb, ("Pairs", "Runs", "Untrn")[row], 0, y)
            ui.text(fb, ("1col", "1col", "wild")[row], 72, y)
            for col in range(2):
                i = row * 2 + col
                x = 48 if col == 0 else 112
                text = "%d" % self.counts[i]
                if i == self.index:
                    fb.fill_rect(x - 2, y - 1, 18, 10, 1)
                    ui.text(fb, text, x, y, 0)
                else:
                    ui.text(fb, text, x, y)
        ui.big_center(fb, v.signed(points(self.counts)), 44, 2)
