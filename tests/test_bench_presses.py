"""tools/bench_presses in a short run: whole games through the UI by the fewest presses
the planner finds; the figures it prints are real presses on the simulated device."""

import os
import runpy
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "tools", "bench_presses")


def test_a_short_run_prints_median_and_worst_for_each_entry():
    out = subprocess.run([sys.executable, BENCH, "--quick"], capture_output=True, text=True,
                         env=dict(os.environ, BENCH_NO_REEXEC="1"), timeout=600)
    assert out.returncode == 0, out.stderr
    rows = {}
    names = ("Stack 31 play", "Stack the Deck player's round (counters)",
             "Stack the Deck zero round", "Stack the Deck end of round (who out)",
             "Stack the Deck checker: 1B-2B-3B", "Stack the Deck 1B-2B-3B from the sheet",
             "Stack the Deck round by the checker", "Stress ruling", "3-letter name")
    for line in out.stdout.splitlines():
        for name in names:
            if line.startswith(name):
                words = line[len(name):].replace("/", " ").split()
                rows[name] = tuple(float(w) for w in words)
    assert len(rows) == len(names), out.stdout
    for name, row in rows.items():
        entries, median, worst = row[:3]
        assert entries > 0 and 1 <= median <= worst, (name, row)
        if len(row) == 5:  # Stack the Deck: the human path too (same entries), never shorter
            assert row[3] >= median and row[4] >= worst, (name, row)
    # The goals of the card entry: a play in 4 presses (median), 8 at worst, OK included.
    assert rows["Stack 31 play"][1] <= 4 and rows["Stack 31 play"][2] <= 8, rows
    # Issue 18's goals for Stack the Deck: a zero round is one press, the checker's
    # 3-card run at most 6,
    assert rows["Stack the Deck zero round"][1:3] == (1, 1), rows
    # and a player's round by counters: median at most 6, planner and human path
    counters = rows["Stack the Deck player's round (counters)"]
    assert counters[1] <= 6 and counters[3] <= 6, rows
    assert rows["Stack the Deck checker: 1B-2B-3B"][2] <= 6, rows


def test_the_planner_counts_the_presses_it_makes():
    bench = runpy.run_path(BENCH, run_name="bench")
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        dev = bench["Counter"](os.path.join(tmp, "d"))
        counts = bench["names_session"](dev, ("ANN",))
        # Settings -> Names: then P1's row (OK), the letters and the save (long OK)
        assert dev.app.settings.name(1) == "ANN"
        assert counts[0] == len(bench["name_route"](_blank_board(), "ANN")) + 2


def _blank_board():
    class Board:
        row = 0
        col = 0
        text = ""
    return Board()
