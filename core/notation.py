"""The table notation's shared vocabulary: tokens, players, numbers, headers.

Every game parses its own verbs; what is common to all of them lives here so the
three games read alike (see seeds/notation.md).
"""

from core.errors import IllegalAction


def tokenize(line):
    """Split a line into tokens, dropping everything after '#'."""
    cut = line.find("#")
    if cut >= 0:
        line = line[:cut]
    return line.split()


MAX_DIGITS = 12  # the longest number any line may hold (int() refuses 4,300+ digits)


def is_digits(text):
    """True for 1 to MAX_DIGITS ASCII digits. (str.isdigit accepts Unicode digits such
    as '\u00b2' that int() refuses; this does not.)"""
    if not text or len(text) > MAX_DIGITS:
        return False
    for ch in text:
        if ch < "0" or ch > "9":
            return False
    return True


def is_player_token(token):
    return len(token) >= 2 and token[0] in "pP" and is_digits(token[1:])


def parse_player(token, players):
    """'P2' -> 2, checked against the number of players."""
    if not is_player_token(token):
        raise IllegalAction("not a player: " + shorten(token))
    number = int(token[1:])
    if number < 1 or number > players:
        raise IllegalAction("no player P%d" % number)
    return number


def format_player(number):
    return "P%d" % number


def parse_int(token, what="number"):
    """An optionally negative whole number in ASCII digits (at most MAX_DIGITS)."""
    text = token
    if text[:1] == "-":
        text = text[1:]
    if not is_digits(text):
        raise IllegalAction("bad %s: %s" % (what, shorten(token)))
    return int(token)


def shorten(token, width=12):
    """A token as a refusal may quote it: at most `width` characters."""
    if len(token) <= width:
        return token
    return token[:width - 3] + "..."


def split_actor(tokens, players):
    """Peel an optional leading player token off an action line.

    Returns (player or None, the remaining tokens, keywords lower-cased).
    """
    actor = None
    if tokens and is_player_token(tokens[0]):
        actor = parse_player(tokens[0], players)
        tokens = tokens[1:]
    if not tokens:
        raise IllegalAction("no action given")
    return actor, tokens


def parse_header(tokens):
    """'game NAME players N' -> (name, n). The range of N is the game's to check."""
    if len(tokens) != 4 or tokens[0].lower() != "game" or tokens[2].lower() != "players":
        raise IllegalAction("header must be: game NAME players N")
    return tokens[1].lower(), parse_int(tokens[3], "player count")


def format_header(name, players):
    return "game %s players %d" % (name, players)
