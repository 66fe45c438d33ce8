"""The game in play and its journal, kept in step (the format: firmware/journal.py).

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
    s.rewrite()                  after an edit of history (rare)

Bounded: a checkpoint every EVERY lines and at round and game boundaries, after which
the game forgets (rebase) all but the last EVERY..2*EVERY actions, so history, undo
and resume cost the same at line 100 and line 10,000. Undo goes back at least EVERY
actions (to the base checkpoint).
"""

import gc
from array import array

from core.errors import IllegalAction
from core.games import game_class
from firmware import journal as jr

JOURNAL = "game.txt"
CALLS_KEPT = 32  # Stress: the calls kept in the heap (the counts keep them all)
BOUNDARY_VERBS = ("end", "out")

HOLD_BYTES = 2048
HOLD_LINES = 64
_hold = None  # (bytearray, array of starts): allocated once, shared by sessions


def _hold_buffers():
    global _hold
    if _hold is None:
        _hold = (bytearray(HOLD_BYTES), array("H", [0] * (HOLD_LINES + 1)))
    return _hold


def set_aside(journal):
    """Keep a journal that cannot be used under another name (journal.bad1, ...)."""
    journal.set_aside()


def make_game(name, players, options=None):
    cls = game_class(name)
    if getattr(cls, "CALLS_KEPT", 0) is None:
        cls.CALLS_KEPT = CALLS_KEPT
    return cls(players, options)


def _game_from_header(texts):
    from core import notation, transcript
    game = None
    for text in texts:
        tokens = notation.tokenize(text)
        if game is None:
            name, players = notation.parse_header(tokens)
            game = make_game(name, players)
        else:
            transcript.apply_line(game, tokens)
    return game


class Session:
    EVERY = 32  # K: lines between checkpoints
    RING = 4  # recent checkpoints kept to rebase onto

    def __init__(self, game, journal):
        self.game = game
        self.journal = journal
        self.buf, self.starts = _hold_buffers()
        self.held = 0
        self.fill = 0
        self.since = 0  # lines written since the last valid checkpoint
        self.ring = []  # (moves, lines, offset after its end record), oldest first
        self.checkpoints = True  # the game can write them
        self.report = None
        self.details = None

    @classmethod
    def new(cls, journal, name, players, options=None):
        game = make_game(name, players, options)
        try:
            journal.start(game.header_lines())
        except OSError as e:
            raise IllegalAction(jr.reason(e))
        return cls(game, journal)

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
            except OSError as e:  # a full flash: archived games give way (firmware.archive)
                from firmware.archive import make_room_for
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
        if self.since >= self.EVERY or (last is not None and self._boundary(last)):
            self._checkpoint()

    def _boundary(self, action):
        verb = action[1] if len(action) > 1 else None
        return verb in BOUNDARY_VERBS

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
        try:
            text = self.journal.pop()
        except OSError as e:
            game.push(action)
            raise IllegalAction(jr.reason(e))
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
        """Write the journal anew from the base after an edit of history (rare): the
        records since the base checkpoint are voided in place and the history is
        appended again, in one patch. OSError: the caller puts the game back."""
        game = self.game
        self.held = 0
        self.fill = 0
        j = self.journal
        parts = []
        starts = [0]
        total = 0
        for action in game.history:
            rec = jr.seal_bytes(game.format(action))
            parts.append(rec)
            total += len(rec)
            starts.append(total)
        data = b"".join(parts)
        if game.base_checkpoint() is None and j.actions_held() < game.moves - len(game.history) + len(parts):
            # the journal holds records the stack does not know: write it anew (atomic)
            off = j.start(game.header_lines(), data)
        else:
            off = j.void_all(data)
        for i in range(len(parts)):
            j.stack_push(off + starts[i], starts[i + 1] - starts[i], jr.ACTION)
        self.ring = []
        self.since = len(parts) + self.EVERY
        self._checkpoint()

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
        try:
            end = self.journal.write_checkpoint(lines, game.moves)
        except OSError:
            return  # no room: the journal stays valid, only longer to resume
        self.since = 0
        self._remember(game.moves, lines, end)
        self._rebase()

    def _remember(self, moves, lines, end):
        ring = self.ring
        ring.append((moves, lines, end))
        if len(ring) > self.RING:
            del ring[0]

    def _rebase(self):
        """Forget the actions before the newest checkpoint at least EVERY back, once
        the history holds more than 2 * EVERY."""
        game = self.game
        if len(game.history) <= 2 * self.EVERY:
            return
        target = None
        for c in self.ring:
            if game.moves - c[0] >= self.EVERY:
                target = c
        if target is None:
            return
        base_moves = game.moves - len(game.history)
        m = target[0] - base_moves
        if m <= 0:
            return
        game.rebase(m, target[1])
        self.journal.forget_through(target[2])
        self.ring = [c for c in self.ring if c[0] > target[0]]

    # Resume ------------------------------------------------------------------------

    @classmethod
    def resume(cls, journal):
        """(session or None, report or None) from the journal on flash. Never raises
        (MemoryError included): a journal that cannot be used is set aside and said."""
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

    @classmethod
    def _resume(cls, journal):
        journal.details = None
        try:
            header, data_off = journal.read_header()
        except jr.JournalError as e:
            aside = journal.set_aside()
            journal.details = {"message": "Journal unreadable", "error": str(e),
                               "aside": aside, "kept": 0, "set_aside": None}
            return None, "Journal unreadable: set aside"
        if header is None:
            return None, None
        try:
            game = _game_from_header(header)
        except IllegalAction as e:
            aside = journal.set_aside()
            journal.details = {"message": "Saved game unreadable", "error": e.reason,
                               "aside": aside, "kept": 0, "set_aside": None}
            return None, "Saved game unreadable: %s" % e.reason
        session = cls(game, journal)
        session._load(header, data_off)
        return session, session.report

    def _load(self, header, data_off):
        j = self.journal
        j.stack_reset()
        gc.collect()
        cps = []
        try:
            # the newest, and one at least EVERY moves before it (undo after resume)
            cps = j.find_checkpoints(data_off, self.RING, self.EVERY)
        except OSError:
            cps = []
        start = data_off
        while cps:
            c = cps.pop()  # the older first: more undo after resume
            g = _game_from_header(header)
            try:
                g.restore(c[1])
            except IllegalAction:
                continue
            if g.moves != c[0]:
                continue
            self.game = g
            start = c[3]
            break
        gc.collect()
        self._replay(start)

    def _replay(self, start):
        """Apply the records from `start` on, each checked; damage handled (module
        docstring of firmware.journal)."""
        j = self.journal
        game = self.game
        EVERY = self.EVERY
        block = []
        lines = 0
        since = 0
        skipped = 0
        damage = None  # (offset, reason)
        torn = None  # (offset, length, kind)
        no_break = False
        stream_cp = None  # an in-RAM checkpoint while streaming without one on flash
        for kind, body, off, length, brk in j.records(start):
            lines += 1
            if lines % 32 == 0:
                gc.collect()
            if not brk and kind != jr.FILLER:
                # the last line lacks its break: a whole record is kept, else torn
                if kind == jr.ACTION or kind == jr.CK_END or kind == jr.CK_LINE \
                        or kind == jr.VOID or kind == jr.COMMENT:
                    no_break = True
                else:
                    torn = (off, length, kind)
                    break
            if kind == jr.ACTION:
                block = []
                try:
                    text = body.decode("utf-8")
                    game.push(text)
                except (IllegalAction, UnicodeError) as e:
                    damage = (off, getattr(e, "reason", "not text"))
                    break
                j.stack_push(off, length, jr.ACTION)
                since += 1
                if since % EVERY == 0 and self.checkpoints and not self.ring:
                    # no checkpoint on flash (an old journal or none yet): keep the
                    # history bounded with one in RAM
                    stream_cp = self._stream_rebase(stream_cp, off + length)
            elif kind == jr.CK_LINE:
                block.append(body[3:].decode())
                if len(block) > 200:
                    block = []
            elif kind == jr.CK_END:
                e = jr.parse_end(body)
                if e is not None and e[0] == len(block) and jr.block_crc(block) == e[2] \
                        and e[1] == game.moves:
                    j.stack_push(off, length, jr.CK_END)
                    self._remember(e[1], block, off + length)
                    since = 0
                    stream_cp = None
                    if len(game.history) > 2 * EVERY:
                        self._rebase()
                block = []
            elif kind == jr.BAD_SKIP:
                skipped += 1
                block = []
            elif kind == jr.BAD:
                damage = (off, "damaged")
                break
            else:
                if kind != jr.FILLER:
                    since += 1
                block = []
        self.since = since
        kept = game.moves
        if torn is not None and torn[2] != jr.BAD:
            j.rollback(torn[0])  # a cut checkpoint or void: nothing lost
        elif torn is not None:
            j.rollback(torn[0])
            self.report = "Last entry lost"
            self.details = {"message": "Last entry lost", "kept": kept, "set_aside": 1,
                            "aside": None, "offset": torn[0]}
        elif damage is not None:
            aside, n = j.make_filler(damage[0])
            self.report = "Journal damaged: %d kept, %d set aside" % (kept, n)
            self.details = {"message": "Journal damaged", "kept": kept, "set_aside": n,
                            "aside": aside, "offset": damage[0], "reason": damage[1]}
        elif no_break:
            try:
                j.add_break()
            except OSError:
                pass
        j.details = self.details
        j.size = -1
        gc.collect()
        if self.since >= EVERY or stream_cp is not None:
            self._checkpoint()

    def _stream_rebase(self, stream_cp, offset):
        """While streaming a journal without checkpoints: every EVERY actions note the
        position in RAM, and forget the history before the previous note."""
        game = self.game
        try:
            lines = game.checkpoint()
        except IllegalAction:
            self.checkpoints = False
            return None
        if stream_cp is not None:
            base_moves = game.moves - len(game.history)
            m = stream_cp[0] - base_moves
            if m > 0:
                game.rebase(m, stream_cp[1])
                self.journal.forget_through(stream_cp[2])
        return (game.moves, lines, offset)
