"""Stack the Deck: the final standings (after the last round): the players by total,
winners inverted, ties shared; the title names the winner or the tie. A module of
its own: drawn once a match, it need not sit in the heap through every round."""

from firmware import ui
from firmware.screens.stackdeck import view as v


def draw_standings(fb, app, g, totals):
    rows = []
    winners = g.winners()
    if len(winners) == 1:
        title = v.name(app, winners[0]) + " wins!"
    else:
        title = "Tie: " + " ".join([v.name(app, p) for p in winners])
        if len(title) > ui.COLS:
            title = "Tie: %d winners" % len(winners)
    ui.bar(fb, title if len(title) <= ui.COLS else "Final standings")
    for p in sorted(range(1, g.players + 1), key=lambda p: (-totals[p - 1], p)):
        rank = "%d" % (1 + len([t for t in totals if t > totals[p - 1]]))
        rows.append((rank, v.name(app, p), "winner" if p in winners else "", "",
                     str(totals[p - 1]), p in winners))
    v.draw_rows(fb, rows)
