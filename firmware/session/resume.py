"""Resume at boot, its first part (Session.resume; the format and the damage rules:
firmware/journal/__init__.py): a rare path, loaded for the resume and let go before its
replay (firmware.session.replay), so none of it is in the heap while the game is
rebuilt or played. The header read from the top (restored from a checkpoint's copy),
the last checkpoints found from the end of the file, the records before the newest
checked (a damaged line repaired: firmware.journal.fix), a plain transcript sealed.

    plan, report = resume(Session, journal, game_from_header)
"""

import gc
import sys

from firmware.modules import forget_module
from firmware.journal.record import (BAD, BAD_SKIP, CK_END, CK_LINE, LINE_MAX, JournalError, crc16,
                             is_header)

_JR = "firmware.journal.read"
_FIX = "firmware.journal.fix"
TRANSCODE_BYTES = 4096  # a journal longer than this with no checkpoint is written anew


def _forget(name, had):
    if not had and sys.implementation.name == "micropython":
        forget_module(name)


def resume(cls, journal, from_header, again=None):
    """Session._resume's first part: (plan, None), the plan for
    firmware.session.replay.finish (header, offset after it, checkpoints, report so
    far, name kept aside, lines repaired, header restored), or (None, report) when
    there is no game to resume. A long journal with no whole checkpoint gives (None,
    None) with journal.anew set: (header, offset after it, the report so far, the name
    kept aside): Session._resume has it written anew with checkpoints
    (firmware.session.stream) with neither module in the heap, and calls again with
    again=anew[2:]."""
    journal.details = None
    journal.anew = None
    had_jr = _JR in sys.modules
    # a plain transcript (no seals) made a journal first
    plain = _seal_plain(journal) if again is None else again[1]
    from firmware.journal import read as jr
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
        fixed = jr.fix_header(journal, header, header is not top) if header else -1
        if header is None or (fixed < 0 and header is top):
            return _unusable(journal, "Game header damaged", "header damaged",
                             "Game header damaged: set aside")
        if fixed >= 0:
            data_off = fixed
        if header != top:
            said = "Game header damaged: restored"
    top_read = top
    top = None
    repaired = 0
    aside = None
    while cps and repaired < 4:
        # the replay starts at a checkpoint: what lies before the newest is checked
        # here, so that the file still replays to the game (firmware.journal.fix)
        found = _scan(journal, data_off, cps[0][2], jr)
        if found is None:
            break
        had = _FIX in sys.modules
        from firmware.journal import fix as journal_fix
        try:
            ok, a = journal_fix.repair(journal, header, data_off, found, cps[0],
                                       from_header, jr.records, _split_block)
            if not ok:  # resumed from the last whole checkpoint before it: set aside
                cps = journal_fix.block_at(journal, found[2])
        finally:
            journal_fix = None
            _forget(_FIX, had)
        if not ok:
            break
        repaired += 1
        aside = aside or a
    # the reader goes before the game's rules load: they take its place in the heap
    jr = None
    _forget(_JR, had_jr)
    gc.collect()
    if again is None and not cps and journal.header_ok is not False and \
            journal.storage.size(journal.name) - data_off > TRANSCODE_BYTES:
        journal.anew = (header, data_off, said, plain)
        return None, None
    if again is not None and again[0] is not None:
        said = again[0] if said is None else again[0] + " / " + said
    if plain is not None:
        said = "Transcript resumed" if said is None else "Transcript resumed / " + said
        aside = aside or plain
    if repaired:
        said = "Journal damaged: repaired" if said is None else said + ", line repaired"
    return (header, data_off, cps, said, aside, repaired, header is not top_read), None


def _seal_plain(journal):
    """A plain transcript as game.txt (the browser's Copy; one made on a computer): its
    first line an unsealed `game` line. Made a journal (firmware.journal.plain); the
    original's name as kept aside, or None (not one, or it could not be done)."""
    st = journal.storage
    st.recover(journal.name)
    f = st.open_read(journal.name)
    if f is None:
        return None
    try:
        first = f.read(256)
    finally:
        f.close()
    if first[:3] == b"\xef\xbb\xbf":
        first = first[3:]
    # a whole first line, and no seal near it: a journal cut or damaged in its first
    # line is not one (its next line is sealed; a cut one has no line break)
    if first[:5].lower() != b"game " or b"#~" in first or \
            b"#" in first.split(b"\n", 1)[0] or b"\n" not in first:
        return None
    had = "firmware.journal.plain" in sys.modules
    from firmware.journal import plain as journal_plain
    try:
        return journal_plain.seal_transcript(journal)
    except (OSError, ValueError):
        return None
    finally:
        journal_plain = None
        _forget("firmware.journal.plain", had)


def _split_block(texts):
    """A checkpoint block's lines -> (the header copy or None, the game's lines)
    (firmware.session.replay._split_block)."""
    h = 0
    while h < len(texts) and is_header(texts[h]) and \
            (h or texts[0].lower().startswith("game ")):
        h += 1
    return (texts[:h] if h else None), texts[h:]


def _unusable(journal, message, error, report):
    aside = journal.set_aside()
    journal.details = {"message": message, "error": error, "aside": aside,
                       "kept": 0, "set_aside": None}
    return None, report


def _scan(j, start, end, jr):
    """The records before the newest whole checkpoint (which starts at `end`) with their
    seals checked: the replay starts at a checkpoint, so damage there would go unseen
    (and the file would no longer replay to the game). None, or (offset and length of
    the first damaged line, the last whole checkpoint before it, the first after it,
    its kind: BAD, or BAD_SKIP for one that held no action), each checkpoint (moves,
    start, end) or None."""
    found = None
    last = None
    crc = 0xFFFF
    n = 0
    first = 0
    it = jr.records(j, start)
    try:
        for kind, body, off, length, brk in it:
            if off >= end:
                break
            if kind == CK_LINE:
                if n == 0:
                    first = off
                    crc = 0xFFFF
                else:
                    crc = crc16(b"\n", crc)
                crc = crc16(body[3:], crc)
                n += 1
                continue
            if kind == CK_END:
                e = jr.parse_end(body)
                if e is not None and n and e[0] == n and e[2] == crc:
                    cp = (e[1], first, off + length)
                    if found is not None:
                        return found[:2] + (last, cp, found[2])
                    last = cp
            elif (kind == BAD or kind == BAD_SKIP) and found is None:
                found = (off, length, kind)
            n = 0
    finally:
        it.close()
    return None if found is None else found[:2] + (last, None, found[2])
