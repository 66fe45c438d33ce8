"""Checkpoint lines: a game's position as text (seeds/README.md, "Checkpoints").

A checkpoint is one stream of tokens, wrapped into lines of at most WIDTH characters:

    checkpoint NAME players N moves M  ...the game's own sections...  end

ASCII only, no '#', no line break. Lines break only between tokens, so reading joins
the lines' tokens back into one stream. The game writes and reads its sections in a
fixed order (Game._write / Game._read); everything here is shared by the three games.
"""

from core import notation
from core.errors import IllegalAction

WIDTH = 100
MAGIC = "checkpoint"
END = "end"


def pack(tokens, width=WIDTH):
    """Tokens (strings, no spaces) -> lines of at most `width` characters. An item may
    also be several tokens joined by single spaces (a game's line as it formats it):
    the lines are the same as for its tokens one by one, and a checkpoint's writer
    needs no list of every token (Stack the Deck's holds every ended round)."""
    lines = []
    line = ""
    for item in tokens:
        if (len(line) + 1 if line else 0) + len(item) <= width:
            line = line + " " + item if line else item
            continue
        for t in item.split(" ") if " " in item else (item,):
            if not line:
                line = t
            elif len(line) + 1 + len(t) <= width:
                line += " " + t
            else:
                lines.append(line)
                line = t
    if line:
        lines.append(line)
    return lines


def _check_line(line, width):
    if not isinstance(line, str):
        raise IllegalAction("checkpoint: not text")
    if len(line) > width:
        raise IllegalAction("checkpoint: line too long")
    for c in line.encode():  # bytes: iterating a str interns every character
        if c < 32 or c > 126 or c == 35:  # ' ' to '~', not '#'
            raise IllegalAction("checkpoint: bad character")


def tokens_of(lines, width=WIDTH):
    """Checkpoint lines -> one token list (IllegalAction when they cannot be one)."""
    if isinstance(lines, str) or not isinstance(lines, (list, tuple)):
        raise IllegalAction("checkpoint: a list of lines")
    if not lines:
        raise IllegalAction("checkpoint: empty")
    tokens = []
    for line in lines:
        _check_line(line, width)
        words = line.split()
        if not words:
            raise IllegalAction("checkpoint: blank line")
        tokens.extend(words)
    return tokens


class Reader:
    """Reads a checkpoint's tokens front to back; every refusal is IllegalAction."""

    def __init__(self, tokens):
        self.tokens = tokens
        self.i = 0

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self):
        if self.i >= len(self.tokens):
            raise IllegalAction("checkpoint: cut short")
        t = self.tokens[self.i]
        self.i += 1
        return t

    def word(self, w):
        t = self.take()
        if t != w:
            raise IllegalAction("checkpoint: %s expected" % w)

    def num(self, lo, hi, what):
        """A whole number in lo..hi (hi None: no upper bound)."""
        t = self.take()
        text = t[1:] if t[:1] == "-" and lo is not None and lo < 0 else t
        if not notation.is_digits(text) or (lo is not None and int(t) < lo) or \
                (hi is not None and int(t) > hi):
            raise IllegalAction("checkpoint: bad " + what)
        return int(t)

    def flag(self, what):
        t = self.take()
        if t == "0":
            return False
        if t == "1":
            return True
        raise IllegalAction("checkpoint: bad " + what)

    def until(self, stop):
        """The tokens up to (not including) the next token in `stop`, or the end."""
        out = []
        while self.i < len(self.tokens) and self.tokens[self.i] not in stop:
            out.append(self.tokens[self.i])
            self.i += 1
        return out

    def done(self):
        self.word(END)
        if self.i != len(self.tokens):
            raise IllegalAction("checkpoint: words after end")


def head(name, players, moves):
    return [MAGIC, name, "players", str(players), "moves", str(moves)]


def read_head(reader, name, players):
    """Check the opening tokens against the game; return the move count."""
    reader.word(MAGIC)
    if reader.take() != name:
        raise IllegalAction("checkpoint: another game")
    reader.word("players")
    if reader.num(1, None, "players") != players:
        raise IllegalAction("checkpoint: player count")
    reader.word("moves")
    return reader.num(0, None, "moves")


def player(p):
    """0-based player or None -> 'P1' or '-'."""
    return "-" if p is None else "P%d" % (p + 1)


def read_player(token, players, none_ok=True):
    """'P1' -> 0, '-' -> None (when none_ok)."""
    if token == "-" and none_ok:
        return None
    if not notation.is_player_token(token) or token[0] != "P":
        raise IllegalAction("checkpoint: bad player")
    n = int(token[1:])
    if not 1 <= n <= players:
        raise IllegalAction("checkpoint: bad player")
    return n - 1


def flag(b):
    return "1" if b else "0"
