"""Stress: the two centre tops after a flip, entered by rank alone (suits do not matter
in Stress: a card fits by its rank). Stack 1, then stack 2; UP/DOWN (LEFT/RIGHT too)
step the rank round A..K, OK takes it, BACK skips. Each opens on 7: any rank is at
most 6 presses away.

The journal line stays the notation's `centre CARD CARD`: the device writes each rank
with a suit of its own, hearts for stack 1 and spades for stack 2 (seeds/stress.md,
"Decision (the centre by rank)"), so two tops of one rank (a stress) are two cards.

Loaded at the first flip instead of the 52-card picker (less code in the heap while a
match is played) and let go at the end of the match. The picker keeps the referee
listening: every call-button edge and loop turn go on to the Stress screen below it,
which closes the picker when a call is made.
"""

from core import cards
from firmware.drivers import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step

SUITS = (0, 3)  # the suit written with stack 1's rank and with stack 2's (H, S)
START = 7  # the middle: every rank within 6 presses


class CentrePicker(Screen):
    def __init__(self, app, owner, stack, first=None):
        Screen.__init__(self, app)
        self.owner = owner  # the Stress screen
        self.stack = stack
        self.first = first  # on stack 2: the card taken for stack 1
        self.rank = START
        self.suit = SUITS[stack - 1]  # fixed: the arrows step the rank only

    @property
    def card(self):
        return cards.make(self.rank, self.suit)

    def step(self, button):
        """(rank, suit) after an arrow (a planner may ask; changes nothing)."""
        d = 1 if button == b.UP or button == b.RIGHT else -1
        return (self.rank - 1 + d) % 13 + 1, self.suit

    def on_button(self, kind, button):
        app = self.app
        if (button == b.UP or button == b.DOWN or button == b.LEFT or button == b.RIGHT) \
                and is_step(kind):
            self.rank = self.step(button)[0]
            app.redraw()
        elif button == b.OK and kind == b.SHORT:
            app.pop()
            first = self.first
            if first is None:
                app.push(CentrePicker(app, self.owner, 2, self.card))
            elif self.owner._line((None, "centre", first, self.card)):
                self.owner.tops_unknown = False
                app.beep()
        elif button == b.BACK:
            if kind == b.LONG:
                self.owner.leave()  # going home: what waits in RAM is written first
            Screen.on_button(self, kind, button)

    def on_call(self, player, down, t_us):
        self.owner.on_call(player, down, t_us)

    def tick(self, now_ms):
        self.owner.background(now_ms)

    def awake(self):
        return self.owner.awake()

    def due_ms(self):
        return self.owner.due_ms()

    def draw(self, fb):
        ui.bar(fb, "Centre stack %d" % self.stack, 0, "rank")
        ui.big_center(fb, cards.RANK_NAMES[self.rank - 1], 13, 3)
        ui.text(fb, "^", 30, 14)
        ui.text(fb, "v", 30, 29)
        first = self.first
        if first is None:
            words = "then stack 2"
        elif cards.rank(first) == self.rank:
            words = "STRESS: both " + cards.RANK_NAMES[self.rank - 1]
        else:
            words = "stack 1: " + cards.RANK_NAMES[cards.rank(first) - 1]
        ui.center(fb, words, 42)
        ui.text(fb, "OK: take  BACK: skip", 0, 56)
