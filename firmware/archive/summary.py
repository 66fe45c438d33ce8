"""A transcript's summary for its index row (firmware/archive/store.py says what a row
holds): the transcript replayed with the rules core, streaming, the history forgotten
as it goes. Its own module, apart from the index writer: a game goes to the archive in
two steps (firmware.archive.keep), the replay with the game's rules first, then the
commit, so that on a board the two never share the heap. The repairs use it too
(firmware.archive.fix, through firmware.archive.store)."""

import gc

from firmware import journal as jr

EXACT = 16  # margins kept exactly per player before the histogram alone decides
BINS = 64
REBASE_EVERY = 64  # actions between rebases while a transcript is replayed


# -- margins: a median without keeping every margin ------------------------------------
def bin_of(us):
    if us < 128:
        return 0
    e = _bits(us) - 1
    b = 4 * (e - 7) + ((us << 2 >> e) & 3)
    return b if b < BINS else BINS - 1


def bin_mid(b):
    e = b // 4 + 7
    frac = b % 4
    lo = (4 + frac) << (e - 2)
    hi = (5 + frac) << (e - 2)
    return (lo + hi) // 2


def _bits(n):
    k = 0
    while n:
        n >>= 1
        k += 1
    return k


class Margins:
    """One player's margins: exact while there are few, a histogram always."""

    def __init__(self):
        self.exact = []
        self.over = False  # more than EXACT were ever added
        self.hist = bytearray(BINS * 2)  # 16-bit counts, little end first
        self.n = 0

    def _count(self, b, d):
        h = self.hist
        v = h[2 * b] | (h[2 * b + 1] << 8)
        v = max(0, min(0xFFFF, v + d))
        h[2 * b] = v & 255
        h[2 * b + 1] = v >> 8

    def add(self, us):
        self.n += 1
        self._count(bin_of(us), 1)
        if not self.over:
            if len(self.exact) < EXACT:
                self.exact.append(us)
            else:
                self.over = True
                self.exact = []

    def remove(self, us):
        if self.n:
            self.n -= 1
        self._count(bin_of(us), -1)
        if not self.over and us in self.exact:
            self.exact.remove(us)

    def median(self):
        """The (lower) median in microseconds, -1 with none."""
        if not self.n:
            return -1
        if not self.over:
            xs = sorted(self.exact)
            if not xs:
                return -1
            return xs[(len(xs) - 1) // 2]
        want = (self.n - 1) // 2
        seen = 0
        h = self.hist
        for b in range(BINS):
            seen += h[2 * b] | (h[2 * b + 1] << 8)
            if seen > want:
                return bin_mid(b)
        return -1


class _Reader:
    """What reading a transcript takes of a Journal (firmware.journal.read's read_header
    and records): not the undo stack's arrays (3.5 KB) a Journal allocates."""
    header_ok = None

    def __init__(self, storage, name):
        self.storage = storage
        self.name = name


def summarize(storage, name, damaged_too=False):
    """Replay a transcript with the rules core (streaming, the history forgotten as it
    goes) and return its row without seq/status/cost: (game, players, moves, ended,
    winners, scores, extra, names, of), or None when it holds no action. `of` is None
    when the transcript replays to its end; else it is damaged: the replay stopped at
    `moves`, and `of` is how many action lines the file holds (winners and scores
    then empty: never a made-up result). A transcript whose header does not read is
    None, or with damaged_too a damaged row of game "?"."""
    from core.errors import IllegalAction
    from firmware.journal import read as jrd
    from firmware.journal import game_from_header
    j = _Reader(storage, name)
    try:
        header, off = jrd.read_header(j)
    except (jr.JournalError, UnicodeError):
        header = None
    game = None
    if header is not None:
        try:
            game = game_from_header(header)
        except (IllegalAction, ValueError):
            game = None
    if game is None:
        if damaged_too and storage.size(name):
            return ("?", 0, 0, False, [], [], "", [], _actions(jrd, j, 0))
        return None
    names = _names(jrd, j, game.players)
    stress = game.NAME == "stress"
    margins = [Margins() for _ in range(game.players)] if stress else None
    prev = [(0, 0)] * game.players if stress else None
    can_cp = True
    pushed = 0
    broke = -1
    it = jrd.records(j, off)
    for kind, body, at, _, _ in it:
        if kind == jr.BAD:
            broke = at
            break
        if kind != jr.ACTION:
            continue
        try:
            game.push(body.decode("utf-8"))
        except (IllegalAction, UnicodeError):
            broke = at
            break
        pushed += 1
        if stress:
            stats = game.stats
            for p in range(game.players):
                row = stats[p]
                c, s = row[5], row[4]
                pc, ps = prev[p]
                if c > pc:
                    margins[p].add(s - ps)
                elif c < pc:
                    margins[p].remove(ps - s)
                if c != pc or s != ps:
                    prev[p] = (c, s)
        if can_cp and pushed % REBASE_EVERY == 0:
            try:
                lines = game.checkpoint()
                game.rebase(len(game.history), lines)
            except IllegalAction:
                can_cp = False
            gc.collect()
    it.close()
    if broke >= 0:
        if not damaged_too and not pushed:
            return None
        return (game.NAME, game.players, game.moves, False, [], [], "", names,
                game.moves + _actions(jrd, j, broke))
    if not pushed:
        if damaged_too:  # kept with actions, none left: damage
            return (game.NAME, game.players, 0, False, [], [], "", names, 0)
        return None
    mw = getattr(game, "match_winner", None)  # firmware.archive.read.ended, not loaded here
    over = mw() is not None if mw is not None else bool(game.over)
    state = game.state()
    if stress:
        winners = [state["match_winner"]] if state["match_winner"] else []
        scores = list(state["games_won"])
        stats = game.stats
        extra = "c=" + ",".join(["%d:%d:%d:%d" % (stats[p][0], stats[p][1], stats[p][3],
                                                  margins[p].median())
                                 for p in range(game.players)])
    elif game.NAME == "stackdeck":
        winners = list(state["winners"]) if state["over"] else []
        scores = list(state["totals"])
        run = [0] * game.players
        parts = []
        for row in state["rounds"]:
            for p in range(game.players):
                run[p] += row[p]
            parts.append(",".join([str(v) for v in run]))
        extra = "r=" + ("/".join(parts) if parts else "-")
    else:
        winners = list(state["winners"]) if state["over"] else []
        scores = list(state["piles_won"])
        piles = state["piles"]
        extra = "p=" + ".".join(["%s%d:%d" % (s, piles[s]["owner"] or 0, piles[s]["value"])
                                 for s in "HDCS" if s in piles])
    return (game.NAME, game.players, game.moves, over, winners, scores, extra, names, None)


def _actions(jrd, j, off):
    """Action lines (sealed, whole or not) in the file from `off` on: what a damaged
    transcript held."""
    n = 0
    for kind, _, _, _, _ in jrd.records(j, off):
        if kind == jr.ACTION or kind == jr.BAD:
            n += 1
    return n


def _names(jrd, j, players):
    """The `#@names` line among the transcript's first 16 lines (core.names.of)."""
    from core import names
    lines = []
    it = jrd.records(j, 0)
    for kind, body, _, _, _ in it:
        lines.append(body if kind == jr.COMMENT else b"")
        if len(lines) >= 16:
            break
    it.close()  # its file closed now (a board has few handles)
    return names.of(lines, players)


