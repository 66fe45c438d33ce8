"""Stack the Deck: the round sheet, the screens that enter a round (the open one, or
an ended one being edited) and the round they write to.

SheetScreen: a row per player with their points so far, then "End round" (and
"History") for the open round. At a real table a player reads their stacks off the
table ("two pairs and a run"), so OK on a player opens the counters straight away
(counts.py); saving comes back here with the cursor on the next player, so a round
flows down the sheet. RIGHT on a player opens their stacks (PlayerScreen). "End
round" with nobody out asks who went out, then ends the round (a refusal shows the
core's reason and nothing changes). BACK goes back, a long BACK goes home. The same
screen edits an ended round from the history.

PlayerScreen: one player's entries in a round. The title shows the player and their
points in the round. Rows: "Check a stack" and "Unturned stack" (card by card
through the checker: stack.py), "Counts", "Went out" (it stays where it is, marked,
once said), then the player's entries so far; OK on an entry asks, in words, to
remove it. BACK goes back, a long BACK goes home.

RoundTarget: the same screens enter the open round (each entry a new line:
Session.push, undone by BACK on the scoreboard) and edit an ended round (the round's
lines replaced with StackDeck.edit_round, then Session.rewrite so the journal on
flash matches the edited history). Every change raises IllegalAction with the core's
reason when it is refused, and then nothing has changed.

One module (it was three): they are always open together, and each module costs
its own dict and names in the heap.
"""

import sys

from core.errors import IllegalAction
from firmware.drivers import buttons as b
from firmware import ui
from firmware.modules import forget_module
from firmware.screen import MenuScreen
from firmware.screens.stackdeck import view as v


def let_go(keep=()):
    """Back on the sheet or a player's page: the counters, the checker (and the
    words of named stacks) and the four players' scoreboard grid let their modules go (on a board their code would stay in the heap beside the other's: the
    Stack the Deck session runs at the 160 KB goal); they are loaded again when next
    opened, and their names were interned once."""
    if sys.implementation.name == "micropython":
        for name in ("counts", "counts_edit", "stack", "ask", "grid", "standings"):
            if name not in keep:
                forget_module("firmware.screens.stackdeck." + name)


class RoundTarget:
    def __init__(self, session, r, live):
        self.session = session
        self.game = session.game
        self.r = r  # round number
        self.live = live  # True: the open (or next) round; False: an ended round

    def lines(self):
        """The round's entry lines (table notation)."""
        g = self.game
        if g.open is None and self.live:
            return []
        return g.entries(self.r)

    def actions(self, p=None):
        """(index in lines(), action) of the round's entries, of player p or all."""
        out = []
        lines = self.lines()
        for i in range(len(lines)):
            a = self.game.parse(lines[i])
            if p is None or a[0] == p:
                out.append((i, a))
        return out

    def scores(self):
        g = self.game
        if self.live:
            return g.provisional() or [0] * g.players
        return g.round_scores(self.r)

    def out(self):
        return [a[0] for _, a in self.actions() if a[1] == "out"]

    def add(self, line):
        """A new entry line. Live, a new line like any other; editing an ended round,
        `PX out` moves the round's `out` to PX (a round ends with exactly one out)."""
        if self.live:
            self.session.push(line)
            return
        lines = self.lines()
        if line.endswith(" out"):
            lines = [x for x in lines if not x.endswith(" out")]
        self.edit(lines + [line])

    def edit(self, lines, i=-1):
        """The round's lines become LINES (without lines[i] when i >= 0): the game
        and the journal on flash (Session.rewrite), or nothing changed."""
        if i >= 0:
            if i >= len(lines):
                raise IllegalAction("no such entry")
            del lines[i]
        old = self.game.edit_round(self.r, lines)
        try:
            self.session.rewrite()
        except OSError:
            self.game.edit_round(self.r, old)
            raise IllegalAction("storage full: not saved")


# Heap (issue 11): the rows' actions are lambdas (no name each), the screens have few
# methods: every function name is an interned string a board never frees.

class SheetScreen(MenuScreen):
    def __init__(self, app, target, open_history=None):
        MenuScreen.__init__(self, app)
        self.target = target
        self.open_history = open_history  # the live sheet's way to the rounds (the scoreboard's)
        if target.live:
            self.title = "R%d OK:count" % target.r
        else:
            self.title = "Edit R%d" % target.r

    def enter(self):
        let_go()
        t = self.target
        g = t.game
        scores = t.scores()
        out = t.out()
        entries = []
        for p in range(1, g.players + 1):
            label = "%s %s" % (v.name(self.app, p), v.signed(scores[p - 1]))
            if p in out:
                label += " out"
            entries.append((label, lambda p=p: self.open(p, 0)))
        if t.live:
            entries.append(("End round", self.end_round))
            if g.scores and self.open_history is not None:
                entries.append(("History", self.open_history))
        self.set_entries(entries)

    def on_button(self, kind, button):
        if button == b.RIGHT and kind == b.PRESS and self.menu.index < self.target.game.players:
            self.open(self.menu.index + 1, 1)
        else:
            MenuScreen.on_button(self, kind, button)

    def open(self, p, what):
        """Player p's counters (0: OK) or stacks (1: RIGHT)."""
        if what == 0:
            from firmware.screens.stackdeck.counts import CountsScreen
            self.app.push(CountsScreen(self.app, self.target, p, self))
        else:
            self.app.push(PlayerScreen(self.app, self.target, p))

    def toast_place(self):
        # a saved player's words never cover the row the cursor moved on to
        return "top" if self.menu.index - self.menu.top >= 4 else "bottom"

    def draw(self, fb):
        ui.bar(fb, self.title, 0, ">:stacks")
        self.menu.draw(fb)

    def end_round(self, p=0):
        """End the round; with nobody out yet, ask who went out first (p: that
        player, chosen on the question's list)."""
        t = self.target
        g = t.game
        app = self.app
        if p:
            app.pop()  # the question
            try:
                t.add("P%d out" % p)
            except IllegalAction as e:
                app.refuse(e.reason)
                return
        elif not t.out():
            app.push(MenuScreen(app, [(v.name(app, q), lambda q=q: self.end_round(q))
                                      for q in range(1, g.players + 1)], "Who went out?"))
            return
        try:
            t.session.push("end")
        except IllegalAction as e:
            self.enter()
            app.refuse(e.reason)
            return
        app.beep()
        app.pop()  # the scoreboard shows what the round gave each player


class PlayerScreen(MenuScreen):
    def __init__(self, app, target, p):
        MenuScreen.__init__(self, app)
        self.target = target
        self.p = p

    def enter(self):
        # the checker's module stays: its entry words are needed again at once, and
        # let go and loaded anew it would sit in the heap twice (the old copy still
        # alive until the press is over): smallest heap 168 -> 164 KB
        let_go(("stack",))
        t = self.target
        p = self.p
        self.title = "%s %s" % (v.name(self.app, p), v.signed(t.scores()[p - 1]))
        entries = [
            ("Check a stack", lambda: self.open(1)),
            ("Unturned stack", lambda: self.open(2)),
            ("Counts", lambda: self.open(0)),
            ("Went out: yes" if p in t.out() else "Went out",
             lambda: self.commit("P%d out" % p, -1)),
        ]
        for i, action in t.actions(p):
            if action[1] == "counts":  # (a named stack's words load the checker's module)
                from core.stackdeck.counts import points
                label = "%s counts" % v.signed(points(action[2]))
            elif action[1] != "out":
                from firmware.screens.stackdeck.stack import entry_words
                label = entry_words(t.game, action)
            else:
                continue
            entries.append((label, lambda i=i, action=action: self.open(3, i, action)))
        self.set_entries(entries)

    def open(self, what, i=-1, action=None):
        """Open the counters (0), a turned (1) or unturned (2) stack, or ask to remove
        entry i (3); each module is loaded when it is opened."""
        app = self.app
        if what == 0:
            from firmware.screens.stackdeck.counts import CountsScreen
            app.push(CountsScreen(app, self.target, self.p))
        elif what < 3:
            from firmware.screens.stackdeck.stack import StackScreen
            app.push(StackScreen(app, self.target, self.p, what == 1))
        else:
            from firmware.screens.confirm import ConfirmScreen
            from firmware.screens.stackdeck.stack import entry_words
            words = entry_words(self.target.game, action)
            app.push(ConfirmScreen(app, "Remove %s's %s?" % (v.name(app, self.p), words),
                                   lambda: self.commit(None, i)))

    def commit(self, line, i):
        """Went out (line), or remove entry i; a refusal shows the core's reason."""
        t = self.target
        name = v.name(self.app, self.p)
        if line is not None and self.p in t.out():
            self.app.toast("%s went out" % name)
            return
        try:
            if line is not None:
                t.add(line)
            else:
                t.edit(t.lines(), i)
        except IllegalAction as e:
            self.app.refuse(e.reason)
            return
        self.app.beep()
        self.enter()
        self.app.toast("%s: removed" % name if line is None else "%s went out" % name)
