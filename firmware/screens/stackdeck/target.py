"""Stack the Deck: the round the entry screens write to.

The same screens enter the open round (each entry a new line: Session.push, undone
by BACK on the scoreboard) and edit an ended round (the round's lines replaced with
StackDeck.edit_round, then Session.rewrite so the journal on flash matches the
edited history). Every change raises IllegalAction with the core's reason when it
is refused, and then nothing has changed.
"""

from core.errors import IllegalAction


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
