"""A plain transcript put on the board as game.txt (the browser page's Copy, one typed
or written on a computer: lines without seals), made a journal (the format:
firmware/journal/__init__.py): a rare path, loaded by the resume when the first line is an
unsealed `game` line, and let go after on a board.

Every line is sealed as it is streamed into a fresh file (atomic: game.txt.new, then
renamed over it): the `game` and `option` lines (and a `#@names` line among them) are
the header, with its end record; every other line that holds words is an action
(its words before any `#` comment). Nothing is checked against the rules here: the
resume that follows replays the journal as it replays any other (streaming, a
checkpoint written after it), and stops at the first line the rules refuse, as for
damage. The transcript as it was is kept as game.badN (its comments are not copied).

    seal_transcript(j) -> aside name
"""

from firmware.journal.new import begin
from firmware.journal.record import CHUNK, LINE_MAX, is_header, seal_bytes

BOM = b"\xef\xbb\xbf"


def _text(raw):
    """A plain line's words ('' for blank and comment lines)."""
    line = raw.rstrip(b"\r\n")
    if line[:3] == BOM:
        line = line[3:]
    if line[:8] == b"#@names ":
        return line.decode("utf-8").strip()
    i = line.find(b"#")
    if i >= 0:
        line = line[:i]
    return " ".join(line.decode("utf-8").split())


def seal_transcript(j):
    """Make the plain transcript in j a journal (atomic), the original kept aside;
    returns its name. OSError or ValueError (not UTF-8): nothing changed."""
    st = j.storage
    f = st.open_read(j.name)
    header = []
    first = None  # the first line that is no header line
    try:
        while True:
            raw = f.readline(LINE_MAX + 1)
            if not raw:
                break
            text = _text(raw)
            if not text:
                continue
            if is_header(text) and (header or text.lower().startswith("game ")):
                header.append(text)
                continue
            first = text
            break
        w = begin(j, header)
        try:
            buf = []
            size = 0
            while first is not None:
                rec = seal_bytes(first)
                buf.append(rec)
                size += len(rec)
                if size >= CHUNK:
                    w.write(b"".join(buf))
                    buf, size = [], 0
                first = None
                while first is None:
                    raw = f.readline(LINE_MAX + 1)
                    if not raw:
                        break
                    first = _text(raw) or None
            if buf:
                w.write(b"".join(buf))
        except (OSError, ValueError):
            w.abort()
            raise
    finally:
        f.close()
    aside = st.copy_aside(j.name)
    w.commit()
    j.size = -1
    return aside
