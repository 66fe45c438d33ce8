"""State JSON with the same bytes on CPython and MicroPython.

MicroPython's dicts do not keep insertion order and its json module spaces output
differently, so the core writes JSON itself: the keys named in `first` come first in
that order, every other key follows sorted, and the spacing is CPython's default.
"""


def _string(text):
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif code < 0x20 or code > 0x7E:
            if code > 0xFFFF:
                code -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
            else:
                out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _ordered_keys(obj, first):
    keys = [k for k in first if k in obj]
    rest = sorted(k for k in obj if k not in keys)
    return keys + rest


def _write(obj, first, out):
    if obj is None:
        out.append("null")
    elif obj is True:
        out.append("true")
    elif obj is False:
        out.append("false")
    elif isinstance(obj, int):
        out.append(str(obj))
    elif isinstance(obj, str):
        out.append(_string(obj))
    elif isinstance(obj, (list, tuple)):
        out.append("[")
        for i, item in enumerate(obj):
            if i:
                out.append(", ")
            _write(item, first, out)
        out.append("]")
    elif isinstance(obj, dict):
        out.append("{")
        for i, key in enumerate(_ordered_keys(obj, first)):
            if i:
                out.append(", ")
            out.append(_string(key))
            out.append(": ")
            _write(obj[key], first, out)
        out.append("}")
    else:
        # Floats print differently on the two interpreters; state never holds one.
        raise TypeError("cannot write %r as state JSON" % (obj,))


def dumps(obj, first=()):
    out = []
    _write(obj, first, out)
    return "".join(out)
