"""The documents say what the code does: every example in seeds/notation.md replays,
and nothing a user reads points to files a user of the project does not have."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _examples(path):
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    for block in re.findall(r"\n\n((?:    .*\n)+)", text):
        lines = [line[4:] for line in block.splitlines()]
        if lines[0].startswith("game "):
            yield lines


def test_notation_examples_replay():
    examples = list(_examples("seeds/notation.md"))
    assert len(examples) >= 4
    for lines in examples:
        run = subprocess.run([sys.executable, "-m", "host_sim", "replay", "-"], cwd=ROOT,
                             input="\n".join(lines) + "\n", capture_output=True, text=True)
        assert run.returncode == 0, (lines, run.stderr)
        assert run.stdout.startswith("{")
