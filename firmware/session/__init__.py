"""The game in play kept in step with its journal, here; rare paths resume, replay,
rewrite, stream. Imports core and the journal; the app and the screens import it.

The game in play and its journal, kept in step (the format: firmware/journal/__init__.py).

Every accepted action is applied to the game first (the rules refuse what is wrong)
and then written to the journal on flash; when the flash refuses (full, read-only)
the action is taken back, so the game in RAM is always the game on flash.

    s = Session.new(journal, name, players, options)
    s, report = Session.resume(journal)     never raises (but a power cut)
    s.push(action)               apply and journal; IllegalAction: nothing changed
    s.push(action, defer=True)   apply; the line waits in a preallocated RAM buffer
    s.flush()                    write the waiting lines in one append (failure: they
                                 are taken back from the game, IllegalAction)
    s.undo() -> action           the last action, from the buffer or voided on flash
    s.rewrite()                  after an edit of history (rare): the journal stays a
                                 transcript that replays to the game, and resumes with
                                 its history (Session.rewrite)

The per-press path (push, flush, undo, a checkpoint every EVERY lines) stays in the
heap; resume (firmware.session.resume, then firmware.session.replay once the first
has let go; firmware.session.stream for a long journal with no checkpoint) and rewrite
(firmware.session.rewrite) are rare paths in their own modules, loaded when needed and
let go after on a board. More than one line flushed at once (a Stress call) is one
group in the journal, kept whole or not at all (firmware.journal).

Bounded: a checkpoint every EVERY lines and at round and game boundaries, after which
the game forgets (rebase) all but the last EVERY..2*EVERY actions (fewer where the game
checkpoints more often), so history, undo
and resume cost the same at line 100 and line 10,000. Undo goes back at least EVERY
actions (to the base checkpoint). The checkpoints to rebase onto are kept as where
they lie in the journal (a few offsets, never their text: a Stack the Deck checkpoint
holds every ended round); the one a rebase takes is read back from flash then.
"""

import gc
import sys
from array import array

from core.errors import IllegalAction
from firmware import journal as jr
from firmware.modules import forget_module
from firmware.journal.record import read_block
from firmware.journal import game_from_header, make_game

JOURNAL = "game.txt"
BOUNDARY_VERBS = ("end", "out")

HOLD_BYTES = 2048
HOLD_LINES = 64
_hold = None  # (bytearray, array of starts): allocated once, shared by sessions

# The rare paths' modules, let go after use on a board (unless already loaded)
_RESUME = ("firmware.session.resume", "firmware.session.replay", "firmware.journal.read",
           "core.transcript")
_REWRITE = ("firmware.session.rewrite", "firmware.journal.new", "core.transcript")
_STREAM = ("firmware.session.stream",)


def _hold_buffers():
    global _hold
    if _hold is None:
        _hold = (bytearray(HOLD_BYTES), array("H", bytes(2 * (HOLD_LINES + 1))))
    return _hold


def _loaded(names):
    return [name in sys.modules for name in names]


def _let_go(names, had):
    if sys.implementation.name == "micropython":
        for i in range(len(names)):
            if not had[i]:
                forget_module(names[i])


class Session:
    EVERY = 32  # K: lines between checkpoints
    RING = 4  # recent checkpoints kept to rebase onto

    def __init__(self, game, journal, header=None):
        self.game = game
        self.journal = journal
        # the header lines, copied into every checkpoint (a damaged header line is
        # restored from there: Session._resume)
        self.header = header if header is not None else game.header_lines()
        self.buf, self.starts = _hold_buffers()
        self.held = 0
        self.fill = 0
        self.undoing = False
        self.since = 0  # lines written since the last valid checkpoint
        # checkpoints to rebase onto, oldest first: (moves, offset of the block,
        # offset after its end record)
        self.ring = []
        # where the game's base checkpoint lies in the journal ((start, end) of its
        # block), when the game reads it from there (Stress: _read_base)
        self.base_at = None
        self.checkpoints = True  # the game can write them
        self.report = None
        self.details = None

    @classmethod
    def new(cls, journal, name, players, options=None, names=None):
        """names: the players' names, written in the header as core.names.line(names)
        (a comment: the rules never read it; History and the report do)."""
        game = make_game(name, players, options)
        header = game.header_lines()
        try:
            journal.start(header, b"", names)  # the names line joins `header`
        except OSError as e:
            raise IllegalAction(jr.reason(e))
        return cls(game, journal, header)

    @property
    def name(self):
        return self.game.NAME

    # Entries -------------------------------------------------------------------

    def push(self, action, defer=False):
        """Apply an action (tuple or line) and journal it (defer: hold the line in RAM
        until flush()). IllegalAction: nothing changed."""
        game = self.game
        if self.held and (self.held >= HOLD_LINES or self.fill > HOLD_BYTES - 2 * jr.LINE_MAX):
            self.flush()  # never lose an entry: write the full buffer now
        action = game.push(action)
        rec = jr.seal_bytes(game.format(action))
        if self.fill + len(rec) > HOLD_BYTES:
            game.pop()
            raise IllegalAction("entry too long")
        buf = self.buf
        start = self.fill
        buf[start:start + len(rec)] = rec
        self.held += 1
        self.fill = start + len(rec)
        self.starts[self.held - 1] = start
        self.starts[self.held] = self.fill
        if not defer:
            self.flush()
        return action

    def flush(self):
        """Write the held lines in one append. On failure they are taken back from the
        game and IllegalAction says why ("flash full: not saved", ...)."""
        n = self.held
        if not n:
            return
        fill = self.fill
        try:
            try:
                self.journal.append_records(memoryview(self.buf)[:fill], self.starts, n)
            except OSError as e:  # a full flash: archived games give way (firmware.archive.store)
                from firmware.archive.store import make_room_for
                if not make_room_for(self.journal, fill, e):
                    raise
                self.journal.append_records(memoryview(self.buf)[:fill], self.starts, n)
        except OSError as e:
            self.held = 0
            self.fill = 0
            for _ in range(n):
                self.game.pop()
            raise IllegalAction(jr.reason(e))
        self.held = 0
        self.fill = 0
        self.since += n
        last = self.game.history[-1] if self.game.history else None
        # at a round or game boundary too
        if self.since >= self.EVERY or (last is not None and len(last) > 1 and
                                        last[1] in BOUNDARY_VERBS):
            self._checkpoint()

    def undo(self):
        """Take back the last action, on flash too. IllegalAction when there is none
        (or the flash refuses)."""
        game = self.game
        if self.held:
            action = game.pop()
            self.held -= 1
            self.fill = self.starts[self.held]
            return action
        if not game.history:
            raise IllegalAction("nothing to undo")
        action = game.pop()  # the screen first; the flash follows
        # `undoing` stays True only if the power goes meanwhile: the undo is in
        # flight, the game before or after it is right (a refusal puts it back)
        self.undoing = True
        try:
            text = self.journal.pop()
        except OSError as e:
            self.undoing = False
            game.push(action)
            raise IllegalAction(jr.reason(e))
        self.undoing = False
        if text is None:
            game.push(action)
            raise IllegalAction("nothing to undo")
        voided = self.journal.voided_checkpoints
        if voided:
            moves = game.moves
            self.ring = [c for c in self.ring if c[0] <= moves]
            self.since = self.EVERY  # the last valid checkpoint is further back now
            self._checkpoint()  # a fresh one of this position keeps resume short
        return action

    def rewrite(self):
        """Write the journal anew after an edit of history (rare), so that it replays
        to the game's state and resumes with its history (undo); firmware.session.rewrite
        says how. OSError: nothing changed (the caller puts the game back)."""
        game = self.game
        if callable(game._base):  # the base is kept in RAM again: the file changes
            game._base = tuple(game.base_checkpoint())
        self.base_at = None
        had = _loaded(_REWRITE)
        try:
            from firmware.session import rewrite as session_rewrite
            session_rewrite.rewrite(self, game_from_header)
        finally:
            session_rewrite = None
            _let_go(_REWRITE, had)

    # Checkpoints and the base ------------------------------------------------------

    def _checkpoint(self):
        """Write a checkpoint of the position now (never while lines are held), then
        let the game forget what is older than the rebase target."""
        if self.held or not self.checkpoints:
            return
        game = self.game
        try:
            lines = game.checkpoint()
        except IllegalAction:
            self.checkpoints = False  # this game writes none: plain journal
            return
        j = self.journal
        try:
            start = j._size()
            # sealed into the hold buffer (idle: nothing is held) and written in
            # parts: no contiguous block that grows with the match
            end = j.write_checkpoint(self.header + lines, game.moves, self.buf)
        except OSError:
            return  # no room: the journal stays valid, only longer to resume
        lines = None
        self.since = 0
        self._remember(game.moves, start, end)
        self._rebase()

    def _remember(self, moves, start, end):
        """A checkpoint written (or found at resume) at [start, end) of the journal.
        The ring keeps RING of them at least EVERY // 2 moves apart (the newest
        replaces the last kept when it is closer), so it always holds one at least
        EVERY moves back to rebase onto, however often a game checkpoints (Stack
        the Deck: at every `out` and `end`)."""
        ring = self.ring
        if len(ring) >= 2 and moves - ring[-2][0] < self.EVERY // 2:
            ring[-1] = (moves, start, end)
            return
        ring.append((moves, start, end))
        if len(ring) > self.RING:
            del ring[0]

    def _block(self, start, end):
        """The game's lines of the checkpoint block at [start, end) of the journal, read
        back and checked (its seals, its end record), or None."""
        try:
            got = read_block(self.journal, start, end)  # its `#=` lines, then its end
            if got is None or got[2] != len(got[0]) + 1:
                return None
            texts, body = got[0], got[1]
            e = body[3:].split() if body[:3] == b"#] " else ()
            h = len(self.header)
            if len(e) == 3 and int(e[0]) == len(texts) and \
                    int(e[2], 16) == jr.block_crc(texts) and texts[:h] == self.header:
                return texts[h:]
        except ValueError:  # UnicodeError too
            pass
        return None

    def _rebase(self):
        """Forget the actions before the newest checkpoint at least EVERY back, once
        the history holds more than EVERY (the heap holds EVERY actions and those since
        the newest checkpoint at least EVERY back: each is a tuple, some 100 bytes of
        a board's heap)."""
        game = self.game
        if len(game.history) <= self.EVERY:
            return
        target = None
        for c in self.ring:
            if game.moves - c[0] >= self.EVERY:
                target = c
        if target is None:
            return
        m = target[0] - (game.moves - len(game.history))
        if m <= 0:
            return
        self.ring = [c for c in self.ring if c[0] > target[0]]
        # the new base lives long: the checkpoint just written is garbage now, so
        # collect first and the base fills the holes it left (fragmentation)
        gc.collect()
        lines = self._block(target[1], target[2])
        if lines is None:
            return  # damaged on flash since: the next checkpoint rebases
        try:
            game.rebase(m, lines)
        except IllegalAction:
            return
        lines = None
        if game.UNDO_BY_REPLAY:
            # Stress keeps its base where it lies in the journal, read back at an undo
            # (rare): ~1.2 KB less in the heap, and a rebase never holds two bases
            self.base_at = (target[1], target[2])
            game._base = self._read_base
        self.journal.forget_through(target[2])

    def _read_base(self):
        """The base checkpoint's lines, read back from the journal (or None)."""
        at = self.base_at
        try:
            return None if at is None else self._block(at[0], at[1])
        except OSError:
            return None

    # Resume ------------------------------------------------------------------------

    @classmethod
    def resume(cls, journal):
        """(session or None, report or None) from the journal on flash. Never raises
        (MemoryError included): a journal that cannot be used is set aside and said."""
        st = journal.storage
        name = journal.name
        if not (st.exists(name) or st.exists(name + ".new") or st.exists(name + ".old")):
            # no saved game (and no write to finish): the resume's modules stay unloaded
            journal.details = None
            journal.header_ok = False
            journal.size = journal.count = journal.header_count = 0
            return None, None
        had = _loaded(_RESUME)
        try:
            return cls._resume(journal)
        except Exception as e:  # noqa: BLE001 - never a dead board
            gc.collect()
            aside = None
            try:
                aside = journal.set_aside()
            except Exception:  # noqa: BLE001
                pass
            journal.details = {"message": "Journal unreadable", "error": repr(e),
                               "aside": aside, "kept": 0, "set_aside": None}
            return None, "Saved game set aside (%s)" % (type(e).__name__,)
        finally:
            _let_go(_RESUME, had)

    @classmethod
    def _resume(cls, journal, again=None):
        from firmware.session import replay as session_replay
        from firmware.session import resume as session_resume
        plan, report = session_resume.resume(cls, journal, game_from_header, again)
        session_resume = None
        _let_go(_RESUME[:1], (False,))  # its part done: the replay has the heap
        if journal.anew is not None:  # a long journal with no whole checkpoint
            # the replay is not needed while the journal is written anew, and held here
            # it would stay in the heap beside the copy the resume after it loads
            session_replay = None
            _let_go(_RESUME[1:2], (False,))
            from firmware.session import stream as session_stream
            again = session_stream.resume_anew(cls, journal, game_from_header)
            session_stream = None
            _let_go(_STREAM, (False,))
            return cls._resume(journal, again)
        if plan is None:
            return None, report
        gc.collect()
        return session_replay.finish(cls, journal, plan, game_from_header)
