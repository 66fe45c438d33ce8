"""Resume at boot, its second part (Session.resume; the format and the damage rules:
firmware/journal/__init__.py): a rare path, loaded for the resume and let go after it on a
board. The game made from the header, the older of the last checkpoints restored,
the records after it applied one by one, each checked; damage handled (set aside,
torn line repaired, a call cut short dropped whole).

    session, report = finish(Session, journal, plan, game_from_header)
"""

import gc
import sys

from core.errors import IllegalAction
from firmware.modules import forget_module, forget_new_modules
from firmware.journal.record import (ACTION, BAD, BAD_SKIP, CK_END, CK_LINE, COMMENT, FILLER,
                             GROUP, HEAD_END, VOID, block_crc, crc16, is_header, read_lines,
                             sealed_body)

# Let go on a board once their part is done (unless loaded before): the transcript
# once the game is made from the header; the repairs after they are used
_TR = "core.transcript"
_FIX = "firmware.journal.fix"


def _forget(name, had):
    if not had and sys.implementation.name == "micropython":
        forget_module(name)


def _jr():
    """firmware.journal.read, for a rare step (damage) after it was let go."""
    from firmware.journal import read as journal_read
    return journal_read


def finish(cls, journal, plan, from_header):
    """Session._resume's second part: (session or None, report or None) from the plan
    of firmware.session.resume.resume."""
    header, data_off, cps, said, aside, repaired, restored = plan
    plan = None
    had_tr = _TR in sys.modules
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
                               "aside": aside}
        if restored:
            session.details["header"] = "restored from a checkpoint"
        if repaired:
            session.details["repaired"] = repaired
        journal.details = session.details
    # what the checkpoint and the replay loaded (core.stress.rare: reading lines and
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
    _replay(s, start)


def _replay(s, start):
    """Apply the records from `start` on, each checked; damage handled (module
    docstring of firmware.journal). A held group (an empty line, `#( n crc` and its n
    records: one call) is applied whole or not at all: the file ending inside its write
    is the call in flight ("Last call lost"), from its first byte on; a void inside it
    is an undo (what came before stays)."""
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
    first = 0
    group = None  # a held group being read (below)
    spans = []  # damaged lines that held no action (made filler after)
    j.glued = None  # (offset, bytes): two records glued, taken apart (_records)
    lead = -1  # an empty line right after a line: a held group's first byte
    filled = True  # the line before held something (`start` follows a record)
    for kind, body, off, length, brk in _records(j, start):
        lines += 1
        if lines % 32 == 0:
            gc.collect()
        at = lead  # the empty line right before this one (a group's start), or -1
        empty = length == 1 and brk
        lead = off if empty and filled else -1
        filled = not empty
        if not brk:
            # the last line lacks its break: a whole record is kept, else torn (filler
            # too: a lone '#', a checkpoint's first byte or a group's second)
            if kind == ACTION or kind == CK_END or kind == CK_LINE \
                    or kind == VOID or kind == COMMENT or kind == GROUP:
                no_break = True
            else:
                torn = (off, length, kind, at)
                break
        if group is not None and kind != ACTION:
            if kind != VOID:  # a void: undone into, the records before it stay
                damage = (group[0], "call cut short")
                break
            group = None
        if kind == ACTION:
            block = []
            try:
                game.push(body.decode("utf-8"))
            except (IllegalAction, UnicodeError) as e:
                damage = (off if group is None else group[0], getattr(e, "reason", "not text"))
                break
            j.stack_push(off, length, ACTION)
            since += 1
            if group is not None:  # taken as it comes; put back unless whole
                g = group
                g[4] = crc16(body, crc16(b"\n", g[4]) if g[6] else g[4])
                g[6] += 1
                if g[6] == g[2]:
                    if g[4] != g[3]:
                        damage = (g[0], "call damaged")
                        break
                    group = None
        elif kind == GROUP:
            g = _parse_end(body, 3)
            if g is None or not 1 < g[0] <= 64:
                damage = (off, "damaged")
                break
            # [offset, length, n, crc, crc so far, where its write starts (its empty
            # line; an older journal's: the record), records so far, moves before it,
            # undo stack before it]
            group = [off, length, g[0], g[2], 0xFFFF, off if at < 0 else at, 0,
                     game.moves, j.n]
            j.stack_push(off, length, GROUP)
            block = []
        elif kind == CK_LINE:
            if not block:
                first = off  # where the block starts
            block.append(body[3:].decode())
            if len(block) > 200:
                block = []
        elif kind == CK_END:
            e = _parse_end(body, 4)
            if e is not None and e[0] == len(block) and block_crc(block) == e[2] \
                    and e[1] == game.moves:
                j.stack_push(off, length, CK_END)
                s._remember(e[1], first, off + length)
                since = 0
                s._rebase()  # as in play: more than EVERY kept, onto one EVERY back
            block = []
        elif kind == BAD_SKIP:
            if skipped < 8:
                spans.append((off, length))
            skipped += 1
            block = []
        elif kind == BAD:
            if not _fix("harmless", j.storage.read_at(j.name, off, length)):
                damage = (off, "damaged")
                break
            spans.append((off, length))  # a void or a checkpoint's line: filler after
            skipped += 1
            block = []
        else:
            if kind != FILLER:
                since += 1
            block = []
    if group is not None:  # the call in flight, or damaged: none of it
        while game.moves > group[7]:
            game.pop()
        since -= group[6]
        j.n = group[8]
    s.since = since
    kept = game.moves
    call = None  # where the write of the call in flight starts
    if group is not None and damage is None:
        call = group[5]  # the file ends inside a held group
    elif torn is not None and group is not None:
        call = group[5]
    elif torn is not None:
        if j.storage.read_at(j.name, torn[0], 2) == b"#(":
            call = torn[0] if torn[3] < 0 else torn[3]  # its group record torn
        elif torn[3] >= 0 and torn[2] == FILLER:
            call = torn[3]  # a lone '#' after a group's empty line: its second byte
    elif damage is None and lead >= 0:
        call = lead  # the file ends in an empty line: a group's first byte
    if call is not None:
        j.rollback(call)
        _said(s, "Last call lost", None, kept, 1, None, call)
    elif torn is not None and torn[2] != BAD:
        j.rollback(torn[0])  # a cut checkpoint: nothing lost
        if torn[2] == FILLER:
            torn = None  # a lone '#' (its first byte), filler now: as if whole
    elif torn is not None:
        j.rollback(torn[0])
        _said(s, "Last entry lost", None, kept, 1, None, torn[0])
    elif damage is not None:
        aside, n = _jr().make_filler(j, damage[0])
        _said(s, "Journal damaged", "Journal damaged: %d kept, %d set aside" % (kept, n),
              kept, n, aside, damage[0])
        s.details["reason"] = damage[1]
    elif no_break:
        try:
            _jr().add_break(j)
        except OSError:
            pass
    fixes = getattr(j, "glued", None) or ()  # (set by _records as it reads)
    j.glued = None
    if fixes and damage is None and torn is None:
        for off, fix in fixes:
            spans.append((off, -1, fix))
    if spans and damage is None and torn is None:
        # they cost nothing, but they are filler now (or repaired): the file replays
        # to the game
        had = _FIX in sys.modules
        from firmware.journal import fix as journal_fix
        try:
            journal_fix.fill(j, spans)
        except OSError:
            pass
        journal_fix = None
        _forget(_FIX, had)
        if fixes and s.report is None:
            _said(s, "Journal damaged", "Journal damaged: repaired", kept,
                  0, None, fixes[0][0])
    j.details = s.details
    j.size = -1
    gc.collect()
    if s.since >= EVERY:
        s._checkpoint()


def _said(s, message, report, kept, n, aside, off):
    s.report = report or message
    s.details = {"message": message, "kept": kept, "set_aside": n, "aside": aside,
                 "offset": off}


def _fix(fn, raw):
    """firmware.journal.fix's fn(raw) (the module let go after): glued, harmless."""
    had = _FIX in sys.modules
    from firmware.journal import fix as journal_fix
    try:
        return getattr(journal_fix, fn)(raw)
    finally:
        journal_fix = None
        _forget(_FIX, had)


def _records(j, start):
    """journal_read.records with its classify, read here so that the replay runs
    without firmware.journal.read in the heap (a damaged line is classified there)."""
    f = j.storage.open_read(j.name)
    if f is None:
        return
    try:
        for raw, off, length in read_lines(f, start):
            if raw is None:  # over-long
                yield BAD, None, off, length, True
                continue
            brk = raw.endswith(b"\n")
            line = raw.rstrip(b"\r\n")
            body = sealed_body(line)
            if not line.strip(b"# "):
                kind, body = FILLER, None
            elif body is None:
                kind = _jr().classify(raw)[0]  # damaged: BAD or BAD_SKIP
                fix = _fix("glued", raw) if kind == BAD else None
                if fix is not None:
                    # two whole records whose line break became another byte: both
                    # read, the line written back repaired (the caller: j.glued)
                    if j.glued is None:
                        j.glued = []
                    j.glued.append((off, fix))
                    k = fix.index(b"\n") + 1
                    for piece, at in ((fix[:k], off), (fix[k:], off + k)):
                        kind, body = _jr().classify(piece)
                        yield kind, body, at, len(piece), piece[-1:] == b"\n"
                    continue
            elif body[:1] != b"#":
                kind = BAD if b"#" in body else ACTION
            else:
                head = body[:3]
                kind = CK_LINE if head == b"#= " else CK_END if head == b"#] " else \
                    HEAD_END if head == b"#} " else GROUP if head == b"#( " else \
                    VOID if not body[1:].strip(b"-") else COMMENT
            if kind == BAD:
                body = None
            yield kind, body, off, length, brk
    finally:
        f.close()


def _parse_end(body, n):
    """'#] n moves crc' (n=4) -> (n, moves, crc); '#( n crc' (n=3) -> (n, _, crc);
    None when it is not one (journal_read.parse_end)."""
    try:
        w = body.decode().split()
        if len(w) != n or len(w[-1]) != 4 or not w[1].isdigit() or not w[n - 2].isdigit():
            return None
        return int(w[1]), int(w[n - 2]), int(w[-1], 16)
    except (ValueError, UnicodeError):
        return None
