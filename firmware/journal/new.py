"""Writing the journal anew or putting it aside (the format: firmware/journal/__init__.py):
rare paths (a new game, Stack the Deck's rewrite of the whole match, a journal that
cannot be used), kept out of the heap while a game is played. firmware.journal's
start, set_aside and clear come here.

    w = begin(j, header_lines, more); w.write(data) -> offset; w.commit(); w.abort()
    start(j, header_lines, records) -> offset of records
    set_aside(j) -> 'game.bad1' or None; clear(j)
"""

from firmware.journal.record import head_end_bytes, is_header, seal_bytes


def _clean(line):
    text = line.strip()
    if text.startswith("#@names ") and "\n" not in text and "\r" not in text:
        return text  # the players' names: a comment, part of the header (core.names)
    if not text or "#" in text or "\n" in text or "\r" in text:
        raise ValueError("not a journal record: %r" % (line,))
    return text


def start(j, header_lines, records=b"", names=None):
    """Journal.start (its docstring)."""
    if names:
        import sys
        had = "core.names" in sys.modules
        from core.names import line
        header_lines.append(line(names))
        if not had and sys.implementation.name == "micropython":
            from firmware.modules import forget_module
            forget_module("core.names")
    w = begin(j, header_lines, len(records))
    try:
        head = w.write(records) if records else w.size
        w.commit()
    except OSError:
        w.abort()
        raise
    return head


def begin(j, header_lines, more=0):
    """A fresh file written as a stream (atomic at commit()): the header lines (the
    `game` and `option` lines, then any others) with the header's end record after
    the header lines; w.write(data) -> where data starts; w.commit(); w.abort().
    `more`: bytes expected after the header (the flash must hold them)."""
    texts = [_clean(line) for line in header_lines]
    h = 0
    while h < len(texts) and is_header(texts[h]) and \
            (h or texts[0].lower().startswith("game ")):
        h += 1
    data = b"".join([seal_bytes(t) for t in texts[:h]]) + head_end_bytes(texts[:h]) \
        + b"".join([seal_bytes(t) for t in texts[h:]])
    j.room(len(data) + more, reserve=False)
    w = _Anew(j, h, len(texts))
    w.write(data)
    return w


class _Anew:
    """begin's writer."""

    def __init__(self, journal, h, n):
        self.j = journal
        self.h = h
        self.n = n  # live records written
        self.size = 0
        self.w = journal.storage.atomic(journal.name)

    def write(self, data, records=-1):
        """records: how many records data holds (-1: count its breaks; a view of the
        hold buffer says it)."""
        off = self.size
        try:
            self.w.write(data)
        except OSError:
            self.abort()
            raise
        self.size = off + len(data)
        if off:
            self.n += data.count(b"\n") if records < 0 else records
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


def set_aside(j):
    """Journal.set_aside (its docstring)."""
    st = j.storage
    aside = None
    st.recover(j.name)
    if st.exists(j.name):
        aside = st.keep_aside(j.name)
    j.count = j.header_count = 0
    j.size = 0
    j.n = 0
    return aside


def clear(j):
    j.storage.remove(j.name)
    j.storage.recover(j.name)
    j.count = j.header_count = 0
    j.size = 0
    j.n = 0
