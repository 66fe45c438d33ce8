"""Stack 31 at the table: the four piles, whose turn, and a turn in a few presses.

Main view: the four suit piles as columns (value in large digits, owner under it, a
conquered pile drawn inverted), the player to move and the deck in the title bar, the
hand counts, and the action line. LEFT/RIGHT choose the action, OK takes it: Draw and
Discard down in one press, Play and Discard up through the card picker. UP or DOWN
open the picker for a play straight away: UP on the likeliest card (one that takes
a pile to 31: the number that makes 31 exactly, else a king), DOWN on a low card of
the opposite suit, so any card is a few presses away. The picker only stands on
cards that can be played (or, to discard face up, that were never shown). BACK
undoes the last action; a long BACK goes home (the game stays saved).
"""

from core import cards
from core.errors import IllegalAction
from core.stack31 import DISCARD_DOWN, DISCARD_UP, DQ, DRAW, PASS, PLAY, pile_after
from firmware import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step
from firmware.screens.cardpicker import CardPickerScreen

# The action line's ring (RIGHT from Draw: Play, Pass, Disc down; LEFT: Disqualify,
# Disc up). Neighbours differ in at most 9 characters, or share their first letters
# (Disc up / Disqualify / Draw), so a LEFT/RIGHT sends one window of at most 56 columns:
# 64 bytes. "Discard up" beside "Play" cost 72, "Discard down" beside "Pass" 80.
ACTIONS = (DRAW, PLAY, PASS, DISCARD_DOWN, DISCARD_UP, DQ)
LABELS = ("Draw", "Play", "Pass", "Disc down", "Disc up", "Disqualify")


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
            self.choice = 0  # Draw
        elif hand:
            self.choice = 1  # Play
        else:
            self.choice = 2  # Pass
        self.app.redraw()

    def _label(self, p):
        return self.app.player_label(p)

    # Input ---------------------------------------------------------------------

    def on_button(self, kind, button):
        if button in (b.LEFT, b.RIGHT) and is_step(kind) and not self.game.over:
            self.choice = (self.choice + (1 if button == b.RIGHT else -1)) % len(ACTIONS)
            self.app.redraw()
        elif button in (b.UP, b.DOWN) and kind == b.PRESS and not self.game.over:
            self._open_play(button == b.UP)
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
            self._open_play(True)
        elif verb == DISCARD_UP:
            if self._hand_refused(DISCARD_UP):
                return
            self.app.push(CardPickerScreen(self.app, "Discard face up",
                                           lambda c: self._push((None, DISCARD_UP, c)),
                                           None, self._unseen, self.discard_start(), True,
                                           self._piles()))
        elif verb == DQ:
            from firmware.screens.confirm import ConfirmScreen
            p = self.game.to_move + 1
            self.app.push(ConfirmScreen(self.app, "Disqualify %s?" % self._label(p),
                                        lambda: self._push((None, DQ))))
        else:
            self._push((None, verb))

    def _open_play(self, high):
        if self._hand_refused(PLAY):
            return
        starts = self.play_starts()
        if starts is None:
            self.app.refuse("no card can be played")
            return
        self.app.push(CardPickerScreen(self.app, "Play a card", self._play, None,
                                       self.playable, starts[0 if high else 1], True,
                                       self._piles()))

    def _hand_refused(self, verb):
        """With an empty hand a card entry is refused at once (the rules' reason)."""
        if self.game.hands[self.game.to_move]:
            return False
        self._push((None, verb, cards.make(cards.QUEEN, 0)))
        return True

    def _play(self, card):
        return self._push((None, PLAY, card))

    def _push(self, action):
        if self.app.submit(self.session, action):
            self._suggest()
            return True
        return False

    # Where the picker opens ----------------------------------------------------

    def playable(self, card):
        g = self.game
        if card in g.seen:
            return False
        try:
            pile_after(g.values[cards.suit(card)], card)
        except IllegalAction:
            return False
        return True

    def _unseen(self, card):
        return card not in self.game.seen

    def play_starts(self):
        """(high, low): where the picker opens for a play from UP (and OK on Play) and
        from DOWN. High: a card that takes a pile to 31 (a number making 31 exactly,
        else the king of the lowest pile below 31), else near a 10. Low: near a 5 on
        the opposite suit. None when no card can be played."""
        g = self.game
        exact = None
        king = None
        for s in range(4):
            value = g.values[s]
            if value == 31:
                continue
            need = 31 - value
            if need <= 10 and exact is None and self.playable(cards.make(need, s)):
                exact = cards.make(need, s)
            k = cards.make(cards.KING, s)
            if k not in g.seen and (king is None or value < g.values[cards.suit(king)]):
                king = k
        high = exact if exact is not None else king
        if high is None:
            high = self._nearest_playable(10, 0)
            if high is None:
                return None
        low = self._nearest_playable(5, (cards.suit(high) + 2) % 4)
        return high, low

    def _nearest_playable(self, rank, suit):
        for ds in (0, 1, 3, 2):
            s = (suit + ds) % 4
            for off in range(7):
                for r in ((rank - 1 + off) % 13 + 1, (rank - 1 - off) % 13 + 1):
                    if self.playable(cards.make(r, s)):
                        return cards.make(r, s)
        return None

    def discard_start(self):
        """Discard face up: most likely a card that cannot be played (it would take
        its pile past 31), the highest such on the highest pile; else the play start."""
        g = self.game
        best = None
        for s in range(4):
            for r in range(10, 0, -1):
                c = cards.make(r, s)
                if c not in g.seen and not self.playable(c):
                    if best is None or g.values[s] > g.values[cards.suit(best)]:
                        best = c
                    break
        if best is not None:
            return best
        starts = self.play_starts()
        if starts is not None:
            return starts[0]
        for c in range(cards.DECK_SIZE):
            if c not in g.seen:
                return c
        return 0

    def _undo(self):
        if self.app.undo_last(self.session) is not None:
            self._suggest()

    def _finish(self):
        self.app.home()

    def _piles(self):
        """The picker's side lines, each pile's value ("H 12"): the picker stands only
        on cards that can be taken, and the pile a card goes to is its suit's."""
        return ["%s%3d" % (cards.SUITS[s], v) for s, v in enumerate(self.game.values)]

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
        hands = ("hand " + hands) if len(hands) <= 11 else hands
        ui.text(fb, hands, 0, 46)
        if len(hands) + 7 <= ui.COLS:  # where there is room: UP/DOWN pick a card
            ui.right(fb, "^v card", 46)
        # The action line: the arrows stay put and the word starts at a fixed place, so
        # LEFT/RIGHT send only the letters that change (Discard up -> Discard down
        # changes two words' tails), not a re-centred line.
        fb.fill_rect(0, 55, ui.W, 9, 1)
        ui.text(fb, "<", 1, 56, 0)
        ui.text(fb, LABELS[self.choice], 2 * ui.CHAR, 56, 0)
        ui.text(fb, ">", ui.W - ui.CHAR - 1, 56, 0)

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
            ui.big_center(fb, name[:10], 21, 2)
        elif winners:
            ui.center(fb, "Tie", 11)
            ui.center(fb, " ".join("P%d" % w for w in winners)[:ui.COLS], 25)
        else:
            ui.center(fb, "No winner", 20)
        won = g.piles_won()
        ui.center(fb, "piles " + " ".join(str(w) for w in won)[:ui.COLS - 6], 42)
        ui.text(fb, "OK:home BK:undo", 0, 56)
