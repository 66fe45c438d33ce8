"""Resume at boot (Session.resume; the format and the damage rules: firmware/journal.py):
a rare path, loaded for the resume and let go after it on a board, so none of it
stays in the heap while the game is played. The header read from the top, the last
checkpoints found from the end of the file, the older restored, the records after it
applied one by one, each checked; damage handled (set aside, torn line repaired).

    session, report = resume(Session, journal, game_from_header)
"""

import gc
import sys

from core.errors import IllegalAction
from firmware.modules import forget_module, forget_new_modules
from firmware.record import (ACTION, BAD, BAD_SKIP, CK_END, CK_LINE, COMMENT, FILLER,
                             HEAD_END, LINE_MAX, VOID, JournalError, block_crc, is_header,
                             sealed_body)

# Let go during the resume on a board once their part is done (unless loaded before):
# the journal's reader once the header and checkpoints are read (the replay reads its
# records with _records), the transcript once the game is made from the header
_JR = "firmware.journal_read"
_TR = "core.transcript"


def _forget(name, had):
    if not had and sys.implementation.name == "micropython":
        forget_module(name)


def _jr():
    """firmware.journal_read, for a rare step (damage) after it was let go."""
    from firmware import journal_read
    return journal_read


def resume(cls, journal, from_header):
    """Session._resume: (session or None, report or None) from the journal on flash."""
    journal.details = None
    had_jr = _JR in sys.modules
    had_tr = _TR in sys.modules
    from firmware import journal_read as jr
    try:
        top, data_off = jr.read_header(journal, False)
    except JournalError as e:
        return _unusable(journal, "Journal unreadable", str(e),
                         "Journal unreadable: set aside")
    if top is None:
        return None, None
    gc.collect()
    cps = []
    try:
        # the newest, and one at least EVERY moves before it (undo after resume)
        cps = jr.find_checkpoints(journal, data_off, cls.RING, cls.EVERY)
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
        fixed = jr.fix_header(journal, header) if header else -1
        if header is None or (fixed < 0 and header is top):
            return _unusable(journal, "Game header damaged", "header damaged",
                             "Game header damaged: set aside")
        if fixed >= 0:
            data_off = fixed
        if header != top:
            said = "Game header damaged: restored"
    # the reader goes before the game's rules load: they take its place in the heap
    jr = top = None
    _forget(_JR, had_jr)
    gc.collect()
    try:
        game = from_header(header)
    except IllegalAction as e:
        return _unusable(journal, "Saved game unreadable", e.reason,
                         "Saved game unreadable: %s" % e.reason)
    finally:
        _forget(_TR, had_tr)
    rules = set(sys.modules)  # and what loads from here on is the resume's only
    session = cls(game, journal, header)
    _load(session, header, data_off, cps, from_header)
    if said is not None:
        session.report = said if session.report is None else \
            said + " / " + session.report
        if session.details is None:
            session.details = {"message": said, "kept": game.moves, "set_aside": 0,
                               "aside": None}
        session.details["header"] = "restored from a checkpoint"
        journal.details = session.details
    # what the checkpoint and the replay loaded (core.stress_rare: reading lines and
    # checkpoints) goes before the game's data is made again
    forget_new_modules(rules)
    rules = None
    _settle(session.game, 4 * cls.EVERY)
    base = session.game._base
    if isinstance(base, tuple) and session.base_at is not None and \
            session.game.UNDO_BY_REPLAY:
        if session._read_base() == list(base):  # it reads back as it is
            session.game._base = session._read_base
    base = None
    return session, session.report


def _settle(game, room):
    """What the game keeps from the resume (its history, kept calls, base), made
    again in a collected heap: built amid the resume's garbage they lie scattered
    over it, and the copies fill the lowest holes (fragmentation). The history's
    list gets room for `room` actions now (play keeps it within that: the rebase
    deletes from its front and keeps the room), so it is never grown amid the
    match's objects (a copy of just its length was grown at the next action:
    a 1 KB block that a fragmented heap did not have)."""
    gc.collect()
    h = game.history
    n = len(h)
    new = [None] * max(n, room)
    for i in range(n):
        new[i] = h[i][:]
    del new[n:]  # the list keeps its room
    game.history = new
    new = None
    calls = getattr(game, "_cf", None)  # Stress: its kept calls, one flat list
    if calls:
        game._cf = calls[:]
    if isinstance(game._base, tuple):
        game._base = tuple(game._base[:])
    h = calls = None
    gc.collect()


def _unusable(journal, message, error, report):
    aside = journal.set_aside()
    journal.details = {"message": message, "error": error, "aside": aside,
                       "kept": 0, "set_aside": None}
    return None, report


def _split_block(texts):
    """A checkpoint block's lines -> (the header copy or None, the game's lines). The
    block starts with the journal's header lines (game, option) since this version."""
    h = 0
    while h < len(texts) and is_header(texts[h]) and \
            (h or texts[0].lower().startswith("game ")):
        h += 1
    return (texts[:h] if h else None), texts[h:]


def _load(s, header, data_off, cps, from_header):
    j = s.journal
    j.stack_reset()
    start = data_off
    # the newest checkpoint found: the replay meets its end record at these moves
    ahead = cps[0][0] if cps else -1
    while cps:
        c = cps.pop()  # the older first: more undo after resume
        copy, lines = _split_block(c[1])
        if copy is not None and copy != header:
            continue  # not this game's checkpoint
        # the session's game is new: it takes the checkpoint (a refused one leaves it
        # at its start), so no second game is built
        try:
            s.game.restore(lines)
        except IllegalAction:
            continue
        if s.game.moves != c[0]:
            s.game = from_header(header)  # a position, but not the one said: start anew
            continue
        start = c[3]
        s.base_at = (c[2], c[3])
        break
    del cps[:]  # the other checkpoints' text (the newest is read again in the replay)
    c = copy = lines = None
    gc.collect()
    _replay(s, start, ahead)


def _replay(s, start, ahead=-1):
    """Apply the records from `start` on, each checked; damage handled (module
    docstring of firmware.journal)."""
    j = s.journal
    game = s.game
    EVERY = s.EVERY
    block = []
    lines = 0
    since = 0
    skipped = 0
    damage = None  # (offset, reason)
    torn = None  # (offset, length, kind)
    no_break = False
    stream_cp = None  # an in-RAM checkpoint while streaming without one on flash
    first = 0
    for kind, body, off, length, brk in _records(j, start):
        lines += 1
        if lines % 32 == 0:
            gc.collect()
        if not brk and kind != FILLER:
            # the last line lacks its break: a whole record is kept, else torn
            if kind == ACTION or kind == CK_END or kind == CK_LINE \
                    or kind == VOID or kind == COMMENT:
                no_break = True
            else:
                torn = (off, length, kind)
                break
        if kind == ACTION:
            block = []
            try:
                text = body.decode("utf-8")
                game.push(text)
            except (IllegalAction, UnicodeError) as e:
                damage = (off, getattr(e, "reason", "not text"))
                break
            j.stack_push(off, length, ACTION)
            since += 1
            if since % EVERY == 0 and s.checkpoints and not s.ring and \
                    not 0 <= ahead - game.moves < EVERY:
                # no checkpoint on flash (an old journal or none yet): keep the
                # history bounded with one in RAM (none when the checkpoint found
                # on flash comes before this one could be used: it resets it)
                stream_cp = _stream_rebase(s, stream_cp, off + length)
        elif kind == CK_LINE:
            if not block:
                first = off  # where the block starts
            block.append(body[3:].decode())
            if len(block) > 200:
                block = []
        elif kind == CK_END:
            e = _parse_end(body)
            if e is not None and e[0] == len(block) and block_crc(block) == e[2] \
                    and e[1] == game.moves:
                j.stack_push(off, length, CK_END)
                s._remember(e[1], first, off + length)
                since = 0
                stream_cp = None
                s._rebase()  # as in play: more than EVERY kept, onto one EVERY back
            block = []
        elif kind == BAD_SKIP:
            skipped += 1
            block = []
        elif kind == BAD:
            damage = (off, "damaged")
            break
        else:
            if kind != FILLER:
                since += 1
            block = []
    s.since = since
    kept = game.moves
    if torn is not None and torn[2] != BAD:
        j.rollback(torn[0])  # a cut checkpoint or void: nothing lost
    elif torn is not None:
        j.rollback(torn[0])
        s.report = "Last entry lost"
        s.details = {"message": "Last entry lost", "kept": kept, "set_aside": 1,
                        "aside": None, "offset": torn[0]}
    elif damage is not None:
        aside, n = _jr().make_filler(j, damage[0])
        s.report = "Journal damaged: %d kept, %d set aside" % (kept, n)
        s.details = {"message": "Journal damaged", "kept": kept, "set_aside": n,
                        "aside": aside, "offset": damage[0], "reason": damage[1]}
    elif no_break:
        try:
            _jr().add_break(j)
        except OSError:
            pass
    j.details = s.details
    j.size = -1
    gc.collect()
    if s.since >= EVERY or stream_cp is not None:
        s._checkpoint()


def _stream_rebase(s, stream_cp, offset):
    """While streaming a journal without checkpoints: every EVERY actions note the
    position in RAM, and forget the history before the previous note."""
    game = s.game
    try:
        lines = game.checkpoint()
    except IllegalAction:
        s.checkpoints = False
        return None
    if stream_cp is not None:
        base_moves = game.moves - len(game.history)
        m = stream_cp[0] - base_moves
        if m > 0:
            game.rebase(m, stream_cp[1])
            s.base_at = None  # a base in RAM, not on flash
            s.journal.forget_through(stream_cp[2])
    return (game.moves, lines, offset)


def _records(j, start):
    """journal_read.records with its classify, read here so that the replay runs
    without firmware.journal_read in the heap (a damaged line is classified there)."""
    f = j.storage.open_read(j.name)
    if f is None:
        return
    try:
        f.seek(start)
        off = start
        while True:
            raw = f.readline(LINE_MAX + 1)
            if not raw:
                return
            length = len(raw)
            brk = raw.endswith(b"\n")
            if length > LINE_MAX and not brk:
                while True:  # the rest of an over-long line
                    more = f.readline(LINE_MAX + 1)
                    length += len(more)
                    if not more or more.endswith(b"\n"):
                        break
                yield BAD, None, off, length, True
                off += length
                continue
            line = raw.rstrip(b"\r\n")
            body = sealed_body(line)
            if not line.strip(b"# "):
                kind, body = FILLER, None
            elif body is None:
                kind = _jr().classify(raw)[0]  # damaged: BAD or BAD_SKIP
            elif body[:1] != b"#":
                kind = BAD if b"#" in body else ACTION
            else:
                head = body[:3]
                kind = CK_LINE if head == b"#= " else CK_END if head == b"#] " else \
                    HEAD_END if head == b"#} " else \
                    VOID if not body[1:].strip(b"-") else COMMENT
            if kind == BAD:
                body = None
            yield kind, body, off, length, brk
            off += length
    finally:
        f.close()


def _parse_end(body):
    """'#] n moves crc' -> (n, moves, crc) or None (journal_read.parse_end)."""
    try:
        words = body.decode().split()
        if len(words) != 4 or len(words[3]) != 4 or not words[1].isdigit() or \
                not words[2].isdigit():
            return None
        return int(words[1]), int(words[2]), int(words[3], 16)
    except (ValueError, UnicodeError):
        return None
