"""Stack 31 at the table: the four piles, whose turn, and a turn in a few presses.

Main view: the four suit piles as columns (value in large digits, owner under it, a
conquered pile drawn inverted), the player to move and the deck in the title bar, the
hand counts, and the action line. LEFT/RIGHT choose the action, OK takes it: Draw and
Discard down in one press, Play and Discard up through the card picker. BACK undoes
the last action; a long BACK goes home (the game stays saved).
"""

from core import cards
from core.errors import IllegalAction
from core.stack31 import DISCARD_DOWN, DISCARD_UP, DQ, DRAW, PASS, PLAY, pile_after
from firmware import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step
from firmware.screens.cardpicker import CardPickerScreen

ACTIONS = (DRAW, PLAY, DISCARD_UP, DISCARD_DOWN, PASS, DQ)
LABELS = ("Draw", "Play", "Discard up", "Discard down", "Pass", "Disqualify")


class Stack31Screen(Screen):
    def __init__(self, app, session):
        Screen.__init__(self, app)
        self.session = session
        self.game = session.game
        self.choice = 0
        self._suggest()

    def _suggest(self):
        """Put the action line on what this player most likely does now."""
        g = self.game
        if g.over:
            return
        hand = g.hands[g.to_move]
        if g.deck and hand < g.options["hand_limit"]:
            self.choice = 0
        elif hand:
            self.choice = 1
        else:
            self.choice = 4
        self.app.redraw()

    def _label(self, p):
        return self.app.player_label(p)

    # Input ---------------------------------------------------------------------

    def on_button(self, kind, button):
        if button in (b.LEFT, b.RIGHT) and is_step(kind) and not self.game.over:
            self.choice = (self.choice + (1 if button == b.RIGHT else -1)) % len(ACTIONS)
            self.app.redraw()
        elif button == b.OK and kind == b.SHORT:
            if self.game.over:
                self._finish()
            else:
                self._take(ACTIONS[self.choice])
        elif button == b.BACK and kind == b.SHORT:
            self._undo()
        elif button == b.BACK and kind == b.LONG:
            self.app.home()

    def _take(self, verb):
        if verb == PLAY:
            self.app.push(CardPickerScreen(self.app, "Play a card", self._play, self._play_preview))
        elif verb == DISCARD_UP:
            self.app.push(CardPickerScreen(self.app, "Discard face up",
                                           lambda c: self._push((None, DISCARD_UP, c)),
                                           self._shown_preview))
        elif verb == DQ:
            from firmware.screens.confirm import ConfirmScreen
            p = self.game.to_move + 1
            self.app.push(ConfirmScreen(self.app, "Disqualify %s?" % self._label(p),
                                        lambda: self._push((None, DQ))))
        else:
            self._push((None, verb))

    def _play(self, card):
        self._push((None, PLAY, card))

    def _push(self, action):
        if self.app.submit(self.session, action):
            self._suggest()

    def _undo(self):
        if self.app.undo_last(self.session) is not None:
            self._suggest()

    def _finish(self):
        self.app.home()

    def _play_preview(self, card):
        if card in self.game.seen:
            return "already shown"
        value = self.game.values[cards.suit(card)]
        try:
            return "%s %d -> %d" % (cards.SUITS[cards.suit(card)], value, pile_after(value, card))
        except IllegalAction as e:
            return e.reason

    def _shown_preview(self, card):
        return "already shown" if card in self.game.seen else ""

    # Drawing -------------------------------------------------------------------

    def draw(self, fb):
        g = self.game
        if g.over:
            self._draw_end(fb)
            return
        p = g.to_move + 1
        ui.bar(fb, self._label(p), 0, "D%d" % g.deck)
        for s in range(4):
            self._draw_pile(fb, s, s * 32)
        hands = " ".join(str(h) if g.active[i] else "-" for i, h in enumerate(g.hands))
        fb.text(("hand " + hands) if len(hands) <= 11 else hands, 0, 46)
        label = LABELS[self.choice]
        fb.fill_rect(0, 55, ui.W, 9, 1)
        ui.center(fb, "<" + label + ">", 56, 0)

    def _draw_pile(self, fb, s, x):
        g = self.game
        value = g.values[s]
        owner = g.owners[s]
        conquered = value == 31
        ink = 0 if conquered else 1
        if conquered:
            fb.fill_rect(x, 9, 32, 36, 1)
        ui.center_in(fb, cards.SUITS[s], x, 32, 10, ink)
        ui.big_center(fb, str(value), 19, 2, ink, x, 32)
        if owner is not None:
            ui.center_in(fb, "P%d" % (owner + 1), x, 32, 36, ink)

    def _draw_end(self, fb):
        g = self.game
        winners = g.winners()
        ui.bar(fb, "Game over")
        if len(winners) == 1:
            ui.center(fb, "Winner", 11)
            name = self._label(winners[0])
            ui.big_center(fb, name[:8], 21, 2)
        elif winners:
            ui.center(fb, "Tie", 11)
            ui.center(fb, " ".join("P%d" % w for w in winners)[:16], 25)
        else:
            ui.center(fb, "No winner", 20)
        won = g.piles_won()
        ui.center(fb, "piles " + " ".join(str(w) for w in won)[:10], 42)
        fb.text("OK:home BK:undo", 0, 56)
