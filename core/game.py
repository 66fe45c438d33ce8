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

Checkpoints (seeds/README.md, "Checkpoints"): checkpoint() writes the position as text
lines, restore(lines) sets it on a new game, rebase(m, lines) forgets the first m
actions of the history. A subclass provides _write(tokens) and _read(reader) for that.
The history then starts at a base position (None: the start of the game); `moves`
counts every action since the start of the game, also those forgotten.
"""

from core import checkpoint as cp
from core import notation
from core.errors import IllegalAction


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
        self.moves = 0  # actions applied since the game began (history may hold fewer)
        self._base = None  # checkpoint lines of the position history starts from
        # (or a function that reads them back: _base_lines)
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
        if self.history or self.moves:
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
        self.moves += 1
        return action

    def pop(self):
        """Undo the last action and return it (IllegalAction when there is none; after
        restore or rebase, pop goes back no further than the checkpoint)."""
        if not self.history:
            raise IllegalAction("nothing to undo")
        if self.UNDO_BY_REPLAY:
            base = self._base_lines()  # first: a base that cannot be read changes nothing
            last = self.history.pop()
            self._replay(self.history, base)
            return last
        self._revert(self._undo.pop())
        self.moves -= 1
        return self.history.pop()

    def _replay(self, actions, base=None):
        """Rebuild the position from the base (the start, or the checkpoint history
        starts from; base: its lines when already read) through `actions` (all were
        legal)."""
        self._to_base(base)
        self.history = []
        self._undo = []
        for action in actions:
            self.push(action)

    def _to_base(self, base=None):
        """Set the position history starts from (its checkpoint was checked before)."""
        if self._base is None:
            self._setup()
            self.moves = 0
        else:
            self._load(base or self._base_lines())

    def _base_lines(self):
        """The base checkpoint's lines, or None (the start of the game). The base may
        be kept where it lies instead (a journal on flash: firmware/session/__init__.py): then
        _base is a function that reads it back (IllegalAction when it cannot)."""
        base = self._base
        if callable(base):
            base = base()
            if base is None:
                raise IllegalAction("base checkpoint unreadable")
        return base

    # Checkpoints -------------------------------------------------------------

    def checkpoint(self):
        """The position as text lines (no header, no options: those stay at the top of
        the journal). new_game(...).restore(lines) gives this very position back."""
        tokens = cp.head(self.NAME, self.players, self.moves)
        self._write(tokens)
        tokens.append(cp.END)
        return cp.pack(tokens)

    def _load(self, lines):
        """Set the position of checkpoint LINES; IllegalAction if they are not one
        (the position is then half-set: the caller puts it back)."""
        reader = cp.Reader(cp.tokens_of(lines))
        moves = cp.read_head(reader, self.NAME, self.players)
        self._setup()
        try:
            self._read(reader)
        except (ValueError, TypeError, IndexError, KeyError, AttributeError):
            raise IllegalAction("checkpoint: damaged")
        reader.done()
        self.moves = moves

    def restore(self, lines):
        """On a new game (same players and options, nothing pushed): set the position
        of checkpoint() lines. Malformed or inconsistent: IllegalAction, nothing
        changed. Afterwards history is empty and pop() goes back no further."""
        if self.history:
            raise IllegalAction("restore: a new game only")
        lines = tuple(lines) if isinstance(lines, list) else lines
        try:
            self._load(lines)
        except IllegalAction:
            self._to_base()
            raise
        self._base = lines
        self._undo = []

    def rebase(self, m, base_lines):
        """Forget the first m actions of the history (and their undo records).
        base_lines: checkpoint() of the position after them, which pop() rebuilds from
        where it must. pop() then goes back at most len(history) actions."""
        if not isinstance(m, int) or not 0 <= m <= len(self.history):
            raise IllegalAction("rebase: 0 to %d" % len(self.history))
        base_lines = tuple(base_lines) if isinstance(base_lines, list) else base_lines
        # the head is on the first line: no token list of the whole checkpoint
        reader = cp.Reader(cp.tokens_of(base_lines[:1]))
        if cp.read_head(reader, self.NAME, self.players) != self.moves - len(self.history) + m:
            raise IllegalAction("rebase: not that position")
        del self.history[:m]
        if not self.UNDO_BY_REPLAY:
            del self._undo[:m]
        self._base = base_lines

    def base_checkpoint(self):
        """The checkpoint lines of the position history starts from, or None when the
        history starts at the beginning of the game (a journal writes these, then
        every action of history)."""
        return None if self._base is None else list(self._base_lines())

    def is_legal(self, action):
        """True when push(action) would be accepted; the state is not changed."""
        try:
            self.push(action)
        except IllegalAction:
            return False
        self.pop()
        return True

    def to_json(self):
        from core import jsonfmt  # only here: not in a board's heap through a game
        return jsonfmt.dumps(self.state(), self.KEY_ORDER)

    # Subclass hooks ----------------------------------------------------------
    # Every game defines _parse(actor, tokens) -> action, _apply(action) -> undo record,
    # _write(tokens) (append the position's checkpoint sections), _read(reader) (set
    # the position after _setup(), checking it all) and format(action) -> str; here
    # they refuse, all through one function (a board keeps one function object).

    def _hook(self, *args):
        raise IllegalAction("not supported")

    _parse = _apply = _write = _read = format = _hook

    def _revert(self, record):
        pass

    def state(self):
        return {"game": self.NAME, "players": self.players}

    def legal(self):
        return []
