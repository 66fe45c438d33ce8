"""Player names in a transcript: one comment line, so a replay is not changed by them.

    #@names ["ANN","BOB","CY"]

The device writes it in a game's header (right after the `game` and `option` lines);
History and the report read it, so a game keeps the names it was played with after the
players are renamed. A transcript without it (typed by hand, an older firmware) names
its players P1, P2, ... The list is JSON: a name may hold spaces or quotes.

    line(["ANN", "BOB"])             -> '#@names ["ANN","BOB"]'
    parse('#@names ["ANN","BOB"]')   -> ["ANN", "BOB"]   (None: not a names line)
    of(lines, players)               -> the names of a transcript's players, defaults
                                        filled in ("P3" where it named only two)
"""

PREFIX = "#@names "


def _quoted(name):
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def line(names):
    return PREFIX + "[" + ",".join([_quoted(n) for n in names]) + "]"


def parse(text):
    """The names of a `#@names` line (str or bytes, its seal `  #~crc` allowed after
    it), or None when the line is not one or does not read as a list of names."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except (UnicodeError, ValueError):
            return None
    if not text.startswith(PREFIX):
        return None
    body = text[len(PREFIX):]
    end = body.rfind("]")
    if end < 0:
        return None
    import json  # only here: reading names is History's and the report's, never play's
    try:
        names = json.loads(body[:end + 1])
    except ValueError:
        return None
    if not isinstance(names, list):
        return None
    for n in names:
        if not isinstance(n, str) or not n.strip():
            return None
    return [n.strip() for n in names]


def of(lines, players):
    """The players' names from the first `#@names` line among `lines` (looked for in
    the first 16 lines: it is part of the header), P1.. for any it does not name."""
    found = None
    i = 0
    for text in lines:
        i += 1
        found = parse(text)
        if found is not None or i >= 16:
            break
    found = found or []
    return [found[p] if p < len(found) else "P%d" % (p + 1) for p in range(players)]
