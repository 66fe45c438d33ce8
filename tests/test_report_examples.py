"""The README's report example: `python -m host_sim report host_sim/examples/evening/`.

The folder holds an evening of real games, played by button presses on the simulated
device by host_sim/examples/make_evening.py (the unchanged firmware: its journal with
every line sealed, the players' names in each header, the archive as History keeps it),
laid out as tools/pull copies a board. Reported, it opens without a failure: every
file replays, the players keep their names, the season adds them up.
"""

import csv
import io
import os

from firmware.journal import classify, BAD
from host_sim import report

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVENING = os.path.join(ROOT, "host_sim", "examples", "evening")


def _rows(out, name):
    with open(os.path.join(out, name), newline="") as f:
        return list(csv.DictReader(f))


def test_the_example_evening_reports_without_a_failure(tmp_path):
    out = str(tmp_path / "report")
    stdout, stderr = io.StringIO(), io.StringIO()
    code = report.main([EVENING, "--out", out], stdout=stdout, stderr=stderr)
    assert code == 0 and stderr.getvalue() == "", stderr.getvalue()
    assert "report: 4 games ->" in stdout.getvalue()
    page = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    assert "class=bad" not in page and "could not be reported" not in page
    games = {r["file"]: r for r in _rows(out, "games.csv")}
    assert set(games) == {"archive/00001.txt", "archive/00002.txt", "archive/00003.txt", "game.txt"}
    assert [games[f]["game"] for f in sorted(games)] == ["stack31", "stackdeck", "stress", "stack31"]
    assert all(r["status"] == "ok" for r in games.values()), games
    assert games["archive/00001.txt"]["names"] == "ANN | BOB | CY"
    assert games["archive/00003.txt"]["over"] == "1" and games["game.txt"]["over"] == "0"
    assert "in play" in page  # the game on the board when it was pulled
    season = {(r["game"], r["player"]) for r in _rows(out, "season.csv")}
    assert ("stress", "ANN") in season and ("stack31", "CY") in season
    assert not any(p.startswith("P") and p[1:].isdigit() for _, p in season)  # names, not seats
    kinds = {r["kind"] for r in _rows(out, "stress_calls.csv")}
    assert {"won", "void"} <= kinds


def test_the_example_files_are_the_devices_journals():
    for rel in ("archive/00001.txt", "archive/00002.txt", "archive/00003.txt", "game.txt"):
        with open(os.path.join(EVENING, rel), "rb") as f:
            lines = [ln for ln in f.read().split(b"\n") if ln.strip()]
        assert lines[0].startswith(b"game ")
        assert any(ln.startswith(b"#@names [") for ln in lines[:4]), rel
        for ln in lines:
            assert classify(ln)[0] != BAD, (rel, ln)  # every line sealed, as written
    assert os.path.isfile(os.path.join(EVENING, "archive", "index.txt"))
