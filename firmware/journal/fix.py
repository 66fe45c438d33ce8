"""A damaged line before the newest whole checkpoint, repaired (the format and the
damage rules: firmware/journal/__init__.py): a rare path, loaded by the resume when its scan
finds one, and let go after on a board.

The game on the screen comes from the newest whole checkpoint, so it loses nothing;
but `python -m host_sim replay game.txt` reads the file from the top and would stop at
the damaged line. So the line is repaired: a flip changes one byte, and the seal (a
CRC-16) finds which byte and what it was (the CRC is linear: the difference between
the CRC the line has and the one its seal says points at the byte). Every candidate
is then checked against the position itself: the records from the last whole
checkpoint before the line (or the header) up to the first whole one after it, the
candidate in its place, must give that checkpoint's game exactly. Only then is the
repaired journal written back (atomically, the damaged file kept as game.badN).
A line that no single byte repairs is not guessed at: the resume sets it aside.

    repair(j, header, data_off, found, newest, from_header, records, split)
        -> (True, aside) or (False, None)
    block_at(j, cp) -> [(moves, lines, start, end)] or []   a checkpoint read back
    write_back(j, edits) -> aside    edits: [(offset, bytes of the same length)]
"""

from core.errors import IllegalAction
from firmware.journal.record import (_T, ACTION, BAD, BAD_SKIP, CHUNK, LINE_MAX, SEAL_LEN, crc16,
                             filler_bytes, read_block, sealed_body)

_LOW = None  # the table's entries by their low byte (it is a bijection), for Z^-1


def _unshift(z):
    """The CRC before one zero byte was processed (the inverse of one step)."""
    hi = _LOW[z & 0xFF]
    return (hi << 8) | ((z ^ _T[hi]) >> 8)


def _hexval(seal):
    want = 0
    for c in seal:
        if 48 <= c <= 57:
            want = want * 16 + c - 48
        elif 97 <= c <= 102:
            want = want * 16 + c - 87
        else:
            return -1
    return want


def _sealed_fixes(line):
    """Lines (no break) one byte away from `line` whose seal holds: a byte of the text
    (found from the CRC difference), or a byte of the seal itself."""
    global _LOW
    out = []
    if len(line) <= SEAL_LEN:
        return out
    body = line[:-SEAL_LEN]
    have = crc16(body)
    want = _hexval(line[-4:]) if line[-SEAL_LEN:-4] == b"  #~" else -1
    if want >= 0 and want != have:
        if _LOW is None:
            _LOW = bytearray(256)
            for i in range(256):
                _LOW[_T[i] & 0xFF] = i
        inv = {}
        for i in range(256):
            inv[_T[i]] = i
        t = have ^ want
        for i in range(len(body) - 1, -1, -1):
            e = inv.get(t)
            if e:
                c = body[i] ^ e
                if c != 10 and c != 13:
                    fixed = bytearray(line)
                    fixed[i] = c
                    out.append(bytes(fixed))
            t = _unshift(t)
    seal = ("  #~%04x" % have).encode()
    diff = 0
    for i in range(SEAL_LEN):
        if seal[i] != line[len(body) + i]:
            diff += 1
    if diff == 1:
        out.append(body + seal)
    return out


def candidates(raw):
    """The repairs of a damaged line (as read: up to and with its break), each the same
    length: one byte changed so that every record in it is whole again (a lost line
    break between two records, too), or filler with one stray byte."""
    brk = raw[-1:] == b"\n"
    line = raw[:-1] if brk else raw
    tail = raw[len(line):]
    out = [fixed + tail for fixed in _sealed_fixes(line)]
    if _broken(line) is not None:  # the empty line before a group record
        out.append(b"\n" + line[1:] + tail)
    # two records glued by a line break that became another byte
    at = line.find(b"  #~")
    while 0 <= at and at + SEAL_LEN < len(line):
        a, b = line[:at + SEAL_LEN], line[at + SEAL_LEN + 1:]
        if sealed_body(a) is not None and (sealed_body(b) is not None or not b.strip(b"# ")):
            out.append(a + b"\n" + b + tail)
        at = line.find(b"  #~", at + 1)
    stray = [i for i in range(len(line)) if line[i] != 35]
    if len(stray) == 1 and len(line) > 2:
        out.append(b"#" * len(line) + tail)  # filler (a torn write made harmless)
    return out


def _fits(fix):
    for piece in fix.split(b"\n"):
        if len(piece) + 1 > LINE_MAX:
            return False
    return True


def _broken(line):
    """A line whose first byte was a line break: an empty line (a held group's start,
    record.group_bytes) glued onto the record after it. That record, or None."""
    return line[1:] if len(line) > 1 and sealed_body(line[1:]) is not None else None


def glued(raw):
    """The one repair of a damaged line that is two whole records glued together (the
    line break between them became another byte; or the empty line before a group
    record, its one byte: the record and one stray byte), or None: a seal that holds
    either side of that byte is no guess, so the replay after the newest checkpoint
    takes it too."""
    line = raw[:-1] if raw[-1:] == b"\n" else raw
    tail = raw[len(line):]
    if _broken(line) is not None:
        return b"\n" + line[1:] + tail
    at = line.find(b"  #~")
    while 0 <= at and at + SEAL_LEN < len(line):
        a, b = line[:at + SEAL_LEN], line[at + SEAL_LEN + 1:]
        if sealed_body(a) is not None and (sealed_body(b) is not None or not b) and \
                len(a) < LINE_MAX and len(b) < LINE_MAX:
            return a + b"\n" + b + tail
        at = line.find(b"  #~", at + 1)
    return None


def harmless(raw):
    """A damaged line whose one-byte repair holds no action (a checkpoint's first byte
    flipped: '"= ...'): it costs nothing."""
    for fix in candidates(raw):
        if holds_no_action(fix):
            return True
    return False


def holds_no_action(fix):
    """Every record of a repaired line is one of the device's own (it starts '#')."""
    for piece in fix.split(b"\n"):
        if piece.strip(b"# ") and (piece[:1] != b"#" or sealed_body(piece) is None):
            return False
    return True


def _block(j, start, end):
    """The `#=` texts of the checkpoint block at [start, end), or None."""
    got = read_block(j, start, end)
    return None if got is None else got[0]


def block_at(j, cp):
    """[(moves, lines, start, end)] for the whole checkpoint cp (moves, start, end)."""
    if cp is None:
        return []
    texts = _block(j, cp[1], cp[2])
    return [] if texts is None else [(cp[0], texts, cp[1], cp[2])]


def _game_at(j, header, cp, from_header, split):
    g = from_header(header)
    texts = _block(j, cp[1], cp[2])
    if texts is None:
        return None
    g.restore(split(texts)[1])
    return g


def _verify(j, header, data_off, found, after, fix, from_header, records, split):
    """Does the replay from the checkpoint before the line (or the header) to the one
    after it, with `fix` in the line's place, give that checkpoint's game?"""
    d_off, _, before = found[:3]
    try:
        if before is None:
            g = from_header(header)
            start = data_off
        else:
            g = _game_at(j, header, before, from_header, split)
            start = before[2]
        if g is None:
            return False
        it = records(j, start)
        try:
            for kind, body, off, length, brk in it:
                if off >= after[1]:
                    break
                if off == d_off:
                    for piece in fix.split(b"\n"):
                        if not piece.strip(b"# "):
                            continue
                        b = sealed_body(piece)
                        if b is None:
                            return False
                        if b[:1] != b"#":
                            g.push(b.decode())
                elif kind == ACTION:
                    g.push(body.decode())
                elif kind == BAD:  # another damaged line
                    return False
        finally:
            it.close()
        if g.moves != after[0]:
            return False
        want = _game_at(j, header, after, from_header, split)
        return want is not None and want.to_json() == g.to_json()
    except (IllegalAction, UnicodeError, ValueError):
        return False


def repair(j, header, data_off, found, newest, from_header, records, split):
    """found: (offset, length, checkpoint before, checkpoint after) of the damaged line
    (the resume's scan; each checkpoint (moves, start, end) or None); newest: the
    newest whole checkpoint (moves, lines, start, end), the one after when the scan
    found none before it. (True, aside) once repaired and written back."""
    d_off, d_len, _, after, kind = found
    raw = j.storage.read_at(j.name, d_off, d_len)
    if kind == BAD_SKIP:  # it held no action: filler costs nothing, and replays
        return True, write_back(j, ((d_off, filler_bytes(raw)),))
    if after is None:
        after = (newest[0], newest[2], newest[3])
    tried = []
    filler = None
    for fix in candidates(raw):
        if holds_no_action(fix):
            if _fits(fix) or filler is None:  # it held no action: filler, as BAD_SKIP
                filler = filler_bytes(fix)
        elif _fits(fix):
            tried.append(fix)
    if filler is not None:
        tried.append(filler)
    for fix in tried:
        if _verify(j, header, data_off, found, after, fix, from_header, records, split):
            try:
                return True, write_back(j, ((d_off, fix),))
            except OSError:
                return False, None
    return False, None


def fill(j, spans):
    """Damaged lines that held no action (a void, a checkpoint's line: BAD_SKIP) made
    filler, so that the file replays cleanly (a flip may have made a line break of a
    byte): spans [(offset, length)]; the damaged file kept as game.badN."""
    st = j.storage
    edits = []
    for span in spans:  # (offset, length) made filler, or (offset, -1, repaired bytes)
        edits.append((span[0], span[2]) if span[1] < 0 else
                     (span[0], filler_bytes(st.read_at(j.name, span[0], span[1]))))
    return write_back(j, edits)


def write_back(j, edits):
    """The journal with edits (offset, bytes of the same length) written anew
    (atomically: name.new, then renamed over it); the damaged file is kept as
    game.badN first. Returns that name. OSError: the journal stays as it was."""
    st = j.storage
    aside = st.copy_aside(j.name)
    src = st.open_read(j.name)
    w = st.atomic(j.name)
    try:
        pos = 0
        while True:
            chunk = src.read(CHUNK)
            if not chunk:
                break
            end = pos + len(chunk)
            for off, data in edits:
                if off < end and off + len(data) > pos:
                    chunk = bytearray(chunk)
                    for i in range(max(off, pos), min(off + len(data), end)):
                        chunk[i - pos] = data[i - off]
            w.write(chunk)
            pos = end
        src.close()
        src = None
        w.commit()
    except OSError:
        if src is not None:
            src.close()
        w.abort()
        raise
    j.size = -1
    return aside
