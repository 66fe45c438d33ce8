"""`python -m host_sim report FILE_OR_FOLDER... --out DIR`: the evening's record as charts.

Every file (a transcript or a journal pulled from a board with tools/pull; a folder is
searched for *.txt, its archive/index.txt left aside) is replayed with the core, and DIR
receives:

    report.html           one self-contained page (charts embedded, no outside links):
                          the season (wins per player, average scores, the Stress margin
                          histogram, the tables), then every game with its chart
    season-*.png          the season's charts
    game-NAME.png         one chart per game: Stack the Deck the running totals by round,
                          Stress the margin of every call, Stack 31 the piles' values and
                          owners move by move
    games.csv             one row per file: game, players and their names, result,
                          scores, status
    scores.csv            one row per player per game: seat, name, score, winner
    season.csv            one row per game and player (by name): games, wins, average
                          score, calls
    stackdeck_rounds.csv  every round: points and running total per player
    stress_calls.csv      every call: winner, margin, tie, false call, who took the stacks
    stack31_piles.csv     every move: the four piles' values and owners after it

Players are named as the journal's header names them (`#@names [...]`, core.names), so a
game keeps the names it was played with; a transcript without them says P1, P2, ...
The same name in several games is one player in the season's tables and charts.

A file that does not replay (unreadable, no header, a bad or damaged line) is named on
standard error and in the page with the reason; the others are still reported. Exit
status 0, or 2 when any file failed (or for a usage error). Two files holding the same
game (the game in play and its archived copy) count once.
"""

import argparse
import base64
import csv
import html
import os
import re
import sys
import time

from host_sim import report_data as rd

SKIP_IN_FOLDERS = ("index.txt",)  # the archive's index on the board: not a game
IN_PLAY = "game.txt"  # the board's journal: the game in play
GAME_TITLES = {"stack31": "Stack 31", "stackdeck": "Stack the Deck", "stress": "Stress"}


class Entry:
    """One input file and what became of it."""

    def __init__(self, path, name):
        self.path, self.name = path, name
        self.record = None
        self.error = None  # why it failed
        self.duplicate_of = None  # the name of the file with the same game
        self.slug = None
        self.png = None  # chart bytes

    def result(self):
        """The result as the page shows it: the game in play says so."""
        text = rd.describe_result(self.record)
        if not self.record.over and os.path.basename(self.path) == IN_PLAY:
            return "in play"
        return text

    @property
    def status(self):
        if self.error:
            return "failed: " + self.error
        if self.duplicate_of:
            return "same game as " + self.duplicate_of
        if self.record and self.record.warnings:
            return "ok; " + "; ".join(self.record.warnings)
        return "ok"


# ---------------------------------------------------------------- inputs
def collect(paths):
    """-> (entries, problems): the files to read, in order; inputs that are no file."""
    entries, problems = [], []
    for arg in paths:
        if os.path.isdir(arg):
            found = []
            for dirpath, dirnames, filenames in os.walk(arg):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                for fn in sorted(filenames):
                    if fn.endswith(".txt") and fn not in SKIP_IN_FOLDERS and not fn.startswith("."):
                        full = os.path.join(dirpath, fn)
                        found.append((full, os.path.relpath(full, arg).replace(os.sep, "/")))
            found.sort(key=lambda f: f[1])  # archive/00001.txt ... before game.txt
            if not found:
                problems.append((arg, "no game files (*.txt) in this folder"))
            prefix = "" if len(paths) == 1 else os.path.basename(os.path.normpath(arg)) + "/"
            entries.extend(Entry(full, prefix + rel) for full, rel in found)
        elif os.path.exists(arg):
            entries.append(Entry(arg, os.path.basename(arg)))
        else:
            problems.append((arg, "no such file or folder"))
    seen = set()
    for e in entries:  # names must stay unique (they name the charts)
        if e.name in seen:
            e.name = os.path.normpath(e.path)
        seen.add(e.name)
    return entries, problems


def _slug(name, used):
    base = re.sub(r"\.txt$", "", name)
    base = re.sub(r"[^A-Za-z0-9]+", "-", base).strip("-") or "game"
    slug, n = base, 1
    while slug in used:
        n += 1
        slug = "%s-%d" % (base, n)
    used.add(slug)
    return slug


# ---------------------------------------------------------------- tables
def _ms(us):
    return "" if us is None else "%.3f" % (us / 1000.0)


def _cell(v):
    return "" if v is None else v


def games_rows(entries):
    yield ("file", "game", "players", "names", "over", "result", "winners", "score_kind",
           "scores", "moves", "notes", "status")
    for e in entries:
        r = e.record
        if r is None:
            yield (e.name, "", "", "", "", "", "", "", "", "", "", e.status)
            continue
        yield (e.name, r.game, r.players, " | ".join(r.names), int(r.over), rd.describe_result(r),
               " ".join(r.label(w) for w in r.winners), rd.SCORE_WORD[r.game],
               " ".join(str(s) for s in r.scores), r.moves, " | ".join(r.notes), e.status)


def scores_rows(records):
    yield ("file", "game", "player", "name", "score", "score_kind", "over", "winner")
    for r in records:
        for p in range(1, r.players + 1):
            yield (r.name, r.game, p, r.label(p), r.scores[p - 1], rd.SCORE_WORD[r.game],
                   int(r.over), int(p in r.winners))


def season_rows(lines):
    yield ("game", "player", "games", "finished", "wins", "shared_wins", "average_score",
           "score_kind", "calls_won", "calls_tied", "calls_took", "false_calls",
           "median_margin_us", "mean_margin_us")
    for ln in lines:
        if ln.game == "stress":
            median, mean = ln.median_margin_us, ln.mean_margin_us
            calls = (ln.calls_won, ln.calls_tied, ln.calls_took, ln.calls_false,
                     "" if median is None else "%g" % median, "" if mean is None else "%.2f" % mean)
        else:
            calls = ("",) * 6
        yield (ln.game, ln.player, ln.played, ln.finished, ln.wins, ln.shared,
               "" if ln.average is None else "%.2f" % ln.average, rd.SCORE_WORD[ln.game]) + calls


def rounds_rows(records):
    yield ("file", "round", "player", "name", "points", "total")
    for r in records:
        for number, points, totals in r.rounds:
            for p in range(1, r.players + 1):
                yield (r.name, number, p, r.label(p), points[p - 1], totals[p - 1])


def calls_rows(records):
    yield ("file", "call", "game_no", "winner", "winner_name", "margin_us", "margin_ms", "kind",
           "tie", "false_call", "loser", "on_stress", "ruling", "final")
    for r in records:
        for i, c in enumerate(r.calls, 1):
            kind = rd.call_kind(c)
            yield (r.name, i, c["game_no"], _cell(c["winner"]),
                   r.label(c["winner"]) if c["winner"] else "", _cell(c["margin_us"]),
                   _ms(c["margin_us"]), kind, int(c["tie"]), int(kind == "void"),
                   _cell(c["loser"]), int(c["on_stress"]), c.get("ruling", ""), int(c["final"]))


def piles_rows(records):
    head = ["file", "move", "action"]
    for s in "HDCS":
        head += [s + "_value", s + "_owner"]
    yield tuple(head)
    for r in records:
        for move, line, piles in r.piles:
            row = [r.name, move, line]
            for s in "HDCS":
                row += [piles[s][0], _cell(piles[s][1])]
            yield tuple(row)


def write_csv(path, rows):
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)


# ---------------------------------------------------------------- the page
CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:980px;
color:#222;padding:0 1em}
h1{margin-bottom:.2em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:2em}
h3{margin-bottom:.3em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.92em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td.l,th.l{text-align:left}
img{max-width:100%;height:auto;display:block;margin:.5em 0}
.bad{color:#a00;font-weight:bold}.note{color:#555;font-style:italic}.muted{color:#777}
section.game{border-top:1px solid #eee;padding-top:.5em}
"""


def _img(png, alt):
    return '<img alt="%s" src="data:image/png;base64,%s">' % (
        html.escape(alt), base64.b64encode(png).decode("ascii"))


def _table(rows, left=()):
    rows = list(rows)
    out = ["<table><tr>"]
    out += ['<th class="l">%s</th>' % html.escape(str(h)) if i in left else
            "<th>%s</th>" % html.escape(str(h)) for i, h in enumerate(rows[0])]
    out.append("</tr>")
    for row in rows[1:]:
        out.append("<tr>")
        out += ['<td class="l">%s</td>' % html.escape(str(v)) if i in left else
                "<td>%s</td>" % html.escape(str(v)) for i, v in enumerate(row)]
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def _game_table(r):
    if r.game == "stackdeck":
        head = ["round"] + [r.label(p) for p in range(1, r.players + 1)]
        rows = [head]
        for number, points, totals in r.rounds:
            rows.append([number] + ["%+d = %d" % (pt, t) for pt, t in zip(points, totals)])
        return _table(rows) if r.rounds else ""
    if r.game == "stress":
        rows = [["call", "game", "winner", "margin (ms)", "", "took the stacks"]]
        for i, c in enumerate(r.calls, 1):
            kind = rd.call_kind(c)
            what = {"won": "", "tie": "tie", "void": "false call (void)",
                    "alone": "nobody else pressed"}[kind]
            if c.get("ruling", "").endswith("takes"):
                what = "table ruled: " + c["ruling"]
            rows.append([i, c["game_no"], r.label(c["winner"]) if c["winner"] else "-",
                         _ms(c["margin_us"]) or "-", what,
                         r.label(c["loser"]) if c["loser"] else "nobody"])
        return _table(rows, left=(4,)) if r.calls else "<p class=muted>No calls.</p>"
    rows = [["pile", "value", "owner"]]
    last = r.piles[-1][2] if r.piles else {s: (0, None) for s in "HDCS"}
    for s in "HDCS":
        value, owner = last[s]
        rows.append([s, "%d%s" % (value, " (conquered)" if value == 31 else ""),
                     r.label(owner) if owner else "-"])
    return _table(rows)


def page(entries, problems, season_pngs, lines, elapsed):
    good = [e for e in entries if e.record and not e.duplicate_of]
    failed = [e for e in entries if e.error]
    out = ["<!DOCTYPE html><html lang=en><head><meta charset=utf-8>",
           "<title>Game report</title><style>%s</style></head><body>" % CSS,
           "<h1>Game report</h1>"]
    counts = {}
    for e in good:
        counts[e.record.title] = counts.get(e.record.title, 0) + 1
    summary = ", ".join("%d %s" % (n, t) for t, n in sorted(counts.items())) or "no game"
    out.append("<p>%d files: %s%s.</p>" % (
        len(entries), html.escape(summary),
        "; <span class=bad>%d failed</span>" % (len(failed) + len(problems))
        if failed or problems else ""))
    if failed or problems:
        out.append("<h2>Files that could not be reported</h2><ul>")
        for name, why in problems:
            out.append("<li class=bad>%s: %s</li>" % (html.escape(name), html.escape(why)))
        for e in failed:
            out.append("<li class=bad>%s: %s</li>" % (html.escape(e.name), html.escape(e.error)))
        out.append("</ul>")
    out.append("<h2>Season</h2>")
    for title, png in season_pngs:
        out.append(_img(png, title))
    if lines:
        rows = [["game", "player", "games", "finished", "wins", "shared wins", "average",
                 "score", "calls won", "tied", "took the stacks", "false calls",
                 "median margin (ms)", "mean margin (ms)"]]
        for row in list(season_rows(lines))[1:]:
            row = list(row)
            row[0] = GAME_TITLES.get(row[0], row[0])
            for i in (12, 13):  # us in the CSV, ms on the page
                row[i] = "%.1f" % (float(row[i]) / 1000) if row[i] != "" else ""
            rows.append(row)
        out.append(_table(rows, left=(0, 7)))
    out.append("<h2>Games</h2>")
    rows = [["file", "game", "players", "notes", "result", "scores"]]
    for e in entries:
        r = e.record
        if r is None:
            continue
        name = '<a href="#%s">%s</a>' % (e.slug, html.escape(e.name)) if e.slug else html.escape(e.name)
        rows.append([name, html.escape(r.title), html.escape(", ".join(r.names)),
                     html.escape("; ".join(r.notes)),
                     html.escape(e.result() if not e.duplicate_of else e.status),
                     html.escape(" ".join(str(s) for s in r.scores) + " " + rd.SCORE_WORD[r.game])])
    if len(rows) > 1:
        # These cells carry escaped text and an anchor already: no _table().
        table = ["<table><tr>"] + ["<th class=l>%s</th>" % h for h in rows[0]] + ["</tr>"]
        for row in rows[1:]:
            table += ["<tr>"] + ["<td class=l>%s</td>" % v for v in row] + ["</tr>"]
        out.append("".join(table) + "</table>")
    for e in good:
        r = e.record
        out.append('<section class=game id="%s"><h3>%s</h3>' % (e.slug, html.escape(e.name)))
        out.append("<p>%s, %d players (%s), %s; %d moves.</p>" % (
            html.escape(r.title), r.players, html.escape(", ".join(r.names)),
            html.escape(e.result()), r.moves))
        for note in r.notes:
            out.append("<p class=note>%s</p>" % html.escape(note))
        for warning in r.warnings:
            out.append("<p class=bad>%s</p>" % html.escape(warning))
        out.append(_img(e.png, "%s chart" % e.name))
        out.append(_game_table(r))
        out.append("</section>")
    out.append("<p class=muted>Made by python -m host_sim report in %.1f s; every number is "
               "the replayed games' own state (core.transcript.replay). Tables as CSV "
               "beside this page.</p></body></html>\n" % elapsed)
    return "\n".join(out)


# ---------------------------------------------------------------- main
def main(argv, stdout=None, stderr=None):
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    ap = argparse.ArgumentParser(prog="python -m host_sim report",
                                 description="Charts and tables of played games (transcripts "
                                             "or journals, e.g. a folder pulled with tools/pull).")
    ap.add_argument("inputs", nargs="+", metavar="FILE_OR_FOLDER")
    ap.add_argument("--out", required=True, metavar="DIR", help="where the report goes (made if missing)")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    t0 = time.monotonic()
    from host_sim import report_charts as charts  # matplotlib loads only when reporting

    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        stderr.write("report: cannot make %s: %s\n" % (args.out, e.strerror or e))
        return 2
    entries, problems = collect(args.inputs)
    for name, why in problems:
        stderr.write("report: %s: %s\n" % (name, why))
    seen = {}
    used = set()
    palette = charts.Palette()
    for e in entries:
        try:
            e.record = rd.load(e.path, e.name)
        except rd.BadFile as err:
            e.error = str(err)
            stderr.write("report: %s: %s\n" % (e.name, e.error))
            continue
        for warning in e.record.warnings:
            stderr.write("report: %s: %s\n" % (e.name, warning))
        first = seen.get(e.record.key)
        if first is not None:
            e.duplicate_of = first
            continue
        seen[e.record.key] = e.name
        e.slug = _slug(e.name, used)
        palette.seat(e.record)
        e.png = charts.game_chart(e.record, palette)
        with open(os.path.join(args.out, "game-%s.png" % e.slug), "wb") as f:
            f.write(e.png)
    records = [e.record for e in entries if e.record and not e.duplicate_of]
    lines = rd.season(records)
    season_pngs = []
    if records:
        season_pngs.append(("season-wins", charts.wins_chart(lines, palette,
                                                             rd.finished_games(records))))
        season_pngs.append(("season-averages", charts.averages_chart(lines, palette)))
    if any(r.game == "stress" for r in records):
        season_pngs.append(("season-stress-margins",
                            charts.margin_histogram(rd.stress_margins(records),
                                                    rd.tie_margins(records), palette)))
    for name, png in season_pngs:
        with open(os.path.join(args.out, name + ".png"), "wb") as f:
            f.write(png)
    write_csv(os.path.join(args.out, "games.csv"), games_rows(entries))
    write_csv(os.path.join(args.out, "scores.csv"), scores_rows(records))
    write_csv(os.path.join(args.out, "season.csv"), season_rows(lines))
    write_csv(os.path.join(args.out, "stackdeck_rounds.csv"), rounds_rows(records))
    write_csv(os.path.join(args.out, "stress_calls.csv"), calls_rows(records))
    write_csv(os.path.join(args.out, "stack31_piles.csv"), piles_rows(records))
    elapsed = time.monotonic() - t0
    out_html = os.path.join(args.out, "report.html")
    with open(out_html, "w", encoding="utf-8") as f:
        f.write(page(entries, problems, season_pngs, lines, elapsed))
    failed = sum(1 for e in entries if e.error) + len(problems)
    dups = sum(1 for e in entries if e.duplicate_of)
    stdout.write("report: %d game%s%s%s -> %s in %.1f s\n" % (
        len(records), "" if len(records) == 1 else "s", ", %d failed" % failed if failed else "",
        ", %d file%s with a game already counted" % (dups, "" if dups == 1 else "s") if dups else "",
        out_html, elapsed))
    return 2 if failed else 0
