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
    s.rewrite()                  after an edit of history (rare): the journal stays a
                                 transcript that replays to the game, and resumes with
                                 its history (Session.rewrite)

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


def _split_block(texts):
    """A checkpoint block's lines -> (the header copy or None, the game's lines). The
    block starts with the journal's header lines (game, option) since this version."""
    h = 0
    while h < len(texts) and jr._is_header(texts[h]) and \
            (h or texts[0].lower().startswith("game ")):
        h += 1
    return (texts[:h] if h else None), texts[h:]


def _round_lines(game):
    """The lines that rebuild a Stack the Deck position from the start: each ended
    round (`round`, its entries, `end`), then the open round; None for a game that
    has no rounds to rebuild (see Session.rewrite)."""
    entries = getattr(game, "entries", None)
    if entries is None or not hasattr(game, "scores") or not hasattr(game, "open"):
        return None
    out = []
    ended = len(game.scores)
    for r in range(1, ended + 1):
        out.append(["round"] + entries(r) + ["end"])
    if game.open is not None:
        out.append(["round"] + entries(ended + 1))
    return out


def game_from_header(texts):
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
        to the game's state and resumes with its history (undo):
          - no base checkpoint (the history starts at the beginning): the header and
            the history, a fresh file (atomic);
          - a game whose rounds rebuild its base (Stack the Deck, bounded by its
            rounds): the header, every round's lines, a checkpoint of the base, the
            history, a fresh file streamed (atomic); `moves` then counts the lines of
            that transcript (the game is set to it);
          - otherwise (Stress: an edit inside the history, the base unchanged): the
            records since the base checkpoint are voided in place and the history is
            appended again, in one patch.
        OSError: nothing changed (the caller puts the game back)."""
        game = self.game
        self.held = 0
        self.fill = 0
        j = self.journal
        base = game.base_checkpoint()
        if base is None:
            self._write_anew(None)
        else:
            rounds = None
            bg = game_from_header(self.header)
            try:
                bg.restore(base)
                rounds = _round_lines(bg)
            except IllegalAction:
                pass
            if rounds is not None:
                self._write_anew(base, bg, rounds)
            elif not j.overflow:  # the stack knows every record since the base
                parts = []
                starts = [0]
                for action in game.history:
                    parts.append(jr.seal_bytes(game.format(action)))
                    starts.append(starts[-1] + len(parts[-1]))
                off = j.void_all(b"".join(parts))
                for i in range(len(parts)):
                    j.stack_push(off + starts[i], starts[i + 1] - starts[i], jr.ACTION)
            else:  # records the stack does not know: the base as it is (resumes)
                self._write_anew(base, None, None)
        self.ring = []
        self.since = len(game.history)

    def _write_anew(self, base, bg=None, rounds=None):
        """The journal as a fresh file, streamed (atomic): header, [the rounds of the
        base position bg, then a checkpoint of it], the history. With rounds the game
        is renumbered to the new transcript (its base: that checkpoint)."""
        game = self.game
        j = self.journal
        new_base = None
        moves = game.moves - len(game.history)
        if rounds is not None:
            fresh = game_from_header(self.header)
            for lines in rounds:
                for line in lines:
                    fresh.push(line)
            a, b = fresh.state(), bg.state()
            a.pop("moves", None)
            b.pop("moves", None)
            if a != b:  # the rounds do not give the base back: keep it as it is
                rounds = None
            else:
                new_base = fresh.checkpoint()
                moves = fresh.moves
            fresh = None
        records = []  # (offset, length) of the history's records in the new file
        w = j.begin(self.header)
        try:
            buf = []
            size = 0
            pos = w.size
            for lines in rounds or ():
                for line in lines:
                    rec = jr.seal_bytes(line)
                    buf.append(rec)
                    size += len(rec)
                if size >= jr.CHUNK:
                    pos += size
                    w.write(b"".join(buf))
                    buf, size = [], 0
            if base is not None:
                block = jr.checkpoint_bytes(self.header + (new_base or base), moves)
                buf.append(block)
                size += len(block)
            for action in game.history:
                rec = jr.seal_bytes(game.format(action))
                records.append((pos + size, len(rec)))
                buf.append(rec)
                size += len(rec)
                if size >= jr.CHUNK:
                    pos += size
                    w.write(b"".join(buf))
                    buf, size = [], 0
            if buf:
                w.write(b"".join(buf))
            w.commit()
        except OSError:
            w.abort()
            raise
        if new_base is not None:  # moves as the new transcript counts them
            history = list(game.history)
            for _ in history:
                game.pop()
            game.restore(new_base)
            for action in history:
                game.push(action)
        for off, length in records:
            j.stack_push(off, length, jr.ACTION)

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
            end = self.journal.write_checkpoint(self.header + lines, game.moves)
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
            top, data_off = journal.read_header(strict=False)
        except jr.JournalError as e:
            return cls._unusable(journal, "Journal unreadable", str(e),
                                 "Journal unreadable: set aside")
        if top is None:
            return None, None
        gc.collect()
        cps = []
        try:
            # the newest, and one at least EVERY moves before it (undo after resume)
            cps = journal.find_checkpoints(data_off, cls.RING, cls.EVERY)
        except OSError:
            cps = []
        header = top
        said = None
        if journal.header_ok is False:
            # The header may be cut short (a damaged line where it ends): its copy in
            # the newest checkpoint that has one, else the top when only its end
            # record is damaged. Never a game with options it did not have.
            copy = None
            for c in cps:
                copy = _split_block(c[1])[0]
                if copy is not None:
                    break
            if copy is not None and copy[:len(top)] == top:
                header = copy
            elif not top:
                header = None
            fixed = journal.fix_header(header) if header else -1
            if header is None or (fixed < 0 and header is top):
                return cls._unusable(journal, "Game header damaged", "header damaged",
                                     "Game header damaged: set aside")
            if fixed >= 0:
                data_off = fixed
            if header != top:
                said = "Game header damaged: restored"
        try:
            game = game_from_header(header)
        except IllegalAction as e:
            return cls._unusable(journal, "Saved game unreadable", e.reason,
                                 "Saved game unreadable: %s" % e.reason)
        session = cls(game, journal, header)
        session._load(header, data_off, cps)
        if said is not None:
            session.report = said if session.report is None else \
                said + " / " + session.report
            if session.details is None:
                session.details = {"message": said, "kept": game.moves, "set_aside": 0,
                                   "aside": None}
            session.details["header"] = "restored from a checkpoint"
            journal.details = session.details
        return session, session.report

    @classmethod
    def _unusable(cls, journal, message, error, report):
        aside = journal.set_aside()
        journal.details = {"message": message, "error": error, "aside": aside,
                           "kept": 0, "set_aside": None}
        return None, report

    def _load(self, header, data_off, cps):
        j = self.journal
        j.stack_reset()
        start = data_off
        while cps:
            c = cps.pop()  # the older first: more undo after resume
            copy, lines = _split_block(c[1])
            if copy is not None and copy != header:
                continue  # not this game's checkpoint
            g = game_from_header(header)
            try:
                g.restore(lines)
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
                    self._remember(e[1], _split_block(block)[1], off + length)
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
