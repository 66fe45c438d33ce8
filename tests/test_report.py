"""`python -m host_sim report`: its numbers are the core's replayed state, its page is
self-contained, its charts are real pictures, and a bad file does not stop the rest.

The folder reported here is laid out as tools/pull leaves it (archive/00001.txt, ...,
archive/index.txt, game.txt) and holds known games: full Stack the Deck matches, Stress
matches played by core.stress.sim (whose truth the calls must match), a Stress journal
with checksums, header notes, a false call, a tie and a call with one press, Stack 31
games from tests/transcripts, the game in play (a copy of an archived game: counted
once), and three damaged files.
"""

import base64
import csv
import io
import os
import statistics
import subprocess
import sys
from html.parser import HTMLParser

import pytest
from PIL import Image

from core.notation import tokenize
from core.stress.sim import Match
from core.transcript import replay
from firmware.journal import checkpoint_bytes, seal, void_bytes
from host_sim import report

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRANSCRIPTS = os.path.join(ROOT, "tests", "transcripts")

STRESS_RULINGS = """game stress players 2
centre 8C 3D
start
@1000000 P1 down
@1000900 P2 down
@1100000 P1 up
@1100000 P2 up
void
resume
@2000000 P2 down
@2100000 P2 up
resume
P1 play 9S 1
P2 play 4D 2
@3000000 P1 down
@3000200 P2 down
@3100000 P1 up
@3100000 P2 up
P2 takes
resume
P1 out"""

SEEDS = (4, 7, 11)


def _journal(text, notes=(), checkpoint_after=None):
    """A transcript as the device's journal (firmware.journal) writes it: every line
    sealed with its CRC, free-text notes after the header as sealed comments, a void
    (an undone action), a checkpoint block after `checkpoint_after` actions, filler."""
    lines = [ln for ln in (tokenize_line(x) for x in text.splitlines()) if ln]
    out = [seal(lines[0])] + [seal("# " + n) for n in notes]
    for i, line in enumerate(lines[1:], 1):
        out.append(seal(line))
        if i == 2:
            out.append(void_bytes(len(seal("P1 draw")) + 1).decode().rstrip("\n"))
            out.append("#" * 12)  # filler: a torn write made harmless
        if i == checkpoint_after:
            game = state_of("\n".join(lines[:i + 1]))
            out += checkpoint_bytes(game.checkpoint(), i).decode().splitlines()
    return "\n".join(out) + "\n"


def tokenize_line(line):
    return " ".join(tokenize(line))


def _read(name):
    with open(os.path.join(TRANSCRIPTS, name)) as f:
        return f.read()


def _write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, mode) as f:
        f.write(text)


def make_folder(folder):
    """-> {name in the report: transcript text} of the good games (game.txt excluded)."""
    games = {}
    texts = [_read("stackdeck_full_match_2p.txt"), _read("stackdeck_tie_4p.txt"),
             _read("stack31_long_3p.txt"), _read("stack31_long_5p.txt"),
             _read("stack31_dq_ends_game.txt")]
    texts += ["\n".join(Match(seed, games=2).lines) + "\n" for seed in SEEDS]
    texts.append(_journal(STRESS_RULINGS, ("date 2026-12-01", "table Friday club"), 8))
    # A match still open, its journal's last entry torn by a power cut: left out, as the
    # device does, with a warning; the file still counts.
    texts.append(_journal(_read("stackdeck_contract_example.txt"), (), 3))
    for i, text in enumerate(texts, 1):
        name = "archive/%05d.txt" % i
        _write(os.path.join(folder, name), text + ("P2 turned 4" if i == len(texts) else ""))
        games[name] = text
    # The game in play is the same game as archive/00001.txt: counted once.
    _write(os.path.join(folder, "game.txt"), texts[0])
    _write(os.path.join(folder, "archive", "index.txt"), "1 stackdeck\n2 stackdeck\n")
    # Damage: a line whose checksum fails, bytes that are not text, an illegal line.
    sealed = _journal(_read("stack31_long_3p.txt")).replace("play 4D", "play 5D", 1)
    assert "play 5D" in sealed
    _write(os.path.join(folder, "archive", "00090.txt"), sealed)
    _write(os.path.join(folder, "archive", "00091.txt"), b"game stack31 players 2\n\xff\xfe\n", "wb")
    _write(os.path.join(folder, "archive", "00092.txt"), "game stack31 players 2\nP1 draw\nP1 draw\n")
    return games


BAD = {"archive/00090.txt": "checksum", "archive/00091.txt": "not text",
       "archive/00092.txt": "line 3: not P1's turn"}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("games"))
    out = str(tmp_path_factory.mktemp("report"))
    games = make_folder(folder)
    stdout, stderr = io.StringIO(), io.StringIO()
    code = report.main([folder, "--out", out], stdout=stdout, stderr=stderr)
    return {"games": games, "out": out, "code": code, "stdout": stdout.getvalue(),
            "stderr": stderr.getvalue(), "folder": folder}


def rows(run, name):
    with open(os.path.join(run["out"], name), newline="") as f:
        return list(csv.DictReader(f))


def state_of(text):
    game, error = replay(text.splitlines())
    assert error is None
    return game


def games_of(run, kind):
    return {n: t for n, t in run["games"].items() if state_of(t).NAME == kind}


# ---------------------------------------------------------------- the numbers
def test_stack_the_deck_rounds_and_totals_are_the_cores(run):
    table = rows(run, "stackdeck_rounds.csv")
    matches = games_of(run, "stackdeck")
    assert len(matches) == 3
    for name, text in matches.items():
        state = state_of(text).state()
        mine = [r for r in table if r["file"] == name]
        assert len(mine) == state["rounds_played"] * state["players"]
        running = [0] * state["players"]
        for r in mine:
            rnd, p = int(r["round"]), int(r["player"])
            assert int(r["points"]) == state["rounds"][rnd - 1][p - 1]
            running[p - 1] += int(r["points"])
            assert int(r["total"]) == running[p - 1]
        assert running == state["totals"]
    # The running totals after each round, also from the core: the transcript cut
    # after that round's `end` line.
    text = matches["archive/00001.txt"]
    lines = text.splitlines()
    ends = [i for i, ln in enumerate(lines) if tokenize(ln) == ["end"]]
    for rnd, cut in enumerate(ends, 1):
        totals = state_of("\n".join(lines[:cut + 1])).state()["totals"]
        got = [int(r["total"]) for r in table if r["file"] == "archive/00001.txt" and int(r["round"]) == rnd]
        assert got == totals


def test_stress_calls_are_the_cores_and_the_simulations_truth(run):
    table = rows(run, "stress_calls.csv")
    matches = games_of(run, "stress")
    assert len(matches) == len(SEEDS) + 1
    for name, text in matches.items():
        calls = state_of(text).state()["calls"]
        mine = [r for r in table if r["file"] == name]
        assert len(mine) == len(calls)
        for r, c in zip(mine, calls):
            assert (r["winner"], r["margin_us"], r["loser"], r["game_no"]) == (
                "" if c["winner"] is None else str(c["winner"]),
                "" if c["margin_us"] is None else str(c["margin_us"]),
                "" if c["loser"] is None else str(c["loser"]), str(c["game_no"]))
            assert r["tie"] == str(int(c["tie"])) and r["ruling"] == c.get("ruling", "")
    for i, seed in enumerate(SEEDS):
        truth = Match(seed, games=2).truth
        mine = [r for r in table if r["file"] == "archive/%05d.txt" % (6 + i)]
        got = [(int(r["winner"]) if r["winner"] else None, r["tie"] == "1",
                int(r["margin_us"]) if r["margin_us"] else None, int(r["loser"]) if r["loser"] else None)
               for r in mine]
        assert got == truth.calls
    # The journal with rulings: a false call, a call nobody else pressed, a tie the
    # table gave to P2.
    mine = [r for r in table if r["file"] == "archive/00009.txt"]
    assert [r["kind"] for r in mine] == ["void", "alone", "tie"]
    assert [r["false_call"] for r in mine] == ["1", "0", "0"]
    assert mine[1]["margin_us"] == "" and mine[2]["ruling"] == "P2 takes" and mine[2]["loser"] == "2"


def test_stack31_piles_after_every_move_are_the_cores(run):
    table = rows(run, "stack31_piles.csv")
    games = games_of(run, "stack31")
    assert len(games) == 3
    for name, text in games.items():
        lines = text.splitlines()
        actions = [i for i, ln in enumerate(lines) if tokenize(ln) and tokenize(ln)[0].lower() != "game"]
        mine = [r for r in table if r["file"] == name]
        assert [int(r["move"]) for r in mine] == list(range(1, len(actions) + 1))
        for r, cut in zip(mine, actions):
            piles = state_of("\n".join(lines[:cut + 1])).state()["piles"]
            for s in "HDCS":
                assert int(r[s + "_value"]) == piles[s]["value"]
                assert r[s + "_owner"] == ("" if piles[s]["owner"] is None else str(piles[s]["owner"]))


def test_scores_and_the_season_are_the_cores(run):
    good = {n: state_of(t) for n, t in run["games"].items()}
    scores = rows(run, "scores.csv")
    assert {r["file"] for r in scores} == set(good)
    expected = {}  # (game, player) -> [games, finished, wins, shared, score sum]
    for name, game in good.items():
        s = game.state()
        if game.NAME == "stress":
            over, winners, score = s["match_over"], [s["match_winner"]] if s["match_winner"] else [], s["games_won"]
        else:
            over, winners = s["over"], s["winners"]
            score = s["piles_won"] if game.NAME == "stack31" else s["totals"]
        for p in range(1, game.players + 1):
            row = next(r for r in scores if r["file"] == name and r["player"] == str(p))
            assert int(row["score"]) == score[p - 1]
            assert row["winner"] == str(int(over and p in winners))
            e = expected.setdefault((game.NAME, "P%d" % p), [0, 0, 0, 0, 0])
            e[0] += 1
            if over:
                e[1] += 1
                e[4] += score[p - 1]
                if p in winners:
                    e[2 if len(winners) == 1 else 3] += 1
    season = rows(run, "season.csv")
    assert len(season) == len(expected)
    for r in season:
        games, finished, wins, shared, total = expected[(r["game"], r["player"])]
        assert (int(r["games"]), int(r["finished"]), int(r["wins"]), int(r["shared_wins"])) == (
            games, finished, wins, shared)
        if finished:
            assert float(r["average_score"]) == pytest.approx(total / finished, abs=0.005)
    # Stress: the calls per player are the core's own count (call_stats), the margins the
    # calls'.
    for p in (1, 2):
        r = next(x for x in season if x["game"] == "stress" and x["player"] == "P%d" % p)
        stats = [g.call_stats() for g in good.values() if g.NAME == "stress"]
        assert int(r["calls_won"]) == sum(st["won"][p - 1] for st in stats)
        assert int(r["calls_tied"]) == sum(st["tied"][p - 1] for st in stats)
        assert int(r["false_calls"]) == sum(st["false"][p - 1] for st in stats)
        margins = [c["margin_us"] for g in good.values() if g.NAME == "stress"
                   for c in g.state()["calls"]
                   if c["winner"] == p and not c["tie"] and c["margin_us"] is not None
                   and c.get("ruling") != "void"]
        assert float(r["median_margin_us"]) == statistics.median(margins)
        mean = sum(st["margin_sum_us"][p - 1] for st in stats) / sum(st["margins"][p - 1] for st in stats)
        assert float(r["mean_margin_us"]) == pytest.approx(mean, abs=0.0051)
    assert next(x for x in season if x["game"] == "stress" and x["player"] == "P1")["false_calls"] == "1"


def test_games_csv_names_every_file_once_with_its_status(run):
    table = {r["file"]: r for r in rows(run, "games.csv")}
    assert set(table) == set(run["games"]) | set(BAD) | {"game.txt"}  # index.txt left aside
    assert table["game.txt"]["status"] == "same game as archive/00001.txt"
    for name, why in BAD.items():
        assert table[name]["status"].startswith("failed: ") and why in table[name]["status"]
    assert table["archive/00009.txt"]["notes"] == "date 2026-12-01 | table Friday club"
    assert table["archive/00001.txt"]["result"] == "P1 won"
    assert table["archive/00002.txt"]["result"] == "tie: P2, P4"
    assert table["archive/00010.txt"]["over"] == "0"
    assert table["archive/00010.txt"]["status"] == "ok; line %d: a torn last entry, left out as the device does" % (
        run["games"]["archive/00010.txt"].count("\n") + 1)


# ---------------------------------------------------------------- failures
def test_a_damaged_file_is_reported_and_the_rest_still_is(run):
    assert run["code"] == 2
    for name, why in BAD.items():
        line = next(ln for ln in run["stderr"].splitlines() if name in ln)
        assert why in line
    assert len(run["stderr"].splitlines()) == len(BAD) + 1  # and the torn entry's warning
    assert "%d games, %d failed" % (len(run["games"]), len(BAD)) in run["stdout"]
    page = open(os.path.join(run["out"], "report.html"), encoding="utf-8").read()
    assert "Files that could not be reported" in page
    for name in BAD:
        assert name in page
    for name in run["games"]:
        assert 'id="%s"' % report._slug(name, set()) in page


def test_the_command_line_exit_status_and_a_missing_input(tmp_path):
    good = tmp_path / "one.txt"
    good.write_text(_read("stackdeck_full_match_2p.txt"))
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "host_sim", "report", str(good), "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stderr == "" and "report: 1 game ->" in r.stdout
    assert (out / "report.html").is_file() and (out / "game-one.png").is_file()
    r = subprocess.run([sys.executable, "-m", "host_sim", "report", str(good), str(tmp_path / "nope"),
                        "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "nope: no such file or folder" in r.stderr
    r = subprocess.run([sys.executable, "-m", "host_sim", "report", str(good)], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--out" in r.stderr


# ---------------------------------------------------------------- page and pictures
class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.tags, self.images = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in ("src", "href", "srcset", "action", "data", "poster"):
                self.refs.append(v or "")
            if tag == "img" and k == "src":
                self.images.append(v)


def test_the_page_is_self_contained(run):
    page = open(os.path.join(run["out"], "report.html"), encoding="utf-8").read()
    parser = _Refs()
    parser.feed(page)
    assert parser.refs
    for ref in parser.refs:
        assert ref.startswith("data:image/png;base64,") or ref.startswith("#"), ref[:80]
    assert "script" not in parser.tags and "link" not in parser.tags and "iframe" not in parser.tags
    assert "url(" not in page and "@import" not in page
    # One chart per good game and three season charts, each a real PNG.
    assert len(parser.images) == len(run["games"]) + 3
    for src in parser.images:
        Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))).verify()
    assert "date 2026-12-01" in page and "table Friday club" in page


def test_the_charts_are_real_pictures(run):
    names = [n for n in os.listdir(run["out"]) if n.endswith(".png")]
    assert sorted(n for n in names if n.startswith("season-")) == [
        "season-averages.png", "season-stress-margins.png", "season-wins.png"]
    assert len([n for n in names if n.startswith("game-")]) == len(run["games"])
    for name in names:
        path = os.path.join(run["out"], name)
        assert os.path.getsize(path) > 10000, name
        img = Image.open(path).convert("RGB")
        assert img.width >= 800 and img.height >= 350, name
        colours = img.getcolors(maxcolors=1 << 20)
        assert len(colours) > 50, name  # lines, text and several player colours
        # Not a blank page: a good share of the pixels is not the white background.
        white = sum(n for n, c in colours if c == (255, 255, 255))
        assert white < 0.97 * img.width * img.height, name


# ---------------------------------------------------------------- ties and names
TIES = """game stress players 2
#@names ["ANN","BOB"]
centre 8C 3D
start
@1000000 P1 down
@1000000 P2 down
@1100000 P1 up
@1100000 P2 up
P2 takes
resume
@2000000 P2 down
@2100000 P2 up
resume
P1 play 9S 1
P2 play 4D 2
@3000000 P1 down
@3000200 P2 down
@3100000 P1 up
@3100000 P2 up
P2 takes
resume
@4000000 P1 down
@4012000 P2 down
@4100000 P1 up
@4100000 P2 up
OK
"""


def _load_text(tmp_path, name, text):
    from host_sim import report_data as rd
    path = tmp_path / name
    path.write_text(text)
    return rd.load(str(path), name)


def test_a_tie_at_0_ms_is_drawn_on_the_axis_and_never_in_the_no_second_press_band(tmp_path):
    """The same stamp on two presses is a 0.0 ms tie: on a log axis it had no place and
    was drawn with the calls nobody else pressed. The axis is linear from 0 to the tie
    window: the tie sits on 0, inside the plot, under the window; the band is only for
    the call with one press."""
    from host_sim import report_charts as charts
    rec = _load_text(tmp_path, "ties.txt", TIES.replace("OK\n", ""))
    kinds = [(charts.call_kind(c), c["margin_us"]) for c in rec.calls]
    assert kinds == [("tie", 0), ("alone", None), ("tie", 200), ("won", 12000)]
    fig = charts.stress_figure(rec)
    ax = fig.axes[0]
    fig.canvas.draw()
    drawn = {}  # call number -> (y in data, y on the canvas)
    for coll in ax.collections:
        for x, y in coll.get_offsets():
            drawn[int(round(x))] = (float(y), ax.transData.transform((x, y))[1])
    assert sorted(drawn) == [1, 2, 3, 4]  # every call has its marker
    bottom, top = ax.get_ylim()
    box = ax.get_window_extent()
    window_px = ax.transData.transform((1, 0.5))[1]
    band_px = ax.transData.transform((1, charts.stress_points(rec)[1]))[1]  # where the band begins
    for call in (1, 3):  # the ties: at their margin, on the canvas, under the window
        y, px = drawn[call]
        assert y == rec.calls[call - 1]["margin_us"] / 1000.0
        assert bottom < y < top and box.y0 < px < window_px
    assert drawn[1][1] < drawn[3][1] < window_px  # 0 under 0.2 ms: the axis is linear there
    assert drawn[2][1] > band_px  # the call with one press: in the band
    assert all(drawn[c][1] < band_px for c in (1, 3, 4))
    import matplotlib.pyplot as plt
    plt.close(fig)


def test_the_margin_histogram_counts_and_draws_a_0_ms_tie(tmp_path):
    from host_sim import report_charts as charts
    from host_sim import report_data as rd
    rec = _load_text(tmp_path, "ties.txt", TIES.replace("OK\n", ""))
    ties = rd.tie_margins([rec])
    assert sorted(ties) == [0, 200]
    margins = {"ANN": [900, 15000], "BOB": [3000]}
    fig = charts.margin_histogram_figure(margins, ties)
    ax = fig.axes[0]
    lo, hi = ax.get_xlim()
    heights = [p.get_height() for p in ax.patches if p.get_height() > 0]
    assert sum(heights) == 5  # every margin in a bar, the 0 ms tie too
    for p in ax.patches:
        if p.get_height() > 0:
            assert lo <= p.get_x() and p.get_x() + p.get_width() <= hi
    assert min(p.get_x() for p in ax.patches if p.get_height() > 0) == pytest.approx(0, abs=1e-9)
    import matplotlib.pyplot as plt
    plt.close(fig)


def test_players_keep_the_names_their_journal_gives(tmp_path):
    """A journal's `#@names` header line (core.names) names its players everywhere in the
    report; the same name at another seat in another game is the same player in the
    season; a game without names keeps P1, P2."""
    folder = tmp_path / "games"
    sealed = [seal(ln) for ln in TIES.replace("OK\n", "").splitlines()]
    _write(str(folder / "archive" / "00001.txt"), "\n".join(sealed) + "\n")
    deck = _read("stackdeck_full_match_2p.txt").splitlines()
    _write(str(folder / "archive" / "00002.txt"),
           "\n".join([deck[0], '#@names ["BOB","ANN"]'] + deck[1:]) + "\n")
    _write(str(folder / "archive" / "00003.txt"), _read("stackdeck_tie_4p.txt"))
    out = tmp_path / "report"
    stdout, stderr = io.StringIO(), io.StringIO()
    assert report.main([str(folder), "--out", str(out)], stdout=stdout, stderr=stderr) == 0, \
        stderr.getvalue()
    run = {"out": str(out)}
    games = {r["file"]: r for r in rows(run, "games.csv")}
    assert games["archive/00001.txt"]["names"] == "ANN | BOB"
    assert games["archive/00001.txt"]["notes"] == ""  # the names line is not a note
    assert games["archive/00002.txt"]["names"] == "BOB | ANN"
    deck_state = state_of(_read("stackdeck_full_match_2p.txt")).state()
    winner = ["BOB", "ANN"][deck_state["winners"][0] - 1]
    assert games["archive/00002.txt"]["result"] == winner + " won"
    assert games["archive/00002.txt"]["winners"] == winner
    assert games["archive/00003.txt"]["names"] == "P1 | P2 | P3 | P4"
    scores = rows(run, "scores.csv")
    assert [(r["player"], r["name"]) for r in scores if r["file"] == "archive/00002.txt"] == [
        ("1", "BOB"), ("2", "ANN")]
    calls = rows(run, "stress_calls.csv")
    assert [r["winner_name"] for r in calls] == ["", "BOB", "", "ANN"]
    season = {(r["game"], r["player"]): r for r in rows(run, "season.csv")}
    # ANN sat at seat 2 of the Stack the Deck match and seat 1 of the Stress match
    assert ("stackdeck", "ANN") in season and ("stress", "ANN") in season
    assert season[("stackdeck", "ANN")]["games"] == "1"
    assert season[("stackdeck", "P1")]["games"] == "1"  # the unnamed 4-player game
    assert int(season[("stackdeck", winner)]["wins"]) == 1
    page = open(out / "report.html", encoding="utf-8").read()
    assert "ANN won (1)" not in page  # chart text is in the pictures, not the page
    assert "<td>ANN</td>" in page or ">ANN<" in page
    assert "P1 won" not in page.split("<h2>Games</h2>")[1].split("archive/00003.txt")[0]


def test_one_colour_per_player_name_across_the_report():
    from host_sim import report_charts as charts

    class Rec:
        def __init__(self, names):
            self.names, self.players = names, len(names)

        def label(self, p):
            return self.names[p - 1]
    palette = charts.Palette([Rec(["ANN", "BOB"]), Rec(["BOB", "CY", "ANN"]), Rec(["P1", "P2"])])
    assert palette("ANN") == charts.PLAYER_COLOURS[0] and palette("BOB") == charts.PLAYER_COLOURS[1]
    assert palette("CY") == charts.PLAYER_COLOURS[2]
    # P1 and P2 of another game are other players: colours nobody has yet
    assert {palette("P1"), palette("P2")} == set(charts.PLAYER_COLOURS[3:5])
    assert palette.names() == ["ANN", "BOB", "CY", "P1", "P2"]
