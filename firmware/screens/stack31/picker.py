"""Pick a card of the 52: UP/DOWN the rank, LEFT/RIGHT the suit, OK takes it.

The card is drawn large: the rank in the digit font (16 px; A, J, Q, K 14 px) and
beside it the suit as a 16x16 pip (firmware/drivers/pips.py: a heart, a diamond, a club, a
spade; never a letter, which beside the digits read as one more digit: "3D" as
"30"); a caller may add a preview line under it (what the card would do) and side
lines that stay while picking (Stack 31: the piles).

The layout keeps a step cheap on the bus (the panel driver sends only the changed
columns of each 8-pixel page, 7 bytes a window and 1 a page): the rank sits in a
fixed 16-column field (a ten's 1 and 0 one pixel apart), the pip in 16 columns two
pixels to its right, the whole card in 34 columns of pages 3-4. A step sends at
most that window (a preview that changes too costs its own window on pages 5-6).
A step is drawn in part (update: the card, its preview, the bottom line when it
changed), over the last frame.

With `possible` (card -> bool) the picker never stands on a card that cannot be
taken: it opens on `start` or the possible card nearest to it, UP/DOWN go to the next
possible rank of the suit (round from K to A), LEFT/RIGHT to the next suit that has a
possible card, on the rank shown when that card can be taken, else its possible rank
nearest to it. With `why` (card -> text), a press that asked for a card that cannot be
taken (the next rank, the same rank of the next suit) says why on the bottom line
("10<heart> would pass 31") until the next press that lands where it asked. With
`stay`, on_pick answers True when the entry was taken; on a refusal (shown over the
picker) the picker stays open, on the nearest possible card.
"""

import framebuf

from core import cards
from firmware.drivers import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step

CY = 24  # the card's top: pages 3-4
PREVIEW_Y = 44  # under the card, above a one-line message box (y 53)
# The rank field's left (the card left of the side lines when there are any)
RX_SIDE = 30
RX = 45
HELP = "<> suit  ^v rank"


def card_text(card):
    """'10\\x01': the rank and the suit's pip of the 6x8 font (bytes 1..4)."""
    return cards.RANK_NAMES[cards.rank(card) - 1] + "\x01\x02\x03\x04"[cards.suit(card)]


class CardPickerScreen(Screen):

    def __init__(self, app, title, on_pick, preview=None, possible=None, start=None,
                 stay=False, side=None, why=None):
        Screen.__init__(self, app)
        self.title = title
        self.on_pick = on_pick
        self.preview = preview  # card -> short text shown under the card
        self.possible = possible  # card -> False for a card to skip
        self.why = why  # card -> why it cannot be taken (only asked of such a card)
        self.note = None  # the bottom line's answer to the last press, or None
        self.stay = stay
        self.side = side  # short lines drawn at the right, unchanged while picking
        self.remember = start is None
        if start is None:
            # The picker opens where it was left: fewer presses for the next player.
            self.rank, self.suit = app.memory.get("card", (7, 0))
        else:
            self.rank, self.suit = cards.rank(start), cards.suit(start)
        self.rank, self.suit = self.nearest(self.rank, self.suit)
        from firmware.drivers.pips import PIPS, SIZE
        # the four pips as one strip, SIZE wide (pip s at y = SIZE * s), and the cell a
        # pip is cut into before it is blitted: nothing allocated per frame
        self._pip = (framebuf.FrameBuffer(bytearray(PIPS), SIZE, 4 * SIZE, framebuf.MONO_VLSB),
                     framebuf.FrameBuffer(bytearray(SIZE * SIZE // 8), SIZE, SIZE,
                                          framebuf.MONO_VLSB), SIZE)
        self.shown = None  # the bottom line drawn last

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

    def asked(self, button):
        """(rank, suit) the arrow asks for: the next rank, or the rank in the next suit."""
        if button == b.UP or button == b.DOWN:
            return (self.rank - 1 + (1 if button == b.UP else -1)) % 13 + 1, self.suit
        return self.rank, (self.suit + (1 if button == b.RIGHT else -1)) % 4

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
                r = self._near_rank(rank, s)  # the rank shown first, when it can be taken
                if r:
                    return r, s
        return rank, suit

    def on_button(self, kind, button):
        if button in (b.UP, b.DOWN, b.LEFT, b.RIGHT) and is_step(kind):
            asked = self.asked(button)
            self.rank, self.suit = self.step(button)
            self.note = None
            if self.why is not None and asked != (self.rank, self.suit):
                self.note = self.why(cards.make(asked[0], asked[1]))
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
        self.app.redraw(True)  # a step: update()

    def draw(self, fb):
        ui.bar(fb, self.title)
        rx = RX_SIDE if self.side else RX
        ui.text(fb, "^", rx - 12, CY + 1)
        ui.text(fb, "v", rx - 12, CY + 8)
        self.shown = None  # all of it: the side lines, the bottom line
        self.update(fb)

    def update(self, fb):
        """A step: the card and the preview cleared and drawn again, the bottom line
        when it changed, a side line that meets them (the title and the arrows stay)."""
        # The card in 34 columns: the rank's field rx .. rx + 15, the pip's rx + 18 ..
        # rx + 33 (two blank columns between: a 1 and a pip never touch).
        rx = RX_SIDE if self.side else RX
        fb.fill_rect(rx - 2, CY, 36, 16, 0)
        fb.fill_rect(0, PREVIEW_Y, ui.W, ui.LINE, 0)
        rank = self.rank
        if rank == 10:  # "10" in 16 columns: the digit 1's ink is its columns 2-6
            ui.big(fb, "1", rx - 2, CY)
            ui.big(fb, "0", rx + 6, CY)
        else:
            ui.big(fb, cards.RANK_NAMES[rank - 1], rx + 3, CY)
        strip, cell, size = self._pip
        cell.blit(strip, 0, -size * self.suit)
        fb.blit(cell, rx + 18, CY, 0)
        if self.preview is not None:
            text = self.preview(self.card)[:ui.COLS]
            x = rx + 18 - len(text) * 3  # centred under the card
            ui.text(fb, text, min(max(x, 0), ui.W + 1 - len(text) * ui.CHAR), PREVIEW_Y)
        note = self.note or HELP
        whole = self.shown is None
        if note != self.shown:
            fb.fill_rect(0, 56, ui.W, ui.LINE, 0)
            ui.center(fb, note, 56)
            self.shown = note
        for i, line in enumerate(self.side or ()):
            y = 9 + ui.LINE * i
            if whole or y > CY - ui.LINE:  # all, or those that meet what was cleared
                ui.right(fb, line, y, 1, 1)
        return True
