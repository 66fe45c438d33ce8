"""Stack the Deck: build one stack card by card, with the checker's verdict live.

    ANN turned
         1  Blue          the card: its number large, its colour as a word
      1-2 Blue            the stack so far, in words
     run needs 3 cards    the checker's verdict (inverted when it may be saved)

UP/DOWN the number (1 to 10, then W), LEFT/RIGHT the colour. It opens on 1 in the
colour used last. OK adds the card; a card this stack or another player already
holds this round is refused at once, with who has it ("2 Blue: BOB has it"), and the
picker says so before OK too. After a card the picker stands on the card most
likely next (the run's next number in the same colour), and a stack that can take
no more (a run of three, a pair, two unturned cards) is saved at once: a run is 5
presses. A long OK saves a stack that could grow (a single unturned card, 7-W); a
refusal (the round's: "more than 7 wilds") shows its reason and nothing changes.
BACK with cards on the stack asks first, naming the player and the stack ("Drop
ANN's 4-7 Red?"): OK drops it (back to the player's page, nothing saved), BACK takes
the last card off (the one-card correction: BACK, BACK) and stays. With no card on
the stack BACK leaves at once; a long BACK goes home.
"""

from core.stackdeck import stacks as st
from core.errors import IllegalAction
from firmware.drivers import buttons as b
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
        self.number = 1
        self.colour = app.memory.get("stackdeck colour", 0)
        self.stack = []
        used = {}  # the numbered cards on the table this round -> who holds them
        for _, a in target.actions():
            if a[1] == "turned" or a[1] == "unturned":
                for s in a[2]:
                    for c in s:
                        used[c] = a[0]
        self.used = used

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
            if self.add():
                return
        elif button == b.OK and kind == b.LONG:
            self.save()
            return
        elif button == b.BACK and kind == b.SHORT:
            app = self.app
            if not self.stack:
                app.pop()  # nothing entered: nothing to lose
                return
            # drop the stack, or take the last card off (loaded only when asked)
            from firmware.screens.stackdeck.ask import Ask
            names = self.target.game.colour_names()
            cards = ["Wild" if c == st.WILD else "%d %s" % (st.number(c), names[st.colour(c)])
                     for c in self.stack]
            words = stack_words(self.stack, names)
            if len(words) > ui.COLS:  # a card a line: a number never parted from its colour
                words = "\n".join(cards)
            app.push(Ask(app, "Drop %s's\n%s?" % (v.name(app, self.p), words), app.pop,
                         self.stack.pop, "OK: drop it", ("BACK: %s off" % cards[-1])[:ui.COLS]))
            return
        else:
            Screen.on_button(self, kind, button)  # long BACK home
            return
        self.app.redraw()

    def why_not(self, card):
        """Why the card cannot go on this stack now (None: it can)."""
        if len(self.stack) >= 3:
            return "too many cards"
        if card == st.WILD:
            return None
        words = "%d %s" % (st.number(card), self.target.game.colour_names()[st.colour(card)])
        if card in self.stack:
            return words + ": in this stack"
        who = self.used.get(card)
        if who is not None:
            return "%s: %s has it" % (words, v.name(self.app, who))
        return None

    def add(self):
        """OK: the card goes on (True when that saved the stack and left)."""
        card = self.card
        reason = self.why_not(card)
        if reason is not None:
            self.app.refuse(reason)
            return False
        self.stack.append(card)
        stack = tuple(self.stack)
        if card != st.WILD:
            # the card most likely next: the run's next number in the same colour
            # (down from 10, or down when the run goes down)
            self.app.memory["stackdeck colour"] = self.colour = st.colour(card)
            n = st.number(card)
            down = n == 10 or (len(stack) > 1 and stack[-2] != st.WILD and
                               stack[-2] % 10 > card % 10)
            if 1 < n or not down:
                self.number = n - 1 if down else n + 1
        # complete and able to take no more: saved at once
        full = len(stack) == 3
        if len(stack) == 2:
            full = st.unturned_reason(stack) is None  # two cards that can stand
            if self.turned:
                full = not full and st.turned_reason(stack) is None
        return full and self.save()

    def save(self):
        """Save the stack as the player's line; True when saved (the screen left)."""
        if not self.stack:
            self.app.toast("add a card first")
            return False
        t = self.target
        stack = tuple(self.stack)
        line = "P%d %s %s" % (self.p, "turned" if self.turned else "unturned",
                              st.stack_name(stack, t.game.letters))
        try:
            t.add(line)
        except IllegalAction as e:
            self.app.refuse(e.reason)
            return False
        self.app.beep()
        self.app.pop()
        name = v.name(self.app, self.p)
        verdict = stack_verdict(stack, self.turned)[1]
        text = "%s: %s %s" % (name, stack_words(stack, t.game.colour_names()), verdict)
        if len(ui.wrap(text, ui.BOX_COLS)) > 2:  # the message has two lines
            text = "%s: %s" % (name, verdict)
        self.app.toast(text)
        return True

    def draw(self, fb):
        g = self.target.game
        kind = "turned" if self.turned else "unturned"
        ui.bar(fb, "%s %s" % (v.name(self.app, self.p), kind))
        card = self.card
        # the card: its number in big digits, its colour as a word beside it (never a
        # letter that reads as a digit); the digits end at y 33, a descender of the
        # word (p, y) at 35: the text under them from y 37
        if card == st.WILD:
            ui.big_center(fb, "Wild", 18, 2)
        else:
            number = "%d" % st.number(card)
            word = g.colour_names()[self.colour]
            scale = 2 if len(word) <= 7 else 1
            nw = ui.big_width(number, 3)
            ww = ui.big_width(word, scale)
            x = (ui.W - nw - 8 - ww) // 2
            ui.big(fb, number, x, 10, 3)
            ui.big(fb, word, x + nw + 8, 18 if scale == 2 else 26, scale)
        lines = []
        if self.stack:
            lines = ui.wrap(stack_words(self.stack, g.colour_names()))[:2]
        else:
            lines = ["OK: add card", "hold OK: save"]
        for i in range(len(lines)):
            ui.center(fb, lines[i], 37 + 9 * i)
        reason = self.why_not(card)
        if reason is not None and len(self.stack) < 3:
            ok, verdict = False, reason
        elif self.stack:
            ok, verdict, _ = stack_verdict(tuple(self.stack), self.turned)
        else:
            return
        if ok:
            fb.fill_rect(0, 55, ui.W, 9, 1)
        ui.center(fb, verdict[:ui.COLS], 56, 0 if ok else 1)


def stack_verdict(stack, turned):
    """(ok, words, points) for a stack being built as turned or unturned:
    the checker's verdict, or its reason when it may not be saved so."""
    if not stack:
        return False, "add a card", 0
    if turned:
        reason = st.turned_reason(stack)
        if reason is not None:
            return False, reason, 0
        points = st.turned_points(stack)
        kind = st.complete_kind(stack)
        one = " 1 colour" if st.one_colour(stack) else ""
        return True, "%s%s %s" % (kind, one, v.signed(points)), points
    reason = st.unturned_reason(stack)
    if reason is not None:
        return False, reason, 0
    points = st.unturned_points(stack)
    return True, "stands %s" % v.signed(points), points


def stack_words(stack, names):
    """A stack in words: '1-2-3 Blue' when its numbered cards share a colour (a wild
    is W: '7-W Blue', 'W-W'), else each card with its colour: '4 Red 5 Blue'."""
    nums = "-".join(["W" if c == 50 else str(c % 10 + 1) for c in stack])
    colours = [c // 10 for c in stack if c != 50]
    if not colours:
        return nums
    if colours.count(colours[0]) == len(colours):
        return nums + " " + names[colours[0]]
    return " ".join(["W" if c == 50 else "%d %s" % (c % 10 + 1, names[c // 10])
                     for c in stack])


def entry_words(game, action):
    """A player's entry line in a menu row (20 characters), points first:
    '+20 4-5-6 Green', '-25 open W', '+15 counts', 'went out'."""
    from core.stackdeck.counts import COUNTS, points
    verb = action[1]
    if verb == "out":
        return "went out"
    if verb == COUNTS:
        return "%s counts" % v.signed(points(action[2]))
    from core.stackdeck import stacks as st
    total = 0
    for s in action[2]:
        total += st.turned_points(s) if verb == "turned" else st.unturned_points(s)
    names = game.colour_names()
    words = " ".join([stack_words(s, names) for s in action[2]])
    mark = "" if verb == "turned" else "open "
    text = "%s %s%s" % (v.signed(total), mark, words)
    if len(text) > ui.Menu.LABEL_COLS:  # the numbers alone
        words = " ".join(["-".join(["W" if c == 50 else str(c % 10 + 1) for c in s])
                          for s in action[2]])
        text = "%s %s%s" % (v.signed(total), mark, words)
    return text
