"""Stack the Deck's rules: the game here; the round (sheet.py), counts, stacks, turn,
rare paths (extra.py). Imports core's shared base only; screens and tools import it.

Stack the Deck, the scorer (rules STD-* in seeds/stack_the_deck.md).

The device keeps the score sheet of a match: for each round the players' turned and
unturned stacks and who went out, checked card by card (no card twice in a round,
at most 7 wilds, every stack a shape that can exist), then scored at `end`.

    game stackdeck players 3
    round
    P1 turned 4G-5G-6G 7B-W
    P2 unturned 9R
    P1 out
    end

A project extension (STD-34, core.stackdeck.counts) takes a player's stacks as six
counts instead of named cards: `P2 counts 1 0 2 0 1 1`.

Undo any line with pop(); edit an ended round with edit_round(r, lines), which
rewrites that round's lines in the history so the transcript still replays.
The deck model and the stack checker: core.stackdeck.stacks (loaded only when a
stack is named); single plays at the table: core.stackdeck.turn; editing a round,
reading a checkpoint, state() and legal(): core.stackdeck.extra (loaded when used).

Memory: only the open round has a sheet (core.stackdeck.sheet.RoundSheet); an ended
round keeps its points (a tuple) and its entries as a compact record (bytes), so a
long match costs some 100 bytes a round.
"""

from core import notation
from core.errors import IllegalAction
from core.game import Game
from core.stackdeck.sheet import (RoundSheet, ROUND, END, OUT, ENTRY_VERBS, out_in, pack,
                                  sheet_of, unpack)
from core.stackdeck.counts import COUNTS, format_counts, parse

COLOURS = "RYGBP"  # core.stackdeck.stacks.COLOURS
# Heap (issue 11): every module-level name, method and argument name is an interned
# string a board never frees; the rare paths live in core.stackdeck.extra.


class StackDeck(Game):
    NAME = "stackdeck"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 4
    OPTIONS = {"rounds": 10, "colours": COLOURS, "names": ""}
    KEY_ORDER = ("game", "players", "rounds_played", "rounds", "totals", "dealer", "over",
                 "winners", "first", "round_open", "current", "round", "turned", "unturned",
                 "out", "scores", "tally", "match_rounds", "colours", "colour_names")

    def _check_option(self, key, value):
        if key == "rounds":
            if not 1 <= value <= 99:  # STD: at most 99 rounds
                raise IllegalAction("rounds: 1 to 99")
        elif key == "colours":
            from core.stackdeck.stacks import check_colours
            value = check_colours(value)
        elif key == "names":
            names = value.split(",")
            if len(names) != 5 or "" in names:
                raise IllegalAction("names: 5, commas")
        return value

    def _setup(self):
        self.letters = self.options["colours"]
        self.sheets = []  # the ended rounds' records (core.stackdeck.sheet.pack)
        self.scores = []  # the ended rounds' points, a tuple per round
        self.open = None  # the open round's sheet
        self.over = False

    # Notation ---------------------------------------------------------------

    def _parse(self, p, tokens):
        verb = tokens[0].lower()
        rest = tokens[1:]
        if verb == ROUND or verb == END:
            if p is not None:
                raise IllegalAction("%s takes no player" % verb)
            if rest:
                raise IllegalAction("too many words")
            # the module's own string: history keeps one per action
            return (None, ROUND if verb == ROUND else END)
        for word in ENTRY_VERBS:
            if verb == word:
                if p is None:
                    raise IllegalAction("name the player first")
                if word == OUT:
                    if rest:
                        raise IllegalAction("too many words")
                    return (p, OUT)
                if word == COUNTS:  # STD-34, a project extension
                    return (p, COUNTS, parse(rest))
                if not rest:
                    raise IllegalAction("no stack given")
                from core.stackdeck.stacks import parse_stack
                return (p, word, tuple([parse_stack(t, self.letters) for t in rest]))
        raise IllegalAction("unknown: %s" % tokens[0])

    def format(self, action):
        words = []
        if action[0] is not None:
            words.append(notation.format_player(action[0]))
        words.append(action[1])
        if action[1] == COUNTS:
            words.append(format_counts(action[2]))
        elif len(action) > 2:
            from core.stackdeck.stacks import stack_name
            for stack in action[2]:
                words.append(stack_name(stack, self.letters))
        return " ".join(words)

    # Rules ------------------------------------------------------------------

    def _apply(self, action):
        if self.over:
            raise IllegalAction("match is over")
        verb = action[1]
        if (verb == ROUND or verb == END) and action[0] is not None:
            raise IllegalAction("%s takes no player" % verb)
        if verb == ROUND:
            if self.open is not None:
                raise IllegalAction("round already open")
            self.open = RoundSheet(self.players)
            return None
        if verb == END:
            if self.open is None:
                raise IllegalAction("no round open")
            self.open.check_end()
            self.scores.append(tuple(self.open.scores()))
            self.sheets.append(pack(self.open.lines))
            self.open = None
            self.over = len(self.scores) >= self.options["rounds"]
            return None
        if verb not in ENTRY_VERBS:
            raise IllegalAction("unknown: %s" % verb)
        actor = action[0]
        if actor is None or not 1 <= actor <= self.players:
            raise IllegalAction("name the player first")
        sheet = self.open
        opened = sheet is None
        if opened:  # STD-21: an entry with no round open opens the next one
            sheet = RoundSheet(self.players)
        sheet.check(action, self.letters)
        sheet.add(action)
        self.open = sheet
        return opened

    def _revert(self, record):
        verb = self.history[-1][1]
        if verb == ROUND:
            self.open = None
        elif verb == END:
            self.open = sheet_of(self.sheets.pop(), self.players)
            self.scores.pop()
            self.over = False
        else:
            self.open.remove_last()
            if record:  # the entry opened the round
                self.open = None

    # Reading the match ----------------------------------------------------------

    def current_round(self):
        """The open round's number, or the next round's; None once over."""
        return None if self.over else len(self.scores) + 1

    def dealer_of(self, r):
        """STD-19: the dealer of round r is P((r - 1) mod N + 1)."""
        return (r - 1) % self.players + 1

    def first_of(self, r):
        """STD-19: the player after the dealer starts."""
        return self.dealer_of(r) % self.players + 1

    def round_scores(self, r):
        """Points of ended round r (1-based), per player."""
        return list(self.scores[r - 1])

    def provisional(self):
        """The open round's points as entered so far (None when no round is open)."""
        return None if self.open is None else self.open.scores()

    def totals(self):
        """STD-28: the sum of the ended rounds, per player."""
        out = [0] * self.players
        for row in self.scores:
            for p in range(self.players):
                out[p] += row[p]
        return out

    def out_of(self, r):
        """The player who went out in ended round r."""
        return out_in(self.sheets[r - 1])

    def tally_order(self, r):
        """STD-27: the order the scores of ended round r are read out: the player
        who went out first, then on round the table."""
        first = self.out_of(r)
        return [(first - 1 + i) % self.players + 1 for i in range(self.players)]

    def winners(self):
        """STD-29: once over, the players with the highest total (several on a tie)."""
        if not self.over:
            return []
        totals = self.totals()
        best = max(totals)
        return [p + 1 for p in range(self.players) if totals[p] == best]

    def colour_names(self):
        """STD-2: the colours' display names."""
        if self.options["names"]:
            return self.options["names"].split(",")
        if self.letters == COLOURS:
            return "Red Yellow Green Blue Purple".split()  # one constant, no names
        return [ch for ch in self.letters]

    def entries(self, r):
        """Round r's entry lines (ended or open), as table notation."""
        if 1 <= r <= len(self.sheets):
            actions = unpack(self.sheets[r - 1])
        elif self.open is not None and r == len(self.sheets) + 1:
            actions = self.open.lines
        else:
            raise IllegalAction("no round %d" % r)
        return [self.format(a) for a in actions]

    # Rare paths: core.stackdeck.extra ------------------------------------------------

    def edit_round(self, r, lines):
        """STD-31: replace round r's entry lines (an ended round, or the open one)
        with LINES (strings or actions); the totals follow. Illegal: IllegalAction,
        nothing changed. Returns the round's old entry lines (see
        core.stackdeck.extra.edit_round)."""
        from core.stackdeck.extra import edit_round
        return edit_round(self, r, lines)

    def legal(self):
        """The lines the device can offer without knowing the cards: round, end,
        PX out (stack lines are too many to list)."""
        from core.stackdeck.extra import legal
        return legal(self)

    def state(self):
        from core.stackdeck.extra import state
        return state(self)

    # Checkpoint (STD-35) -----------------------------------------------------------

    def _write(self, tokens):
        # each round as one item, its entries' lines joined (core.checkpoint.pack places
        # its tokens one by one): a list of every token, or every entry, of the match
        # would grow with it, in one block of a board's heap
        for record in self.sheets:
            tokens.append(" ".join(["r"] + [self.format(a) for a in unpack(record)]))
        if self.open is not None:
            tokens.append(" ".join(["open"] + [self.format(a) for a in self.open.lines]))

    # The base: a checkpoint holds every ended round, but the rounds ended before the
    # history are the match's own sheets[:k]; so a rebase keeps the base as (moves, k,
    # the open round's record or None), some 100 bytes, and its lines are written
    # again when asked (core.stackdeck.extra): no text of every ended round in the heap.

    def rebase(self, m, base_lines):
        Game.rebase(self, m, base_lines)
        h = self.history
        k = len(self.sheets)
        added = 0  # entries of round k + 1 (the first not ended at the base) in h
        fresh = False  # round k + 1 opened in h
        ended = False
        for i in range(len(h)):
            verb = h[i][1]
            if verb == END:
                k -= 1
                ended = True
            elif not ended:
                if verb == ROUND or (not added and self._undo[i]):
                    fresh = True
                added += 1 if verb != ROUND else 0
        rec = None
        if not fresh:
            if k < len(self.sheets):
                rec = self.sheets[k]
            elif self.open is not None:
                rec = pack(self.open.lines)
            if rec is not None and added:
                rec = pack(unpack(rec)[:-added])
        self._base = (self.moves - len(h), k, rec)

    def base_checkpoint(self):
        from core.stackdeck.extra import base_lines
        return base_lines(self)

    def _read(self, r):
        from core.stackdeck.extra import read
        read(self, r)
