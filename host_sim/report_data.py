"""The numbers of the report (`python -m host_sim report`), all taken from the core.

A file is replayed with `core.transcript.replay`; its per-game series are read from
the games' own `state()`: the game is built again from its header and options and its
`history` pushed action by action, and the state is read after each one. Nothing here
reads the notation by hand except what the notation leaves to comments: the free-text
header comments (`# date 2026-12-01`, `# table Friday club`) and, in the device's
journal, the per-line seals (`  #~xxxx`, firmware.journal.classify), all checked.

    rec = load(path, name)     a GameRecord, or raises BadFile("reason")
    season(records)            the season's tables (wins, averages, margins)
"""

import statistics

from core import names as core_names
from core import transcript
from core.games import GAMES
from core.notation import tokenize
from core.transcript import TranscriptError, replay
from firmware import journal

SCORE_WORD = {"stack31": "piles won", "stackdeck": "points", "stress": "games won"}


class BadFile(Exception):
    """A file the report cannot use; the message says why (one line)."""


class GameRecord:
    """One replayed game: its final state and the series the charts need.

    path, name      where it came from / how the report names it
    game, title     the notation's name (stack31, ...) and the menu title
    players         how many
    names           the players' names, seat by seat (core.names: the journal's
                    `#@names` header line; P1, P2, ... for the seats it does not name)
    options         the game's options (house rules), as the core keeps them
    notes           the header's free-text comments, e.g. ["date 2026-12-01"]
    state           the core's final state() (a dict)
    over            the game (the match, for Stress) has ended
    winners         1-based players who won (several on a tie; [] while not over)
    scores          per player: the game's own score (piles won / points / games won)
    moves           actions applied
    key             header + every action as text: two files of one game share it
    For Stack the Deck: rounds, a list of (round, [points], [totals after it]).
    For Stack 31: piles, a list of (move, line, {suit: (value, owner)}) after each action.
    For Stress: calls, the state's calls (dicts), in order, and call_stats, the
    core's count of them per player (Stress.call_stats()).
    """

    def __init__(self, path, name):
        self.path = path
        self.name = name
        self.notes = []
        self.warnings = []  # what was left out of a journal without failing it
        self.rounds = []
        self.piles = []
        self.calls = []
        self.names = []

    def label(self, player):
        """The 1-based player's name as the table knew it ("ANN", or "P2")."""
        return self.names[player - 1] if 0 < player <= len(self.names) else "P%d" % player


def _text(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise BadFile("cannot read: %s" % (e.strerror or e))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadFile("not text (byte %d is not UTF-8)" % e.start)


def _is_journal(lines):
    """The device's journal seals every line it writes, the header first."""
    for line in lines:
        if line.strip():
            return journal.classify(line.encode("utf-8"))[0] == journal.ACTION
    return False


def _check_lines(lines):
    """-> (notes, warnings). The header's free-text notes; in a journal (firmware.journal)
    every record's checksum, which a plain transcript does not have.

    Journal records: actions (replayed), checkpoints and voids (undone records: comments
    to the notation), filler (a torn write made harmless), sealed comments (the notes).
    A damaged record is a failure (BadFile), except a torn last line, which the device
    itself drops ("Last entry lost"): a warning, and the notation cannot read it either.
    """
    notes, warnings = [], []
    sealed = _is_journal(lines)
    seen_action = header_seen = False
    last = max((i for i, ln in enumerate(lines, 1) if ln.strip()), default=0)
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped:
            continue
        if sealed:
            kind, body = journal.classify(line.encode("utf-8"))
            if kind == journal.BAD:
                if number == last:
                    warnings.append("line %d: a torn last entry, left out as the device "
                                    "does" % number)
                    lines[number - 1] = ""
                    continue
                raise BadFile("line %d: checksum does not match (a damaged record: %s)"
                              % (number, stripped[:40]))
            if kind == journal.COMMENT:
                text = body.decode("utf-8", "replace").lstrip("#").strip()
            elif kind == journal.ACTION:
                text = None
            else:  # checkpoints, voids, filler, a damaged void or checkpoint line
                if kind in (journal.CK_LINE, journal.CK_END):
                    seen_action = True
                continue
        elif stripped.startswith("#"):
            text = stripped.lstrip("#").strip()
            if text.startswith("checkpoint"):
                seen_action = True
                continue
        else:
            text = None
        if text is not None:  # a comment: a note while the game has not begun
            if core_names.parse("#" + text) is not None:  # the players' names: not a note
                continue
            if text and not seen_action:
                notes.append(text)
            continue
        if header_seen and stripped.split()[0].lower() != "option":
            seen_action = True
        header_seen = True
    return notes, warnings


def load(path, name=None):
    """Replay one transcript or journal. Raises BadFile with the reason."""
    rec = GameRecord(path, name or path)
    lines = _text(path).splitlines()
    rec.notes, rec.warnings = _check_lines(lines)
    try:
        game, error = replay(lines)
    except TranscriptError as e:
        raise BadFile(str(e))
    if error is not None:
        raise BadFile("line %d: %s (the game stops there; the file is left out)" % error)
    state = game.state()
    rec.game = game.NAME
    rec.title = GAMES[game.NAME][2]
    rec.players = game.players
    rec.names = core_names.of(lines, game.players)
    rec.state = state
    rec.moves = len(game.history)
    rec.options = dict(game.options)
    rec.key = tuple(game.header_lines()) + tuple(game.format(a) for a in game.history)
    _series(rec, game)
    _result(rec, state)
    return rec


def _rebuild(game):
    """A fresh game with the same header and options, before any action."""
    header = game.header_lines()
    fresh = transcript.start(tokenize(header[0]))
    for line in header[1:]:
        transcript.apply_line(fresh, tokenize(line))
    return fresh


def _series(rec, game):
    if game.NAME == "stress":
        rec.calls = rec.state["calls"]
        rec.call_stats = game.call_stats()
        closed = sum(1 for c in rec.calls if c["final"])
        if closed != rec.call_stats["closed"]:  # Stress.CALLS_KEPT dropped some (STR-35)
            raise BadFile("only %d of the match's %d calls are kept in the replay"
                          % (closed, rec.call_stats["closed"]))
        return
    fresh = _rebuild(game)
    if game.NAME == "stackdeck":
        played = 0
        for action in game.history:
            fresh.push(action)
            s = fresh.state()
            if s["rounds_played"] != played:
                played = s["rounds_played"]
                rec.rounds.append((played, list(s["rounds"][played - 1]), list(s["totals"])))
    elif game.NAME == "stack31":
        for move, action in enumerate(game.history, 1):
            fresh.push(action)
            piles = fresh.state()["piles"]
            rec.piles.append((move, fresh.format(action),
                              {suit: (p["value"], p["owner"]) for suit, p in piles.items()}))
    if fresh.state() != rec.state:  # the step-by-step replay must end where the file did
        raise BadFile("the game does not replay to the same state twice (a bug in the core)")


def _result(rec, state):
    if rec.game == "stress":
        rec.over = bool(state["match_over"])
        rec.winners = [state["match_winner"]] if state["match_winner"] else []
        rec.scores = list(state["games_won"])
    else:
        rec.over = bool(state["over"])
        rec.winners = list(state["winners"]) if rec.over else []
        rec.scores = list(state["piles_won"] if rec.game == "stack31" else state["totals"])


def describe_result(rec):
    """'ANN won', 'tie: P2, P4', 'no winner' or 'not finished' (players by name)."""
    if not rec.over:
        return "not finished"
    if not rec.winners:
        return "no winner"
    if len(rec.winners) == 1:
        return "%s won" % rec.label(rec.winners[0])
    return "tie: " + ", ".join(rec.label(w) for w in rec.winners)


def call_kind(call):
    """How a Stress call is drawn and counted: won, tie, void (a false call), alone."""
    if call.get("ruling") == "void":
        return "void"
    if call["tie"]:
        return "tie"
    if call["margin_us"] is None:
        return "alone"
    return "won"


# ---------------------------------------------------------------- the season
class PlayerLine:
    """One player's season in one game, the player known by name (the same name at
    another seat in another game is the same player): games, wins, average score; for
    Stress the match's call counts (the core's call_stats(), STR-35) added up."""

    def __init__(self, game, player):
        self.game, self.player = game, player
        self.played = self.finished = self.wins = self.shared = 0
        self.score_sum = 0
        self.calls_won = self.calls_tied = self.calls_took = self.calls_false = 0
        self.margin_sum_us = self.margins_counted = 0
        self.margins = []  # us, of the closed calls this player won by a margin

    @property
    def average(self):
        return self.score_sum / self.finished if self.finished else None

    @property
    def median_margin_us(self):
        return statistics.median(self.margins) if self.margins else None

    @property
    def mean_margin_us(self):
        return self.margin_sum_us / self.margins_counted if self.margins_counted else None


def finished_games(records):
    """{game: how many of the records ended}."""
    out = {}
    for rec in records:
        if rec.over:
            out[rec.game] = out.get(rec.game, 0) + 1
    return out


def players_in_order(records):
    """Every player's name, in the order of first appearance (game by game, seat by seat)."""
    out = []
    for rec in records:
        for p in range(1, rec.players + 1):
            if rec.label(p) not in out:
                out.append(rec.label(p))
    return out


def season(records):
    """[PlayerLine] by game, then player (first appearance). Wins and averages count only
    games that ended."""
    lines = {}
    for rec in records:
        for p in range(1, rec.players + 1):
            key = (rec.game, rec.label(p))
            line = lines.get(key)
            if line is None:
                line = lines[key] = PlayerLine(rec.game, rec.label(p))
            line.played += 1
            if rec.over:
                line.finished += 1
                line.score_sum += rec.scores[p - 1]
                if p in rec.winners:
                    if len(rec.winners) == 1:
                        line.wins += 1
                    else:
                        line.shared += 1
            if rec.game == "stress":
                st = rec.call_stats
                line.calls_won += st["won"][p - 1]
                line.calls_tied += st["tied"][p - 1]
                line.calls_took += st["took"][p - 1]
                line.calls_false += st["false"][p - 1]
                line.margin_sum_us += st["margin_sum_us"][p - 1]
                line.margins_counted += st["margins"][p - 1]
        for call in rec.calls:
            if call["final"] and call_kind(call) == "won":
                lines[(rec.game, rec.label(call["winner"]))].margins.append(call["margin_us"])
    order = {name: i for i, name in enumerate(("stack31", "stackdeck", "stress"))}
    who = {name: i for i, name in enumerate(players_in_order(records))}
    return [lines[k] for k in sorted(lines, key=lambda k: (order.get(k[0], 9), who[k[1]]))]


def stress_margins(records):
    """Every closed Stress call's margin in us (ties and void calls apart), by the
    winner's name."""
    out = {}
    for rec in records:
        for call in rec.calls:
            if call["final"] and call_kind(call) == "won":
                out.setdefault(rec.label(call["winner"]), []).append(call["margin_us"])
    return out


def tie_margins(records):
    """Every closed tie's margin in us (0 when both presses had the same stamp)."""
    return [c["margin_us"] for rec in records for c in rec.calls
            if c["final"] and call_kind(c) == "tie" and c["margin_us"] is not None]
