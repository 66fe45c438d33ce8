"""The game journal: every accepted action, one line each, on flash.

The file is a transcript in the table notation (contract.md): the header and option
lines first, then one action per line. Each line carries its CRC-16 (firmware.crc)
as a trailing comment, four hex digits after the marker `#~`:

    game stack31 players 2  #~5d0e
    P1 draw  #~a1c3

Everything after `#` is a comment in the notation, so `python -m host_sim replay
journal.txt` reads the journal as it is. The checksum covers the UTF-8 bytes of the
text before the two spaces. A record's text never contains `#` or a line break.

    j = Journal(storage, "journal.txt")
    j.start(header_lines)     new game: header (and option lines) as a fresh file,
                              written atomically
    j.append(line)            one action: one append of one line (no rewrite)
    j.pop() -> line or None   undo the last action (never a header line)
    j.load() -> (lines, report)   the texts, header included, checksums removed;
                              report is None or a short message for the screen,
                              j.details the whole report (below)
    j.set_aside() -> name     keep the journal as journal.badN (it stops being the
                              journal); None when there was none
    j.clear()                 no journal any more
    j.count, j.header_count   records in the file, of which header lines

Undo rewrites the file atomically without its last record (undo is rare, so the flash
wear is small, and the file stays a plain transcript that replays to the state on
the screen; an `undo` record would not be valid notation). A power cut during undo
leaves either the old file or the new one.

load() never raises (except for a power cut, which is no exception on a device):
    - no file, or an empty one: ([], None)
    - the LAST line torn (no checksum, a bad one, or not text): that record is
      dropped, the file is repaired (rewritten without it), and reported
    - a good last line that only lacks its line break: kept, the break is added
    - any other bad line (damage in the middle, garbage): the file is renamed aside
      (journal.bad1, journal.bad2, ...), the good lines before the damage are
      returned and written as a fresh journal, and it is reported
    The message: "Last entry lost", "Journal damaged" or "Journal unreadable".
    j.details is None, or a dict: {"message": that message, "line": 1-based line
    number of the bad line, "dropped": text or None of a torn record, "aside": name
    of the file kept aside or None}
Blank lines and lines that begin with `#` are allowed and skipped.
"""

from firmware.crc import crc16

MARK = "#~"
HEADER_WORDS = ("game", "option")


def seal(text):
    """'P1 draw' -> 'P1 draw  #~a1c3' (no line break)."""
    return "%s  %s%04x" % (text, MARK, crc16(text.encode("utf-8")))


def unseal(raw):
    """A line (bytes, with or without its break) -> its text, or None if damaged.
    Returns '' for blank and comment-only lines."""
    line = raw.rstrip(b"\r\n")
    stripped = line.strip()
    if not stripped or stripped[:1] == b"#" and stripped[:2] != b"#~":
        return ""
    i = line.find(b"#~")
    if i <= 0:
        return None
    body = line[:i].rstrip(b" ")
    tail = line[i + 2:].rstrip(b" ")
    if len(tail) != 4 or b"#" in body:
        return None
    try:
        want = int(tail.decode(), 16)
        text = body.decode("utf-8")
    except (ValueError, UnicodeError):
        return None
    if crc16(body) != want or text != text.strip() or not text:
        return None
    return text


def _is_header(text):
    return text.split(" ", 1)[0].lower() in HEADER_WORDS


def _clean(line):
    text = line.strip()
    if not text or "#" in text or "\n" in text or "\r" in text:
        raise ValueError("not a journal record: %r" % (line,))
    return text


class Journal:
    def __init__(self, storage, name="journal.txt"):
        self.storage = storage
        self.name = name
        self.count = 0
        self.header_count = 0
        self.details = None

    def start(self, header_lines):
        w = self.storage.atomic(self.name)
        n = h = 0
        for line in header_lines:
            text = _clean(line)
            w.write(seal(text) + "\n")
            n += 1
            if h == n - 1 and _is_header(text):
                h = n
        w.commit()
        self.count = n
        self.header_count = h

    def append(self, line):
        text = _clean(line)
        self.storage.append(self.name, seal(text) + "\n")
        self.count += 1
        if self.header_count == self.count - 1 and _is_header(text):
            self.header_count = self.count

    def pop(self):
        """Remove the last action; returns its text, or None when only the header
        is left (or no journal)."""
        f = self.storage.open_read(self.name)
        if f is None:
            return None
        w = None
        last = None
        n = h = 0
        try:
            for raw in _lines(f):
                text = unseal(raw)
                if not text:
                    continue
                if last is not None:
                    if w is None:
                        w = self.storage.atomic(self.name)
                    w.write(seal(last) + "\n")
                    n += 1
                    if h == n - 1 and _is_header(last):
                        h = n
                last = text
        finally:
            f.close()
        if last is None or (h == n and _is_header(last)):
            if w is not None:
                w.abort()
            return None
        if w is None:
            w = self.storage.atomic(self.name)
        w.commit()
        self.count = n
        self.header_count = h
        return last

    def set_aside(self):
        st = self.storage
        aside = None
        st.recover(self.name)
        if st.exists(self.name):
            aside = st.keep_aside(self.name)
        self.count = self.header_count = 0
        return aside

    def clear(self):
        self.storage.remove(self.name)
        self.storage.recover(self.name)
        self.count = self.header_count = 0

    def load(self):
        lines, details = self._load_safely()
        self.details = details
        return lines, (details["message"] if details else None)

    def _load_safely(self):
        try:
            return self._load()
        except Exception as e:  # unreadable: keep it aside, start afresh
            aside = None
            try:
                if self.storage.exists(self.name):
                    aside = self.storage.keep_aside(self.name)
            except Exception:
                pass
            self.count = self.header_count = 0
            return [], {"message": "Journal unreadable", "line": None, "dropped": None,
                        "aside": aside, "error": repr(e)}

    def _load(self):
        st = self.storage
        st.recover(self.name)
        f = st.open_read(self.name)
        if f is None:
            self.count = self.header_count = 0
            return [], None
        good = []
        bad_line = None  # first damaged line
        bad_raw = None
        after_bad = False  # a non-blank line follows the damaged one
        no_break = False  # the last good line lacks its line break
        lineno = 0
        try:
            for raw in _lines(f):
                lineno += 1
                text = unseal(raw)
                if bad_line is not None:
                    if text != "":
                        after_bad = True
                        break
                    continue
                if text is None:
                    bad_line = lineno
                    bad_raw = raw
                elif text:
                    good.append(text)
                    no_break = not raw.endswith(b"\n")
        finally:
            f.close()
        report = None
        if bad_line is not None and after_bad:
            aside = st.keep_aside(self.name)
            if good:
                self._rewrite(good)
            report = {"message": "Journal damaged", "line": bad_line, "dropped": None,
                      "aside": aside}
        elif bad_line is not None:
            dropped = _decode_loose(bad_raw)
            self._rewrite(good)
            report = {"message": "Last entry lost", "line": bad_line, "dropped": dropped,
                      "aside": None}
        elif no_break:
            st.append(self.name, b"\n")
        self.count = len(good)
        h = 0
        while h < len(good) and _is_header(good[h]):
            h += 1
        self.header_count = h
        return good, report

    def _rewrite(self, texts):
        if not texts:
            self.storage.remove(self.name)
            return
        w = self.storage.atomic(self.name)
        for t in texts:
            w.write(seal(t) + "\n")
        w.commit()


def _lines(f):
    while True:
        raw = f.readline()
        if not raw:
            return
        yield raw


def _decode_loose(raw):
    line = raw.rstrip(b"\r\n")
    i = line.find(b"#")
    if i >= 0:
        line = line[:i]
    try:
        return line.decode("utf-8").strip() or None
    except UnicodeError:
        return None
