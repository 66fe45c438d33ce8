"""Stack 31's end screen: the winner's name large, then every player's piles by
name; loaded when a game is over (firmware/screens/stack31/__init__.py draws the rest)."""

from firmware import ui


def draw_end(board, fb, grid, labels):
    """The winner's name large, then every player's piles by name (the board's grid
    and labels handed in: this module does not import the board, no import circle)."""
    g = board.game
    names = board._names()
    winners = g.winners()
    won = g.piles_won()
    ui.bar(fb, "Game over")
    if len(winners) == 1:
        w = winners[0] - 1
        ui.big_center(fb, names[w], 10, 2)
        n = won[w]
        ui.center(fb, "wins with %d pile%s" % (n, "" if n == 1 else "s"), 28)
    elif winners:
        ui.big_center(fb, "Tie", 10, 2)
        k = len(winners)
        short = labels(names, (ui.COLS - k + 1) // k)
        ui.center(fb, " ".join(short[w - 1] for w in winners), 28)
    else:
        ui.big_center(fb, "No winner", 10, 2)
    grid(fb, names, [("%d" % w) if g.active[i] else "-" for i, w in enumerate(won)],
         (37, 45))
    ui.text(fb, "OK:home BK:undo", 0, 56)
