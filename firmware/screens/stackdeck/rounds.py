"""Stack the Deck: the ended rounds, to look back and to edit.

One row per ended round: its number and each player's points. OK opens the round's
sheet for editing: each change replaces the round's lines (StackDeck.edit_round),
the totals follow, and the journal is written anew (Session.rewrite). BACK goes back,
a long BACK goes home.
"""

from firmware.screen import MenuScreen
from firmware.screens.stackdeck import view as v


class HistoryScreen(MenuScreen):
    title = "History: OK edit"

    def __init__(self, app, session, edit_round):
        MenuScreen.__init__(self, app)
        self.session = session
        self.edit_round = edit_round  # r -> opens round r's sheet (the scoreboard's)

    def enter(self):
        g = self.session.game
        entries = []
        for r in range(1, len(g.scores) + 1):
            label = "R%d %s" % (r, " ".join([v.signed(n) for n in g.round_scores(r)]))
            if len(label) > 20:  # 4 players' 3-digit points: the signs go, not a player
                label = "R%d %s" % (r, " ".join(["%d" % n for n in g.round_scores(r)]))
            entries.append((label, lambda r=r: self.edit_round(r)))
        self.set_entries(entries)
