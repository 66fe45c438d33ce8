"""A journal whose header carries the players' names (`#@names [...]`, the header's
last line: firmware/journal/new.py) cut at every byte of its header and of its first
records, resumed through Session on CPython: the first boot's game, the replay of the
file it leaves on flash (`python -m host_sim replay game.txt`) and a second boot's
game are the same (the fault sweep's "disagree", tools/fault_sweep).

Once the names line is whole (even without its line break) every game and option line
is known to be there, so the game resumes and the header's end record is written;
before that the file may have lost an option line, and the journal is set aside.
"""

import os

import pytest

from core.stress.sim import Match
from core.transcript import TranscriptError, replay
from firmware.journal import Journal
from firmware.session import Session
from firmware.storage import Storage

NAMES = ["ANN", "BOB", "CY"]


def played(root, game):
    """A short game through Session with names in its header; the journal's bytes."""
    if game == "stack31":
        s = Session.new(Journal(Storage(root), "game.txt"), "stack31", 3, None, NAMES)
        body = ["draw"] * 6 + ["play KH", "play 9S"]
    else:
        m = Match(12, games=99)
        opts = {}
        body = []
        for line in m.lines[1:]:
            if line.startswith("option "):
                _, k, v = line.split()
                opts[k] = v
            elif not line.startswith("@"):
                body.append(line)
        s = Session.new(Journal(Storage(root), "game.txt"), "stress", 2, opts, NAMES[:2])
        body = body[:6]
    for line in body:
        s.push(line)
        s.flush()
    with open(os.path.join(root, "game.txt"), "rb") as f:
        return f.read()


def header_end(data):
    """Bytes of the header: its lines and its end record."""
    off = 0
    for line in data.split(b"\n"):
        off += len(line) + 1
        if line.startswith(b"#} "):
            return off
    raise AssertionError("no header end record")


def boot(root):
    s, _report = Session.resume(Journal(Storage(root), "game.txt"))
    return None if s is None else s.game.to_json(), s


def on_flash(root):
    p = os.path.join(root, "game.txt")
    if not os.path.exists(p):
        return None
    with open(p, "rb") as f:
        data = f.read()
    try:
        game, error = replay(data.splitlines())
    except TranscriptError:
        return None
    assert error is None, error
    return game.to_json()


@pytest.mark.parametrize("game", ["stack31", "stress"])
def test_a_cut_in_a_named_header_resumes_the_same_game_every_time(tmp_path, game):
    data = played(str(tmp_path / "ref"), game)
    head = header_end(data)
    names_at = data.index(b"#@names ")
    names_sealed = data.index(b"\n", names_at)  # the names line but its break
    assert data[:names_at].count(b"\n") >= 1
    fresh = None
    for cut in range(0, head + 40):
        root = str(tmp_path / ("cut%d" % cut))
        os.makedirs(root)
        with open(os.path.join(root, "game.txt"), "wb") as f:
            f.write(data[:cut])
        first, s = boot(root)
        case = "cut at %d" % cut
        assert first == on_flash(root), case + ": the file replays to another game"
        again, s2 = boot(root)
        assert again == first, case + ": a second boot shows another game"
        if cut >= names_sealed:
            # the whole header is known: the game resumes, with its names
            assert first is not None, case + ": nothing resumed"
            assert s.header[-1] == s2.header[-1] and s.header[-1].startswith("#@names ")
            if cut <= head:
                fresh = fresh or first
                assert first == fresh, case + ": not the fresh game"
        elif cut < names_at:
            assert first is None, case + ": resumed a header that may lack lines"
