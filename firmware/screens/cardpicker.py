"""Pick a card of the 52: UP/DOWN the rank, LEFT/RIGHT the suit, OK takes it.

The card is drawn large: the rank in the digit font (16 px; A, J, Q, K and the suit
letter 14 px); a caller may add a preview line under it (what the card would do, or
why it cannot be taken) and side lines that stay while picking (Stack 31: the piles).

The layout keeps a step cheap on the bus (the panel driver sends only the changed
columns of each 8-pixel page, 7 bytes a window and 1 a page): the rank sits in a
fixed 16-column field (a ten's 1 and 0 one pixel apart), the suit letter in 7 columns
beside it (the glyph doubled in height, its columns 2-1-1-1-2 pixels wide), the whole
card in 24 columns of pages 3-4. A step that changes the rank, the suit or both sends
one window of at most 24 columns by 2 pages: at most 57 bytes (a preview that changes
too costs its own window on page 6).

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

CY = 24  # the card's top: pages 3-4
# The suit letters H D C S, 5 columns of 7 rows each (bit k: row k); the S has its
# serif, so that beside a rank it does not read as a 5.
_SUIT_GLYPHS = b"\x7f\x08\x08\x08\x7f\x7f\x41\x41\x41\x3e\x3e\x41\x41\x41\x22\x26\x49\x49\x49\x32"


class CardPickerScreen(Screen):

    def __init__(self, app, title, on_pick, preview=None, possible=None, start=None,
                 stay=False, side=None):
        Screen.__init__(self, app)
        self.title = title
        self.on_pick = on_pick
        self.preview = preview  # card -> short text shown under the card
        self.possible = possible  # card -> False for a card to skip
        self.stay = stay
        self.side = side  # short lines drawn at the right, unchanged while picking
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
        # The card in 24 columns (centred; left of the side lines when there are any):
        # the rank's field rx .. rx + 15, the suit letter's rx + 17 .. rx + 23.
        rx = 38 if self.side else 52
        rank = self.rank
        if rank == 10:  # "10" in 16 columns: the digit 1's ink is its columns 2-6
            ui.big(fb, "1", rx - 2, CY)
            ui.big(fb, "0", rx + 6, CY)
        else:
            ui.big(fb, cards.RANK_NAMES[rank - 1], rx + 3, CY)
        # The suit letter, 7 x 14: glyph columns 2, 1, 1, 1, 2 pixels wide.
        for gx in range(5):
            bits = _SUIT_GLYPHS[5 * self.suit + gx]
            x = rx + 17 + gx + (gx > 0)
            w = 2 if gx % 4 == 0 else 1
            for gy in range(7):
                if bits >> gy & 1:
                    fb.fill_rect(x, CY + 2 + 2 * gy, w, 2, 1)
        ui.text(fb, "^", rx - 12, CY + 1)
        ui.text(fb, "v", rx - 12, CY + 8)
        if self.preview is not None:
            ui.center(fb, self.preview(self.card)[:ui.COLS], 48)
        if self.side:
            for i, line in enumerate(self.side):
                ui.right(fb, line, 16 + ui.LINE * i, 1, 1)
        ui.text(fb, "<> suit  ^v rank", 0, 56)
