"""Reading the journal (the format: firmware/journal/__init__.py): rare paths, kept out of the
heap while a game is played. Resume at boot (firmware.resume), History's replay of a
transcript and the tools load it; firmware.journal's methods that read (read_header,
records, load) come here, and its names classify, unseal, seal, ... are these.

    classify(raw) -> (kind, body)   unseal(raw) -> text   seal(text) -> sealed line
    read_header(j, strict) fix_header(j, texts) find_checkpoints(j, start, want, gap)
    records(j, start) make_filler(j, off) add_break(j) load(j)
"""

from firmware.journal.record import (ACTION, BAD, BAD_SKIP, CHUNK, CK_END, CK_LINE, COMMENT,
                             FILLER, GROUP, HEAD_END, LINE_MAX, SEAL_LEN, VOID, JournalError,
                             block_crc, crc16, filler_bytes, head_end_bytes, is_header,
                             read_lines, seal_bytes, sealed_body)


def checkpoint_bytes(lines, moves):
    """A checkpoint block as one bytes (tools and tests; the device writes the same
    bytes in parts: firmware.journal.checkpoint_parts)."""
    parts = [seal_bytes("#= " + line) for line in lines]
    parts.append(seal_bytes("#] %d %d %04x" % (len(lines), moves, block_crc(lines))))
    return b"".join(parts)


def seal(text):
    """'P1 draw' -> 'P1 draw  #~a1c3' (no line break)."""
    return "%s  #~%04x" % (text, crc16(text.encode("utf-8")))


def _holds_no_action(line):
    """A damaged line that can have held no action: it starts as a void or checkpoint
    record, and so does every piece after a seal in it (one lost line break glues two
    records: `#] 2 63 8ed3  #~acb1discard down  #~52b1` holds an action)."""
    at = 0
    while True:
        head = line[at:at + 2]
        if head != b"#-" and head != b"#=" and head != b"#]" and head != b"#(":
            return False
        i = line.find(b"  #~", at)
        if i < 0 or i + SEAL_LEN >= len(line):
            return True  # no seal, or it ends the line: one record
        at = i + SEAL_LEN


def classify(raw):
    """(kind, body bytes or None) of one line (with or without its break)."""
    line = raw.rstrip(b"\r\n")
    if not line.strip(b"# "):
        return FILLER, None
    body = sealed_body(line)
    if body is None:
        return (BAD_SKIP if _holds_no_action(line) else BAD), None
    if body[:1] != b"#":
        if b"#" in body:
            return BAD, None
        return ACTION, body
    head = body[:3]
    if head == b"#= ":
        return CK_LINE, body
    if head == b"#] ":
        return CK_END, body
    if head == b"#} ":
        return HEAD_END, body
    if head == b"#( ":
        return GROUP, body
    if not body[1:].strip(b"-"):
        return VOID, body
    return COMMENT, body


def unseal(raw):
    """A line -> its text ('' for filler and comments), or None if damaged."""
    kind, body = classify(raw)
    if kind == ACTION:
        try:
            return body.decode("utf-8")
        except UnicodeError:
            return None
    if kind == BAD or kind == BAD_SKIP:
        return None
    return ""


def parse_head_end(body):
    """'#} n crc' -> (n, crc) or None."""
    try:
        words = body.decode().split()
        if len(words) != 3 or len(words[2]) != 4 or not words[1].isdigit():
            return None
        return int(words[1]), int(words[2], 16)
    except (ValueError, UnicodeError):
        return None


def parse_end(body):
    """'#] n moves crc' -> (n, moves, crc) or None."""
    try:
        words = body.decode().split()
        if len(words) != 4 or len(words[3]) != 4:
            return None
        n, moves = int(words[1]), int(words[2])
        if not words[1].isdigit() or not words[2].isdigit():
            return None
        return n, moves, int(words[3], 16)
    except (ValueError, UnicodeError):
        return None


def read_header(j, strict=True):
    """Journal.read_header (its docstring)."""
    st = j.storage
    st.recover(j.name)
    j.header_ok = False
    f = st.open_read(j.name)
    if f is None:
        j.size = 0
        j.count = j.header_count = 0
        return None, 0
    texts = []
    off = 0
    junk = False
    damaged = False
    try:
        while True:
            raw = f.readline(LINE_MAX + 1)
            if not raw:
                break
            kind, body = classify(raw)
            if kind == FILLER:
                off += len(raw)
                continue
            if kind == HEAD_END:
                e = parse_head_end(body)
                if e is not None and texts and e[0] == len(texts) and \
                        e[1] == block_crc(texts) and raw.endswith(b"\n"):
                    j.header_ok = True
                    off += len(raw)
                damaged = not texts
                break
            if kind == ACTION and not raw.endswith(b"\n"):
                # a whole last record without its break: a header line (the file
                # ends inside the header) or an action of an older journal
                if is_header(body.decode("utf-8", "replace")):
                    damaged = True
                elif texts:
                    j.header_ok = None
                else:
                    junk = True
                break
            if kind == COMMENT and texts and body[:8] == b"#@names ":
                texts.append(body.decode("utf-8"))  # the names: part of the header
                if not raw.endswith(b"\n"):
                    damaged = True  # the file ends right after it: its end record lost
                    break
                off += len(raw)
                continue
            if kind != ACTION:
                if kind == BAD or kind == BAD_SKIP:
                    damaged = True  # torn, or damaged: maybe a header line
                elif not texts:
                    junk = True
                else:
                    j.header_ok = None
                break
            try:
                text = body.decode("utf-8")
            except UnicodeError:
                raise JournalError("header not text")
            if not is_header(text) or (not texts and not text.lower().startswith("game ")):
                if not texts:
                    junk = True
                else:
                    j.header_ok = None  # an action right after: an older journal
                break
            texts.append(text)
            off += len(raw)
    finally:
        f.close()
    j.size = st.size(j.name)
    if not texts:
        if damaged and not strict:
            return [], off
        if not junk and not damaged:  # empty, or only filler: no journal
            return None, 0
        raise JournalError("no header")
    j.header_count = len(texts)
    return texts, off


def fix_header(j, texts, copied=False):
    """After read_header found the header cut short: do the file's first bytes hold
    `texts` as a header (with its end record), but for a few damaged bytes (a flip)
    or a cut inside the end record? Then they are written back (best effort) and the
    offset after the end record is returned; else -1. copied: `texts` come from a
    checkpoint's copy (the header lines themselves were damaged): the repaired journal
    is written anew (atomically) and the damaged file kept as game.badN, so the file
    replays to the game the device shows; else (only the end record) in place."""
    st = j.storage
    end = head_end_bytes(texts)
    want = b"".join([seal_bytes(t) for t in texts]) + end
    have = st.read_at(j.name, 0, len(want))
    # The names line is the header's last (firmware.journal.new): once it is whole
    # (its break aside), no game or option line can be missing, and the file may end
    # anywhere after it. Without it, a file ending after a header line may have lost
    # option lines: never a game with options it did not have.
    need = len(want) - len(end) + 1  # every header line, a byte of the end record
    if texts[-1][:8] == "#@names ":
        need -= 2  # every header line, the names line's break aside
    try:
        if len(have) < len(want):
            # the file ends inside the end record (or after the names line's seal)
            if len(have) < need or want[:len(have)] != have:
                return -1
            st.append(j.name, want[len(have):])
        else:
            diffs = 0
            for i in range(len(want)):
                if want[i] != have[i]:
                    diffs += 1
            if diffs > (16 if copied else 2):
                return -1
            if diffs and copied:
                from firmware.journal.fix import write_back
                write_back(j, ((0, want),))
            elif diffs:
                st.patch(j.name, ((0, want),))
    except OSError:
        pass
    j.size = -1
    return len(want)


def lines_back(j, start):
    """(offset, raw line) from the end of the file back to `start`, read in chunks."""
    f = j.storage.open_read(j.name)
    if f is None:
        return
    try:
        pos = j._size()
        carry = b""
        while pos > start:
            n = min(CHUNK, pos - start)
            pos -= n
            f.seek(pos)
            chunk = f.read(n) + carry
            # complete lines are those after the first line break in the chunk,
            # unless we reached the start
            cut = len(chunk)
            while True:
                k = chunk.rfind(b"\n", 0, cut - 1) if cut > 1 else -1
                if k < 0:
                    break
                yield pos + k + 1, chunk[k + 1:cut]
                cut = k + 1
            carry = chunk[:cut]
            if len(carry) > LINE_MAX * 2:  # no break for long: garbage
                yield pos, carry
                carry = b""
        if carry:
            yield start, carry
    finally:
        f.close()


def find_checkpoints(j, start, want=2, gap=None):
    """The last whole, valid checkpoints, newest first, each (moves, lines, block
    start offset, offset after the end record): `want` of them at most, and no more
    once one lies `gap` moves or more before the newest."""
    found = []
    pend = None  # (n, moves, crc, end offset after)
    texts = []
    for off, raw in lines_back(j, start):
        kind, body = classify(raw)
        if pend is not None:
            if kind == CK_LINE:
                texts.append(body[3:].decode())
                if len(texts) == pend[0]:
                    texts.reverse()
                    if block_crc(texts) == pend[2]:
                        found.append((pend[1], texts, off, pend[3]))
                        if len(found) >= want or (gap is not None and found[0][0] - pend[1] >= gap):
                            return found
                    pend = None
                    texts = []
                continue
            pend = None
            texts = []
        if kind == CK_END:
            e = parse_end(body)
            if e is not None and 0 < e[0] <= 200:
                pend = (e[0], e[1], e[2], off + len(raw))
    return found


def records(j, start):
    """(kind, body, offset, length, has_break) of every line from `start` on."""
    f = j.storage.open_read(j.name)
    if f is None:
        return
    try:
        for raw, off, length in read_lines(f, start):
            kind, body = (BAD, None) if raw is None else classify(raw)  # None: over-long
            yield kind, body, off, length, raw is None or raw.endswith(b"\n")
    finally:
        f.close()


def add_break(j):
    j.storage.append(j.name, b"\n")
    j.size = j._size() + 1 if j.size >= 0 else -1


def make_filler(j, off):
    """Keep a copy of the whole file aside (game.badN), then turn everything from
    `off` to the end into filler. Returns (aside name, lines set aside)."""
    st = j.storage
    aside = st.copy_aside(j.name)
    end = st.size(j.name)
    lines = 0
    pos = off
    edits = []
    while pos < end:
        n = min(CHUNK, end - pos)
        raw = st.read_at(j.name, pos, n)
        lines += raw.count(b"\n")
        if pos + n >= end and raw[-1:] != b"\n":
            lines += 1
        edits.append((pos, filler_bytes(raw, pos + n >= end)))
        pos += n
    st.patch(j.name, edits)
    j.size = end
    return aside, lines


def load(j):
    """Journal.load (its docstring)."""
    j.details = None
    try:
        header, off = read_header(j)
    except (JournalError, OSError, ValueError) as e:
        aside = None
        try:
            aside = j.set_aside()
        except OSError:
            pass
        j.details = {"message": "Journal unreadable", "line": 1, "dropped": None,
                     "aside": aside, "error": repr(e)}
        return [], "Journal unreadable"
    if header is None:
        return [], None
    texts = list(header)
    j.n = 0
    lineno = len(header)
    for kind, body, roff, length, brk in records(j, off):
        lineno += 1
        if kind == ACTION:
            if not brk:
                add_break(j)
            texts.append(body.decode("utf-8"))
            j.stack_push(roff, length, ACTION)
        elif kind == CK_END:
            j.stack_push(roff, length, CK_END)
        elif kind == BAD:
            if not brk:
                raw = j.storage.read_at(j.name, roff, length)
                j.rollback(roff)
                j.details = {"message": "Last entry lost", "line": lineno,
                             "dropped": _decode_loose(raw), "aside": None}
            else:
                aside, _ = make_filler(j, roff)
                j.details = {"message": "Journal damaged", "line": lineno,
                             "dropped": None, "aside": aside}
            break
    j.count = len(texts)
    return texts, (j.details["message"] if j.details else None)


def _decode_loose(raw):
    line = raw.rstrip(b"\r\n")
    i = line.find(b"#")
    if i >= 0:
        line = line[:i]
    try:
        return line.decode("utf-8").strip() or None
    except UnicodeError:
        return None
