"""Pick a card of the 52: UP/DOWN the rank, LEFT/RIGHT the suit, OK takes it.

The card is drawn large; a line under it says what it would do (the pile's value
after the play) or why it cannot be taken, so a wrong card is caught before OK.

With `possible` (card -> bool) the picker never stands on a card that cannot be
taken: it opens on `start` or the possible card nearest to it, UP/DOWN go to the next
possible rank of the suit (round from K to A), LEFT/RIGHT to the next suit that has a
possible card, on its possible rank nearest to the one shown. With `stay`, on_pick
answers True when the entry was taken; on a refusal (shown over the picker) the
picker stays open, on the nearest possible card.
"""

from core import cards
from firmware import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step

SUIT_WORDS = ("hearts", "diamonds", "clubs", "spades")


class CardPickerScreen(Screen):

    def __init__(self, app, title, on_pick, preview=None, possible=None, start=None,
                 stay=False):
        Screen.__init__(self, app)
        self.title = title
        self.on_pick = on_pick
        self.preview = preview  # card -> short text shown under the card
        self.possible = possible  # card -> False for a card to skip
        self.stay = stay
        self.remember = start is None
        if start is None:
            # The picker opens where it was left: fewer presses for the next player.
            self.rank, self.suit = app.memory.get("card", (7, 0))
        else:
            self.rank, self.suit = cards.rank(start), cards.suit(start)
        self.rank, self.suit = self.nearest(self.rank, self.suit)

    @property
    def card(self):
        return cards.make(self.rank, self.suit)

    def can(self, rank, suit):
        return self.possible is None or self.possible(cards.make(rank, suit))

    def nearest(self, rank, suit, suits=(0, 1, 3, 2)):
        """The possible card nearest to (rank, suit): in the suit first (the rank up,
        then down, one step further each time), then the next suits; (rank, suit) when
        no card is possible."""
        for ds in suits:
            s = (suit + ds) % 4
            r = self._near_rank(rank, s)
            if r:
                return r, s
        return rank, suit

    def _near_rank(self, rank, suit):
        for off in range(7):
            for r in ((rank - 1 + off) % 13 + 1, (rank - 1 - off) % 13 + 1):
                if self.can(r, suit):
                    return r
        return 0

    def step(self, button):
        """(rank, suit) after a press of an arrow; changes nothing (a planner may ask)."""
        rank, suit = self.rank, self.suit
        if button == b.UP or button == b.DOWN:
            d = 1 if button == b.UP else -1
            r = rank
            for _ in range(12):
                r = (r - 1 + d) % 13 + 1
                if self.can(r, suit):
                    return r, suit
        elif button == b.LEFT or button == b.RIGHT:
            d = 1 if button == b.RIGHT else -1
            for i in range(1, 4):
                s = (suit + d * i) % 4
                r = self._near_rank(rank, s)
                if r:
                    return r, s
        return rank, suit

    def on_button(self, kind, button):
        if button in (b.UP, b.DOWN, b.LEFT, b.RIGHT) and is_step(kind):
            self.rank, self.suit = self.step(button)
        elif button == b.OK and kind == b.SHORT:
            if self.remember:
                self.app.memory["card"] = (self.rank, self.suit)
            if not self.stay:
                self.app.pop()
                self.on_pick(self.card)
            elif self.on_pick(self.card):
                if self.app.screen is self:
                    self.app.pop()
            else:  # refused (the reason shows over the picker): stay on a possible card
                self.rank, self.suit = self.nearest(self.rank, self.suit)
                self.app.redraw()
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
        ui.text(fb, "^", 20, 14)
        ui.text(fb, "v", 20, 30)
        ui.center(fb, SUIT_WORDS[self.suit], 39)
        if self.preview is not None:
            ui.center(fb, self.preview(self.card)[:ui.COLS], 48)
        ui.text(fb, "<> suit  ^v rank", 0, 56)
