"""The archive of past games read, not written (the format and the rest:
firmware/archive.py): what History needs to show the list and a game, with nothing of
keeping, the budget, repairs or replaying a transcript. firmware.archive builds on it;
History loads that one only on its rare paths (a game to archive, a repair, a rebuild)
and lets it go after (heap on the board).

    idx = Index(storage)      the archive folder and its index
    idx.sound()               True: Archive.check() would find nothing to do
    p = Pager(idx); p.count; p.row(i)    row i, newest first (Row)
"""

from firmware import journal as jr
from firmware.record import sealed_body
from firmware.storage import Storage

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
    w = text.split(" ")
    if len(w) != 10 or w[0] != "archive" or w[2] != "next" or w[4] != "first" \
            or w[6] != "games" or w[8] != "bytes":
        raise Damaged("header")
    try:
        return [int(w[3]), int(w[5]), int(w[7]), int(w[9])]
    except ValueError:
        raise Damaged("header")


class Row:
    """One index line, parsed."""

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
        self.scores = [int(x) for x in w[7].split(",")] if w[7] else []
        self.extra = w[8] if len(w) > 8 else ""

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
        """Stack 31: [(suit, owner or 0), ...]."""
        if not self.extra.startswith("p="):
            return []
        return [(p[0], int(p[1:])) for p in self.extra[2:].split(".") if p]


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
    """The archive folder and its index, read-only (firmware.archive.Archive keeps)."""

    def __init__(self, storage):
        self.root = storage
        self.st = _Folder(storage.fs, storage.root + "/" + FOLDER)

    def header(self):
        """[next, first, games, bytes] and the offset after the header line; raises
        Damaged. No index: a fresh one's values."""
        f = self.st.open_read(INDEX)
        if f is None:
            return [1, 1, 0, 0], 0
        try:
            raw = f.readline(ROW_MAX + 1)
        finally:
            f.close()
        text = unseal(raw) if raw.endswith(b"\n") else None
        if text is None:
            raise Damaged("header")
        return parse_header(text), len(raw)

    def sound(self):
        """True when Archive.check() has nothing to do (no write cut short, the header
        whole, no transcript left out of the index or left behind by it): a few stats,
        so that History loads no repair code when all is well. OSError as check()."""
        if not self.root.exists(FOLDER):
            return True
        st = self.st
        if st.exists(INDEX + ".new") or st.exists(INDEX + ".old"):
            return False
        try:
            h = self.header()[0]
        except Damaged:
            return False
        return not (st.exists(name_of(h[0])) or (h[1] > 1 and st.exists(name_of(h[1] - 1)))
                    or (h[2] > 0 and not st.exists(name_of(h[1]))))


class Pager:
    """The index read newest first, one row at a time from the end of the file: the
    History list keeps only the rows it shows. Damaged: the caller rebuilds."""

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
