"""How an archived game is named on the History screens: the game's short name and
its result. Shared by the list (history.py) and a game's summary (history_game.py),
which so need not import each other."""


SHORT = {"stack31": "S31", "stackdeck": "Deck", "stress": "Stress"}


def result(row):
    """'P1 won', 'tie P1+P3', 'no winner' or, for a game left, 'left 12-8'."""
    if row.status != "end":
        return "left " + "-".join([str(s) for s in row.scores])
    if not row.winners:
        return "no winner"
    if len(row.winners) == 1:
        return "P%d won" % row.winners[0]
    return "tie " + "+".join(["P%d" % w for w in row.winners])


def label(row):
    return "%d %s %dp %s" % (row.seq, SHORT.get(row.game, row.game), row.players, result(row))
