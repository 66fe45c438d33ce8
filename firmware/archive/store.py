"""The archive of past games on flash: one transcript per game and a sealed index.

    archive/00001.txt ...   each finished or abandoned game, the journal as it was
                            (renamed, never copied); numbers increase, never reused
    archive/index.txt       one sealed summary line per game (firmware.journal's seal:
                            `text  #~crc16`), oldest first, under a sealed header

Index lines (tokens separated by one space, then the seal):

    archive 2 next 8 first 3 games 5 bytes 20480 rows 5a1c09e2 files 0c3b7713
    00003 stackdeck 2 end 4096 57 1 52,40 z=3307:9e01c2aa n=ANN,BOB r=10,5/30,21/52,40
    00004 stress 2 quit 4096 311 - 1,0 z=3917:01aa42c0 c=5:1:0:812,3:0:1:1200
    00005 stack31 3 end 4096 88 2 1,2,1 z=2214:77b10e05 p=H2:31.D3:31.C2:24.S1:31
    00006 stress 2 bad 4096 4 - - z=2100:5e0c1d2a d=48

    header   rows: CRC-32 (hex) of every byte after the header line; files: the XOR
             over the rows of a CRC-32 of each one's number and size (firmware/archive/read.py: what History
             checks against the listing each time it opens). Version 1 headers (no
             digests) are read, and mended to version 2 at the next History.
    seq game players status cost moves winners scores, then tokens by prefix:
    status   end (over: a Stress match won), quit (abandoned: a new game over it) or
             bad (damaged: the transcript does not replay to its end; moves are those
             replayed, d= how many it holds, -1 unknown; no winners or scores)
    cost     flash bytes of the transcript, rounded up to whole blocks
    winners  1-based players joined by '+', or '-'
    scores   Stack 31 piles won, Stack the Deck totals, Stress games won ('-': none)
    z=       the transcript's exact size and CRC-32 (a file changed since is re-read)
    n=       the names it was played with (its `#@names` line; none: P1, P2..), by
             ',', each byte outside '!'..'~' and each of '%,#' as %XX
    r=       Stack the Deck: running totals after each round (rounds by '/')
    c=       Stress, per player (by ','): calls won:tied:false:median margin in us
             (-1 with no margin); the median from the exact margins up to 16, then
             from a fixed 64-bin histogram (bins a quarter octave wide, from 128 us)
    p=       Stack 31: each pile in the game's order H D C S, owner:value (owner 0:
             nobody; a value of 31 is a conquered pile); version 1 rows: H S D C,
             owners only

When: the game in play goes to the archive when a new game is started over it
(`keep`, from the new-game screen: ended or abandoned), or when History is opened
while the game in play is over (the table has left it; until then its end screen
keeps its undo, as before). A game without a single action is not kept.

Budget: the archive's files (cost) stay within the budget (setting `archive_kb`), and
the flash keeps at least PLAY_ROOM free for the game in play; the oldest games are
dropped first, and `keep` says how many. A flash that fills during play drops the
oldest archived games too (`make_room`, from firmware.session): a full flash never
costs the game in play. A game bigger than the whole budget is not kept (said).

Heap on the board: this module is loaded only while a game is archived (a new game
over one, or History opened on a game that is over), for a repair or a rebuild of the
index, and for a drop for room; it is dropped again after each
(firmware.screens.home_menu, firmware.screens.history, make_room_for). History reads
the index with firmware/archive/read.py alone (Index, Pager, Row: this module builds on
them). The rare paths (a drop for room, the repairs, a rebuild) are in
firmware/archive/fix.py, loaded only for them (keeping a game needs none of it). What a
drop for room says waits for History in firmware.modules.said.

Steps of `keep` (each survives a power cut; `check` repairs at the next start):
    1. rename game.txt -> archive/NNNNN.txt   the commit: the game is archived
    2. write the index anew (atomic: index.new, rename): the new row, the dropped
       rows gone, `next` one on
    3. remove the dropped transcripts, oldest first
Cut before 1: the game is still in play. Cut between 1 and 2: the file `next` exists
and is not indexed: `check` indexes it (and applies the budget). Cut in 3: files older
than `first` are left: `check` removes them. Dropping for room during play removes the
file first (the flash is full), then writes the index: a row whose file is gone is
dropped by `check` (and said: "1 game missing").

Reading (History, firmware/archive/read.py): each time History opens, the index is
checked against the files (Index.sound: one listing, one CRC-32 over the index);
`Pager` reads the index a row at a time from the end (newest first), in chunks,
keeping only the rows shown: no read of the transcripts, nothing that grows with the
number of games. Whatever disagrees (a row damaged, cut, deleted, duplicated or out of
order, a transcript cut, changed, deleted or new, the index lost) is mended from the
files by firmware/archive_fix.mend, which says what it mended; a transcript that does
not replay to its end is listed as damaged (status bad), never with a made-up result.
Damage decisions, in seeds' spirit: a transcript shorter than its row (cut at a line
end) is damaged "k of n moves" (n from the row); one that holds another game of the
same kind and players at a different length is taken as cut, the same way (nothing
tells the two apart without reading more than the files hold).
"""

import gc

from firmware import journal as jr
from firmware.archive.read import (FOLDER, INDEX, ROW_MAX, Damaged, Index,  # noqa: F401
                                    Pager, Row, crc32, crc_of, ended, file_digest, join,
                                    name_of, rows, seq_of, take_said, why)
from firmware.archive.read import unseal as _unseal_line

IN_PLAY = "game.txt"
VERSION = "2"
DEFAULT_KB = 256
PLAY_ROOM = 96 * 1024  # flash kept free for the game in play (a long match's journal)


def quote(name):
    """A name as a row holds it (archive_read.unquote reads it back). Built from bytes:
    chr() on a board would intern every character as a name."""
    out = bytearray()
    for c in name.encode("utf-8"):
        if c <= 32 or c >= 127 or c in (35, 37, 44):
            out.extend(b"%%%02X" % c)
        else:
            out.append(c)
    return out.decode()


def row_text(seq, status, cost, summary, size, crc):
    """The index row of transcript `seq` (status None: end, quit or bad as the summary
    says). Longer than ROW_MAX: the names go first, then the end of the summary."""
    gname, players, moves, over, winners, scores, extra, names, of = summary
    if of is not None:
        status = "bad"
        extra = "d=%d" % of
    elif status is None:
        status = "end" if over else "quit"
    named = ""
    for p in range(len(names)):
        if names[p] != "P%d" % (p + 1):  # not every seat's default: the names are kept
            named = ",".join([quote(n) for n in names])
            break
    head = "%s %s %d %s %d %d %s %s z=%d:%08x" % (
        name_of(seq)[:5], gname, players, status, cost, moves,
        "+".join([str(w) for w in winners]) if winners else "-",
        ",".join([str(s) for s in scores]) if scores else "-", size, crc)
    room = ROW_MAX - jr.SEAL_LEN - 1
    if named and len(head) + 3 + len(named) + 1 + len(extra) <= room:
        head += " n=" + named
    text = head + " " + extra if extra else head
    if len(text) > room:
        text = text[:room].rstrip()
    return text


def file_sum(st, name):
    """(size, CRC-32) of a transcript."""
    f = st.open_read(name)
    if f is None:
        return 0, 0
    try:
        return st.size(name), crc_of(f)
    finally:
        f.close()


def _header_text(h):
    return "archive %s next %d first %d games %d bytes %d rows %08x files %08x" % (
        VERSION, h[0], h[1], h[2], h[3], h[4], h[5])


def seq_size(raw):
    """(seq, size) of a sealed row's bytes, without its seal checked (rows copied)."""
    k = raw.find(b" z=")
    size = -1
    if k > 0:
        e = k + 3
        while e < len(raw) and 48 <= raw[e] <= 57:
            e += 1
        size = int(raw[k + 3:e])
    return int(raw[:raw.find(b" ")]), size


def write_rows(st, h, source):
    """The index anew (atomic): header h ([next, first, games, bytes]; its digests are
    worked out here) and the sealed rows source() yields, called twice: once for the
    digests, once to write."""
    rc = 0
    fx = 0
    n = 0
    for raw in source():
        rc = crc32(raw, rc)
        seq, size = seq_size(raw)
        fx ^= file_digest(seq, size)
        n += 1
    h = [h[0], h[1], n, h[3], rc, fx]
    w = st.atomic(INDEX)
    try:
        w.write(jr.seal_bytes(_header_text(h)))
        for raw in source():
            w.write(raw)
        w.commit()
    except BaseException:
        try:
            w.abort()
        except Exception:  # noqa: BLE001
            pass
        raise
    return h


# -- the archive -----------------------------------------------------------------------
class Archive(Index):
    def __init__(self, storage, budget=DEFAULT_KB * 1024, play_room=PLAY_ROOM):
        Index.__init__(self, storage)
        self.budget = budget
        self.play_room = play_room

    def exists(self):
        return self.root.exists(FOLDER)

    def _mkdir(self):
        if not self.exists():
            self.root.fs.mkdir(self.st.path("")[:-1])

    def cost(self, size):
        bs = self.root.block_size()
        return (size + bs - 1) // bs * bs

    # The index -------------------------------------------------------------------
    def _write_index(self, h, skip, new_rows, keep=None):
        """The index anew (atomic): header h, the old rows after the first `skip`
        (only those `keep(row)` accepts, when given), then new_rows (texts)."""
        st = self.st

        def source():
            f = st.open_read(INDEX)
            if f is not None:
                try:
                    f.readline(ROW_MAX + 1)
                    n = 0
                    while True:
                        raw = f.readline(ROW_MAX + 1)
                        if not raw:
                            break
                        n += 1
                        if n <= skip:
                            continue
                        if keep is not None:
                            text = _unseal_line(raw)
                            if text is None or not keep(Row(text)):
                                continue
                        yield raw
                finally:
                    f.close()
            for text in new_rows:
                yield jr.seal_bytes(text)
        return write_rows(st, h, source)

    def oldest(self, n):
        """The first n rows (oldest first) as Row objects."""
        out = []
        f = self.st.open_read(INDEX)
        if f is None:
            return out
        try:
            for r in rows(f):
                if len(out) >= n:
                    break
                out.append(r)
        finally:
            f.close()
        return out

    def _plan_drops(self, h, extra_cost, free_now):
        """How many of the oldest rows go so that the archive (plus extra_cost) fits the
        budget and the flash keeps play_room free; and the bytes they free."""
        k = 0
        freed = 0
        f = self.st.open_read(INDEX)
        if f is None:
            return 0, 0
        try:
            it = rows(f)
            while k < h[2]:
                over = h[3] - freed + extra_cost > self.budget
                short = free_now is not None and free_now + freed < self.play_room
                if not over and not short:
                    break
                r = next(it, None)  # read only when one more must go, as before
                if r is None:
                    break
                freed += r.cost
                k += 1
        finally:
            f.close()
        return k, freed

    def _drop_files(self, first, upto):
        """Remove transcripts first..upto-1 that are there, oldest first."""
        for seq in range(first, upto):
            self.st.remove(name_of(seq))

    # Keeping a game ---------------------------------------------------------------
    def keep(self, status=None, summary=None, made=False):
        """The game in play (game.txt) goes to the archive. Returns what to say, or None.
        made: `summary` is its summary (firmware.archive.summary.summarize's, None: no
        action), made before this module was loaded (firmware.archive.keep). OSError: the flash
        refused (the game in play is then still there, or archived whole)."""
        root = self.root
        if not root.exists(IN_PLAY):
            return None
        if not made:
            gc.collect()
            summary = _summarize()(root, IN_PLAY)
            gc.collect()
        if summary is None:
            return None  # no action: nothing to keep (the new game writes over it)
        if status is None:
            status = "end" if summary[3] else "quit"
        self._mkdir()
        said = self.check()
        h, _ = self.header()
        cost = self.cost(root.size(IN_PLAY))
        if cost > self.budget:
            return join(said, "Game too long for the archive: not kept")
        k, freed = self._plan_drops(h, cost, root.free())
        seq = h[0]
        size, crc = file_sum(root, IN_PLAY)
        root.fs.rename(root.path(IN_PLAY), self.st.path(name_of(seq)))  # 1. the commit
        first = h[1]
        drops = self.oldest(k)
        new_first = drops[-1].seq + 1 if drops else first
        if h[2] - k == 0:
            new_first = seq
        nh = [seq + 1, new_first, h[2] - k + 1, h[3] - freed + cost]
        text = row_text(seq, status, cost, summary, size, crc)
        self._write_index(nh, k, [text])  # 2.
        self._drop_files(first, new_first)  # 3.
        if k:
            said = join(said, "Archive full: %d oldest game%s dropped" % (k, "" if k == 1 else "s"))
        return said

    # The rare paths (firmware.archive.fix, loaded for them) ------------------------
    def make_room(self, need):
        """A full flash in play: drop the oldest archived games until `need` bytes are
        free (or the archive is empty). Returns how many were dropped."""
        return _fix("make_room", self, need)

    def check(self):
        """Finish or repair what a power cut or damage left (module docstring). Returns
        what to say, or None. Cheap when all is well: one listing and one CRC-32 over
        the index (the mend's code is loaded only when there is one to do)."""
        if self.sound():
            return None
        return _fix("check", self)

    def rebuild(self):
        """A row that does not read (found while paging): the index mended from the
        files (only the games whose rows do not agree are replayed)."""
        return _fix("rebuild", self)


_FIX = "firmware.archive.fix"


def _summarize():
    """firmware.archive.summary.summarize (the replay of a transcript), for a repair
    and for a keep called here directly."""
    from firmware.archive.summary import summarize
    return summarize


def _fix(fn, arch, *args):
    """firmware.archive.fix's `fn`(arch, *args, this module's kit), the module let go
    again on a board unless something had it loaded."""
    import sys
    had = _FIX in sys.modules
    from firmware.archive import fix as archive_fix
    try:
        return getattr(archive_fix, fn)(arch, *args + ((_summarize(), row_text, file_sum,
                                                         write_rows),))
    finally:
        archive_fix = None
        if not had and sys.implementation.name == "micropython":
            from firmware.modules import forget_module
            forget_module(_FIX)


def make_room_for(journal, nbytes, error):
    """The journal could not write nbytes (firmware.session): when the flash is full,
    drop the oldest archived games until they fit. True when some were dropped (write
    again). Never raises."""
    if not error.args or error.args[0] != jr.ENOSPC:
        return False
    try:
        st = journal.storage
        need = nbytes + journal.cp_bytes + (jr.RESERVE_BLOCKS + 1) * st.block_size()
        return Archive(st).make_room(need) > 0
    except Exception:  # noqa: BLE001 - the entry is refused as before
        return False
    finally:
        _drop_me()  # a game is in play: the archive's code need not stay in the heap


def _drop_me():
    """Unload this module on MicroPython (a rare path is done; History and a new game
    import it again)."""
    import sys
    if sys.implementation.name == "micropython":
        from firmware.modules import forget_module
        forget_module(__name__)


def for_app(app):
    """The device's archive with the budget from settings."""
    kb = DEFAULT_KB
    try:
        kb = app.settings.get("archive_kb")
    except (KeyError, AttributeError):
        pass
    return Archive(app.hw.storage, kb * 1024)


def for_history(app, what, seq=0):
    """History's rare paths (firmware.screens.history loads this module for them and
    lets it go after): "check" or "rebuild" the archive, or "reread" game seq's
    transcript, changed since its row was written (what to say; Damaged, OSError as
    Archive's). "keep" (the game in play, which is over) is firmware.archive.keep's:
    History calls it without this module in the heap."""
    if what == "check":
        return for_app(app).check()
    if what == "rebuild":
        return for_app(app).rebuild()
    return _fix("reread", for_app(app), seq) or "Game %d re-read" % seq
