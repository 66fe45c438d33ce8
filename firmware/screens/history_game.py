"""One archived game's summary (read-only; BACK returns to the list), from its index
row alone (the transcript is not read):

- Stack the Deck: a chart of the running totals by round, one line per player, told
  apart in one colour: P1 a thick solid line, P2 thick dashes, P3 solid with hollow squares,
  P4 dashed with filled squares, P5.. the same again with crosses; each line ends in
  its player's number, the lowest and highest totals on the left axis.
- Stress: per player the calls won, tied and false (voided) and the median margin.
- Stack 31: the four piles with their owners, then the piles each player took.
"""

from firmware import ui
from firmware.screen import Screen
from firmware.screens.history_words import SHORT, result

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
    return "#%d %s %s" % (row.seq, SHORT.get(row.game, row.game), result(row))


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
X0 = 20  # the axis (labels left of it)
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
    ui.text(fb, hs[-3:], X0 - 1 - ui.width(hs[-3:]), Y0 - 1)
    ui.text(fb, los[-3:], X0 - 1 - ui.width(los[-3:]), Y1 - 7)
    for p in range(players):
        pen = _Pen(fb, STYLES[p % len(STYLES)])
        for r in range(1, len(pts)):
            pen.line(pts[r - 1][0], pts[r - 1][1][p], pts[r][0], pts[r][1][p])
        if pen.marker:
            for r in range(1, len(pts)):
                pen.mark(pts[r][0], pts[r][1][p])
    # each line's player number at its end, nudged apart so none overlap
    ends = sorted([(pts[-1][1][p], p) for p in range(players)])
    last = -99
    for y, p in ends:
        y = max(y - 3, last + 7, Y0 - 3)
        y = min(y, ui.H - 7)
        ui.text(fb, str(p + 1), X1 + 4, y)
        last = y


class HistoryGameScreen(Screen):
    """Read-only: every button but BACK does nothing."""

    def __init__(self, app, row):
        Screen.__init__(self, app)
        self.row = row

    def draw(self, fb):
        ui.bar(fb, title(self.row)[:ui.COLS])


class DeckSummary(HistoryGameScreen):
    def draw(self, fb):
        r = self.row
        ui.bar(fb, title(r)[:ui.COLS])
        rounds = r.rounds()
        if not rounds:
            ui.center(fb, "No round ended", 28)
            return
        draw_chart(fb, rounds, r.players)


# Stress columns: right edges of won, tie, false, median
_COLS = ((48, "won"), (72, "tie"), (102, "false"), (127, "med"))


class StressSummary(HistoryGameScreen):
    def draw(self, fb):
        r = self.row
        ui.bar(fb, title(r)[:ui.COLS])
        for edge, word in _COLS:
            ui.text(fb, word, edge - ui.width(word) + 1, 10)
        fb.hline(0, 19, ui.W, 1)
        calls = r.calls()
        for p in range(len(calls)):
            y = 22 + p * 10
            won, tied, false, med = calls[p]
            ui.text(fb, "P%d" % (p + 1), 0, y)
            for (edge, _), s in zip(_COLS, (str(won), str(tied), str(false), ms(med))):
                ui.text(fb, s, edge - ui.width(s) + 1, y)


class Stack31Summary(HistoryGameScreen):
    def draw(self, fb):
        r = self.row
        ui.bar(fb, title(r)[:ui.COLS])
        piles = r.piles()
        for i in range(len(piles)):
            suit, owner = piles[i]
            x = i * 32
            if owner:
                fb.fill_rect(x + 1, 9, 30, 20, 1)
            else:
                fb.rect(x + 1, 9, 30, 20, 1)
            ink = 0 if owner else 1
            ui.center_in(fb, suit, x, 32, 11, ink)
            ui.center_in(fb, ("P%d" % owner) if owner else "-", x, 32, 20, ink)
        for p in range(r.players):
            n = r.scores[p] if p < len(r.scores) else 0
            s = "P%d %d pile%s" % (p + 1, n, "" if n == 1 else "s")
            ui.text(fb, s, (p % 2) * 66, 31 + (p // 2) * 8)


def game_screen(app, row):
    cls = {"stackdeck": DeckSummary, "stress": StressSummary,
           "stack31": Stack31Summary}.get(row.game, HistoryGameScreen)
    return cls(app, row)
