"""The report's charts (matplotlib, Agg backend: no display needed). Each function takes
records from host_sim.report_data and returns PNG bytes.

One colour per player across every chart (P1 blue, P2 orange, ...), so a player reads
the same in the season charts and in each game's.
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


def colour(player):
    return PLAYER_COLOURS[(player - 1) % len(PLAYER_COLOURS)]


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
def stackdeck_chart(rec):
    """Running totals by round, one line per player; round 0 is the start (0 points)."""
    fig, ax = plt.subplots(figsize=(9, 4.8), layout="constrained")
    rounds = [0] + [r for r, _, _ in rec.rounds]
    ends = []
    for p in range(1, rec.players + 1):
        totals = [0] + [t[p - 1] for _, _, t in rec.rounds]
        ax.plot(rounds, totals, marker="o", linewidth=2.2, markersize=5, color=colour(p),
                label="P%d" % p)
        ends.append((totals[-1], p))
    if rec.rounds:  # the final totals at the lines' ends, moved apart where they meet
        lo, hi = ax.get_ylim()
        gap = (hi - lo) * 0.06
        placed = []
        for total, p in sorted(ends):
            y = total if not placed or total - placed[-1] >= gap else placed[-1] + gap
            placed.append(y)
            ax.text(rounds[-1], y, "P%d %d" % (p, total), va="center", color=colour(p),
                    fontweight="bold", transform=offset_copy(ax.transData, fig=fig, x=8, units="points"))
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


def stress_chart(rec):
    """The margin of every call (log scale), coloured by who won it; ties, false calls
    (voided by the table) and calls with a single press marked apart; games of the
    match separated."""
    fig, ax = plt.subplots(figsize=(9, 4.8), layout="constrained")
    calls = rec.calls
    known = [c["margin_us"] for c in calls if c["margin_us"]]
    top = max([_ms(m) for m in known] + [10.0]) * 2.2
    bottom = min([_ms(m) for m in known] + [_ms(rec.options["tie_window_us"]) or 0.5, 0.5]) / 2.2
    band = top * 1.25  # where calls without a margin go, above every real margin
    for i, call in enumerate(calls, 1):
        kind = call_kind(call)
        y = _ms(call["margin_us"]) if call["margin_us"] else band
        who = colour(call["winner"]) if call["winner"] else NEUTRAL
        if kind == "won":
            ax.scatter([i], [y], s=60, color=who, zorder=3)
        elif kind == "tie":
            ax.scatter([i], [max(y, bottom * 1.2)], s=80, marker="X", color=NEUTRAL, zorder=3)
        elif kind == "void":
            ax.scatter([i], [y], s=90, facecolors="white", edgecolors=who, linewidths=2,
                       zorder=3)
            ax.annotate("false" if not call["winner"] else "P%d false" % call["winner"], (i, y),
                        xytext=(0, 9), textcoords="offset points", ha="center", fontsize=9)
        else:  # alone: nobody else pressed, there is no margin
            ax.scatter([i], [y], s=70, marker="^", color=who, zorder=3)
    if any(not c["margin_us"] for c in calls):
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
    ax.set_yscale("log")
    ax.set_ylim(bottom, top * 1.6 if any(not c["margin_us"] for c in calls) else top)
    ax.yaxis.set_major_formatter(FuncFormatter(_ms_label))
    ax.set_ylabel("margin (ms, log scale)")
    ax.set_xlabel("call")
    ax.set_xlim(0.4, max(len(calls), 1) + 0.6)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    window = _ms(rec.options["tie_window_us"])
    if window > 0:
        ax.axhline(window, color=NEUTRAL, linewidth=0.8, linestyle=":")
        ax.text(0.5, window, "tie window", fontsize=8, color=NEUTRAL, va="bottom")
    handles = []
    for p in range(1, rec.players + 1):
        n = sum(1 for c in calls if call_kind(c) == "won" and c["winner"] == p)
        handles.append(Line2D([], [], marker="o", linestyle="", color=colour(p), markersize=8,
                              label="P%d won (%d)" % (p, n)))
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
    return _png(fig)


def stack31_chart(rec):
    """Each suit pile's value after every move, the line coloured by the pile's owner."""
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
            c = colour(owners[i]) if owners[i] else NEUTRAL
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
        end = "%d, P%d" % (values[-1], owners[-1]) if owners[-1] else "%d" % values[-1]
        if values[-1] == 31:
            end += " (conquered)"
        ax.set_ylabel(SUIT_NAMES[suit], rotation=0, ha="right", va="center")
        ax.text(1.0, 0.5, " " + end, transform=ax.transAxes, va="center", fontsize=10,
                color=colour(owners[-1]) if owners[-1] else NEUTRAL, fontweight="bold")
    axes[-1].set_xlabel("move")
    axes[-1].set_xlim(0, moves[-1] + 1)
    handles = [Line2D([], [], color=colour(p), linewidth=3,
                      label="P%d (%d pile%s)" % (p, rec.scores[p - 1], "" if rec.scores[p - 1] == 1 else "s"))
               for p in range(1, rec.players + 1)]
    handles.append(Line2D([], [], color=NEUTRAL, linewidth=3, label="nobody"))
    fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 6))
    fig.suptitle(_title(rec), x=0.01, ha="left", fontsize=13, fontweight="bold")
    return _png(fig)


CHARTS = {"stackdeck": stackdeck_chart, "stress": stress_chart, "stack31": stack31_chart}


def game_chart(rec):
    return CHARTS[rec.game](rec)


# ---------------------------------------------------------------- the season
GAME_TITLES = {"stack31": "Stack 31", "stackdeck": "Stack the Deck", "stress": "Stress"}
GAME_ORDER = ("stack31", "stackdeck", "stress")


def _games_in(lines):
    return [g for g in GAME_ORDER if any(ln.game == g for ln in lines)]


def wins_chart(lines):
    """Wins per player, one group of bars per game (shared wins hatched)."""
    games = _games_in(lines)
    players = sorted({ln.player for ln in lines})
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
        ax.bar(xs, wins, width * 0.92, color=colour(p), label="P%d" % p)
        ax.bar(xs, shared, width * 0.92, bottom=wins, color=colour(p), alpha=0.45, hatch="//",
               edgecolor="white")
        for x, w, s in zip(xs, wins, shared):
            if w + s:
                ax.text(x, w + s, "%d" % (w + s), ha="center", va="bottom", fontsize=9)
    ax.set_xticks(range(len(games)))
    ax.set_xlim(-0.5, len(games) - 0.5)
    ax.set_xticklabels(["%s\n(%d finished)" % (GAME_TITLES[g], _finished(lines, g)) for g in games])
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.margins(y=0.1)
    ax.set_ylabel("games won")
    ax.set_title("Wins per player (hatched: shared first place)", loc="left")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="x", visible=False)
    return _png(fig)


def _finished(lines, game):
    # Every finished game counts once for each of its players; P1 plays in every game.
    return max((ln.finished for ln in lines if ln.game == game and ln.player == 1), default=0)


def averages_chart(lines):
    """Average score per player, one panel per game (the units differ)."""
    games = [g for g in _games_in(lines) if any(ln.finished for ln in lines if ln.game == g)]
    units = {"stack31": "piles won", "stackdeck": "points", "stress": "games won per match"}
    fig, axes = plt.subplots(1, max(len(games), 1), figsize=(9, 3.8), layout="constrained",
                             squeeze=False)
    for ax, g in zip(axes[0], games):
        rows = [ln for ln in lines if ln.game == g and ln.finished]
        xs = range(len(rows))
        vals = [ln.average for ln in rows]
        ax.bar(xs, vals, color=[colour(ln.player) for ln in rows], width=0.7)
        for x, v in zip(xs, vals):
            ax.text(x, v, ("%.1f" % v), ha="center", va="bottom" if v >= 0 else "top", fontsize=9)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(["P%d" % ln.player for ln in rows])
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


def margin_histogram(margins_by_winner, ties):
    """Every decided Stress call's margin, stacked by winner, on log-spaced bins."""
    import math
    fig, ax = plt.subplots(figsize=(9, 4.2), layout="constrained")
    allv = [_ms(m) for ms in margins_by_winner.values() for m in ms] + [_ms(t) for t in ties]
    lo = min(allv + [0.5])
    hi = max(allv + [100.0])
    a, b = math.floor(math.log10(max(lo, 0.01)) * 4) / 4, math.ceil(math.log10(hi) * 4) / 4
    n = max(int(round((b - a) * 4)), 1)
    edges = [10 ** (a + (b - a) * k / n) for k in range(n + 1)]
    players = sorted(margins_by_winner)
    data = [[_ms(m) for m in margins_by_winner[p]] for p in players]
    labels = ["P%d won (%d)" % (p, len(margins_by_winner[p])) for p in players]
    colours = [colour(p) for p in players]
    if ties:
        data.append([_ms(t) for t in ties])
        labels.append("tie (%d)" % len(ties))
        colours.append(NEUTRAL)
    if data:
        ax.hist(data, bins=edges, stacked=True, color=colours, label=labels, edgecolor="white")
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    else:
        ax.text(0.5, 0.5, "no decided Stress call", ha="center", transform=ax.transAxes)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(_ms_label))
    ax.set_xlabel("margin between the first two presses (ms, log scale)")
    ax.set_ylabel("calls")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("Stress: how close the calls were", loc="left")
    return _png(fig)
