"""The report's charts (matplotlib, Agg backend: no display needed). Each function takes
records from host_sim.report_data and returns PNG bytes.

One colour per player across every chart (a Palette: the first player met blue, the
next orange, ...), so a player reads the same in the season charts and in each game's.
Players are named as their journal names them (core.names; P1, P2 ... otherwise).
"""

import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator  # noqa: E402
from matplotlib.transforms import offset_copy  # noqa: E402

from host_sim.report_data import call_kind, describe_result  # noqa: E402

PLAYER_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                  "#e377c2", "#17becf")
NEUTRAL = "#7f7f7f"
SUIT_NAMES = {"H": "Hearts", "D": "Diamonds", "C": "Clubs", "S": "Spades"}
DPI = 100

plt.rcParams.update({
    "font.size": 11,
    "axes.titlesize": 13,
    "axes.titleweight": "bold",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.frameon": False,
    "svg.hashsalt": "report",
})


class Palette:
    """A colour per player name for the whole report: in order of first appearance,
    never one that another player of the same game has (while the colours last).

    palette = Palette(records); palette("ANN") -> "#1f77b4"
    """

    def __init__(self, records=()):
        self._index = {}
        for rec in records:
            self.seat(rec)

    def seat(self, rec):
        names = [rec.label(p) for p in range(1, rec.players + 1)]
        taken = {self._index[n] for n in names if n in self._index}
        for name in names:
            if name in self._index:
                continue
            used = {}
            for i in self._index.values():
                used[i] = used.get(i, 0) + 1
            free = [i for i in range(len(PLAYER_COLOURS)) if i not in taken] or \
                list(range(len(PLAYER_COLOURS)))
            pick = min(free, key=lambda i: (used.get(i, 0), i))
            self._index[name] = pick
            taken.add(pick)

    def names(self):
        """Every name met, in order of first appearance."""
        return list(self._index)

    def __call__(self, name):
        if name not in self._index:
            self._index[name] = len(self._index) % len(PLAYER_COLOURS)
        return PLAYER_COLOURS[self._index[name]]


def _png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def _title(rec):
    return "%s: %s, %d players, %s" % (rec.name, rec.title, rec.players, describe_result(rec))


def _ms(us):
    return us / 1000.0


def _ms_label(v, _pos=None):
    if v >= 10:
        return "%d" % round(v)
    if v >= 1:
        return "%g" % round(v, 1)
    return "%g" % round(v, 2)


# ---------------------------------------------------------------- one game
def stackdeck_chart(rec, palette=None):
    """Running totals by round, one line per player; round 0 is the start (0 points)."""
    palette = palette or Palette([rec])
    fig, ax = plt.subplots(figsize=(9, 4.8), layout="constrained")
    rounds = [0] + [r for r, _, _ in rec.rounds]
    ends = []
    for p in range(1, rec.players + 1):
        totals = [0] + [t[p - 1] for _, _, t in rec.rounds]
        ax.plot(rounds, totals, marker="o", linewidth=2.2, markersize=5,
                color=palette(rec.label(p)), label=rec.label(p))
        ends.append((totals[-1], p))
    if rec.rounds:  # the final totals at the lines' ends, moved apart where they meet
        lo, hi = ax.get_ylim()
        gap = (hi - lo) * 0.06
        placed = []
        for total, p in sorted(ends):
            y = total if not placed or total - placed[-1] >= gap else placed[-1] + gap
            placed.append(y)
            ax.text(rounds[-1], y, "%s %d" % (rec.label(p), total), va="center",
                    color=palette(rec.label(p)), fontweight="bold",
                    transform=offset_copy(ax.transData, fig=fig, x=8, units="points"))
    ax.axhline(0, color="black", linewidth=0.8)
    if not rec.rounds:
        ax.set_ylim(-10, 10)
        ax.text(0.5, 0.5, "no round ended yet", transform=ax.transAxes, ha="center",
                color=NEUTRAL, fontsize=13)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("round")
    ax.set_ylabel("total points")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(0, max(rounds[-1], 1) * 1.12 + 0.2)
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=rec.players, borderaxespad=0.2)
    ax.set_title(_title(rec), loc="left", pad=28)
    return _png(fig)


def stress_points(rec):
    """(call number, y in ms, kind) of every call as the chart draws it: a margin where
    the call has one (a tie at 0 ms included: the axis is linear from 0 to the tie
    window), NO_SECOND_PRESS for a call nobody else pressed (the band above the
    margins). Also the axis: (top of the margins, band)."""
    known = [_ms(c["margin_us"]) for c in rec.calls if c["margin_us"] is not None]
    top = max(known + [10.0]) * 2.2
    band = top * 1.25
    points = [(i, band if c["margin_us"] is None else _ms(c["margin_us"]), call_kind(c))
              for i, c in enumerate(rec.calls, 1)]
    return points, top, band


def stress_figure(rec, palette=None):
    """The margin of every call, coloured by who won it: a linear axis from 0 to the tie
    window (ties sit there, a 0.0 ms tie on 0), logarithmic above it; false calls
    (voided by the table) and calls with a single press marked apart; games of the
    match separated. Returns the matplotlib figure (stress_chart: its PNG)."""
    palette = palette or Palette([rec])
    fig, ax = plt.subplots(figsize=(9, 4.8), layout="constrained")
    calls = rec.calls
    points, top, band = stress_points(rec)
    window = _ms(rec.options["tie_window_us"])
    linear = window if window > 0 else 0.5  # the linear part of the axis: 0 to here
    alone = any(c["margin_us"] is None for c in calls)
    for (i, y, kind), call in zip(points, calls):
        who = palette(rec.label(call["winner"])) if call["winner"] else NEUTRAL
        if kind == "won":
            ax.scatter([i], [y], s=60, color=who, zorder=3)
        elif kind == "tie":
            ax.scatter([i], [y], s=80, marker="X", color=NEUTRAL, zorder=3)
        elif kind == "void":
            ax.scatter([i], [y], s=90, facecolors="white", edgecolors=who, linewidths=2,
                       zorder=3)
            ax.annotate("false" if not call["winner"] else "%s false" % rec.label(call["winner"]),
                        (i, y), xytext=(0, 9), textcoords="offset points", ha="center",
                        fontsize=9)
        else:  # alone: nobody else pressed, there is no margin
            ax.scatter([i], [y], s=70, marker="^", color=who, zorder=3)
    if alone:
        ax.axhspan(top, top * 1.6, color=NEUTRAL, alpha=0.08, linewidth=0)
        ax.text(0.995, band, "no 2nd press ", transform=ax.get_yaxis_transform(), ha="right",
                va="center", fontsize=8, color=NEUTRAL)
    # Games of the match, named above the plot.
    game_of = [c["game_no"] for c in calls]
    for i in range(1, len(game_of)):
        if game_of[i] != game_of[i - 1]:
            ax.axvline(i + 0.5, color=NEUTRAL, linestyle="--", linewidth=1)
    for g in sorted(set(game_of)):
        xs = [i for i, n in enumerate(game_of, 1) if n == g]
        ax.text((xs[0] + xs[-1]) / 2, 1.01, "game %d" % g, ha="center", va="bottom",
                fontsize=10, color=NEUTRAL, transform=ax.get_xaxis_transform())
    ax.set_yscale("symlog", linthresh=linear, linscale=0.6)
    # 0 a little above the bottom, so a tie's marker on it is whole
    ax.set_ylim(-linear * 0.12, top * 1.6 if alone else top)
    ax.yaxis.set_major_formatter(FuncFormatter(_ms_label))
    ax.set_ylabel("margin (ms; linear to %s, log above)" % _ms_label(linear))
    ax.set_xlabel("call")
    ax.set_xlim(0.4, max(len(calls), 1) + 0.6)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if window > 0:
        ax.axhspan(0, window, color=NEUTRAL, alpha=0.06, linewidth=0)
        ax.axhline(window, color=NEUTRAL, linewidth=0.8, linestyle=":")
        ax.text(0.5, window, "tie window", fontsize=8, color=NEUTRAL, va="bottom")
    handles = []
    for p in range(1, rec.players + 1):
        n = sum(1 for c in calls if call_kind(c) == "won" and c["winner"] == p)
        handles.append(Line2D([], [], marker="o", linestyle="", color=palette(rec.label(p)),
                              markersize=8, label="%s won (%d)" % (rec.label(p), n)))
    extra = (("tie", "X", NEUTRAL, "tie"), ("void", "o", "none", "false call (void)"),
             ("alone", "^", NEUTRAL, "won, nobody else pressed"))
    for kind, marker, face, label in extra:
        n = sum(1 for c in calls if call_kind(c) == kind)
        if n:
            handles.append(Line2D([], [], marker=marker, linestyle="", markerfacecolor=face,
                                  markeredgecolor="black" if face == "none" else face,
                                  color=face, markersize=8, label="%s (%d)" % (label, n)))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    score = "-".join(str(s) for s in rec.scores)
    ax.set_title("%s (games %s)" % (_title(rec), score), loc="left", pad=20)
    if not calls:
        ax.text(0.5, 0.5, "no calls", transform=ax.transAxes, ha="center", color=NEUTRAL)
    return fig


def stress_chart(rec, palette=None):
    return _png(stress_figure(rec, palette))


def stack31_chart(rec, palette=None):
    """Each suit pile's value after every move, the line coloured by the pile's owner."""
    palette = palette or Palette([rec])
    fig, axes = plt.subplots(4, 1, figsize=(9, 7.2), sharex=True, layout="constrained")
    moves = [0] + [m for m, _, _ in rec.piles]
    for ax, suit in zip(axes, ("H", "D", "C", "S")):
        values = [0] + [piles[suit][0] for _, _, piles in rec.piles]
        owners = [None] + [piles[suit][1] for _, _, piles in rec.piles]
        # After move i the pile stands at values[i], owned by owners[i], until move i+1:
        # one horizontal line per run of moves that left it as it was (a LineCollection
        # per panel: one artist, quick to draw however long the game).
        flat, flat_c, steps, steps_c = [], [], [], []
        i = 0
        while i < len(moves):
            j = i
            while j + 1 < len(moves) and (values[j + 1], owners[j + 1]) == (values[i], owners[i]):
                j += 1
            c = palette(rec.label(owners[i])) if owners[i] else NEUTRAL
            flat.append([(moves[i], values[i]), (moves[j] + 1, values[i])])
            flat_c.append(c)
            if i and values[i] != values[i - 1]:
                steps.append([(moves[i], values[i - 1]), (moves[i], values[i])])
                steps_c.append(c)
            i = j + 1
        ax.add_collection(LineCollection(steps, colors=steps_c, linewidths=1.2))
        ax.add_collection(LineCollection(flat, colors=flat_c, linewidths=2.4, capstyle="butt"))
        ax.axhline(31, color="black", linewidth=0.8, linestyle="--")
        ax.set_ylim(-1, 34)
        ax.set_yticks([0, 10, 20, 31])
        end = "%d, %s" % (values[-1], rec.label(owners[-1])) if owners[-1] else "%d" % values[-1]
        if values[-1] == 31:
            end += " (conquered)"
        ax.set_ylabel(SUIT_NAMES[suit], rotation=0, ha="right", va="center")
        ax.text(1.0, 0.5, " " + end, transform=ax.transAxes, va="center", fontsize=10,
                color=palette(rec.label(owners[-1])) if owners[-1] else NEUTRAL,
                fontweight="bold")
    axes[-1].set_xlabel("move")
    axes[-1].set_xlim(0, moves[-1] + 1)
    handles = [Line2D([], [], color=palette(rec.label(p)), linewidth=3,
                      label="%s (%d pile%s)" % (rec.label(p), rec.scores[p - 1],
                                                "" if rec.scores[p - 1] == 1 else "s"))
               for p in range(1, rec.players + 1)]
    handles.append(Line2D([], [], color=NEUTRAL, linewidth=3, label="nobody"))
    fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 6))
    fig.suptitle(_title(rec), x=0.01, ha="left", fontsize=13, fontweight="bold")
    return _png(fig)


CHARTS = {"stackdeck": stackdeck_chart, "stress": stress_chart, "stack31": stack31_chart}


def game_chart(rec, palette=None):
    return CHARTS[rec.game](rec, palette)


# ---------------------------------------------------------------- the season
GAME_TITLES = {"stack31": "Stack 31", "stackdeck": "Stack the Deck", "stress": "Stress"}
GAME_ORDER = ("stack31", "stackdeck", "stress")


def _games_in(lines):
    return [g for g in GAME_ORDER if any(ln.game == g for ln in lines)]


def _players(lines, palette):
    present = {ln.player for ln in lines}
    order = [n for n in palette.names() if n in present]
    return order + sorted(present - set(order))


def wins_chart(lines, palette=None, finished=None):
    """Wins per player, one group of bars per game (shared wins hatched); finished:
    {game: games that ended} for the labels (report_data.finished_games)."""
    palette = palette or Palette()
    games = _games_in(lines)
    players = _players(lines, palette)
    fig, ax = plt.subplots(figsize=(9, 4.5), layout="constrained")
    width = 0.8 / max(len(players), 1)
    for j, p in enumerate(players):
        xs, wins, shared = [], [], []
        for i, g in enumerate(games):
            ln = next((x for x in lines if x.game == g and x.player == p), None)
            if ln is None:
                continue
            xs.append(i + (j - (len(players) - 1) / 2) * width)
            wins.append(ln.wins)
            shared.append(ln.shared)
        ax.bar(xs, wins, width * 0.92, color=palette(p), label=p)
        ax.bar(xs, shared, width * 0.92, bottom=wins, color=palette(p), alpha=0.45, hatch="//",
               edgecolor="white")
        for x, w, s in zip(xs, wins, shared):
            if w + s:
                ax.text(x, w + s, "%d" % (w + s), ha="center", va="bottom", fontsize=9)
    ax.set_xticks(range(len(games)))
    ax.set_xlim(-0.5, len(games) - 0.5)
    ax.set_xticklabels(["%s\n(%d finished)" % (GAME_TITLES[g], (finished or {}).get(g, _finished(lines, g)))
                        for g in games])
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    most = max([ln.wins + ln.shared for ln in lines] + [1])
    ax.set_ylim(0, most * 1.15 + 0.15)  # room for the counts over the bars, under the title
    ax.set_ylabel("games won")
    ax.set_title("Wins per player (hatched: shared first place)", loc="left")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="x", visible=False)
    return _png(fig)


def _finished(lines, game):
    # Every finished game counts once for each of its players: at least the most any
    # one player finished (exact when somebody played them all).
    return max((ln.finished for ln in lines if ln.game == game), default=0)


def averages_chart(lines, palette=None):
    """Average score per player, one panel per game (the units differ)."""
    palette = palette or Palette()
    games = [g for g in _games_in(lines) if any(ln.finished for ln in lines if ln.game == g)]
    units = {"stack31": "piles won", "stackdeck": "points", "stress": "games won per match"}
    fig, axes = plt.subplots(1, max(len(games), 1), figsize=(9, 3.8), layout="constrained",
                             squeeze=False)
    for ax, g in zip(axes[0], games):
        rows = [ln for ln in lines if ln.game == g and ln.finished]
        xs = range(len(rows))
        vals = [ln.average for ln in rows]
        ax.bar(xs, vals, color=[palette(ln.player) for ln in rows], width=0.7)
        for x, v in zip(xs, vals):
            ax.text(x, v, ("%.1f" % v), ha="center", va="bottom" if v >= 0 else "top", fontsize=9)
        ax.set_xticks(list(xs))
        ax.set_xticklabels([ln.player for ln in rows])
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_title(GAME_TITLES[g], fontsize=12)
        ax.set_ylabel(units[g])
        ax.grid(axis="x", visible=False)
        ax.margins(y=0.15)
    if not games:
        axes[0][0].text(0.5, 0.5, "no finished game", ha="center", transform=axes[0][0].transAxes)
    fig.suptitle("Average score per finished game", x=0.01, ha="left", fontsize=13,
                 fontweight="bold")
    return _png(fig)


def histogram_edges(values_ms):
    """Bin edges for margins in ms: log-spaced, four to a decade, and a first bin from
    0 when a margin is under the first log edge (a 0.0 ms tie): the axis is linear
    there (symlog), so that bin is drawn."""
    import math
    positive = [v for v in values_ms if v > 0]
    lo = min(positive + [0.5])
    hi = max(values_ms + [100.0])
    a, b = math.floor(math.log10(max(lo, 0.01)) * 4) / 4, math.ceil(math.log10(hi) * 4) / 4
    n = max(int(round((b - a) * 4)), 1)
    edges = [10 ** (a + (b - a) * k / n) for k in range(n + 1)]
    if any(v < edges[0] for v in values_ms):
        edges.insert(0, 0.0)
    return edges


def margin_histogram_figure(margins_by_winner, ties, palette=None):
    """Every decided Stress call's margin, stacked by winner (by name), ties apart, on
    log-spaced bins (linear from 0 to the first one, where ties at 0 ms fall)."""
    palette = palette or Palette()
    fig, ax = plt.subplots(figsize=(9, 4.2), layout="constrained")
    allv = [_ms(m) for ms in margins_by_winner.values() for m in ms] + [_ms(t) for t in ties]
    edges = histogram_edges(allv)
    players = [n for n in palette.names() if n in margins_by_winner]
    players += sorted(set(margins_by_winner) - set(players))
    data = [[_ms(m) for m in margins_by_winner[p]] for p in players]
    labels = ["%s won (%d)" % (p, len(margins_by_winner[p])) for p in players]
    colours = [palette(p) for p in players]
    if ties:
        data.append([_ms(t) for t in ties])
        labels.append("tie (%d)" % len(ties))
        colours.append(NEUTRAL)
    if data:
        ax.hist(data, bins=edges, stacked=True, color=colours, label=labels, edgecolor="white")
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    else:
        ax.text(0.5, 0.5, "no decided Stress call", ha="center", transform=ax.transAxes)
    first = edges[1] if edges[0] == 0 else edges[0]
    ax.set_xscale("symlog", linthresh=first, linscale=0.5)
    ax.set_xlim(edges[0], edges[-1])
    ax.xaxis.set_major_formatter(FuncFormatter(_ms_label))
    ax.set_xlabel("margin between the first two presses (ms; log scale, linear near 0)")
    ax.set_ylabel("calls")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("Stress: how close the calls were", loc="left")
    return fig


def margin_histogram(margins_by_winner, ties, palette=None):
    return _png(margin_histogram_figure(margins_by_winner, ties, palette))
