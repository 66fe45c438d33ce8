"""Stack the Deck through the contract's replay command (python -m host_sim replay):
the transcript corpus tests/transcripts/stackdeck_*.txt, each ending with its expected
outcome in a comment (`# expect: ok`, `# expect: line N: reason`, or
`# expect (no state): line N: reason` when there is no game to print)."""

import glob
import json
import os
import subprocess
import sys

import pytest

from core import transcript

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = sorted(glob.glob(os.path.join(ROOT, "tests", "transcripts", "stackdeck_*.txt")))


def run(args, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "host_sim", "replay"] + args, cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def expectation(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for line in reversed(lines):
        if line.startswith("# expect"):
            kind, _, what = line.partition(": ")
            return kind == "# expect (no state)", what
    raise AssertionError("no '# expect' line in " + path)


def test_the_corpus_is_there():
    names = [os.path.basename(p) for p in CORPUS]
    assert len(names) >= 20
    assert sum(1 for n in names if "_ends_" in n) >= 10


@pytest.mark.parametrize("path", CORPUS, ids=[os.path.basename(p) for p in CORPUS])
def test_STD_19_every_transcript_replays_as_expected(path):
    no_state, what = expectation(path)
    code, out, err = run([path])
    if what == "ok":
        assert (code, err) == (0, "")
    else:
        assert code == 2 and err == what + "\n"
    if no_state:
        assert out == ""
        return
    state = json.loads(out)
    assert state["game"] == "stackdeck" and out.count("\n") == 1
    assert state["totals"] == [sum(r[p] for r in state["rounds"]) for p in range(state["players"])]
    # the state before the bad line is the state of the transcript cut just before it
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if what != "ok":
        bad = int(what.split(":")[0].split()[1])
        _, cut_out, _ = run(["-"], "\n".join(lines[: bad - 1]) + "\n")
        assert cut_out == out
    # what the game writes back replays to the same state (STD-33)
    game, error = transcript.replay(lines)
    again, error2 = transcript.replay(transcript.write(game))
    assert error2 is None and again.to_json() + "\n" == out


def test_STD_32_the_contract_example_state():
    code, out, err = run([os.path.join(ROOT, "tests", "transcripts", "stackdeck_contract_example.txt")])
    assert code == 0 and err == ""
    assert out.startswith('{"game": "stackdeck", "players": 3, "rounds_played": 2, '
                          '"rounds": [[30, -5, 0], [15, 20, 10]], "totals": [45, 15, 10], '
                          '"dealer": 3, "over": false, "winners": []')


def test_STD_29_a_full_match_has_winners_and_no_dealer():
    _, out, _ = run([os.path.join(ROOT, "tests", "transcripts", "stackdeck_full_match_2p.txt")])
    s = json.loads(out)
    assert s["over"] and s["rounds_played"] == 10 and s["totals"] == [55, 40] and s["winners"] == [1]
    assert s["dealer"] is None and s["first"] is None
    _, out, _ = run([os.path.join(ROOT, "tests", "transcripts", "stackdeck_tie_4p.txt")])
    assert json.loads(out)["winners"] == [2, 4]


def test_STD_20_replay_from_standard_input_with_implicit_rounds():
    code, out, err = run(["-"], "game stackdeck players 2\nP1 turned 3R-3B\nP1 out\nend\n")
    assert code == 0 and err == ""
    s = json.loads(out)
    assert s["rounds"] == [[5, 0]] and s["dealer"] == 2 and s["first"] == 1 and s["tally"] == [1, 2]
