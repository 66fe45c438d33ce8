"""A journal record and its seal (the format: firmware/journal/__init__.py): the CRC-16, the
kinds of line, and what both the per-press path (firmware.journal) and the rare paths
(firmware.journal.read, journal_new, ...) need. It imports nothing of the project, so
the rare modules can use it without importing firmware.journal back (no circle).

CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor), table
driven (512 bytes built once at import), the same on CPython and MicroPython:
crc16(b"123456789") == 0x29B1.
"""

from array import array

SEAL_LEN = 8  # "  #~xxxx"
LINE_MAX = 200  # longer lines are damage (checkpoint lines are at most ~111 bytes)
CHUNK = 512  # bytes read at a time when scanning backwards

# What a line is (journal_read.classify)
FILLER = 0
ACTION = 1  # a sealed record with no '#' (header lines too)
CK_LINE = 2  # "#= ..."
CK_END = 3  # "#] n moves crc"
VOID = 4  # "#---"
COMMENT = 5  # another sealed comment (not written by this version)
BAD = 6  # damaged
BAD_SKIP = 7  # damaged, but it was a void or part of a checkpoint: costs nothing
HEAD_END = 8  # "#} n crc": the header's end (n header lines, CRC of their texts)
GROUP = 9  # "#( n crc": the n action records after it are one held group (a call)


class JournalError(Exception):
    pass


def _table():
    t = array("H", bytes(512))
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) & 0xFFFF if c & 0x8000 else (c << 1) & 0xFFFF
        t[i] = c
    return t


_T = _table()
del _table


def crc16(data, crc=0xFFFF):
    """CRC of a bytes-like object; pass a previous result as crc to continue."""
    t = _T
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ t[((crc >> 8) ^ b) & 0xFF]
    return crc


def seal_bytes(text):
    """The record as bytes with its line break: b'P1 draw  #~a1c3\\n'."""
    body = text.encode("utf-8")
    return body + ("  #~%04x\n" % crc16(body)).encode()


def sealed_body(line):
    """The body of a sealed line (bytes without its break), or None."""
    if len(line) <= SEAL_LEN or line[-SEAL_LEN:-4] != b"  #~":
        return None
    want = 0
    for c in line[-4:]:  # four lower-case hex digits
        if 48 <= c <= 57:
            want = want * 16 + c - 48
        elif 97 <= c <= 102:
            want = want * 16 + c - 87
        else:
            return None
    body = line[:-SEAL_LEN]
    if crc16(body) != want or body[:1] == b" " or body[-1:] == b" ":
        return None
    return body


def group_bytes(n, crc):
    """A held group's record, `#( n crc` sealed, after an empty line: the group's write
    is the only one that starts with a line break (an action's starts with its word,
    the device's other records with '#'), so a power cut after any byte of it leaves
    an end that says a call was in flight, never taken for a checkpoint cut after its
    first byte (a lone '#')."""
    return b"\n" + seal_bytes("#( %d %04x" % (n, crc))


def void_bytes(length):
    """A void record of `length` bytes (with its break): '#---...  #~xxxx\\n'."""
    body = b"#" + b"-" * (length - 2 - SEAL_LEN)
    return body + ("  #~%04x\n" % crc16(body)).encode()


def filler_bytes(raw, at_end=False):
    """The same bytes with every one but the line breaks turned into '#'; at the end
    of the file the last byte becomes a break (nothing can glue onto it), and a last
    line of one byte joins the line before it: the file never ends in an empty line
    after a line, which is what a held group's write cut after its first byte leaves
    (group_bytes; a region of one byte: Journal.rollback)."""
    out = bytearray(len(raw))
    for i in range(len(raw)):
        out[i] = 10 if raw[i] == 10 else 35
    if at_end and out:
        out[-1] = 10
        if len(out) > 1 and out[-2] == 10:
            out[-2] = 35
    return out


def block_crc(texts):
    """The CRC of the texts joined by line breaks."""
    crc = 0xFFFF
    first = True
    for t in texts:
        if not first:
            crc = crc16(b"\n", crc)
        crc = crc16(t.encode("utf-8"), crc)
        first = False
    return crc


def read_lines(f, off):
    """(raw line, offset, length) of every line of the open file f from `off` on; a
    line longer than LINE_MAX as (None, offset, its whole length). The readers of the
    rare paths share it (firmware.journal.read.records, the resume's own
    firmware.session.replay._records); the caller closes f."""
    f.seek(off)
    while True:
        raw = f.readline(LINE_MAX + 1)
        if not raw:
            return
        length = len(raw)
        if length > LINE_MAX and not raw.endswith(b"\n"):
            while True:  # the rest of an over-long line
                more = f.readline(LINE_MAX + 1)
                length += len(more)
                if not more or more.endswith(b"\n"):
                    break
            raw = None
        yield raw, off, length
        off += length


def read_block(j, start, end):
    """The records of journal j at [start, end), a checkpoint block: (the texts of its
    `#=` lines, the body of its last record, how many records), or None when one fails
    its seal or the last runs past `end` (firmware.session, firmware.journal.fix).
    UnicodeError: a `#=` line that is not text."""
    f = j.storage.open_read(j.name)
    if f is None:
        return None
    texts = []
    body = None
    n = 0
    try:
        f.seek(start)
        while start < end:
            raw = f.readline(LINE_MAX + 1)
            start += len(raw)
            body = sealed_body(raw.rstrip(b"\r\n")) if raw else None
            if body is None:
                return None
            n += 1
            if body[:3] == b"#= ":
                texts.append(body[3:].decode())
    finally:
        f.close()
    return (texts, body, n) if start == end else None


def is_header(text):
    """A `game` or `option` line, or the players' names (`#@names [...]`, core.names)."""
    word = text.split(" ", 1)[0].lower()
    return word == "game" or word == "option" or word == "#@names"


def head_end_bytes(texts):
    """The header's end record: `#} n crc` (n header lines and their block_crc)."""
    return seal_bytes("#} %d %04x" % (len(texts), block_crc(texts)))
