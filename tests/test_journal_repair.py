"""The file on flash stays the game on the screen (issue 20) and any transcript
resumes (issue 19), through Session on CPython:

- a flip before the newest whole checkpoint costs nothing and is repaired in the
  file (written back atomically, the damaged file kept as game.badN), so that
  `python -m host_sim replay game.txt` gives the game the device shows;
- two records glued by a lost line break are taken apart and written back;
- a journal with no checkpoints (or only damaged ones) is written anew as it is
  replayed, with checkpoints, and resumes the same game again from them;
- a plain transcript (the browser page's Copy: no seals) put on as game.txt resumes;
- every new journal's header carries the players' names (core.names), which the
  rules ignore.
"""

import os

from core import names
from core.stress.sim import Match
from core.transcript import replay
from firmware.journal import Journal
from firmware.session import Session
from firmware.storage import Storage


def stress_journal(root, n=300):
    m = Match(12, games=99)
    opts = {}
    body = []
    for line in m.lines[1:]:
        if line.startswith("option "):
            _, k, v = line.split()
            opts[k] = v
        else:
            body.append(line)
    s = Session.new(Journal(Storage(root), "game.txt"), "stress", 2, opts, ["ANN", "BOB"])
    for line in body[:n]:
        s.push(line, defer=line.startswith("@"))
        if not line.startswith("@"):
            s.flush()
    s.flush()
    return s


def resume(root):
    return Session.resume(Journal(Storage(root), "game.txt"))


def path(root):
    return os.path.join(root, "game.txt")


def read(root):
    with open(path(root), "rb") as f:
        return f.read()


def write(root, data):
    with open(path(root), "wb") as f:
        f.write(data)


def replayed(root):
    game, error = replay(read(root).splitlines())
    assert error is None, error
    return game.to_json()


def test_the_header_carries_the_names_and_the_rules_ignore_them(tmp_path):
    root = str(tmp_path)
    s = stress_journal(root, 40)
    data = read(root)
    assert data.split(b"\n")[2].startswith(names.line(["ANN", "BOB"]).encode() + b"  #~")
    assert names.of(data.decode().splitlines(), 2) == ["ANN", "BOB"]
    back, report = resume(root)
    assert report is None and back.game.to_json() == s.game.to_json()
    assert back.header == s.header and back.header[-1] == names.line(["ANN", "BOB"])
    assert replayed(root) == s.game.to_json()


def test_a_flip_before_the_newest_checkpoint_is_repaired_in_the_file(tmp_path):
    root = str(tmp_path / "a")
    s = stress_journal(root)
    data = read(root)
    want = s.game.to_json()
    newest = data.rindex(b"\n#] ")
    first_cp = data.index(b"\n#= ")
    checked = 0
    # every action line between the header and the first checkpoint, a bit flipped in
    # its text and in its seal, and its line break made '#'
    at = data.index(b"#} ")
    at = data.index(b"\n", at) + 1
    while at < first_cp:
        end = data.index(b"\n", at)
        for i, v in ((at + 1, data[at + 1] ^ 0x20), (end - 2, data[end - 2] ^ 0x01),
                     (end, ord("#"))):
            bad = bytearray(data)
            bad[i] = v
            write(root, bytes(bad))
            for fn in os.listdir(root):
                if ".bad" in fn:
                    os.remove(os.path.join(root, fn))
            back, report = resume(root)
            assert back.game.to_json() == want, (i, report)
            assert report and "repaired" in report, (i, report)
            assert read(root) == data, i  # written back as it was
            assert replayed(root) == want
            assert os.path.exists(os.path.join(root, "game.bad1"))
            with open(os.path.join(root, "game.bad1"), "rb") as f:
                assert f.read() == bytes(bad)
            again, report = resume(root)
            assert report is None and again.game.to_json() == want
            checked += 1
        at = end + 1
    assert checked >= 9 and newest > first_cp


def test_a_journal_without_checkpoints_is_written_anew_with_them(tmp_path):
    root = str(tmp_path)
    s = stress_journal(root, 600)
    want = s.game.to_json()
    data = read(root)
    bare = b"\n".join(line for line in data.split(b"\n")
                      if not (line.startswith(b"#= ") or line.startswith(b"#] ")))
    assert bare.count(b"\n#( ") > 5
    write(root, bare)
    back, report = resume(root)
    assert report is None and back.game.to_json() == want
    assert len(back.game.history) <= 3 * Session.EVERY
    now = read(root)
    assert now.count(b"\n#] ") >= 600 // (2 * Session.EVERY)  # checkpoints written
    assert replayed(root) == want
    again, report = resume(root)
    assert report is None and again.game.to_json() == want
    # its checkpoints all damaged: the same
    write(root, bytes(now).replace(b"\n#] ", b"\n#]!"))
    back, report = resume(root)
    assert back.game.to_json() == want and replayed(root) == want


def test_a_plain_transcript_resumes(tmp_path):
    root = str(tmp_path)
    s = stress_journal(root, 500)
    want = s.game.to_json()
    plain = []
    for raw in read(root).split(b"\n"):
        text = raw.split(b"  #~")[0]
        if text and not text.startswith(b"#"):
            plain.append(text)  # what the browser page's Copy gives
    write(root, b"\n".join(plain) + b"\n")
    back, report = resume(root)
    assert report == "Transcript resumed" and back.game.to_json() == want
    assert replayed(root) == want
    assert read(root).split(b"\n")[0].startswith(b"game stress players 2  #~")
    with open(os.path.join(root, "game.bad1"), "rb") as f:
        assert f.read() == b"\n".join(plain) + b"\n"  # the transcript as it was
    again, report = resume(root)
    assert report is None and again.game.to_json() == want
