"""The game journal on flash: every accepted action, one sealed line each, plus checkpoints.

The file is a transcript in the table notation (seeds/notation.md) that
`python -m host_sim replay game.txt` reads as it is: the header and option lines
first, then one action per line; everything else is a comment. EVERY line the
firmware writes is a sealed record: its text, two spaces, `#~` and the CRC-16
(firmware.crc) of the text's bytes in four hex digits:

    game stress players 2  #~7f07            header (then `option KEY VALUE` lines)
    #} 1 7f07  #~6fe2                        the header's end: n header lines, the
                                             CRC of their texts joined by newlines
    start  #~a1c3                            an action
    #= checkpoint stress players 2 moves 64 ...  #~0f3e      checkpoint lines
    #= ... end  #~77b1
    #] 2 64 9a0c  #~c2d4                     checkpoint end: n lines, moves, CRC of
                                             the n lines' texts joined by newlines
    #-----------  #~3b7a                     a void: an undone record, overwritten
                                             in place with one of the same length
    ######                                   filler: a torn write made harmless
                                             (only '#' or blank; never sealed)

A line that starts with `#` is checked like any other: a record whose first byte
became `#` fails its CRC and is damage, never a comment. Filler cannot come from
damage: a real record always holds its `  #~xxxx` seal, so no byte flip or cut makes
one all '#'.

The header (Journal.start, one atomic write) ends with its end record: a header
line damaged or cut off is found (a `game`/`option` line that fails its seal is
otherwise indistinguishable from a damaged first action), never read as a header
with fewer options. A journal of the version before it (no end record) still reads:
its header ends where a whole record that is no header line follows.

Checkpoints (written by firmware.session.Session): a copy of the header lines, then
the game's own checkpoint() lines, as `#=` records followed by one `#]` end record,
in ONE append. A checkpoint is valid only when whole: the end record names how many
`#=` lines come right before it and their combined CRC, and its move count must
match. They are written every Session.EVERY (32) lines and at round and game
boundaries (`end`, `out`), never while lines are held in RAM (Session.push(defer=True)).

Resume (Session.resume): the header lines are read from the top; the last two valid
checkpoints are found from the END of the file, read backwards in chunks (the cost is
bounded by the checkpoint interval, not by the file); the older of the two is
restored, then the records after it are applied one by one, each checked. No
checkpoint: the file is streamed from the start (garbage collected as it goes).

Undo never rewrites the file: the last live record is overwritten in place by a void
of the same length (`r+b`, seek, write; littlefs commits the whole open-close at once,
so a power cut leaves the old or the new). Undo past a checkpoint also voids that
checkpoint's end record (and Session appends a fresh checkpoint of the new position).
An undo the flash refuses part-way is put back (the bytes it reached are written
again), so the record stays live and the game in RAM keeps it.

A full flash: before a write, Storage.free() must leave RESERVE_BLOCKS blocks plus the
size of a checkpoint; otherwise the write is refused (OSError ENOSPC) and nothing is
written. A write that fails part-way (ENOSPC, EROFS, any OSError) is rolled back: the
bytes it put after the last whole record are overwritten with filler, so the next entry
never glues onto a fragment. reason(e) gives the screen's words: "flash full: not
saved", "flash read-only", "flash error: not saved".

Damage found at resume: a torn LAST line (no line break) is the entry in flight: it
is made filler and reported as "Last entry lost". Any other bad record (or one the
rules refuse) after the checkpoint: everything before it is kept, the whole file is
copied to game.badN, and the bad record and everything after it are made filler in
place, reported with what was kept and what was set aside. A damaged checkpoint line
or a damaged void costs nothing (the actions are all there), but only when the line
can hold no action: it starts `#=`, `#]` or `#-`, and so does every piece after a
seal in it (a lost line break glues the next record on: `#] 2 63 8ed3  #~acb1discard
down  #~52b1` is damage). Damage BEFORE the checkpoint used is not read at all: it
costs nothing the checkpoint holds. A damaged header (Session._resume): its copy in
the newest checkpoint is used, and the header is written back in place when only a
byte or two differ ("Game header damaged: restored"); a damaged end record alone is
repaired without a word; no copy: the journal is set aside ("Game header damaged:
set aside"), never resumed with options the game did not have.

    j = Journal(storage, "game.txt")
    j.start(header_lines)     new game: the header as a fresh file (atomic)
    w = j.begin(header_lines); w.write(data) -> offset; w.commit()   the same, streamed
    j.read_header() -> (texts, offset); j.header_ok; j.fix_header(texts)
    j.append(line)            one action (one append); j.append_bytes(data, n)
    j.write_checkpoint(lines, moves)
    j.pop() -> text or None   void the last action (and checkpoint ends after it)
    j.load() -> (texts, report)   the whole live transcript (small files, tools)
    j.set_aside() -> name     keep the journal as game.badN; j.clear()
"""

import errno
from array import array

from firmware.crc import crc16

MARK = "#~"
HEADER_WORDS = ("game", "option")
SEAL_LEN = 8  # "  #~xxxx"
LINE_MAX = 200  # longer lines are damage (checkpoint lines are at most ~111 bytes)
CHUNK = 512  # bytes read at a time when scanning backwards
STACK = 512  # live records remembered for undo (Session keeps far fewer)
RESERVE_BLOCKS = 2  # free blocks kept back (littlefs copies a block on write)
CHECKPOINT_GUESS = 1024  # bytes kept back for the next checkpoint before one is written

# What a line is (classify)
FILLER = 0
ACTION = 1  # a sealed record with no '#' (header lines too)
CK_LINE = 2  # "#= ..."
CK_END = 3  # "#] n moves crc"
VOID = 4  # "#---"
COMMENT = 5  # another sealed comment (not written by this version)
BAD = 6  # damaged
BAD_SKIP = 7  # damaged, but it was a void or part of a checkpoint: costs nothing
HEAD_END = 8  # "#} n crc": the header's end (n header lines, CRC of their texts)

ENOSPC = getattr(errno, "ENOSPC", 28)
EROFS = getattr(errno, "EROFS", 30)


class JournalError(Exception):
    pass


def reason(e):
    """The screen's words for an OSError from the flash."""
    code = e.args[0] if e.args else None
    if code == ENOSPC:
        return "flash full: not saved"
    if code == EROFS:
        return "flash read-only"
    return "flash error: not saved"


def seal(text):
    """'P1 draw' -> 'P1 draw  #~a1c3' (no line break)."""
    return "%s  %s%04x" % (text, MARK, crc16(text.encode("utf-8")))


def seal_bytes(text):
    """The record as bytes with its line break."""
    body = text.encode("utf-8")
    return body + ("  #~%04x\n" % crc16(body)).encode()


def _hex4(tail):
    """Four lower-case hex digits (bytes) -> int, or -1."""
    v = 0
    for c in tail:
        if 48 <= c <= 57:
            v = v * 16 + c - 48
        elif 97 <= c <= 102:
            v = v * 16 + c - 87
        else:
            return -1
    return v


def _body(line):
    """The body of a sealed line (bytes without break), or None."""
    if len(line) <= SEAL_LEN or line[-SEAL_LEN:-4] != b"  #~":
        return None
    body = line[:-SEAL_LEN]
    want = _hex4(line[-4:])
    if want < 0 or crc16(body) != want:
        return None
    if body[:1] == b" " or body[-1:] == b" ":
        return None
    return body


def _skip_head(line, at):
    head = line[at:at + 2]
    return head == b"#-" or head == b"#=" or head == b"#]"


def _holds_no_action(line):
    """A damaged line that can have held no action: it starts as a void or checkpoint
    record, and so does every piece after a seal in it (one lost line break glues two
    records: `#] 2 63 8ed3  #~acb1discard down  #~52b1` holds an action)."""
    at = 0
    while True:
        if not _skip_head(line, at):
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
    body = _body(line)
    if body is None:
        return (BAD_SKIP if _holds_no_action(line) else BAD), None
    if body[:1] != b"#":
        if b"#" in body:
            return BAD, None
        return ACTION, body
    if body[:3] == b"#= ":
        return CK_LINE, body
    if body[:3] == b"#] ":
        return CK_END, body
    if body[:3] == b"#} ":
        return HEAD_END, body
    if not body[1:].strip(b"-"):
        return VOID, body
    return COMMENT, body


def unseal(raw):
    """A line -> its text ('' for filler and comments), or None if damaged."""
    kind, body = classify(raw)
    if kind == ACTION:
        try:
            text = body.decode("utf-8")
        except UnicodeError:
            return None
        return text
    if kind == BAD or kind == BAD_SKIP:
        return None
    return ""


def void_bytes(length):
    """A void record of `length` bytes (with its break): '#---...  #~xxxx\\n'."""
    n = length - 1 - SEAL_LEN
    body = b"#" + b"-" * (n - 1)
    return body + ("  #~%04x\n" % crc16(body)).encode()


def filler_bytes(raw, at_end=False):
    """The same bytes with every one but the line breaks turned into '#'; at the end
    of the file the last byte becomes a break (nothing can glue onto it)."""
    out = bytearray(len(raw))
    for i in range(len(raw)):
        out[i] = 10 if raw[i] == 10 else 35
    if at_end and out:
        out[-1] = 10
    return out


def checkpoint_bytes(lines, moves):
    """The block: `#= line` records and the `#] n moves crc` end, as one bytes."""
    parts = []
    crc = 0xFFFF
    first = True
    for line in lines:
        b = line.encode("utf-8")
        if not first:
            crc = crc16(b"\n", crc)
        crc = crc16(b, crc)
        first = False
        parts.append(seal_bytes("#= " + line))
    parts.append(seal_bytes("#] %d %d %04x" % (len(lines), moves, crc)))
    return b"".join(parts)


def head_end_bytes(texts):
    """The header's end record: `#} n crc` (n header lines and their block_crc)."""
    return seal_bytes("#} %d %04x" % (len(texts), block_crc(texts)))


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


def block_crc(texts):
    crc = 0xFFFF
    first = True
    for t in texts:
        if not first:
            crc = crc16(b"\n", crc)
        crc = crc16(t.encode("utf-8"), crc)
        first = False
    return crc


def _is_header(text):
    return text.split(" ", 1)[0].lower() in HEADER_WORDS


def _clean(line):
    text = line.strip()
    if not text or "#" in text or "\n" in text or "\r" in text:
        raise ValueError("not a journal record: %r" % (line,))
    return text


class Journal:
    header_ok = None  # read_header's verdict on the header
    overflow = False  # the stack dropped its oldest records since stack_reset()

    def __init__(self, storage, name="journal.txt"):
        self.storage = storage
        self.name = name
        self.count = 0  # live records (header included) when known
        self.header_count = 0
        self.details = None
        self.size = -1  # bytes in the file (-1: not known yet)
        self.cp_bytes = CHECKPOINT_GUESS
        # The live records since the base (undo voids them from the top)
        self.offs = array("l", bytes(STACK * (8 // len(array("l", bytes(8))))))  # no temporary list
        self.lens = array("H", [0] * STACK)
        self.kinds = bytearray(STACK)
        self.n = 0

    # The record stack ------------------------------------------------------

    def stack_reset(self):
        self.n = 0
        self.overflow = False

    def stack_push(self, off, length, kind):
        if self.n >= STACK:  # never with Session's bounds; the oldest go
            self.overflow = True
            half = STACK // 2
            self.offs[0:STACK - half] = self.offs[half:STACK]
            self.lens[0:STACK - half] = self.lens[half:STACK]
            self.kinds[0:STACK - half] = self.kinds[half:STACK]
            self.n -= half
        i = self.n
        self.offs[i] = off
        self.lens[i] = length
        self.kinds[i] = kind
        self.n = i + 1

    def forget_through(self, offset):
        """Drop the stack entries that start before `offset` (a new base)."""
        k = 0
        while k < self.n and self.offs[k] < offset:
            k += 1
        if k:
            m = self.n - k
            self.offs[0:m] = self.offs[k:self.n]
            self.lens[0:m] = self.lens[k:self.n]
            self.kinds[0:m] = self.kinds[k:self.n]
            self.n = m

    def actions_held(self):
        c = 0
        for i in range(self.n):
            if self.kinds[i] == ACTION:
                c += 1
        return c

    # Writing -----------------------------------------------------------------

    def _size(self):
        if self.size < 0:
            self.size = self.storage.size(self.name)
        return self.size

    def room(self, nbytes, reserve=True):
        """Raise OSError(ENOSPC) when nbytes (plus the reserve) do not fit."""
        free = self.storage.free()
        if free is None:
            return
        need = nbytes
        if reserve:
            need += self.cp_bytes + RESERVE_BLOCKS * self.storage.block_size()
        else:
            need += self.storage.block_size()
        if free < need:
            raise OSError(ENOSPC, "flash full")

    def start(self, header_lines, records=b""):
        """A fresh file (atomic): the header and its end record, then `records` (sealed
        action records); returns where those start."""
        w = self.begin(header_lines, len(records))
        try:
            head = w.write(records) if records else w.size
            w.commit()
        except OSError:
            w.abort()
            raise
        return head

    def begin(self, header_lines, more=0):
        """A fresh file written as a stream (atomic at commit()): the header lines (the
        `game` and `option` lines, then any others) with the header's end record after
        the header lines; w.write(data) -> where data starts; w.commit(); w.abort().
        `more`: bytes expected after the header (the flash must hold them)."""
        texts = [_clean(line) for line in header_lines]
        h = 0
        while h < len(texts) and _is_header(texts[h]) and \
                (h or texts[0].lower().startswith("game ")):
            h += 1
        data = b"".join([seal_bytes(t) for t in texts[:h]]) + head_end_bytes(texts[:h]) \
            + b"".join([seal_bytes(t) for t in texts[h:]])
        self.room(len(data) + more, reserve=False)
        w = _Anew(self, h, len(texts))
        w.write(data)
        return w

    def append(self, line):
        """One action record. OSError (nothing written, or rolled back)."""
        text = _clean(line)
        data = seal_bytes(text)
        off = self._write(data)
        self.stack_push(off, len(data), ACTION)
        self.count += 1
        if self.header_count == self.count - 1 and _is_header(text):
            self.header_count = self.count

    def append_records(self, data, starts, n):
        """n action records, already sealed, in one write; starts[i] is where record i
        begins in data (starts[n] == len(data))."""
        off = self._write(data)
        for i in range(n):
            self.stack_push(off + starts[i], starts[i + 1] - starts[i], ACTION)
        self.count += n
        return off

    def write_checkpoint(self, lines, moves):
        """Append a checkpoint block; returns the offset just after it."""
        data = checkpoint_bytes(lines, moves)
        self.room(len(data), reserve=False)
        off = self._write(data, check=False)
        end = off + len(data)
        i = data.rfind(b"\n", 0, len(data) - 1) + 1
        self.stack_push(off + i, len(data) - i, CK_END)
        self.cp_bytes = max(CHECKPOINT_GUESS, len(data))
        return end

    def _write(self, data, check=True):
        """Append data in one write; returns where it starts. On failure the bytes that
        made it are overwritten with filler, and the OSError is raised again."""
        st = self.storage
        off = self._size()
        if check:
            self.room(len(data))
        try:
            st.append(self.name, data)
        except OSError:
            self.rollback(off)
            raise
        self.size = off + len(data)
        return off

    def rollback(self, off):
        """Make whatever lies after `off` filler (a torn write); best effort."""
        st = self.storage
        try:
            now = st.size(self.name)
        except OSError:
            now = off
        if now > off:
            try:
                raw = st.read_at(self.name, off, now - off)
                st.patch(self.name, ((off, filler_bytes(raw, True)),))
                self.size = now
                return
            except OSError:
                pass
            self.size = -1
        else:
            self.size = now

    # Undo ----------------------------------------------------------------------

    def pop(self):
        """Void the last action (and any checkpoint end after it) in place; returns
        the action's text, or None when there is none. self.voided_checkpoints says
        how many checkpoint ends went with it. OSError: nothing changed."""
        self.voided_checkpoints = 0
        i = self.n - 1
        while i >= 0 and self.kinds[i] != ACTION:
            i -= 1
        if i < 0:
            return None
        off, length = self.offs[i], self.lens[i]
        raw = self.storage.read_at(self.name, off, length)
        kind, body = classify(raw)
        text = body.decode("utf-8") if kind == ACTION else None
        edits = []
        for k in range(self.n - 1, i, -1):  # the newest first
            edits.append((self.offs[k], void_bytes(self.lens[k])))
        edits.append((off, void_bytes(length)))
        self._patch_or_back(edits, raw, i)
        self.voided_checkpoints = self.n - 1 - i
        self.n = i
        self.count -= 1
        return text

    def _patch_or_back(self, edits, raw=None, first=0, tail=None):
        """Overwrite the records of the stack from `first` on (edits: the newest first)
        in one patch (then append `tail`). A patch that fails part-way is put back: the
        records it reached get their old bytes again (raw: the oldest one's, already
        read), the tail becomes filler, so an undo or rewrite the flash refused leaves
        every record as it was. OSError."""
        old = []
        for k in range(self.n - 1, first - 1, -1):
            if k == first and raw is not None:
                old.append((self.offs[k], raw))
            else:
                old.append((self.offs[k], self.storage.read_at(self.name, self.offs[k],
                                                               self.lens[k])))
        end = self._size()
        try:
            self.storage.patch(self.name, edits, tail)
        except OSError:
            self._put_back(old)
            if tail:
                self.rollback(end)
            raise

    def _put_back(self, old):
        """Best effort after a failed patch: the records that differ now get their old
        bytes back."""
        st = self.storage
        back = []
        for off, data in old:
            try:
                if st.read_at(self.name, off, len(data)) != data:
                    back.append((off, data))
            except OSError:
                back.append((off, data))
        if back:
            try:
                st.patch(self.name, back)
            except OSError:
                pass

    def void_all(self, tail=None):
        """Void every record on the stack and append tail (sealed records) in one
        patch (the newest void first: a power cut leaves a prefix of the old records);
        returns the offset where tail starts. A failure puts it all back."""
        edits = []
        for k in range(self.n - 1, -1, -1):
            edits.append((self.offs[k], void_bytes(self.lens[k])))
        off = self._size()
        if tail:
            self.room(len(tail))
        self._patch_or_back(edits, tail=tail)
        if tail:
            self.size = off + len(tail)
        self.n = 0
        return off

    def void_at(self, off, length):
        self.storage.patch(self.name, ((off, void_bytes(length)),))

    # Reading --------------------------------------------------------------------

    def read_header(self, strict=True):
        """(header texts, offset after them and their end record), or (None, 0) when
        there is no journal. self.header_ok says whether the header is whole: True (its
        end record `#} n crc` follows and matches), None (no end record, but a whole
        record that is no header line follows: a journal of an older version), False
        (the header may be cut short: a damaged or torn line, or the end of the file,
        where its end record should be; the offset is then where that line starts).
        JournalError when no header line can be read at all (strict=False: ([], offset
        of the damaged line) with header_ok False when the first line is damaged)."""
        st = self.storage
        st.recover(self.name)
        self.header_ok = False
        f = st.open_read(self.name)
        if f is None:
            self.size = 0
            self.count = self.header_count = 0
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
                        self.header_ok = True
                        off += len(raw)
                    damaged = not texts
                    break
                if kind == ACTION and not raw.endswith(b"\n"):
                    # a whole last record without its break: a header line (the file
                    # ends inside the header) or an action of an older journal
                    if _is_header(body.decode("utf-8", "replace")):
                        damaged = True
                    elif texts:
                        self.header_ok = None
                    else:
                        junk = True
                    break
                if kind != ACTION:
                    if kind == BAD or kind == BAD_SKIP:
                        damaged = True  # torn, or damaged: maybe a header line
                    elif not texts:
                        junk = True
                    else:
                        self.header_ok = None
                    break
                try:
                    text = body.decode("utf-8")
                except UnicodeError:
                    raise JournalError("header not text")
                if not _is_header(text) or (not texts and not text.lower().startswith("game ")):
                    if not texts:
                        junk = True
                    else:
                        self.header_ok = None  # an action right after: an older journal
                    break
                texts.append(text)
                off += len(raw)
        finally:
            f.close()
        self.size = st.size(self.name)
        if not texts:
            if damaged and not strict:
                return [], off
            if not junk and not damaged:  # empty, or only filler: no journal
                return None, 0
            raise JournalError("no header")
        self.header_count = len(texts)
        return texts, off

    def fix_header(self, texts):
        """After read_header found the header cut short: do the file's first bytes
        hold `texts` as a header (with its end record), but for a damaged byte or two
        (a flip) or a cut inside the end record? Then they are written back in place
        (best effort) and the offset after the end record is returned; else -1."""
        st = self.storage
        end = head_end_bytes(texts)
        want = b"".join([seal_bytes(t) for t in texts]) + end
        have = st.read_at(self.name, 0, len(want))
        try:
            if len(have) < len(want):
                # the file ends inside the end record: every header line is there
                if len(have) <= len(want) - len(end) or want[:len(have)] != have:
                    return -1
                st.append(self.name, want[len(have):])
            else:
                diffs = 0
                for i in range(len(want)):
                    if want[i] != have[i]:
                        diffs += 1
                if diffs > 2:
                    return -1
                if diffs:
                    st.patch(self.name, ((0, want),))
        except OSError:
            pass
        self.size = -1
        return len(want)

    def lines_back(self, start):
        """(offset, raw line) from the end of the file back to `start`, read in chunks."""
        st = self.storage
        f = st.open_read(self.name)
        if f is None:
            return
        try:
            end = self._size()
            pos = end
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
                    j = chunk.rfind(b"\n", 0, cut - 1) if cut > 1 else -1
                    if j < 0:
                        break
                    yield pos + j + 1, chunk[j + 1:cut]
                    cut = j + 1
                carry = chunk[:cut]
                if len(carry) > LINE_MAX * 2:  # no break for long: garbage
                    yield pos, carry
                    carry = b""
            if carry:
                yield start, carry
        finally:
            f.close()

    def find_checkpoints(self, start, want=2, gap=None):
        """The last whole, valid checkpoints, newest first, each (moves, lines, block
        start offset, offset after the end record): `want` of them at most, and no
        more once one lies `gap` moves or more before the newest."""
        found = []
        pend = None  # (n, moves, crc, end offset after)
        texts = []
        for off, raw in self.lines_back(start):
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

    def records(self, start):
        """(kind, body, offset, length, has_break) of every line from `start` on."""
        f = self.storage.open_read(self.name)
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
                if length > LINE_MAX and not raw.endswith(b"\n"):
                    while True:  # the rest of an over-long line
                        more = f.readline(LINE_MAX + 1)
                        length += len(more)
                        if not more or more.endswith(b"\n"):
                            break
                    yield BAD, None, off, length, True
                    off += length
                    continue
                kind, body = classify(raw)
                yield kind, body, off, length, raw.endswith(b"\n")
                off += length
        finally:
            f.close()

    def add_break(self):
        self.storage.append(self.name, b"\n")
        self.size = self._size() + 1 if self.size >= 0 else -1

    def make_filler(self, off):
        """Keep a copy of the whole file aside (game.badN), then turn everything from
        `off` to the end into filler. Returns (aside name, lines set aside)."""
        st = self.storage
        aside = st.copy_aside(self.name)
        end = st.size(self.name)
        lines = 0
        pos = off
        edits = []
        while pos < end:
            n = min(CHUNK, end - pos)
            raw = st.read_at(self.name, pos, n)
            lines += raw.count(b"\n")
            if pos + n >= end and raw[-1:] != b"\n":
                lines += 1
            edits.append((pos, filler_bytes(raw, pos + n >= end)))
            pos += n
        st.patch(self.name, edits)
        self.size = end
        return aside, lines

    # Whole-file helpers ---------------------------------------------------------

    def set_aside(self):
        st = self.storage
        aside = None
        st.recover(self.name)
        if st.exists(self.name):
            aside = st.keep_aside(self.name)
        self.count = self.header_count = 0
        self.size = 0
        self.n = 0
        return aside

    def clear(self):
        self.storage.remove(self.name)
        self.storage.recover(self.name)
        self.count = self.header_count = 0
        self.size = 0
        self.n = 0

    def load(self):
        """The whole live transcript: (texts, report); builds the undo stack. For small
        journals and tools (Session.resume does not read it all into RAM)."""
        self.details = None
        try:
            header, off = self.read_header()
        except (JournalError, OSError, ValueError) as e:
            aside = None
            try:
                aside = self.set_aside()
            except OSError:
                pass
            self.details = {"message": "Journal unreadable", "line": 1, "dropped": None,
                            "aside": aside, "error": repr(e)}
            return [], "Journal unreadable"
        if header is None:
            return [], None
        texts = list(header)
        self.n = 0
        lineno = len(header)
        for kind, body, roff, length, brk in self.records(off):
            lineno += 1
            if kind == ACTION:
                if not brk:
                    self.add_break()
                texts.append(body.decode("utf-8"))
                self.stack_push(roff, length, ACTION)
            elif kind == CK_END:
                self.stack_push(roff, length, CK_END)
            elif kind == BAD:
                if not brk:
                    raw = self.storage.read_at(self.name, roff, length)
                    self.rollback(roff)
                    self.details = {"message": "Last entry lost", "line": lineno,
                                    "dropped": _decode_loose(raw), "aside": None}
                else:
                    aside, _ = self.make_filler(roff)
                    self.details = {"message": "Journal damaged", "line": lineno,
                                    "dropped": None, "aside": aside}
                break
        self.count = len(texts)
        return texts, (self.details["message"] if self.details else None)


class _Anew:
    """Journal.begin's writer."""

    def __init__(self, journal, h, n):
        self.j = journal
        self.h = h
        self.n = n  # live records written
        self.size = 0
        self.w = journal.storage.atomic(journal.name)

    def write(self, data):
        off = self.size
        try:
            self.w.write(data)
        except OSError:
            self.abort()
            raise
        self.size = off + len(data)
        self.n += data.count(b"\n") if off else 0
        return off

    def commit(self):
        try:
            self.w.commit()
        except OSError:
            self.abort()
            raise
        j = self.j
        j.size = self.size
        j.count = self.n
        j.header_count = self.h
        j.stack_reset()

    def abort(self):
        if self.w is not None:
            try:
                self.w.abort()
            except OSError:
                pass
        self.w = None


def _decode_loose(raw):
    line = raw.rstrip(b"\r\n")
    i = line.find(b"#")
    if i >= 0:
        line = line[:i]
    try:
        return line.decode("utf-8").strip() or None
    except UnicodeError:
        return None
