"""Pick a card of the 52: UP/DOWN the rank, LEFT/RIGHT the suit, OK takes it.

The card is drawn large; a line under it says what it would do (the pile's value
after the play) or why it cannot be taken, so a wrong card is caught before OK.
"""

from core import cards
from firmware import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step

SUIT_WORDS = ("hearts", "diamonds", "clubs", "spades")


class CardPickerScreen(Screen):

    def __init__(self, app, title, on_pick, preview=None):
        Screen.__init__(self, app)
        self.title = title
        self.on_pick = on_pick
        self.preview = preview  # card -> short text shown under the card
        # The picker opens where it was left: fewer presses for the next player.
        self.rank, self.suit = app.memory.get("card", (7, 0))

    @property
    def card(self):
        return cards.make(self.rank, self.suit)

    def on_button(self, kind, button):
        if button in (b.UP, b.DOWN) and is_step(kind):
            self.rank = (self.rank - 1 + (1 if button == b.UP else -1)) % 13 + 1
        elif button in (b.LEFT, b.RIGHT) and is_step(kind):
            self.suit = (self.suit + (1 if button == b.RIGHT else -1)) % 4
        elif button == b.OK and kind == b.SHORT:
            self.app.memory["card"] = (self.rank, self.suit)
            self.app.pop()
            self.on_pick(self.card)
            return
        elif button == b.BACK and kind == b.SHORT:
            self.app.pop()
            return
        else:
            return
        self.app.redraw()

    def draw(self, fb):
        ui.bar(fb, self.title)
        name = cards.name(self.card)
        ui.big_center(fb, name, 13, 3)
        fb.text("^", 20, 14)
        fb.text("v", 20, 30)
        ui.center(fb, SUIT_WORDS[self.suit], 39)
        if self.preview is not None:
            ui.center(fb, self.preview(self.card)[:16], 48)
        fb.text("<> suit  ^v rank", 0, 56)
