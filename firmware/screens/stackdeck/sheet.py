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
        if self.live:
            self.session.push(line)
        else:
            self._edit(self.lines() + [line])

    def set_out(self, p):
        """p went out. Editing an ended round moves the `out` to p (a round ends
        with exactly one out); live, it is a new line like any other."""
        line = "P%d out" % p
        if self.live:
            self.session.push(line)
            return
        lines = [x for x in self.lines() if not x.endswith(" out")]
        self._edit(lines + [line])

    def remove(self, i):
        lines = self.lines()
        if not 0 <= i < len(lines):
            raise IllegalAction("no such entry")
        del lines[i]
        self._edit(lines)

    def _edit(self, lines):
        old = self.game.edit_round(self.r, lines)
        try:
            self.session.rewrite()
        except OSError:
            self.game.edit_round(self.r, old)
            raise IllegalAction("storage full: not saved")


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
            entries.append((label, self._player(p)))
        if t.live:
            entries.append(("End round", self.end_round))
            if g.scores and self.open_history is not None:
                entries.append(("History", self._history))
        self.set_entries(entries)

    def _player(self, p):
        def open_player():
            self.app.push(PlayerScreen(self.app, self.target, p))
        return open_player

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

    def _history(self):
        self.open_history()


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
            ("Counts", self._counts),
            ("Turned stack", self._stack(True)),
            ("Unturned stack", self._stack(False)),
        ]
        if p not in t.out():
            entries.append(("Went out", self._out))
        for i, action in t.actions(p):
            entries.append((v.entry_words(t.game, action), self._remover(i, action)))
        self.set_entries(entries)

    def _counts(self):
        from firmware.screens.stackdeck.counts import CountsScreen
        self.app.push(CountsScreen(self.app, self.target, self.p))

    def _stack(self, turned):
        def open_builder():
            from firmware.screens.stackdeck.stack import StackScreen
            self.app.push(StackScreen(self.app, self.target, self.p, turned))
        return open_builder

    def _out(self):
        if self.commit(lambda: self.target.set_out(self.p)):
            self.app.toast("%s went out" % v.name(self.app, self.p))
            self.enter()

    def _remover(self, i, action):
        def ask():
            from firmware.screens.confirm import ConfirmScreen
            line = self.target.game.format(action)
            self.app.push(ConfirmScreen(self.app, "Remove %s?" % line, lambda: self._remove(i)))
        return ask

    def _remove(self, i):
        if self.commit(lambda: self.target.remove(i)):
            self.app.toast("removed")
            self.enter()

    def commit(self, change):
        """Run a change of the round; a refusal shows the core's reason. -> True if done."""
        try:
            change()
        except IllegalAction as e:
            self.app.refuse(e.reason)
            return False
        self.app.beep()
        return True
