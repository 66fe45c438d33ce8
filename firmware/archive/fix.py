"""The archive's rare paths (firmware/archive/store.py, whose methods these are): a drop for
room on a full flash, the repairs after a power cut, and a rebuild of a damaged index.
Loaded only for them and let go after on a board (firmware.archive.store._fix): keeping a
game and reading the list need none of this. `kit` is firmware.archive.store's
(summarize, row_text, file_sum, write_rows), handed over so that this module imports nothing of
it (no import circle)."""

import gc

from firmware import journal as jr
from firmware.archive.read import INDEX, ROW_MAX, Damaged, Row, name_of, seq_of, unseal


def make_room(arch, need, kit):
    """A full flash in play: drop the oldest archived games until `need` bytes are
    free (or the archive is empty). Returns how many were dropped."""
    dropped = 0
    try:
        h, _ = arch.header()
    except Damaged:
        return 0
    while h[2] > 0:
        free = arch.root.free()
        if free is not None and free >= need:
            break
        old = arch.oldest(1)
        if not old:
            break
        r = old[0]
        arch.st.remove(name_of(r.seq))  # the file first: the flash is full
        h = [h[0], r.seq + 1, h[2] - 1, h[3] - r.cost]
        if h[2] == 0:
            h[1] = h[0]
        try:
            arch._write_index(h, 1, [])
        except OSError:
            pass  # check() drops the row whose file is gone
        dropped += 1
    if dropped:
        from firmware import modules
        modules.said = "Flash full: %d oldest game%s dropped" % (dropped, "" if dropped == 1 else "s")
    return dropped


def check(arch, kit):
    """Finish what a power cut left, or mend what damage left (Index.sound() found the
    index and the files disagree). Returns what to say, or None."""
    if not arch.exists():
        return None
    return mend(arch, kit)


def rebuild(arch, kit):
    """A row that does not read (History found it while paging): mended from the
    files like any other disagreement."""
    return mend(arch, kit)


def reread(arch, seq, kit):
    """A transcript changed since its row was written (History found it on opening
    the game): its row is made again from the file."""
    return mend(arch, kit, seq)


def _rows_that_read(st):
    """{seq: offset} of the first row of each game whose seal and fields read, and
    (rows out of order, rows twice, lines that do not read). Only ints are kept: the
    rows are read again where needed (heap: a board mends in what History has)."""
    found = {}
    order = twice = bad = 0
    last = 0
    f = st.open_read(INDEX)
    if f is None:
        return found, 0, 0, 0
    try:
        off = len(f.readline(ROW_MAX + 1))
        while True:
            raw = f.readline(ROW_MAX + 1)
            if not raw:
                break
            here = off
            off += len(raw)
            try:
                if not raw.endswith(b"\n"):
                    raise Damaged("torn")
                text = unseal(raw)
                if text is None:
                    continue
                seq = Row(text).seq
            except (Damaged, ValueError, IndexError):
                bad += 1
                continue
            if seq in found:
                twice += 1
                continue
            if seq < last:
                order += 1
            last = max(last, seq)
            found[seq] = here
    finally:
        f.close()
    return found, order, twice, bad


def _row_at(st, name, off):
    """(sealed bytes, Row) of the line at off in file `name`."""
    f = st.open_read(name)
    try:
        f.seek(off)
        raw = f.readline(ROW_MAX + 1)
    finally:
        f.close()
    return raw, Row(unseal(raw))


ADD = INDEX + ".add"  # the rows made anew, until the index is written (heap: not a list)


def mend(arch, kit, force=None):
    """The index made to agree with the files, from both: each transcript keeps its row
    when that row reads and names the file as it is (same size; `force` excepted: a
    seq, or -1 for all); any other is replayed (re-read; one that does not replay to
    its end is listed as damaged, never with a made-up result); a row whose file is
    gone goes (missing); rows in the numbers' order, each once. A power cut's
    leftovers are finished without a word, as before: a transcript renamed in but not
    indexed (numbers from `next` on) is indexed, transcripts older than `first` (a
    drop cut short) go. Returns what to say (what was mended), or None."""
    summarize, row_text, file_sum, write_rows = kit
    st = arch.st
    st.recover(INDEX)
    st.remove(ADD)
    had = st.exists(INDEX)
    h = None
    if had:
        try:
            h = arch.header()[0]
        except Damaged:
            h = None
    torn = had and h is None  # the header does not read
    found, order, twice, bad = _rows_that_read(st) if had else ({}, 0, 0, 0)
    seqs = arch.seqs()
    nxt = max(h[0] if h else 1, (seqs[-1] + 1) if seqs else 1)
    if force is None and h is not None and h[4] is not None and not (order or twice or bad):
        n = 0
        for s in seqs:
            if s in found and _row_at(st, INDEX, found[s])[1].size in (-1, st.size(name_of(s))):
                n += 1
        if n == len(seqs) == len(found) and _rows_crc(st) != h[4]:
            force = -1  # every row reads and names its file, yet they are not what was
            # written (a row sealed anew, or a seal that failed to see damage): re-read all
    reread_n = damaged = total = 0
    added = {}  # seq -> offset of its new row in ADD
    keep = []
    for s in seqs:
        name = name_of(s)
        off = found.get(s)
        if h is not None and s < h[1] and off is None:
            st.remove(name)  # a drop cut short: it was going
            continue
        old = _row_at(st, INDEX, off)[1] if off is not None else None
        size = st.size(name)
        if old is not None and s != force and force != -1 and old.size in (-1, size):
            keep.append(s)
            total += old.cost
            if old.size < 0:  # a version 1 row: its size and CRC added
                raw = _row_at(st, INDEX, off)[0]
                sz, crc = file_sum(st, name)
                added[s] = st.size(ADD)
                st.append(ADD, jr.seal_bytes(unseal(raw) + " z=%d:%08x" % (sz, crc)))
            continue
        gc.collect()
        summary = summarize(st, name, True)
        gc.collect()
        fresh = h is not None and s >= h[0] and old is None  # a keep cut short
        if summary is None:
            st.remove(name)  # never a game (no action): only a cut keep leaves one
            continue
        of = summary[8]
        if old is not None and old.status != "bad" and old.game == summary[0] and \
                old.players == summary[1] and (of is not None or summary[2] < old.moves):
            # the game it was, shorter or damaged: of the moves it had when kept
            summary = summary[:3] + (False, [], [], "", summary[7], max(old.moves, of or 0))
            of = summary[8]
        old = None
        if of is not None:
            damaged += 1
        if not fresh:
            reread_n += 1
        sz, crc = file_sum(st, name)
        added[s] = st.size(ADD)
        st.append(ADD, jr.seal_bytes(row_text(s, None, arch.cost(sz), summary, sz, crc)))
        summary = None
        keep.append(s)
        total += arch.cost(sz)
    missing = 0
    for s in found:
        if s not in seqs:
            missing += 1
    first = keep[0] if keep else nxt

    def source():
        f = st.open_read(INDEX) if had else None
        g = st.open_read(ADD) if added else None
        try:
            for s in keep:
                if s in added:
                    g.seek(added[s])
                    yield g.readline(ROW_MAX + 1)
                else:
                    f.seek(found[s])
                    yield f.readline(ROW_MAX + 1)
        finally:
            if f is not None:
                f.close()
            if g is not None:
                g.close()
    h = write_rows(st, [nxt, first, len(keep), total], source)
    st.remove(ADD)
    added = found = keep = None
    said = None
    k, freed = arch._plan_drops(h, 0, arch.root.free())
    if k:
        drops = arch.oldest(k)
        was = h[1]
        h = [h[0], drops[-1].seq + 1, h[2] - k, h[3] - freed]
        if h[2] == 0:
            h[1] = h[0]
        arch._write_index(h, k, [])
        arch._drop_files(was, h[1])
        said = "Archive full: %d oldest game%s dropped" % (k, "" if k == 1 else "s")
    if not had and seqs:
        n = h[2]
        words = "Archive index lost: rebuilt (%d game%s" % (n, "" if n == 1 else "s")
        return _join(said, words + (", %d damaged)" % damaged if damaged else ")"))
    words = None
    if reread_n:
        words = "%d game%s re-read" % (reread_n, "" if reread_n == 1 else "s")
        if missing:
            words += ", %d missing" % missing
        if damaged:
            words += ", %d damaged" % damaged
    elif missing:
        words = "%d game%s missing" % (missing, "" if missing == 1 else "s")
    elif order or twice or bad or torn:
        words = "Archive index mended"
    return _join(said, words)


def _join(a, b):
    if a and b:
        return a + " / " + b
    return a or b


def _rows_crc(st):
    from firmware.archive.read import crc_of
    f = st.open_read(INDEX)
    try:
        f.readline(ROW_MAX + 1)
        return crc_of(f)
    finally:
        f.close()
