"""The archive of past games read, not written (the format and the rest:
firmware/archive/store.py): what History needs to show the list and a game, with nothing of
keeping, the budget, repairs or replaying a transcript. firmware.archive.store builds on it;
History loads that one only on its rare paths (a game to archive, a mend)
and lets it go after (heap on the board).

    idx = Index(storage)      the archive folder and its index
    idx.sound()               True: the index and the files agree (Archive.check()
                              would find nothing to do)
    p = Pager(idx); p.count; p.row(i)    row i, newest first (Row)
    idx.file_sound(row)       False: the row's transcript is not the file it was

The index and the files are checked against each other each time History opens, for
the price of one directory listing and one C-speed CRC-32 over the index: its header
holds the CRC-32 of every byte after it (`rows`: each row there, in its order, none
cut, none duplicated) and a digest of the transcripts the rows name (`files`: the XOR
of the CRC-32 of each row's number and size), which the listing must give back, with as many
transcripts as rows. Only when either disagrees is anything else read (the mend,
firmware/archive/fix.py). A transcript changed in place at the same size is found
when its game is opened (`file_sound`: its CRC-32 against the row's).
"""

from firmware import journal as jr
from firmware.journal.record import sealed_body
from firmware.storage import OsFS, Storage

try:
    from binascii import crc32  # pyright: ignore[reportAssignmentType]
except ImportError:  # a port without it: the CRC-16 (slower, the same everywhere here)
    from firmware.journal.record import crc16

    def crc32(data, crc=0):
        return crc16(data, crc or 0xFFFF)

FOLDER = "archive"
INDEX = "index.txt"
ROW_MAX = 480  # bytes in an index line (8 players x 10 rounds of totals fit)


class Damaged(Exception):
    pass


def name_of(seq):
    s = str(seq)
    return "0" * (5 - len(s)) + s + ".txt"


def seq_of(name):
    if len(name) == 9 and name.endswith(".txt") and name[:5].isdigit():
        return int(name[:5])
    return None


def ended(game):
    """The game is over (a Stress match: won)."""
    mw = getattr(game, "match_winner", None)
    if mw is not None:
        return mw() is not None
    return bool(game.over)


def take_said():
    """What the last drop for room said (History shows it once), or None. It is kept in
    firmware.modules, which stays loaded: the archive's modules need not (heap)."""
    from firmware import modules
    s = modules.said
    modules.said = None
    return s


def join(a, b):
    if a and b:
        return a + " / " + b
    return a or b


def why(e):
    if isinstance(e, OSError):
        return jr.reason(e).replace(": not saved", "")
    return "archive error (%s)" % type(e).__name__


def unseal(raw):
    """An index line's text, None for a blank line; Damaged for anything else (a
    failed seal, a comment, filler): the index holds only sealed plain lines."""
    line = raw.rstrip(b"\r\n")
    if not line.strip(b"# "):  # filler: only a blank line is no damage
        if raw.strip():
            raise Damaged("seal")
        return None
    body = sealed_body(line)
    if body is None or b"#" in body:
        raise Damaged("seal")
    try:
        return body.decode("utf-8")
    except UnicodeError:
        raise Damaged("text")


def parse_header(text):
    """[next, first, games, bytes, rows digest, files digest] (the digests None in a
    version 1 header, which had none)."""
    w = text.split(" ")
    if len(w) not in (10, 14) or w[0] != "archive" or w[2] != "next" or w[4] != "first" \
            or w[6] != "games" or w[8] != "bytes" or (len(w) == 14 and (w[10] != "rows" or w[12] != "files")):
        raise Damaged("header")
    try:
        h = [int(w[3]), int(w[5]), int(w[7]), int(w[9]), None, None]
        if len(w) == 14:
            h[4] = int(w[11], 16)
            h[5] = int(w[13], 16)
        return h
    except ValueError:
        raise Damaged("header")


_D = bytearray(8)


def file_digest(seq, size):
    """One transcript's part of the header's `files` digest (XORed together): the
    CRC-32 of its number and size (4 bytes each, little end first), 30 bits (a small
    int on a board: no allocation)."""
    d = _D
    for i in range(4):
        d[i] = (seq >> (8 * i)) & 255
        d[4 + i] = (size >> (8 * i)) & 255
    return crc32(d) & 0x3FFFFFFF


def crc_of(f, crc=0):
    """CRC-32 of the rest of an open file, 512 bytes at a time (C speed), read into
    one buffer."""
    into = getattr(f, "readinto", None)
    if into is None:  # a file object without it (host_sim's flaky flash)
        while True:
            chunk = f.read(512)
            if not chunk:
                return crc
            crc = crc32(chunk, crc)
    buf = bytearray(512)
    mv = memoryview(buf)
    while True:
        n = into(buf)
        if not n:
            return crc
        crc = crc32(mv[:n], crc)


def unquote(s):
    """A name as a row holds it: %XX for a byte that is no printable ASCII, or one of
    ' ', '%', ',', '#' (firmware.archive.store.quote)."""
    if "%" not in s:
        return s
    out = bytearray()
    b = s.encode()
    i = 0
    while i < len(b):
        if b[i] == 37 and i + 2 < len(b):
            try:
                out.append(int(b[i + 1:i + 3], 16))
                i += 3
                continue
            except ValueError:
                pass
        out.append(b[i])
        i += 1
    try:
        return out.decode("utf-8")
    except UnicodeError:
        return s


class Row:
    """One index line, parsed. After the eight fixed fields, tokens by their prefix:
    the game's summary (r=, c=, p=), z=SIZE:CRC (the transcript's bytes and CRC-32,
    hex), n=NAMES (by ',', each quoted), d=N (a damaged transcript: N moves in it, -1
    unknown; status "bad", moves the ones replayed)."""

    def __init__(self, text):
        w = text.split(" ")
        if len(w) < 8 or not w[0].isdigit():
            raise Damaged("row")
        self.seq = int(w[0])
        self.game = w[1]
        self.players = int(w[2])
        self.status = w[3]
        self.cost = int(w[4])
        self.moves = int(w[5])
        self.winners = [] if w[6] == "-" else [int(x) for x in w[6].split("+")]
        self.scores = [int(x) for x in w[7].split(",")] if w[7] and w[7] != "-" else []
        self.extra = ""
        self.size = self.crc = self.of = -1
        self.named = ""
        for t in w[8:]:
            k = t[:2]
            if k == "z=":
                v = t[2:].split(":")
                self.size = int(v[0])
                if len(v) > 1:
                    self.crc = int(v[1], 16)
            elif k == "n=":
                self.named = t[2:]
            elif k == "d=":
                self.of = int(t[2:])
            elif not self.extra:
                self.extra = t

    def names(self):
        """The names the game was played with (P1.. where the transcript had none)."""
        got = [unquote(n) for n in self.named.split(",")] if self.named else []
        return [got[p] if p < len(got) and got[p] else "P%d" % (p + 1) for p in range(self.players)]

    def rounds(self):
        """Stack the Deck: [[totals after round 1], ...]."""
        if not self.extra.startswith("r=") or self.extra == "r=-":
            return []
        return [[int(v) for v in part.split(",")] for part in self.extra[2:].split("/")]

    def calls(self):
        """Stress: [(won, tied, false, median_us), ...] per player."""
        if not self.extra.startswith("c="):
            return []
        out = []
        for part in self.extra[2:].split(","):
            v = [int(x) for x in part.split(":")]
            out.append((v[0], v[1], v[2], v[3]))
        return out

    def piles(self):
        """Stack 31: [(suit, owner or 0, value or -1 when not kept), ...] in the order
        the row holds them (H D C S since values are kept; H S D C before)."""
        if not self.extra.startswith("p="):
            return []
        out = []
        for p in self.extra[2:].split("."):
            if p:
                v = p[1:].split(":")
                out.append((p[0], int(v[0]), int(v[1]) if len(v) > 1 else -1))
        return out


def rows(f):
    """The index's rows (Row objects, oldest first) from an open index file, after its
    header line; blank filler is skipped, damage raises Damaged. Streams: one row in
    the heap at a time."""
    f.readline(ROW_MAX + 1)
    while True:
        raw = f.readline(ROW_MAX + 1)
        if not raw:
            return
        text = unseal(raw)
        if text is not None:
            yield Row(text)


class _Folder(Storage):
    """The archive folder as a Storage (created only when a game is kept)."""

    def __init__(self, fs, root):  # pylint: disable=super-init-not-called
        self.fs = fs
        self.root = root


class Index:
    """The archive folder and its index, read-only (firmware.archive.store.Archive keeps)."""

    def __init__(self, storage):
        self.root = storage
        self.st = _Folder(storage.fs, storage.root + "/" + FOLDER)

    def header(self):
        """[next, first, games, bytes, rows digest, files digest] and the offset after
        the header line; raises Damaged. No index: a fresh one's values."""
        f = self.st.open_read(INDEX)
        if f is None:
            return [1, 1, 0, 0, 0, 0], 0
        try:
            raw = f.readline(ROW_MAX + 1)
        finally:
            f.close()
        text = unseal(raw) if raw.endswith(b"\n") else None
        if text is None:
            raise Damaged("header")
        return parse_header(text), len(raw)

    def listing(self):
        """(transcripts, XOR of their file_digest) from one listing of the folder: on a
        board os.ilistdir gives each size with its name (no stat per file)."""
        n = 0
        x = 0
        fs = self.root.fs
        path = self.st.root
        il = None
        if isinstance(fs, OsFS):
            import os
            il = getattr(os, "ilistdir", None)
        if il is not None:
            for e in il(path):
                s = seq_of(e[0])
                if s is not None:
                    n += 1
                    x ^= file_digest(s, e[3] if len(e) > 3 else self.st.size(e[0]))
        else:
            for name in self.st.listdir():
                s = seq_of(name)
                if s is not None:
                    n += 1
                    x ^= file_digest(s, self.st.size(name))
        return n, x

    def seqs(self):
        """The numbers of the transcripts in the folder, sorted (ints only)."""
        out = []
        fs = self.root.fs
        il = None
        if isinstance(fs, OsFS):
            import os
            il = getattr(os, "ilistdir", None)
        names = il(self.st.root) if il is not None else self.st.listdir()
        for e in names:
            s = seq_of(e if isinstance(e, str) else e[0])
            if s is not None:
                out.append(s)
        out.sort()
        return out

    def sound(self):
        """True when the index and the files agree (module docstring): no write cut
        short, the header whole and of this version, its rows as it says, and the
        listing the transcripts its rows name. OSError as check()."""
        if not self.root.exists(FOLDER):
            return True
        st = self.st
        if st.exists(INDEX + ".new") or st.exists(INDEX + ".old"):
            return False
        try:
            h, start = self.header()
        except Damaged:
            return False
        n, x = self.listing()
        if not start:  # no index
            return n == 0
        if h[4] is None or n != h[2] or x != h[5]:
            return False
        f = st.open_read(INDEX)
        try:
            f.seek(start)
            return crc_of(f) == h[4]
        finally:
            f.close()

    def file_sound(self, row):
        """False when the row's transcript is not the file it was kept from (its size or
        CRC-32 differ; rows of a version 1 index, which kept neither, pass)."""
        name = name_of(row.seq)
        if row.size >= 0 and self.st.size(name) != row.size:
            return False
        if row.crc < 0:
            return True
        f = self.st.open_read(name)
        if f is None:
            return False
        try:
            return crc_of(f) == row.crc
        finally:
            f.close()


class Pager:
    """The index read newest first, one row at a time from the end of the file: the
    History list keeps only the rows it shows. Damaged: the caller mends the index."""

    def __init__(self, index):
        self.st = index.st
        h, self.start = index.header()
        self.count = h[2]
        self.i = -1  # cursor: row i (0 = newest) starts at self.off
        self.off = 0

    def _prev_start(self, f, off):
        """Start of the line that ends just before `off`."""
        lo = max(self.start, off - ROW_MAX)
        f.seek(lo)
        chunk = f.read(off - lo)
        k = chunk.rfind(b"\n", 0, len(chunk) - 1)
        if k < 0:
            if lo > self.start:
                raise Damaged("row too long")
            return lo
        return lo + k + 1

    def row(self, i):
        """Row i, newest first (0 .. count-1)."""
        if not 0 <= i < self.count:
            raise IndexError(i)
        f = self.st.open_read(INDEX)
        if f is None:
            raise Damaged("gone")
        try:
            here = abs(i - self.i) if self.i >= 0 else self.count
            if self.count - 1 - i < min(here, i):  # nearer the top: from the oldest
                self.i = self.count - 1
                self.off = self.start
            elif self.i < 0 or i < here:  # nearer the end: from the newest
                self.i = -1
                self.off = self.st.size(INDEX)
            while self.i < i:  # older: back one line
                self.off = self._prev_start(f, self.off)
                self.i += 1
            while self.i > i:  # newer: forward one line
                f.seek(self.off)
                self.off += len(f.readline(ROW_MAX + 1))
                self.i -= 1
            f.seek(self.off)
            raw = f.readline(ROW_MAX + 1)
        finally:
            f.close()
        if not raw.endswith(b"\n"):
            raise Damaged("torn row")
        text = unseal(raw)
        if text is None:
            raise Damaged("blank row")
        try:
            return Row(text)
        except ValueError:
            raise Damaged("row")
