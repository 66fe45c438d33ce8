"""What every game of the core shares: one way in (push), undo (pop), options, history.

A game subclass provides:
  NAME, MIN_PLAYERS, MAX_PLAYERS, OPTIONS (key -> default value), KEY_ORDER
  _parse(actor, tokens) -> action tuple      (tokens of one line, actor peeled off)
  _apply(action) -> undo record              (checks everything first, raises
                                              IllegalAction before changing anything)
  _revert(record)                            (puts back exactly what _apply changed)
  format(action) -> str, state() -> dict, legal() -> list of actions

An action is a tuple (actor, verb, args...) where actor is the 1-based player who acts,
or None when the line did not name one.
"""

from core import notation
from core.errors import IllegalAction
from core import jsonfmt


class Game:
    NAME = ""
    MIN_PLAYERS = 1
    MAX_PLAYERS = 8
    OPTIONS = {}
    KEY_ORDER = ()
    # A game whose undo record would be large (a snapshot) sets this: it keeps no record
    # per action, and pop() rebuilds the position from the history instead. Undo is
    # rare and O(n) then, while the heap holds only the actions themselves.
    UNDO_BY_REPLAY = False

    def __init__(self, players, options=None):
        if players < self.MIN_PLAYERS or players > self.MAX_PLAYERS:
            if self.MIN_PLAYERS == self.MAX_PLAYERS:
                raise IllegalAction("%s needs %d players" % (self.NAME, self.MIN_PLAYERS))
            raise IllegalAction("%s: %d to %d players" % (self.NAME, self.MIN_PLAYERS, self.MAX_PLAYERS))
        self.players = players
        self.options = {}
        for key in self.OPTIONS:
            self.options[key] = self.OPTIONS[key]
        self.history = []
        self._undo = []
        self._setup()
        if options:
            for key in options:
                self.set_option(key, options[key])

    def _setup(self):
        """Build the starting position from self.players and self.options."""

    # Options --------------------------------------------------------------

    def set_option(self, key, value):
        """Set a house rule or timing before the first action. value: str or its type."""
        key = key.lower()
        if self.history:
            raise IllegalAction("options go first")
        if key not in self.OPTIONS:
            raise IllegalAction("unknown option " + key)
        default = self.OPTIONS[key]
        if isinstance(default, int) and isinstance(value, str):
            value = notation.parse_int(value, key)
        value = self._check_option(key, value)
        self.options[key] = value
        self._setup()

    def _check_option(self, key, value):
        """Refuse an out-of-range option value; return the value to keep."""
        return value

    def header_lines(self):
        """The transcript lines that set this game up: the header and changed options."""
        lines = [notation.format_header(self.NAME, self.players)]
        for key in sorted(self.options):
            if self.options[key] != self.OPTIONS[key]:
                lines.append("option %s %s" % (key, self.options[key]))
        return lines

    # The one way in --------------------------------------------------------

    def parse(self, line):
        """A line of table notation -> an action tuple (IllegalAction if malformed)."""
        tokens = notation.tokenize(line) if isinstance(line, str) else line
        actor, rest = notation.split_actor(tokens, self.players)
        return self._parse(actor, rest)

    def push(self, action):
        """Apply an action (tuple or line). Illegal: IllegalAction, nothing changed."""
        if isinstance(action, str):
            action = self.parse(action)
        record = self._apply(action)
        self.history.append(action)
        if not self.UNDO_BY_REPLAY:
            self._undo.append(record)
        return action

    def pop(self):
        """Undo the last action and return it (IllegalAction when there is none)."""
        if not self.history:
            raise IllegalAction("nothing to undo")
        if self.UNDO_BY_REPLAY:
            last = self.history.pop()
            self._replay(self.history)
            return last
        self._revert(self._undo.pop())
        return self.history.pop()

    def _replay(self, actions):
        """Rebuild the position from the start through `actions` (all were legal)."""
        self.history = []
        self._undo = []
        self._setup()
        for action in actions:
            self._apply(action)
            self.history.append(action)

    def is_legal(self, action):
        """True when push(action) would be accepted; the state is not changed."""
        try:
            self.push(action)
        except IllegalAction:
            return False
        self.pop()
        return True

    def to_json(self):
        return jsonfmt.dumps(self.state(), self.KEY_ORDER)

    # Subclass hooks ----------------------------------------------------------

    def _parse(self, actor, tokens):
        raise IllegalAction("unknown: " + tokens[0])

    def _apply(self, action):
        raise IllegalAction("not supported")

    def _revert(self, record):
        pass

    def format(self, action):
        raise NotImplementedError

    def state(self):
        return {"game": self.NAME, "players": self.players}

    def legal(self):
        return []
