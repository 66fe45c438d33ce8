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
    for line in out.stdout.splitlines():
        for name in ("Stack 31 play", "Stack the Deck player's round (counters)",
                     "Stress ruling", "3-letter name"):
            if line.startswith(name):
                entries, median, worst = line[len(name):].split()
                rows[name] = (int(entries), float(median), int(worst))
    assert len(rows) == 4, out.stdout
    for name, (entries, median, worst) in rows.items():
        assert entries > 0 and 1 <= median <= worst, (name, rows[name])
    # The goals of the card entry: a play in 4 presses (median), 8 at worst, OK included.
    assert rows["Stack 31 play"][1] <= 4 and rows["Stack 31 play"][2] <= 8, rows


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
