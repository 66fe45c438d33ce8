"""Stack 31's screens: the piles and a turn, here; the card picker (picker.py), the
end (end.py). Imported only when a Stack 31 game is opened; imports core and firmware.

Stack 31 at the table: the four piles, whose turn, and a turn in a few presses.

Main view: the four suit piles as columns (the suit's pip, the value in large digits,
the owner's name under it, a conquered pile drawn inverted), the player to move by
name and the deck in the title bar, every player's hand count by name with a mark on
the player to move, and the action line. Every entry taken is said in words with the
player's name ("ANN drew", "BOB: 7<heart> on <heart> 12->19") in a one-line box over
the action line, which hides nothing the next player needs (a LEFT/RIGHT takes it
away at once); a message of two lines goes there too while the hands take one row,
else over the piles (never over the hands or the title). LEFT/RIGHT choose the action, OK takes it: Draw and
Discard down in one press, Play and Discard up through the card picker. UP or DOWN
open the picker for a play straight away: UP on the likeliest card (one that takes
a pile to 31: the number that makes 31 exactly, else a king), DOWN on a low card of
the opposite suit, so any card is a few presses away. The picker only stands on
cards that can be played (or, to discard face up, that were never shown), and a press
that asked for one it skipped says why ("10<heart> would pass 31"). Its title names
the player ("ANN: play"), and the preview under the card shows the pile before and
after ("<heart> 12 -> 19"). BACK undoes the last action; a long BACK goes home (the
game stays saved).
"""

from core import cards
from core.errors import IllegalAction
from core.stack31 import DISCARD_DOWN, DISCARD_UP, DQ, DRAW, PASS, PLAY, pile_after
from firmware.drivers import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step
from firmware.screens.stack31.picker import CardPickerScreen, card_text

# The action line's ring (RIGHT from Draw: Play, Pass, Disc down; LEFT: Disqualify,
# Disc up). Neighbours differ in at most 9 characters, or share their first letters
# (Disc up / Disqualify / Draw), so a LEFT/RIGHT sends one window of at most 56 columns:
# 64 bytes. "Discard up" beside "Play" cost 72, "Discard down" beside "Pass" 80.
ACTIONS = (DRAW, PLAY, PASS, DISCARD_DOWN, DISCARD_UP, DQ)
LABELS = ("Draw", "Play", "Pass", "Disc down", "Disc up", "Disqualify")
PIPS = "\x01\x02\x03\x04"  # the 6x8 font's suit pips, in core.cards' suit order

# The board's rows: the piles (inverted when conquered) 9-34, the value 10-25, the
# owner 27-33; the hands 36 and 44 (7 rows of ink each); a message of one line over
# the action line from 53, of two lines from 44.
PILE_Y = 9
OWNER_Y = 27
HANDS_Y = (36, 44)


def labels(names, width):
    """Each name cut to `width` characters, all distinct: a name whose cut equals
    another's is its seat instead ("P3"; the seat's digit when width is 1)."""
    cut = [n[:width] for n in names]
    out = []
    for i, c in enumerate(cut):
        if cut.count(c) > 1 or not c:
            c = ("P%d" % (i + 1))[-width:]
        out.append(c)
    for c in out:
        if out.count(c) > 1:  # a name that is another's seat: seats for everybody
            return [("P%d" % (i + 1))[-width:] for i in range(len(names))]
    return out


def fitted(*texts):
    """The first of `texts` that fits a message box's line (the longest names take a
    shorter form)."""
    for t in texts:
        if len(t) <= ui.BOX_COLS:
            return t
    return texts[-1][:ui.BOX_COLS]


def grid(fb, names, values, y_rows, mark=-1):
    """Players in a grid of cells: each a mark column (the player to move), the name
    cut to the room left, a space and the value, the room left over after it (so a
    value stands by its own name, never by the next one); one row of cells for up to
    3 players, else two (4 a row at 8 players)."""
    n = len(names)
    rows = 1 if n <= 3 else 2
    per_row = (n + rows - 1) // rows
    cell = ui.COLS // per_row
    vw = max(len(v) for v in values)
    short = labels(names, cell - 2 - vw - (per_row > 1 and cell > 5))
    at = max(len(c) for c in short) + 2  # the values' column in a cell
    for i in range(n):
        x = (i % per_row) * cell * ui.CHAR
        y = y_rows[i // per_row]
        if i == mark:
            ui.marker(fb, x, y)
        ui.text(fb, short[i], x + ui.CHAR, y)
        ui.text(fb, values[i], x + (at + vw - len(values[i])) * ui.CHAR, y)


class Stack31Screen(Screen):
    def __init__(self, app, session):
        Screen.__init__(self, app)
        self.session = session
        self.game = session.game
        self.choice = 0
        self.steps = 0  # LEFT/RIGHT presses: a message goes when the action line moves
        self._said = None  # the last entry's words (toast_scope)
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

    def _name(self, p):
        """Player p's name (1-based; "P2" when none was given)."""
        return self.app.settings.name(p)

    def _names(self):
        name = self.app.settings.name
        return [name(p) for p in range(1, self.game.players + 1)]

    # Input ---------------------------------------------------------------------

    def on_button(self, kind, button):
        if button in (b.LEFT, b.RIGHT) and is_step(kind) and not self.game.over:
            self.choice = (self.choice + (1 if button == b.RIGHT else -1)) % len(ACTIONS)
            self.steps += 1
            self.app.redraw()
        elif button in (b.UP, b.DOWN) and kind == b.PRESS and not self.game.over:
            self._open_play(button == b.UP)
        elif button == b.OK and kind == b.SHORT:
            if self.game.over:
                self.app.home()
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
            self.app.push(CardPickerScreen(self.app, self._name(self.game.to_move + 1) + ": disc up",
                                           self._discard_up, None, self._unseen,
                                           self.discard_start(), True, self._piles(),
                                           self.why_not))
        elif verb == DQ:
            from firmware.screens.confirm import ConfirmScreen
            p = self.game.to_move + 1
            self.app.push(ConfirmScreen(self.app, "Disqualify %s?" % self._name(p),
                                        lambda: self._push((None, DQ))))
        else:
            self._push((None, verb))

    def _open_play(self, high):
        if self._hand_refused(PLAY):
            return
        starts = self.play_starts()
        if starts is None:
            self.app.refuse("no card is playable")
            return
        self.app.push(CardPickerScreen(self.app, self._name(self.game.to_move + 1) + ": play",
                                       self._play, self.pile_preview, self.playable,
                                       starts[0 if high else 1], True, self._piles(),
                                       self.why_not))

    def _hand_refused(self, verb):
        """With an empty hand a card entry is refused at once (the rules' reason)."""
        if self.game.hands[self.game.to_move]:
            return False
        self._push((None, verb, cards.make(cards.QUEEN, 0)))
        return True

    def _play(self, card):
        return self._picked((None, PLAY, card))

    def _discard_up(self, card):
        return self._picked((None, DISCARD_UP, card))

    def _picked(self, action):
        """A card entry from the picker: the picker closes before the entry is said, so
        the words show on the board (a message belongs to the screen it shows on)."""
        said = self.said(action)
        if not self.app.submit(self.session, action):
            return False
        self.app.pop()
        self._suggest()
        self._say(said)
        return True

    def _push(self, action):
        said = self.said(action)
        if self.app.submit(self.session, action):
            self._suggest()
            self._say(said)
            return True
        return False

    def said(self, action):
        """The words that confirm an entry by the player to move, taken before it is
        applied (a play says its pile before and after): "ANN drew"."""
        g = self.game
        who = self._name(g.to_move + 1)
        verb = action[1]
        if verb == DRAW:
            return fitted(who + " drew")
        if verb == PASS:
            return fitted(who + " passed")
        if verb == DISCARD_DOWN:
            return fitted(who + " discarded")
        if verb == DQ:
            return fitted(who + " disqualified", who + " is out", who + " out")
        card = card_text(action[2])
        if verb == DISCARD_UP:
            return fitted("%s: %s face up" % (who, card), "%s %s face up" % (who, card),
                          "%s: %s up" % (who, card))
        s = cards.suit(action[2])
        before = g.values[s]
        try:
            after = pile_after(before, action[2])
        except IllegalAction:
            return ""  # refused: never said
        return fitted("%s: %s on %s %d->%d" % (who, card, PIPS[s], before, after),
                      "%s: %s %d->%d" % (who, card, before, after),
                      "%s %s %d->%d" % (who, card, before, after),
                      "%s %s ->%d" % (who, card, after))

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

    def why_not(self, card):
        """Why the picker does not offer `card` (asked only of such a card), in words:
        "10<heart> would pass 31", "7<spade> already shown"."""
        g = self.game
        name = card_text(card)
        if card in g.seen:
            return name + " already shown"
        r = cards.rank(card)
        if r == cards.KING:
            return name + " on a pile at 31"
        if r == cards.JACK:
            return name + " on a pile at 0"
        return name + " would pass 31"

    def pile_preview(self, card):
        """Under the card: its pile before and after ("<heart> 12 -> 19"), in fixed
        columns, so a rank step changes only the digits after the arrow."""
        s = cards.suit(card)
        value = self.game.values[s]
        try:
            return "%s %2d -> %2d" % (PIPS[s], value, pile_after(value, card))
        except IllegalAction:
            return self.why_not(card)

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
        action = self.app.undo_last(self.session)
        if action is None:
            return
        self._suggest()
        lines = self.app.toast_text()
        if lines and len(action) > 2:
            # The app says whose entry went and what it was; the card as on this
            # board, with its pip ("undone: ANN's play 7<heart>").
            text = " ".join(lines)
            name = cards.name(action[2])
            if text.endswith(name):
                self.app.toast(text[:-len(name)] + card_text(action[2]))

    def _piles(self):
        """The picker's side lines, each pile's value ("<heart> 12"): the picker stands
        only on cards that can be taken, and the pile a card goes to is its suit's."""
        return ["%s%3d" % (PIPS[s], v) for s, v in enumerate(self.game.values)]

    # Messages ------------------------------------------------------------------

    def toast_scope(self):
        """The words that confirm an entry are for the table: a LEFT/RIGHT (the next
        player choosing) takes them away at once, so the action line is never hidden
        under them. A refusal or an undo's words are for the player acting: they stay
        their time."""
        lines = self.app.toast_text()
        if lines and self._said is not None and " ".join(lines) == self._said:
            return self.steps
        return -1

    def _say(self, text):
        self._said = text
        self.app.toast(text)

    def toast_place(self):
        """One line over the action line; two over the action line and the hands'
        second row when it is empty (up to 3 players), else none: the board draws
        those itself over the piles (draw)."""
        lines = self.app.toast_text()
        if lines and len(lines) > 1 and self.game.players > 3 and not self.game.over:
            return None
        return "bottom"

    # Drawing -------------------------------------------------------------------

    def draw(self, fb):
        g = self.game
        if g.over:
            # the end screen's code is loaded only then (its module goes home with it)
            from firmware.screens.stack31.end import draw_end
            draw_end(self, fb, grid, labels)
            return
        names = self._names()
        ui.bar(fb, names[g.to_move] + "'s turn", 0, "D%d" % g.deck)
        owners = labels(names, 4)  # 4 of 5 columns: neighbours never read as one word
        for s in range(4):
            self._draw_pile(fb, s, s * 32, owners)
        grid(fb, names, [("%d" % h) if g.active[i] else "-" for i, h in enumerate(g.hands)],
             HANDS_Y, g.to_move)
        if g.players <= 3:  # the hands' second row is free: UP/DOWN pick a card
            ui.right(fb, "^v: card", HANDS_Y[1])
        # The action line: the arrows stay put and the word starts at a fixed place, so
        # LEFT/RIGHT send only the letters that change (Discard up -> Discard down
        # changes two words' tails), not a re-centred line.
        fb.fill_rect(0, 55, ui.W, 9, 1)
        ui.text(fb, "<", 1, 56, 0)
        ui.text(fb, LABELS[self.choice], 2 * ui.CHAR, 56, 0)
        ui.text(fb, ">", ui.W - ui.CHAR - 1, 56, 0)
        # A two-line message over the piles (more than 3 players: toast_place). Two
        # lines are never an entry's words, which fit one: this message stays its time,
        # as toast_scope keeps it. (Inline: a helper is one more code object, ~100 B.)
        lines = self.app.toast_text()
        if lines is not None and len(lines) >= 2 and g.players > 3:
            ui.box(fb, 0, PILE_Y - 1, ui.W, HANDS_Y[0] - PILE_Y, lines)

    def _draw_pile(self, fb, s, x, owners):
        """A pile in 32 columns: its pip at the left, the value in large digits
        centred in the 24 columns right of it, the owner's name under the value."""
        g = self.game
        value = g.values[s]
        owner = g.owners[s]
        ink = 0 if value == 31 else 1
        if not ink:  # conquered
            fb.fill_rect(x, PILE_Y, 32, OWNER_Y + 8 - PILE_Y, 1)
        ui.text(fb, PIPS[s], x + 2, PILE_Y + 5, ink)
        ui.big_center(fb, str(value), PILE_Y + 1, 2, ink, x + 8, 24)
        if owner is not None:
            ui.center_in(fb, owners[owner], x, 32, OWNER_Y, ink)
