"""Stack the Deck: build one stack card by card, with the checker's verdict live.

UP/DOWN the number (1 to 10, then W), LEFT/RIGHT the colour; the card is drawn
large. OK adds it to the stack, shown under it with the checker's verdict ("run 1
colour +20", or why not: "runs go one way"). A long OK saves the stack as the
player's turned or unturned stack; a refusal (the checker's or the round's: "5G used
twice") shows its reason and nothing changes. BACK takes the last card off, or
leaves when there is none; a long BACK goes home.
"""

from core import stackdeck_stacks as st
from core.errors import IllegalAction
from firmware import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step
from firmware.screens.stackdeck import view as v

# the number index 11 is W (after 10); a stack holds at most 3 cards


class StackScreen(Screen):

    def __init__(self, app, target, p, turned):
        Screen.__init__(self, app)
        self.target = target
        self.p = p
        self.turned = turned
        # The picker opens where it was left: fewer presses.
        self.number, self.colour = app.memory.get("stackdeck card", (5, 0))
        self.stack = []

    @property
    def card(self):
        if self.number == 11:
            return st.WILD
        return st.make(self.number, self.colour)

    def on_button(self, kind, button):
        if button in (b.UP, b.DOWN) and is_step(kind):
            step = 1 if button == b.UP else -1
            self.number = (self.number - 1 + step) % 11 + 1
        elif button in (b.LEFT, b.RIGHT) and is_step(kind):
            self.colour = (self.colour + (1 if button == b.RIGHT else -1)) % 5
        elif button == b.OK and kind == b.SHORT:
            self.add()
        elif button == b.OK and kind == b.LONG:
            self.save()
            return
        elif button == b.BACK and kind == b.SHORT:
            if not self.stack:
                self.app.pop()
                return
            self.stack.pop()
        else:
            Screen.on_button(self, kind, button)  # long BACK home
            return
        self.app.redraw()

    def add(self):
        if len(self.stack) >= 3:
            self.app.toast("too many cards")
            return
        card = self.card
        if card != st.WILD and card in self.stack:
            self.app.toast("%s used twice" % self.name(card))
            return
        self.app.memory["stackdeck card"] = (self.number, self.colour)
        self.stack.append(card)

    def save(self):
        if not self.stack:
            self.app.toast("add a card first")
            return
        t = self.target
        stack = tuple(self.stack)
        line = "P%d %s %s" % (self.p, "turned" if self.turned else "unturned",
                              st.stack_name(stack, t.game.letters))
        try:
            t.add(line)
        except IllegalAction as e:
            self.app.refuse(e.reason)
            return
        self.app.beep()
        self.app.pop()
        self.app.toast("saved %s" % v.stack_verdict(stack, self.turned)[1])

    def name(self, card):
        return st.card_name(card, self.target.game.letters)

    def draw(self, fb):
        g = self.target.game
        kind = "turned" if self.turned else "unturned"
        ui.bar(fb, "%s %s" % (v.name(self.app, self.p)[:7], kind))
        card = self.card
        ui.big_center(fb, self.name(card), 11, 3)
        ui.text(fb, "^", 4, 12)
        ui.text(fb, "v", 4, 26)
        words = "W" if card == st.WILD else g.colour_names()[self.colour]
        ui.text(fb, words[:3], ui.W - 24, 19)
        if not self.stack:
            ui.center(fb, "OK: add card", 35)
            ui.center(fb, "hold OK: save", 47)
            return
        ui.center(fb, st.stack_name(self.stack, g.letters)[:ui.COLS], 35)
        ok, verdict, _ = v.stack_verdict(tuple(self.stack), self.turned)
        lines = ui.wrap(verdict)[:2]
        if ok:
            fb.fill_rect(0, 55 - 9 * (len(lines) - 1), ui.W, 9 * len(lines), 1)
        for i in range(len(lines)):
            ui.center(fb, lines[i], 56 - 9 * (len(lines) - 1 - i), 0 if ok else 1)
