"""Stack the Deck at the table: the scoreboard, and the final standings at the end.

Scoreboard: "Round r of N" in the title bar, then one row per player with the name
from the settings, the total in large digits, and the open round's provisional
points; "D" marks the dealer, ">" the player who starts.
    OK          the round sheet (enter each player's stacks, who went out, end the
                round; the history with editing is at the bottom of it); in a new
                round it opens on P1's counters (BACK: the sheet), and each save
                opens the next player's
    RIGHT       the history of ended rounds (pick one, change its entries)
    BACK        undo the last line
    long BACK   home (the game stays saved)
Final standings (after the last round): the players by total, winners inverted,
ties shared. OK home, RIGHT history, BACK undoes the last `end`.
"""

from firmware.drivers import buttons as b
from firmware import ui
from firmware.screen import Screen
from firmware.screens.stackdeck import view as v


class StackDeckScreen(Screen):
    # Heap (issue 11): few methods, each a name a board never frees
    def __init__(self, app, session):
        Screen.__init__(self, app)
        self.session = session
        self.game = session.game

    def enter(self):
        self.app.redraw()

    # Input ---------------------------------------------------------------------

    def on_button(self, kind, button):
        if button == b.OK and kind == b.SHORT:
            if self.game.over:
                self.app.home()
            else:  # the round sheet
                from firmware.screens.stackdeck.sheet import RoundTarget, SheetScreen
                sheet = SheetScreen(
                    self.app, RoundTarget(self.session, self.game.current_round(), True),
                    self.open_history)
                self.app.push(sheet)
                if self.game.open is None:  # a new round: straight to P1's counters
                    sheet.open(1, 0)  # (BACK: the sheet under them)
        elif button == b.RIGHT and kind == b.PRESS:
            self.open_history()
        elif button == b.BACK and kind == b.SHORT:
            self.app.undo_last(self.session)
        elif button == b.BACK and kind == b.LONG:
            self.app.home()

    # The scoreboard opens the sheet and the rounds and hands each the way to the
    # other, so neither imports the other (no import circle).

    def open_history(self):
        if not self.game.scores:
            self.app.toast("no round ended yet")
            return
        from firmware.screens.stackdeck.rounds import HistoryScreen
        self.app.push(HistoryScreen(self.app, self.session, self.edit_round))

    def edit_round(self, r):
        """The sheet of ended round r, to edit it (from the rounds list)."""
        from firmware.screens.stackdeck.sheet import RoundTarget, SheetScreen
        self.app.push(SheetScreen(self.app, RoundTarget(self.session, r, False)))

    def toast_place(self):
        return "top"  # the bottom row holds the last player's total

    # Drawing -------------------------------------------------------------------

    def draw(self, fb):
        g = self.game
        app = self.app
        totals = g.totals()
        rows = []
        if g.over:  # the final standings: a module of their own, drawn once a match
            from firmware.screens.stackdeck.standings import draw_standings
            draw_standings(fb, app, g, totals)
            return
        r = g.current_round()
        # The title bar: the round, and on its right what OK and RIGHT open (both keys
        # are otherwise invisible here), shortened to fit.
        n = g.options["rounds"]
        hint = "OK:sheet >:hist" if g.scores else "OK:sheet"
        title = "Round %d of %d" % (r, n)
        for t in (title, "R%d of %d" % (r, n), "R%d/%d" % (r, n)):
            if len(t) + 1 + len(hint) <= ui.COLS:
                ui.bar(fb, t, 0, hint)
                break
        else:
            ui.bar(fb, title)
        dealer = g.dealer_of(r)
        first = g.first_of(r)
        prov = g.provisional()
        out = g.open.out if g.open is not None else []
        last = g.scores[-1] if g.scores else None
        for p in range(1, g.players + 1):
            mark = "D" if p == dealer else ">" if p == first else ""
            sub = short = ""
            # (at 4 players only "out" fits beside a total: a number there would
            # read as part of it; the sheet has the points)
            if prov is not None:  # the open round so far
                sub = "now " + v.signed(prov[p - 1])
                if p in out:
                    sub += " out"
                    short = "out"
            elif last is not None:  # what the round just ended gave, in words
                sub = "R%d %s" % (r - 1, v.signed(last[p - 1]))
            rows.append((mark, v.name(app, p), sub, short, str(totals[p - 1]), False))
        v.draw_rows(fb, rows)
