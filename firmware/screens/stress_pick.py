"""Stress: the centre-card picker, which keeps the referee listening.

Calls are taken while the table enters the new centre tops, so the picker hands every
raw call-button edge and every loop turn on to the Stress screen below it (which
closes the picker when a call is made). Two cards: stack 1, then stack 2; BACK skips.
"""

from core import cards
from firmware import buttons as b
from firmware.screens.cardpicker import CardPickerScreen


class CentrePicker(CardPickerScreen):
    def __init__(self, app, owner, stack, first=None):
        self.owner = owner
        self.stack = stack
        self.first = first
        title = "Centre %d: P%d" % (stack, stack)
        CardPickerScreen.__init__(self, app, title, self._picked, self._preview)

    def _picked(self, card):
        if self.stack == 1:
            self.app.push(CentrePicker(self.app, self.owner, 2, card))
        else:
            self.owner.set_centre(self.first, card)

    def _preview(self, card):
        if self.first is None:
            return "BACK: skip"
        if card == self.first:
            return "same card twice"
        if cards.rank(card) == cards.rank(self.first):
            return "STRESS"
        return "with " + cards.name(self.first)

    def on_button(self, kind, button):
        if button == b.BACK and kind == b.LONG:
            self.owner.leave()  # going home: what waits in RAM is written first
        CardPickerScreen.on_button(self, kind, button)

    def on_call(self, player, down, t_us):
        self.owner.on_call(player, down, t_us)

    def tick(self, now_ms):
        self.owner.background(now_ms)

    def awake(self):
        return self.owner.awake()
