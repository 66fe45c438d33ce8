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


def test_nothing_a_user_reads_points_outside_the_project():
    for folder in ("seeds", "core", "firmware", "host_sim", "tools"):
        for base, _dirs, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if name.endswith((".md", ".py", ".js", ".html")) or "." not in name:
                    path = os.path.join(base, name)
                    try:
                        text = open(path, encoding="utf-8").read()
                    except (UnicodeDecodeError, IsADirectoryError):
                        continue
                    assert "../shared" not in text, path
    assert "../shared" not in open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()


def test_the_journal_examples_carry_their_real_checksums():
    from firmware.journal import seal
    for path in ("README.md", "seeds/notation.md"):
        text = open(os.path.join(ROOT, path), encoding="utf-8").read()
        sealed = re.findall(r"^    (.+?)  (#~[0-9a-f]{4})$", text, re.M)
        assert sealed, path
        for body, mark in sealed:
            assert seal(body) == body + "  " + mark, (path, body)
