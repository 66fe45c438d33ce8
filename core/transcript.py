"""Whole transcripts: a header, option lines, then actions, one per line.

    game stack31 players 3
    option hand_limit 6
    P1 draw
    P2 draw        # comments and blank lines are ignored

`replay(lines)` applies them and stops at the first malformed or illegal line, keeping
the state as it stood before that line (the notation's replay command is built on it).
Lines may be str or bytes (UTF-8; a line that is not is refused as "not text"); a
UTF-8 byte order mark at the start of the first line is skipped.
"""

from core import notation
from core.errors import IllegalAction
from core.games import new_game


class TranscriptError(Exception):
    """The transcript has no usable header: there is no game to show."""


BOM = "\ufeff"


def text_of(line):
    """A line as str: bytes are decoded as UTF-8 (IllegalAction "not text" if they
    are not UTF-8)."""
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8")
    except (UnicodeError, ValueError):
        raise IllegalAction("not text")


def _numbered(lines):
    """(line number, tokens) of every line that holds words; an undecodable line gives
    (number, IllegalAction) instead, and nothing after it."""
    number = 0
    for line in lines:
        number += 1
        try:
            line = text_of(line)
        except IllegalAction as e:
            yield number, e
            return
        if number == 1 and line[:1] == BOM:
            line = line[1:]
        tokens = notation.tokenize(line)
        if tokens:
            yield number, tokens


def start(tokens):
    """A header's tokens -> a new game, or IllegalAction with the reason."""
    name, players = notation.parse_header(tokens)
    return new_game(name, players)


def apply_line(game, tokens):
    """One non-blank line after the header: an option or an action."""
    if tokens[0].lower() == "option":
        if len(tokens) != 3:
            raise IllegalAction("option KEY VALUE")
        game.set_option(tokens[1], tokens[2])
    else:
        game.push(game.parse(tokens))


def replay(lines):
    """Apply a transcript. Returns (game, error) where error is None or (line_no, reason).

    Raises TranscriptError when there is no valid header (no game to report).
    """
    game = None
    for number, tokens in _numbered(lines):
        if isinstance(tokens, IllegalAction):
            if game is None:
                raise TranscriptError("line %d: %s" % (number, tokens.reason))
            return game, (number, tokens.reason)
        if game is None:
            try:
                game = start(tokens)
            except IllegalAction as e:
                raise TranscriptError("line %d: %s" % (number, e.reason))
            continue
        try:
            apply_line(game, tokens)
        except IllegalAction as e:
            return game, (number, e.reason)
    if game is None:
        raise TranscriptError("no header: game NAME players N")
    return game, None


def write(game):
    """The transcript of a game as it stands: header, options, every action."""
    lines = game.header_lines()
    for action in game.history:
        lines.append(game.format(action))
    return lines
