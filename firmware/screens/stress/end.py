"""Stress: the end of the match (its own small module: loaded when the match is won,
and dropped at home)."""

from firmware import ui


def draw_end(fb, game, names):
    """The match is won: the winner, the final score, OK goes home."""
    w = game.match_winner()
    ui.bar(fb, "Match over")
    ui.center(fb, "match winner", 10)  # the name is under it: no seat to count
    ui.big_center(fb, names[w - 1][:10], 19, 2)
    text = "-".join(str(x) for x in game.games_won)
    ui.big_center(fb, text, 37, 2)
    ui.text(fb, "OK: home  BACK: undo", 0, 56)
