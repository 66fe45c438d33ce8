"""The Stress transcript corpus (tests/transcripts/stress_*.txt) through the contract's
command, `python -m host_sim replay`: exit status, error line, and the calls each file
was written to show. (tests/test_micropython.py replays the same files on MicroPython
and compares the bytes.)"""

import glob
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = sorted(glob.glob(os.path.join(ROOT, "tests", "transcripts", "stress_*.txt")))

# file -> (exit status, standard error, the calls as (winner, tie, margin_us, loser))
EXPECTED = {
    "stress_contract_example.txt": (0, "", [(1, False, 900, 2)]),
    "stress_bounce_tie_resume.txt": (0, "", [(None, True, 300, None), (2, False, 230000, 1)]),
    "stress_tick_wrap.txt": (0, "", [(2, False, 1000, 1), (None, True, 473, None)]),
    "stress_three_players.txt": (0, "", [(3, False, 180000, 2)]),
    "stress_four_players_absent.txt": (0, "", [(None, True, 1, 4)]),
    "stress_held_through_resume.txt": (0, "", [(1, False, None, 2), (2, False, None, 1)]),
    "stress_ends_match_over.txt": (2, "line 13: match is over\n", [(2, False, None, 1)]),
    "stress_ends_time_went_back.txt": (2, "line 4: time went back\n", [(1, False, None, 2)]),
    "stress_ends_does_not_fit.txt": (2, "line 5: 5S does not fit 2\n", []),
    "stress_ends_call_pending.txt": (2, "line 5: call pending: resume\n", [(2, False, None, 1)]),
    "stress_ends_no_call_to_resume.txt": (2, "line 4: no call to resume\n", []),
    "stress_ends_same_card_twice.txt": (2, "line 2: same card twice\n", []),
    "stress_ends_option_late.txt": (2, "line 4: options go first\n", []),
    "stress_ends_unknown_option.txt": (2, "line 2: unknown option bounce_ms\n", []),
    "stress_ends_play_before_start.txt": (2, "line 3: game not started\n", []),
    "stress_ends_bad_edge.txt": (2, "line 3: no player P3\n", []),
    "stress_too_many_players.txt": (2, "line 1: stress: 2 to 4 players\n", None),
}


def run(path):
    proc = subprocess.run([sys.executable, "-m", "host_sim", "replay", path], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def test_every_stress_transcript_is_expected_here():
    names = {os.path.basename(p) for p in FILES}
    simulated = {n for n in names if n.startswith("stress_simulated_")}
    assert simulated and names - simulated == set(EXPECTED)


@pytest.mark.parametrize("path", FILES, ids=[os.path.basename(p) for p in FILES])
def test_STR_19_stress_transcript_replays_as_written(path):
    name = os.path.basename(path)
    code, out, err = run(path)
    if name.startswith("stress_simulated_"):
        with open(path, encoding="utf-8") as f:
            truth = f.readline().split("games_won ")[1].strip().rstrip(".")
        assert code == 0 and err == ""
        assert json.dumps(json.loads(out)["games_won"]) == truth
        return
    exit_status, error, calls = EXPECTED[name]
    assert (code, err) == (exit_status, error)
    if calls is None:
        assert out == ""
        return
    state = json.loads(out)
    assert [(c["winner"], c["tie"], c["margin_us"], c["loser"]) for c in state["calls"]] == calls
