"""The archive's rare paths (firmware/archive.py, whose methods these are): a drop for
room on a full flash, the repairs after a power cut, and a rebuild of a damaged index.
Loaded only for them and let go after on a board (firmware.archive._fix): keeping a
game and reading the list need none of this. `kit` is firmware.archive's
(summarize, row_text, header_text), handed over so that this module imports nothing of
it (no import circle)."""

import gc

from firmware import journal as jr
from firmware.archive_read import (INDEX, ROW_MAX, Damaged, name_of, parse_header, rows,
                                   seq_of, unseal)


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
    """Finish or repair what a power cut left (module docstring); a damaged index is
    rebuilt. Returns what to say, or None (Archive.check: called when Index.sound()
    found something to do)."""
    summarize, row_text, _ = kit
    if not arch.exists():
        return None
    arch.st.recover(INDEX)
    try:
        h, _ = arch.header()
    except Damaged:
        return rebuild(arch, kit)
    said = None
    # a transcript renamed in but not indexed (cut between steps 1 and 2)
    if arch.st.exists(name_of(h[0])):
        done = []
        seq = h[0]
        total = 0
        while arch.st.exists(name_of(seq)):
            s = summarize(arch.st, name_of(seq))
            if s is not None:
                c = arch.cost(arch.st.size(name_of(seq)))
                done.append(row_text(seq, "end" if s[3] else "quit", c, s))
                total += c
                if h[2] == 0 and len(done) == 1:
                    h[1] = seq
            else:
                arch.st.remove(name_of(seq))
            seq += 1
        h = [seq, h[1], h[2] + len(done), h[3] + total]
        arch._write_index(h, 0, done)
        k, freed = arch._plan_drops(h, 0, arch.root.free())
        if k:
            drops = arch.oldest(k)
            first = h[1]
            h = [h[0], drops[-1].seq + 1, h[2] - k, h[3] - freed]
            if h[2] == 0:
                h[1] = h[0]
            arch._write_index(h, k, [])
            arch._drop_files(first, h[1])
            said = "Archive full: %d oldest game%s dropped" % (k, "" if k == 1 else "s")
    # transcripts older than the first row (cut in step 3)
    seq = h[1] - 1
    while seq > 0 and arch.st.exists(name_of(seq)):
        arch.st.remove(name_of(seq))
        seq -= 1
    # rows whose transcript is gone (a drop for room cut before its index)
    if h[2] > 0 and not arch.st.exists(name_of(h[1])):
        st = arch.st
        n, total, first = _present(arch)
        h = [h[0], first if first is not None else h[0], n, total]
        arch._write_index(h, 0, [], lambda row: st.exists(name_of(row.seq)))
    return said


def _present(arch):
    """(rows, bytes, first seq) of the rows whose transcript is there."""
    n = total = 0
    first = None
    f = arch.st.open_read(INDEX)
    if f is None:
        return 0, 0, None
    try:
        for r in rows(f):
            if arch.st.exists(name_of(r.seq)):
                n += 1
                total += r.cost
                if first is None:
                    first = r.seq
    finally:
        f.close()
    return n, total, first


def rebuild(arch, kit):
    """A damaged (or lost) index: written anew from the transcripts. Reads every
    game: slow, and rare."""
    summarize, row_text, header_text = kit
    hint = 1
    f = arch.st.open_read(INDEX)
    if f is not None:  # the header may be whole though a row is not
        try:
            raw = f.readline(ROW_MAX + 1)
            try:
                text = unseal(raw)
                if text is not None:
                    hint = parse_header(text)[0]
            except Damaged:
                pass
        finally:
            f.close()
    seqs = []
    for name in arch.st.listdir():
        s = seq_of(name)
        if s is not None:
            seqs.append(s)
    seqs.sort()
    nxt = max(hint, (seqs[-1] + 1) if seqs else 1)
    if arch.st.exists(INDEX):
        arch.st.remove(INDEX)
    w = arch.st.atomic(INDEX)
    n = 0
    total = 0
    first = None
    body = []
    for s in seqs:
        summary = summarize(arch.st, name_of(s))
        gc.collect()
        if summary is None:
            continue
        c = arch.cost(arch.st.size(name_of(s)))
        body.append(jr.seal_bytes(row_text(s, "end" if summary[3] else "quit", c, summary)))
        n += 1
        total += c
        if first is None:
            first = s
    h = [nxt, first if first is not None else nxt, n, total]
    w.write(jr.seal_bytes(header_text(h)))
    for b in body:
        w.write(b)
    w.commit()
    return "Archive index rebuilt (%d game%s)" % (n, "" if n == 1 else "s")
