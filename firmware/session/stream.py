"""A journal with no checkpoint to start from, written anew as it is replayed (the
format: firmware/journal/__init__.py): a rare path, loaded by Session._resume when the resume
found no whole checkpoint in a long journal (an older firmware's, a transcript made on
a computer or by the browser page, or one whose checkpoints are all damaged), and let
go after on a board.

Its records are streamed into a session whose journal is name.new: the session takes
them as play does (held lines flushed every EVERY, a held group still one group), so
it writes its checkpoints as it goes and the heap holds what play holds, with the
resume's own modules let go meanwhile. At the first thing that is not a whole record
the rules take (a damaged or torn line, a call cut short, a refusal) the streaming
stops, and the rest of the file is copied after what was written as it is; then
name.new takes the place of the journal (as an atomic write commits). The resume that
follows starts at a checkpoint near the end and meets that rest as it would have
(the same reports). Nothing done when the flash refuses: the journal stays as it was.

    again = resume_anew(cls, journal, from_header)   (Session._resume, then resumes
                                                     again with it)
    write_anew(cls, journal, header, data_off, from_header) -> True when done
"""

import gc
import sys

from firmware.modules import forget_module, forget_new_modules

from core.errors import IllegalAction
from firmware.journal.record import CHUNK, LINE_MAX, block_crc, sealed_body


def resume_anew(cls, journal, from_header):
    """journal.anew (set by firmware.session.resume): the journal written anew, with
    the resume's modules let go first; returns what the resume takes again."""
    anew = journal.anew
    journal.anew = None
    if sys.implementation.name == "micropython":
        # Not firmware.session.replay: Session._resume holds it (a local of the frame
        # that called here), so it stays in the heap whatever sys.modules says, and the
        # resume that follows would load a second copy beside it.
        for name in ("firmware.journal.read", "core.transcript"):
            forget_module(name)
    gc.collect()
    before = set(sys.modules)
    write_anew(cls, journal, anew[0], anew[1], from_header)
    # The game's modules, loaded amid the streaming's garbage, go too: the resume that
    # follows loads them again into a collected heap, as a journal with checkpoints is
    # resumed (left where they were, they split the heap it needs).
    forget_new_modules(before)
    before = None
    gc.collect()
    return anew[2:]


class _Stop(Exception):
    pass


def _lines(st, name, off):
    """(offset, raw line) from off on."""
    f = st.open_read(name)
    if f is None:
        return
    try:
        f.seek(off)
        while True:
            raw = f.readline(LINE_MAX + 1)
            if not raw:
                return
            yield off, raw
            off += len(raw)
    finally:
        f.close()


def _group(body):
    try:
        w = body.decode().split()
        if len(w) == 3 and w[1].isdigit() and len(w[2]) == 4:
            n = int(w[1])
            if 1 < n <= 64:
                return n, int(w[2], 16)
    except (ValueError, UnicodeError):
        pass
    return None


def _push(s, texts):
    """Held lines into the session (one flush: one group when more than one)."""
    k = 0
    try:
        for t in texts:
            s.push(t, defer=True)
            k += 1
    except IllegalAction:
        for _ in range(k):
            s.undo()  # from the hold buffer: nothing of it was written
        raise _Stop()


def write_anew(cls, j, header, data_off, from_header):
    st = j.storage
    name = j.name
    every = cls.EVERY
    s = cls(from_header(header), j, header)
    _room(s.game, 4 * every)
    j.name = name + ".new"
    rest = -1  # where the copy of the rest starts
    try:
        j.start(header)
        group = None  # [offset, n, crc, texts]
        lines = 0  # read since the last collection
        for off, raw in _lines(st, name, data_off):
            lines += 1
            line = raw.rstrip(b"\r\n")
            if not line.strip(b"# "):
                continue  # filler
            body = sealed_body(line)
            if body is None or not raw.endswith(b"\n"):
                rest = off if group is None else group[0]
                break
            if body[:1] != b"#":
                if group is None:
                    try:
                        s.push(body.decode(), defer=True)
                    except (IllegalAction, UnicodeError):
                        rest = off
                        break
                    if s.held >= every:
                        s.flush()
                        lines = _collect(lines, every)
                    continue
                group[3].append(body.decode())
                if len(group[3]) < group[1]:
                    continue
                if block_crc(group[3]) != group[2]:
                    rest = group[0]
                    break
                s.flush()
                try:
                    _push(s, group[3])
                except _Stop:
                    rest = group[0]
                    break
                s.flush()
                lines = _collect(lines, every)
                group = None
                continue
            head = body[:3]
            if group is not None:
                if body[1:].strip(b"-"):  # not a void: a call cut short
                    rest = group[0]
                    break
                try:  # a void inside a group: an undo, what came before stays
                    _push(s, group[3])
                except _Stop:
                    rest = group[0]
                    break
                group = None
            elif head == b"#( ":
                g = _group(body)
                if g is None:
                    rest = off
                    break
                s.flush()
                group = [off, g[0], g[1], []]
        else:
            if group is not None:
                rest = group[0]  # the file ends inside a group: the call in flight
        s.flush()
        if rest >= 0:  # the rest as it is: the resume after this judges it
            while True:
                data = st.read_at(name, rest, CHUNK)
                if not data:
                    break
                st.append(j.name, data)
                rest += len(data)
        _commit(st, j.name, name)
    except (OSError, IllegalAction):
        j.name = name
        try:
            st.remove(name + ".new")
        except OSError:
            pass
        return False
    finally:
        j.name = name
        j.size = -1
        j.stack_reset()
    return True


def _room(game, room):
    """The lists the game keeps growing get their room now, in the collected heap
    (as firmware.session.replay._settle gives a resumed game's history): the history
    `room` actions (the rebase at each checkpoint keeps it within that), Stress's
    kept calls CALLS_KEPT of them. Grown as the stream goes, each doubling needs a
    bigger block amid what the game keeps (fragmentation)."""
    h = [None] * room
    del h[:]  # the list keeps its room
    game.history = h
    kept = getattr(game, "CALLS_KEPT", None)
    if kept and getattr(game, "_cf", None) == []:
        cf = [None] * (7 * kept)  # seven items a call (core.stress)
        del cf[:]
        game._cf = cf


def _collect(lines, every):
    """After a flush, once `every` lines were read since the last: the garbage of
    reading and parsing them goes (as play's goes after each press), before the game
    keeps more of its actions among it. Returns the lines counted since."""
    if lines < every:
        return lines
    gc.collect()
    return 0


def _commit(st, new, name):
    """new takes the place of name, as an atomic write commits (firmware.storage.atomic:
    a leftover name.new without name.old is dropped at start)."""
    fs = st.fs
    a, b = st.path(new), st.path(name)
    fs.sync()
    try:
        fs.rename(a, b)
    except OSError:
        old = st.path(name + ".old")
        fs.rename(b, old)
        fs.rename(a, b)
        fs.remove(old)
    fs.sync()
