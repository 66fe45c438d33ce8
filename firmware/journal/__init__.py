"""The game journal on flash: the per-press writer and the game a header starts, here;
records (record.py), rare paths (read, new, fix, plain). Imports core and storage.

Every accepted action, one sealed line each, plus checkpoints.

The file is a transcript in the table notation (seeds/notation.md) that
`python -m host_sim replay game.txt` reads as it is: the header and option lines
first, then one action per line; everything else is a comment. EVERY line the
firmware writes is a sealed record: its text, two spaces, `#~` and the CRC-16
(firmware.journal.crc) of the text's bytes in four hex digits:

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

    #( 4 97eb  #~9f87                        a held group: the n action records after
                                             it (a Stress call) and the CRC of their
                                             texts: kept whole or not at all, after
                                             an empty line (the write's first byte)
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

The header of a new game also holds the players' names, `#@names [...]` (core.names),
before its end record; the rules never read it (History and the report do).

A held group (Session.push(defer=True) then flush: more than one line in one append)
is an empty line, then its `#( n crc` record and the n records, in one append. At
resume a group is applied only once its n records are read and their CRC matches; the
file ending inside it is the call in flight: it is made filler and reported as "Last
call lost". The empty line is what tells a cut after the group's first byte or two
(the file ends in an empty line after a record, or in a lone '#' after an empty line)
from a checkpoint cut after its first byte (a lone '#' after a record: nothing lost,
nothing said): no other write starts with a line break. Either lone '#' is made
harmless (filler with its break: the next record never glues onto it), and a cut
group's empty line is followed by a filler line, so a second boot says nothing again.
(An older journal's group has no empty line: cut after its first byte it says nothing.)
A void inside a group is an undo: the records before it stay. Anything else inside it
is damage, at the group's start.

Checkpoints (written by firmware.session.Session): a copy of the header lines, then
the game's own checkpoint() lines, as `#=` records followed by one `#]` end record,
in ONE append. A checkpoint is valid only when whole: the end record names how many
`#=` lines come right before it and their combined CRC, and its move count must
match. They are written every Session.EVERY (32) lines and at round and game
boundaries (`end`, `out`), never while lines are held in RAM (Session.push(defer=True)).

Resume (Session.resume): the header lines are read from the top; the last two valid
checkpoints are found from the END of the file, read backwards in chunks; the older of
the two is restored, then the records after it are applied one by one, each checked.
The records before the newest whole checkpoint are read once too, their seals checked
(a line at a time, nothing kept): the game comes from the checkpoint, so damage there
costs no entry, but the file would no longer replay to the game, so a damaged line is
repaired (firmware.journal.fix: the one-byte change the CRC points at, checked against
the checkpoints around it; two records glued by a lost line break taken apart; a line
that held no action made filler) and the journal written back atomically, the damaged
file kept as game.badN ("Journal damaged: 1 line repaired"). A line no single byte
repairs is set aside with what follows, from the last whole checkpoint before it.
No whole checkpoint in a long journal (an older firmware's, a transcript made
elsewhere, all of them damaged): it is written anew as it is replayed, with
checkpoints (firmware.session.stream), and resumed from those. A plain transcript
(no seals: the browser page's Copy) is sealed into a journal first
(firmware.journal.plain), the transcript kept as game.badN ("Transcript resumed").

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
place, reported with what was kept and what was set aside (two records glued by a
lost line break are both kept, the line repaired). A damaged checkpoint line
or a damaged void costs nothing (the actions are all there; it is made filler, so the
file replays cleanly), but only when the line
can hold no action: it starts `#=`, `#]` or `#-`, and so does every piece after a
seal in it (a lost line break glues the next record on: `#] 2 63 8ed3  #~acb1discard
down  #~52b1` is damage, repaired as above). A damaged header (Session._resume): its copy in
the newest checkpoint is used, and the header is written back in place when only a
byte or two differ ("Game header damaged: restored"); a damaged end record alone is
repaired without a word; no copy: the journal is set aside ("Game header damaged:
set aside"), never resumed with options the game did not have. A header restored from
a copy is written back atomically, the damaged file kept as game.badN.

    j = Journal(storage, "game.txt")
    j.append(line)            one action (one append)
    j.append_records(data, starts, n)   n sealed records in one append
    j.write_checkpoint(lines, moves)
    j.pop() -> text or None   void the last action (and checkpoint ends after it)

The per-press path above stays in the heap; the rare paths live in their own modules,
loaded when needed and let go after on a board (firmware.modules.forget_module):
firmware.journal.read (reading: read_header, records, load, resume's scans, classify,
unseal, seal), firmware.journal.new (a fresh file: start, begin; set_aside, clear);
the record's seal and kinds are in firmware.journal.record (below both, no import circle).
This module still answers every name it had (classify, unseal, seal, ...).

    j.start(header_lines)     new game: the header as a fresh file (atomic)
    j.read_header() -> (texts, offset); j.header_ok
    j.records(offset)         (kind, body, offset, length, has_break) of every line
    j.load() -> (texts, report)   the whole live transcript (small files, tools)
    j.set_aside() -> name     keep the journal as game.badN; j.clear()
"""

import errno
import sys
from array import array

from firmware.modules import forget_module
from firmware.journal.record import (ACTION, BAD, BAD_SKIP, CHUNK, CK_END, CK_LINE,  # noqa: F401
                             COMMENT, FILLER, GROUP, HEAD_END, LINE_MAX, SEAL_LEN, VOID,
                             JournalError, block_crc, crc16, filler_bytes, group_bytes,
                             head_end_bytes, seal_bytes, sealed_body, void_bytes)
from firmware.journal.record import is_header

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# live records remembered for undo: Session keeps fewer (its rebase leaves EVERY..2*EVERY
# actions and the checkpoints since; the bench's sessions reach 66), and an overflow
# drops the oldest half (undo then stops there). 7 bytes each: 512 held 3.5 KB.
_STACK = const(192)
RESERVE_BLOCKS = 2  # free blocks kept back (littlefs copies a block on write)
_CHECKPOINT_GUESS = const(1024)  # bytes kept back for the next checkpoint before one is written

ENOSPC = getattr(errno, "ENOSPC", 28)
EROFS = getattr(errno, "EROFS", 30)


def _let_go(name, had):
    """Drop a rare module again on a board, unless something had it loaded."""
    if not had and sys.implementation.name == "micropython":
        forget_module(name)


def _rare(module, fn):
    """`fn` of a rare module (firmware.journal.read or journal_new), the module
    dropped again on a board unless something had it loaded."""
    had = module in sys.modules
    f = getattr(__import__(module, None, None, (fn,)), fn)
    _let_go(module, had)
    return f


def __getattr__(name):
    """The names that moved to firmware.journal.read (classify, unseal, seal,
    parse_end, checkpoint_bytes, ...): loaded when first asked for. A module of this
    package not loaded yet (`from firmware.journal import new`) is imported as such:
    MicroPython asks this hook before it looks for a submodule."""
    if name in _PARTS:
        __import__(__name__ + "." + name)
        return sys.modules[__name__ + "." + name]
    from firmware.journal import read as journal_read
    return getattr(journal_read, name)


_PARTS = ("read", "new", "fix", "plain", "record", "crc")


# The game a journal's header starts: here, below both the session and the archive
# (a transcript summarised), so that neither imports the other.
CALLS_KEPT = 32  # Stress: the calls kept in the heap (the counts keep them all)


def make_game(name, players, options=None):
    # the games' table is the menus' (core.games): a game in play does not keep it
    had = "core.games" in sys.modules
    from core.games import game_class
    cls = game_class(name)
    _let_go("core.games", had)
    if getattr(cls, "CALLS_KEPT", 0) is None:
        cls.CALLS_KEPT = CALLS_KEPT
    return cls(players, options)


def game_from_header(texts):
    """The game a journal's header lines start (IllegalAction)."""
    from core import notation
    game = None
    for text in texts:
        if text[:1] == "#":
            continue  # the players' names (#@names): no rule reads them
        tokens = notation.tokenize(text)
        if game is None:
            name, players = notation.parse_header(tokens)
            game = make_game(name, players)
        elif tokens[0].lower() == "option" and len(tokens) == 3:
            game.set_option(tokens[1], tokens[2])  # core.transcript not loaded for it
        else:
            from core import transcript
            transcript.apply_line(game, tokens)
    return game


def reason(e):
    """The screen's words for an OSError from the flash."""
    code = e.args[0] if e.args else None
    if code == ENOSPC:
        return "flash full: not saved"
    if code == EROFS:
        return "flash read-only"
    return "flash error: not saved"


def checkpoint_parts(lines, moves, buf):
    """The checkpoint block (the `#= line` records, then the `#] n moves crc` end) in
    parts: its records sealed one by one into buf (a bytearray: the session's hold
    buffer, idle while a checkpoint is written), each part a view of buf as far as it
    filled; write each before taking the next (which overwrites it). No contiguous
    copy of the whole block: a Stack the Deck checkpoint holds every ended round.
    Yields (bytes in all, bytes of the end record) first."""
    total = 0
    for line in lines:
        total += len(line.encode()) + 4 + SEAL_LEN  # '#= ', the seal and the break
    tail = seal_bytes("#] %d %d %04x" % (len(lines), moves, block_crc(lines)))
    yield total + len(tail), len(tail)
    mv = memoryview(buf)
    fill = 0
    for i in range(len(lines) + 1):
        rec = seal_bytes("#= " + lines[i]) if i < len(lines) else tail
        if fill + len(rec) > len(buf):
            yield mv[:fill]
            fill = 0
            if len(rec) > len(buf):  # never with the hold buffer (2 KB)
                yield rec
                continue
        buf[fill:fill + len(rec)] = rec
        fill += len(rec)
    yield mv[:fill]


class Journal:
    header_ok = None  # read_header's verdict on the header
    overflow = False  # the stack dropped its oldest records since stack_reset()
    details = None
    voided_checkpoints = 0
    glued = None  # the resume's: lines repaired as it reads (firmware.session.replay)
    anew = None  # the resume's: a journal to write anew (Session._resume)

    def __init__(self, storage, name="journal.txt"):
        self.storage = storage
        self.name = name
        self.count = 0  # live records (header included) when known
        self.header_count = 0
        self.size = -1  # bytes in the file (-1: not known yet)
        self.cp_bytes = _CHECKPOINT_GUESS
        # The live records since the base (undo voids them from the top); zeroed
        # from bytes, no temporary list
        self.offs = array("i", bytes(4 * _STACK))
        self.lens = array("H", bytes(2 * _STACK))
        self.kinds = bytearray(_STACK)
        self.n = 0

    # The record stack ------------------------------------------------------

    def stack_reset(self):
        self.n = 0
        self.overflow = False

    def stack_push(self, off, length, kind):
        if self.n >= _STACK:  # never with Session's bounds; the oldest go
            self.overflow = True
            self._drop(_STACK // 2)
        i = self.n
        self.offs[i] = off
        self.lens[i] = length
        self.kinds[i] = kind
        self.n = i + 1

    def _drop(self, k):
        """Forget the k oldest stack entries."""
        m = self.n - k
        self.offs[0:m] = self.offs[k:self.n]
        self.lens[0:m] = self.lens[k:self.n]
        self.kinds[0:m] = self.kinds[k:self.n]
        self.n = m

    def forget_through(self, offset):
        """Drop the stack entries that start before `offset` (a new base)."""
        k = 0
        while k < self.n and self.offs[k] < offset:
            k += 1
        if k:
            self._drop(k)

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

    def start(self, header_lines, records=b"", names=None):
        """A fresh file (atomic): the header and its end record, then `records` (sealed
        action records); returns where those start (firmware.journal.new). names: the
        players' names, their line (core.names) appended to header_lines first."""
        return _rare("firmware.journal.new", "start")(self, header_lines, records, names)

    def append(self, line):
        """One action record. OSError (nothing written, or rolled back)."""
        text = line.strip()
        if not text or "#" in text or "\n" in text or "\r" in text:
            raise ValueError("not a journal record: %r" % (line,))
        data = seal_bytes(text)
        off = self._write(data)
        self.stack_push(off, len(data), ACTION)
        self.count += 1
        if self.header_count == self.count - 1 and is_header(text):
            self.header_count = self.count

    def append_records(self, data, starts, n):
        """n action records, already sealed, in one write; starts[i] is where record i
        begins in data (starts[n] == len(data)). More than one are one group (a call:
        its edges, its decision, its ruling): an empty line and a `#( n crc` record go
        first (crc: the CRC-16 of their texts joined by line breaks), so a resume keeps
        all or none, and knows a cut after the write's first byte for a call."""
        if n > 1:
            crc = 0xFFFF  # of their texts joined by line breaks (as a checkpoint's end)
            for i in range(n):
                if i:
                    crc = crc16(b"\n", crc)
                crc = crc16(data[starts[i]:starts[i + 1] - SEAL_LEN - 1], crc)
            head = group_bytes(n, crc)  # its empty line, then the record
            off = self._write((head, data), True, len(head) + len(data))
            self.stack_push(off + 1, len(head) - 1, GROUP)
            off += len(head)
        else:
            off = self._write(data)
        for i in range(n):
            self.stack_push(off + starts[i], starts[i + 1] - starts[i], ACTION)
        self.count += n
        return off

    def write_checkpoint(self, lines, moves, buf=None):
        """Append a checkpoint block in one open file, in parts sealed into buf (the
        session's hold buffer; None: a small one); returns the offset just after it.
        Failure: as _write (rolled back, OSError)."""
        parts = checkpoint_parts(lines, moves, buf or bytearray(LINE_MAX + 16))
        total, last = next(parts)
        self.room(total, reserve=False)
        off = self._write(parts, False, total)
        self.stack_push(off + total - last, last, CK_END)
        self.cp_bytes = max(_CHECKPOINT_GUESS, total)
        return off + total

    def _write(self, data, check=True, length=-1):
        """Append data (bytes-like, or parts of `length` bytes in all) in one open file;
        returns where it starts. On failure the bytes that made it are overwritten with
        filler, and the OSError is raised again."""
        st = self.storage
        off = self._size()
        if length < 0:
            length = len(data)
        if check:
            self.room(length)
        try:
            st.append(self.name, data)
        except Exception:  # OSError, or MemoryError between parts: no half block stays
            self.rollback(off)
            raise
        self.size = off + length
        return off

    def rollback(self, off):
        """Make whatever lies after `off` filler (a torn write); best effort. One byte
        (a lone line break now) gets a filler line after it: the file never ends in
        an empty line after a record, a held group's first byte (record.group_bytes)."""
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
                if now - off == 1:
                    st.append(self.name, b"#\n")
                    self.size = now + 2
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
        body = sealed_body(raw.rstrip(b"\r\n"))  # an action: sealed, no '#'
        text = body.decode("utf-8") if body is not None and b"#" not in body else None
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
        st = self.storage
        old = []
        for k in range(self.n - 1, first - 1, -1):
            if k == first and raw is not None:
                old.append((self.offs[k], raw))
            else:
                old.append((self.offs[k], st.read_at(self.name, self.offs[k], self.lens[k])))
        end = self._size()
        try:
            st.patch(self.name, edits, tail)
        except OSError:
            # best effort: the records that differ now get their old bytes back
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
            if tail:
                self.rollback(end)
            raise

    # The rare paths (firmware.journal.read, firmware.journal.new) ------------------

    def read_header(self, strict=True):
        """(header texts, offset after them and their end record), or (None, 0) when
        there is no journal. self.header_ok says whether the header is whole: True (its
        end record `#} n crc` follows and matches), None (no end record, but a whole
        record that is no header line follows: a journal of an older version), False
        (the header may be cut short: a damaged or torn line, or the end of the file,
        where its end record should be; the offset is then where that line starts).
        JournalError when no header line can be read at all (strict=False: ([], offset
        of the damaged line) with header_ok False when the first line is damaged)."""
        return _rare("firmware.journal.read", "read_header")(self, strict)

    def records(self, start):
        """(kind, body, offset, length, has_break) of every line from `start` on."""
        return _rare("firmware.journal.read", "records")(self, start)

    def load(self):
        """The whole live transcript: (texts, report); builds the undo stack. For small
        journals and tools (Session.resume does not read it all into RAM)."""
        return _rare("firmware.journal.read", "load")(self)

    def set_aside(self):
        """Keep the journal under another name (game.bad1, ...); returns it or None."""
        return _rare("firmware.journal.new", "set_aside")(self)

    def clear(self):
        return _rare("firmware.journal.new", "clear")(self)
