"""How an archived game is named on the History screens: the game's short name, the
players' names (those it was played with: the row's n=, P1.. without) and its result.
Shared by the list (history.py) and a game's summary (history_game.py), which so need
not import each other. Every line is sized for names of 10 characters: what does not
fit in its columns is said in fewer words ("tie of 3"), never cut."""


SHORT = {"stack31": "S31", "stackdeck": "Deck", "stress": "Stress"}
LONG = {"stack31": "Stack 31", "stackdeck": "Deck", "stress": "Stress"}


def word(row):
    """The result in one word: 'won', 'tie', 'left' (a game left unfinished) or
    'damaged' (a transcript that does not replay to its end)."""
    if row.status == "bad":
        return "damaged"
    if row.status != "end":
        return "left"
    return "won" if len(row.winners) == 1 else "tie" if row.winners else "over"


def head(row):
    """The list's first line: '12 Deck 3p won' (20 columns at most)."""
    if row.game == "?":
        return "%d game unknown" % row.seq
    w = word(row)
    return "%d %s %dp%s" % (row.seq, SHORT.get(row.game, row.game[:6]), row.players,
                            "" if w == "damaged" else " " + w)


def damage(row):
    """'damaged: 4 of 48' (moves replayed of the moves it holds)."""
    if row.of > row.moves:
        return "damaged: %d of %d" % (row.moves, row.of)
    return "damaged at move %d" % row.moves


def who(row, cols):
    """The list's second line (cols columns): the winner, those tied, the scores of a
    game left, or the damage."""
    if row.status == "bad":
        return damage(row)
    names = row.names()
    if row.status != "end":  # a game left: the scores, with the names where they fit
        s = " ".join([names[p] + " " + str(row.scores[p]) for p in range(len(row.scores))
                      if p < len(names)])
        if len(s) > cols:
            s = " ".join([str(v) for v in row.scores])
        return s if len(s) <= cols else "after %d moves" % row.moves
    if not row.winners:
        return "no winner"
    s = "+".join([names[w - 1] for w in row.winners if 0 < w <= len(names)])
    return s if len(s) <= cols else "%d players tied" % len(row.winners)


def result(row, cols=21):
    """A summary's result line: 'ANN won', 'tie ANN+BOB', 'left after 88 moves'."""
    if row.status == "bad":
        return damage(row)
    if row.status != "end":
        return "left after %d moves" % row.moves
    if len(row.winners) == 1:
        return who(row, cols - 4) + " won"
    if not row.winners:
        return "no winner"
    s = who(row, cols - 4)
    return s if s.endswith("tied") else "tie " + s
