"""Stack the Deck: one round's sheet: a row per player with their points so far,
then "End round" (and "History") for the open round.

UP/DOWN choose, OK opens a player's entries (or ends the round: a refusal shows
the core's reason, "nobody is out", and nothing changes), BACK goes back, a long
BACK goes home. The same screen edits an ended round from the history.
"""

from core.errors import IllegalAction
from firmware.screen import MenuScreen
from firmware.screens.stackdeck import view as v


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
            from firmware.screens.stackdeck.player import PlayerScreen
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
