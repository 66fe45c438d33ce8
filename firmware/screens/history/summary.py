"""One archived game's summary (read-only; BACK returns to the list; UP and DOWN turn
its pages where it has two), from its index row alone (the transcript is not read),
the players named as they were when it was played:

- Stack the Deck: page 1 every player's total (numbered as on the chart) under the
  result; page 2 a chart of the running totals by round, one line per player, told
  apart in one colour: P1 a thick solid line, P2 thick dashes, P3 solid with hollow
  squares, P4 dashed with filled squares, P5.. the same again with crosses; each line
  ends in its player's number, the lowest and highest totals on the left axis.
- Stress: per player the calls won, tied and false (voided) and the median margin, in
  columns that never touch; two players a page.
- Stack 31: the four piles in the game's order (H D C S) with their values and their
  owners, a conquered pile (31) inverted; then the result.
- A damaged transcript (it does not replay to its end): how far it replays, no result.
"""

from firmware.drivers import buttons as b
from firmware import ui
from firmware.screen import Screen, is_step
from firmware.screens.history.words import LONG, damage, result

# (thickness, on pixels, period, marker) per style; marker: 0 none, 1 hollow square,
# 2 filled square, 3 cross
STYLES = ((2, 1, 1, 0), (2, 2, 4, 0), (1, 1, 1, 1), (1, 4, 6, 2),
          (1, 1, 1, 3), (1, 1, 3, 1), (1, 4, 6, 3), (2, 1, 1, 2))


def ms(us):
    """A margin in words that fit 5 columns: '0.8ms', '12ms', '1.2s', '-'."""
    if us < 0:
        return "-"
    if us < 10000:
        return "%d.%dms" % (us // 1000, us % 1000 // 100)
    if us < 1000000:
        return "%dms" % (us // 1000)
    return "%d.%ds" % (us // 1000000, us % 1000000 // 100000)


def title(row):
    """'#12 Stack 31 3p' (18 columns at most: the page number fits beside it)."""
    if row.game == "?":
        return "#%d game unknown" % row.seq
    return "#%d %s %dp" % (row.seq, LONG.get(row.game, row.game[:8]), row.players)


class _Pen:
    """A line drawer with a dash pattern that runs on across segments."""

    def __init__(self, fb, style):
        self.fb = fb
        self.thick, self.on, self.period, self.marker = style
        self.step = 0

    def dot(self, x, y):
        if self.step % self.period < self.on:
            self.fb.pixel(x, y, 1)
            if self.thick > 1:
                self.fb.pixel(x, y + 1, 1)
        self.step += 1

    def line(self, x0, y0, x1, y1):
        dx = abs(x1 - x0)
        dy = -abs(y1 - y0)
        sx = 1 if x0 < x1 else -1
        sy = 1 if y0 < y1 else -1
        err = dx + dy
        while True:
            self.dot(x0, y0)
            if x0 == x1 and y0 == y1:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy

    def mark(self, x, y):
        fb = self.fb
        m = self.marker
        if m == 1:
            fb.rect(x - 1, y - 1, 3, 3, 1)
        elif m == 2:
            fb.fill_rect(x - 1, y - 1, 3, 3, 1)
        elif m == 3:
            fb.pixel(x - 1, y - 1, 1)
            fb.pixel(x + 1, y - 1, 1)
            fb.pixel(x, y, 1)
            fb.pixel(x - 1, y + 1, 1)
            fb.pixel(x + 1, y + 1, 1)


# The chart's box
X0 = 26  # the axis (its labels left of it: 4 columns, "-199")
X1 = 118  # the last round (the players' numbers right of it)
Y0 = 11  # the highest total
Y1 = 61  # the lowest


def chart_points(rounds, players):
    """[(x, [y per player])] from round 0 (all at 0) to the last, on the panel."""
    lo = 0
    hi = 0
    for totals in rounds:
        for v in totals:
            lo = min(lo, v)
            hi = max(hi, v)
    if hi == lo:
        hi = lo + 1
    n = len(rounds)
    pts = []
    for r in range(n + 1):
        x = X0 + 2 + (X1 - X0 - 2) * r // max(1, n)
        vals = rounds[r - 1] if r else [0] * players
        pts.append((x, [Y1 - (Y1 - Y0) * (v - lo) // (hi - lo) for v in vals]))
    return pts, lo, hi


def draw_chart(fb, rounds, players):
    pts, lo, hi = chart_points(rounds, players)
    fb.vline(X0, Y0, Y1 - Y0 + 1, 1)
    zero = Y1 - (Y1 - Y0) * (0 - lo) // (hi - lo)
    fb.hline(X0, zero, X1 - X0 + 1, 1)
    hs = str(hi)
    los = str(lo)
    ui.text(fb, hs, X0 - 1 - ui.width(hs), Y0 - 1)
    ui.text(fb, los, X0 - 1 - ui.width(los), Y1 - 7)
    for p in range(players):
        pen = _Pen(fb, STYLES[p % len(STYLES)])
        for r in range(1, len(pts)):
            pen.line(pts[r - 1][0], pts[r - 1][1][p], pts[r][0], pts[r][1][p])
        if pen.marker:
            for r in range(1, len(pts)):
                pen.mark(pts[r][0], pts[r][1][p])
    # each line's player number at its end, nudged apart so that none touch (a text
    # line apart), the lowest kept on the panel by moving them all up
    ends = sorted([(pts[-1][1][p], p) for p in range(players)])
    ys = []
    last = -99
    for y, p in ends:
        last = max(y - 3, last + ui.LINE, 9)
        ys.append(last)
    over = ys[-1] - (ui.H - ui.LINE) if ys else 0
    for i in range(len(ends)):
        ui.text(fb, str(ends[i][1] + 1), X1 + 4, max(9 + i * ui.LINE, ys[i] - max(0, over)))


class HistoryGameScreen(Screen):
    """Read-only: BACK goes back, UP and DOWN turn the pages, nothing else acts."""
    PAGES = 1

    def __init__(self, app, row):
        Screen.__init__(self, app)
        self.row = row
        self.page = 0

    def pages(self):
        return 1 if self.row.status == "bad" else self.PAGES

    def on_button(self, kind, button):
        n = self.pages()
        if button in (b.UP, b.DOWN) and is_step(kind) and n > 1:
            self.page = (self.page + (1 if button == b.DOWN else -1)) % n
            self.app.redraw()
        else:
            Screen.on_button(self, kind, button)

    def draw(self, fb):
        r = self.row
        n = self.pages()
        ui.bar(fb, title(r), right_text=("%d/%d" % (self.page + 1, n)) if n > 1 else "")
        if r.status == "bad":
            ui.text(fb, "Transcript damaged:", 0, 11)
            ui.text(fb, damage(r) + (" moves" if r.of > r.moves else ""), 0, 20)
            ui.text(fb, "replayed; no result", 0, 29)
            ui.text(fb, "is made up.", 0, 38)
            names = r.names()
            if names:
                s = ", ".join(names)
                ui.text(fb, s if len(s) <= ui.COLS else "%d players" % len(names), 0, 51)
            return
        if self.page == 0 or self.PAGES == 1 or self.ALL_PAGES:
            ui.text(fb, result(r), 0, 10)
        self.body(fb, r)

    ALL_PAGES = True  # the result line on every page

    def body(self, fb, r):
        pass


class DeckSummary(HistoryGameScreen):
    PAGES = 2
    ALL_PAGES = False  # the chart takes page 2

    def body(self, fb, r):
        rounds = r.rounds()
        if self.page == 0:  # the totals, numbered as the chart's lines
            names = r.names()
            for p in range(r.players):
                y = 20 + p * 9
                ui.text(fb, "%d %s" % (p + 1, names[p]), 0, y)
                if p < len(r.scores):
                    ui.right(fb, str(r.scores[p]), y, 1, 1)
            if not rounds:
                ui.text(fb, "no round ended", 0, 56)
            return
        if not rounds:
            ui.center(fb, "No round ended", 28)
            return
        draw_chart(fb, rounds, r.players)


# Stress columns: right edges (the blank column after the last glyph) of won, tie,
# false, median, on the text grid: 3 cells for won and tie, 5 for false and for a
# median ("304ms"), a blank cell between neighbours ("tie false", "0  40ms").
_COLS = ((29, "won"), (53, "tie"), (89, "false"), (125, "med"))
PER_PAGE = 2  # players a page: a name line and a line of numbers each


class StressSummary(HistoryGameScreen):
    def pages(self):
        if self.row.status == "bad":
            return 1
        return max(1, (len(self.row.calls()) + PER_PAGE - 1) // PER_PAGE)

    def body(self, fb, r):
        for edge, w in _COLS:
            ui.text(fb, w, edge - ui.width(w) + 1, 19)
        calls = r.calls()
        names = r.names()
        for k in range(PER_PAGE):
            p = self.page * PER_PAGE + k
            if p >= len(calls):
                break
            y = 28 + k * 18
            won, tied, false, med = calls[p]
            ui.text(fb, names[p] if p < len(names) else "P%d" % (p + 1), 0, y)
            for (edge, _), s in zip(_COLS, (str(won), str(tied), str(false), ms(med))):
                ui.text(fb, s, edge - ui.width(s) + 1, y + 8)


SUITS = "HDCS"  # the game's order (core.cards.SUITS)
PIPS = ("\x01", "\x02", "\x03", "\x04")  # their pips in the font (bytes 1..4)


class Stack31Summary(HistoryGameScreen):
    def body(self, fb, r):
        piles = {}
        for suit, owner, value in r.piles():
            piles[suit] = (owner, value)
        names = r.names()
        for i in range(4):
            suit = SUITS[i]
            owner, value = piles.get(suit, (0, -1))
            y = 20 + i * 10
            ink = 1
            if value == 31:  # conquered: inverted, as on the game's board
                fb.fill_rect(0, y - 1, ui.W, 9, 1)
                ink = 0
            ui.text(fb, PIPS[i], 2, y, ink)
            v = str(value) if value >= 0 else "?"
            ui.text(fb, v, 26 - ui.width(v) + 1, y, ink)
            if owner:
                ui.text(fb, names[owner - 1] if owner <= len(names) else "P%d" % owner, 32, y, ink)
            else:
                ui.text(fb, "-", 32, y, ink)


def game_screen(app, row):
    cls = {"stackdeck": DeckSummary, "stress": StressSummary,
           "stack31": Stack31Summary}.get(row.game, HistoryGameScreen)
    return cls(app, row)
