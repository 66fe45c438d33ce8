"""Stack the Deck: the round sheet, the screens that enter a round (the open one, or
an ended one being edited) and the round they write to.

SheetScreen: a row per player with their points so far, then "End round" (and
"History") for the open round. UP/DOWN choose, OK opens a player's entries (or ends
the round: a refusal shows the core's reason, "nobody is out", and nothing changes),
BACK goes back, a long BACK goes home. The same screen edits an ended round from the
history.

PlayerScreen: one player's entries in a round. The title shows the player and their
points in the round. Rows: "Counts" (six counters, fastest: counts.py), "Turned
stack" and "Unturned stack" (card by card through the checker: stack.py), "Went
out", then the player's entries so far; OK on an entry asks to remove it. BACK goes
back, a long BACK goes home.

RoundTarget: the same screens enter the open round (each entry a new line:
Session.push, undone by BACK on the scoreboard) and edit an ended round (the round's
lines replaced with StackDeck.edit_round, then Session.rewrite so the journal on
flash matches the edited history). Every change raises IllegalAction with the core's
reason when it is refused, and then nothing has changed.

One module (it was three): they are always open together, and each module costs
its own dict and names in the heap.
"""

from core.errors import IllegalAction
from firmware.screen import MenuScreen
from firmware.screens.stackdeck import view as v


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
        g = target.game
        if target.live:
            self.title = "Round %d of %d" % (target.r, g.options["rounds"])
        else:
            self.title = "Edit round %d" % target.r

    def enter(self):
        t = self.target
        g = t.game
        scores = t.scores()
        out = t.out()
        entries = []
        for p in range(1, g.players + 1):
            label = "%s %s" % (v.name(self.app, p)[:7], v.signed(scores[p - 1]))
            if p in out:
                label += " out"
            entries.append((label, lambda p=p: self.app.push(PlayerScreen(self.app, t, p))))
        if t.live:
            entries.append(("End round", self.end_round))
            if g.scores and self.open_history is not None:
                entries.append(("History", self.open_history))
        self.set_entries(entries)

    def end_round(self):
        g = self.target.game
        if self.target.live and g.open is None:
            # An empty sheet: no round is open yet, and what the table needs to hear
            # is the rule that a round ends when somebody goes out (STD: `end`).
            self.app.refuse("nobody is out")
            return
        try:
            self.target.session.push("end")
        except IllegalAction as e:
            self.app.refuse(e.reason)
            return
        self.app.beep()
        r = self.target.r
        self.app.pop()
        if g.over:
            self.app.toast("match over")
        else:
            self.app.toast("round %d scored" % r)


class PlayerScreen(MenuScreen):
    def __init__(self, app, target, p):
        MenuScreen.__init__(self, app)
        self.target = target
        self.p = p

    def enter(self):
        t = self.target
        p = self.p
        self.title = "%s %s" % (v.name(self.app, p)[:10], v.signed(t.scores()[p - 1]))
        entries = [
            ("Counts", lambda: self.open(0)),
            ("Turned stack", lambda: self.open(1)),
            ("Unturned stack", lambda: self.open(2)),
        ]
        if p not in t.out():
            entries.append(("Went out", lambda: self.commit("P%d out" % p, -1)))
        for i, action in t.actions(p):
            entries.append((v.entry_words(t.game, action),
                            lambda i=i, action=action: self.open(3, i, action)))
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
            line = self.target.game.format(action)
            app.push(ConfirmScreen(app, "Remove %s?" % line, lambda: self.commit(None, i)))

    def commit(self, line, i):
        """Went out (line), or remove entry i; a refusal shows the core's reason."""
        t = self.target
        try:
            if line is not None:
                t.add(line)
            else:
                t.edit(t.lines(), i)
        except IllegalAction as e:
            self.app.refuse(e.reason)
            return
        self.app.beep()
        self.app.toast("removed" if line is None else "%s went out" % v.name(self.app, self.p))
        self.enter()
