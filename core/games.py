"""The games the core knows, by their notation name, imported only when asked for
(the board keeps only the game being played in its heap)."""

from core.errors import IllegalAction

# name -> (module, class, title for menus, MIN_PLAYERS, MAX_PLAYERS: the class's own,
# here too so that a menu can offer them without loading the game)
GAMES = {
    "stack31": ("core.stack31", "Stack31", "Stack 31", 1, 8),
    "stackdeck": ("core.stackdeck", "StackDeck", "Stack the Deck", 2, 4),
    "stress": ("core.stress", "Stress", "Stress", 2, 4),
}
ORDER = ("stack31", "stackdeck", "stress")


def game_class(name):
    entry = GAMES.get(name)
    if entry is None:
        raise IllegalAction("unknown game " + name)
    try:
        module = __import__(entry[0], None, None, (entry[1],))
    except ImportError as e:
        # Only a game left out of this build is "not available"; a broken import inside
        # the game's module is a bug and must show as one.
        if entry[0].split(".")[-1] not in str(e):
            raise
        raise IllegalAction("game not available: " + name)
    return getattr(module, entry[1])


def new_game(name, players, options=None):
    return game_class(name)(players, options)
