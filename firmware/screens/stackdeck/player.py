"""Stack the Deck: one player's entries in a round.

The title shows the player and their points in the round. Rows: "Counts" (six
counters, fastest), "Turned stack" and "Unturned stack" (card by card through the
checker), "Went out", then the player's entries so far; OK on an entry asks to
remove it. BACK goes back, a long BACK goes home.
"""

from core.errors import IllegalAction
from firmware.screen import MenuScreen
from firmware.screens.stackdeck import view as v


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
