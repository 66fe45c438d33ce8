"""A game made from a journal's header (the format: firmware/journal.py): what the
session (firmware.session) and the archive (firmware.archive, a transcript summarised)
both need, below both, so that neither imports the other."""

from core.games import game_class

CALLS_KEPT = 32  # Stress: the calls kept in the heap (the counts keep them all)


def make_game(name, players, options=None):
    cls = game_class(name)
    if getattr(cls, "CALLS_KEPT", 0) is None:
        cls.CALLS_KEPT = CALLS_KEPT
    return cls(players, options)


def game_from_header(texts):
    """The game a journal's header lines start (IllegalAction)."""
    from core import notation
    game = None
    for text in texts:
        if text[:1] == "#":
            continue  # the players' names (#@names): no rule reads them
        tokens = notation.tokenize(text)
        if game is None:
            name, players = notation.parse_header(tokens)
            game = make_game(name, players)
        elif tokens[0].lower() == "option" and len(tokens) == 3:
            game.set_option(tokens[1], tokens[2])  # core.transcript not loaded for it
        else:
            from core import transcript
            transcript.apply_line(game, tokens)
    return game
