"""`python -m host_sim replay FILE`: the notation's replay command."""

import sys

from core.transcript import TranscriptError, replay


def _read(path):
    """The file's bytes: each line is decoded on its own, so a line that is not UTF-8
    is reported with its number (and the state before it)."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", sys.stdin)  # a text stand-in gives str
        return stream.read()
    with open(path, "rb") as f:
        return f.read()


def main(argv, stdout=None, stderr=None):
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if len(argv) != 1:
        stderr.write("usage: python -m host_sim replay FILE   (FILE, or - for standard input)\n")
        return 2
    try:
        text = _read(argv[0])
    except OSError as e:
        stderr.write("cannot read %s: %s\n" % (argv[0], getattr(e, "strerror", None) or e))
        return 2
    try:
        game, error = replay(text.splitlines())
    except TranscriptError as e:
        stderr.write("%s\n" % e)
        return 2
    if error is not None:
        stderr.write("line %d: %s\n" % error)
    stdout.write(game.to_json() + "\n")
    return 2 if error is not None else 0
