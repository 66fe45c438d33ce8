"""The journal's header and what the fault sweep found (tools/fault_sweep, issue 11):

- a damaged or cut `game`/`option` line is found (the header's end record `#} n crc`)
  and restored from the copy every checkpoint carries, or the journal is set aside:
  never a game resumed with options it did not have;
- a lost line break that glues an action to a checkpoint line is damage, said;
- a full flash during an undo leaves the record as it was (RAM == flash);
- Session.rewrite after an edit of Stack the Deck's history: the journal replays to the
  device's state, and resumes with some undo.
"""

import os

import pytest

from core import transcript
from firmware import journal as jr
from firmware.journal import Journal
from firmware.session import Session
from firmware.storage import Storage
from host_sim.flakyfs import FlakyFS


HERE = os.path.dirname(os.path.abspath(__file__))


def stack31_lines():
    """A whole 3-player Stack 31 game (tests/transcripts/stack31_long_3p.txt)."""
    with open(os.path.join(HERE, "transcripts", "stack31_long_3p.txt")) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith(("#", "game "))]


def resume(root, fs=None):
    return Session.resume(Journal(Storage(root, fs), "game.txt"))


def file_bytes(root):
    with open(os.path.join(root, "game.txt"), "rb") as f:
        return f.read()


def put(root, data):
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "game.txt"), "wb") as f:
        f.write(data)


def replay_state(root):
    with open(os.path.join(root, "game.txt")) as f:
        g, err = transcript.replay(f.read().splitlines())
    assert err is None, err
    return g.to_json()


def stackdeck_round(p_out=1):
    other = 3 - p_out
    return ["round", "P%d counts 1 0 0 0 0 0" % p_out, "P%d counts 0 1 0 0 0 0" % other,
            "P%d out" % p_out, "end"]


def stackdeck_session(root, rounds_played, rounds=20, open_lines=()):
    s = Session.new(Journal(Storage(root), "game.txt"), "stackdeck", 2, {"rounds": rounds})
    for r in range(rounds_played):
        for line in stackdeck_round(1 + r % 2):
            s.push(line)
    for line in open_lines:
        s.push(line)
    return s


def header_len(data):
    """Bytes of the header lines and their end record."""
    i = data.index(b"#} ")
    return data.index(b"\n", i) + 1


# --- the header ------------------------------------------------------------------------

def test_the_header_ends_with_its_end_record(tmp_path):
    s = stackdeck_session(str(tmp_path), 0, rounds=2, open_lines=["round"])
    text = file_bytes(str(tmp_path)).decode().splitlines()
    assert text[0].startswith("game stackdeck players 2  #~")
    assert text[1].startswith("option rounds 2  #~")
    crc = jr.block_crc(["game stackdeck players 2", "option rounds 2"])
    assert text[2] == jr.seal("#} 2 %04x" % crc)
    assert jr.classify(text[2].encode())[0] == jr.HEAD_END
    back, report = resume(str(tmp_path))
    assert report is None and back.game.to_json() == s.game.to_json()
    assert back.game.options["rounds"] == 2


def test_every_checkpoint_carries_the_header(tmp_path):
    stackdeck_session(str(tmp_path), 1, rounds=2)  # `end` writes a checkpoint
    lines = file_bytes(str(tmp_path)).decode().splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("#= "))
    assert lines[i].startswith("#= game stackdeck players 2  #~")
    assert lines[i + 1].startswith("#= option rounds 2  #~")
    assert lines[i + 2].startswith("#= checkpoint stackdeck players 2 moves ")


@pytest.mark.parametrize("how", ["#", "bit0", "bit5"])
def test_every_damaged_header_byte_is_restored_from_a_checkpoint(tmp_path, how):
    src = str(tmp_path / "src")
    s = stackdeck_session(src, 1, rounds=2, open_lines=["P1 counts 1 0 0 0 0 0"])
    good = file_bytes(src)
    want = s.game.to_json()
    for i in range(header_len(good)):
        bad = bytearray(good)
        bad[i] = ord("#") if how == "#" else good[i] ^ (1 if how == "bit0" else 0x20)
        if bad == good:
            continue
        root = str(tmp_path / ("%s-%d" % (how, i)))
        put(root, bytes(bad))
        back, report = resume(root)
        assert back is not None and back.game.to_json() == want, (i, report)
        in_line = good.rfind(b"\n", 0, i) + 1
        if good[in_line:in_line + 3] != b"#} " and good[i:i + 1] != b"\n" or \
                good[in_line:in_line + 6] == b"option":
            # a header line (not only its end record) was unreadable: said
            assert report == "Game header damaged: restored", (i, report)
        assert file_bytes(root) == good, i  # repaired in place (one byte changed)
        again, report = resume(root)
        assert report is None and again.game.to_json() == want


def test_a_damaged_option_line_without_a_checkpoint_is_set_aside(tmp_path):
    src = str(tmp_path / "src")
    stackdeck_session(src, 0, rounds=2, open_lines=["P1 counts 1 0 0 0 0 0"])
    good = file_bytes(src)
    at = good.index(b"option")
    bad = bytearray(good)
    bad[at] = ord("#")
    root = str(tmp_path / "bad")
    put(root, bytes(bad))
    back, report = resume(root)
    assert back is None and report == "Game header damaged: set aside"
    assert not os.path.exists(os.path.join(root, "game.txt"))
    with open(os.path.join(root, "game.bad1"), "rb") as f:
        assert f.read() == bytes(bad)  # kept for the table to look at


def test_a_damaged_end_record_alone_costs_nothing(tmp_path):
    src = str(tmp_path / "src")
    s = stackdeck_session(src, 0, rounds=2, open_lines=["P1 counts 1 0 0 0 0 0"])
    good = file_bytes(src)
    at = good.index(b"#} ") + 3
    root = str(tmp_path / "bad")
    put(root, good[:at] + b"9" + good[at + 1:])
    back, report = resume(root)
    assert report is None and back.game.to_json() == s.game.to_json()
    assert file_bytes(root) == good


def test_cuts_in_the_header_never_resume_other_options(tmp_path):
    src = str(tmp_path / "src")
    s = stackdeck_session(src, 0, rounds=2, open_lines=["P1 counts 1 0 0 0 0 0"])
    good = file_bytes(src)
    end = header_len(good)
    for cut in range(1, end + 8):
        root = str(tmp_path / ("c%d" % cut))
        put(root, good[:cut])
        back, report = resume(root)
        if back is not None:
            assert back.game.options["rounds"] == 2, cut
            assert back.game.moves == 0
            if cut > end - 10:  # a cut inside the end record: the header is all there
                assert file_bytes(root)[:end] == good[:end]
        else:
            assert cut <= good.index(b"#} "), cut  # a cut before the end record begins
    assert s.game.moves == 1


def test_a_journal_without_the_end_record_still_resumes(tmp_path):
    """Journals of the version before the end record: the header ends where a whole
    record that is no header line follows."""
    lines = ["game stack31 players 2", "P1 draw", "P2 draw", "P1 play 7H"]
    put(str(tmp_path), "".join(jr.seal(t) + "\n" for t in lines).encode())
    back, report = resume(str(tmp_path))
    assert report is None and back.game.moves == 3
    assert back.game.to_json() == replay_state(str(tmp_path))


# --- a lost line break after a checkpoint ----------------------------------------------

def test_a_checkpoint_line_glued_to_an_action_is_damage():
    assert jr.classify(b"#] 2 63 8ed3  #~acb1discard down  #~52b1\n")[0] == jr.BAD
    assert jr.classify(b"#-----  #~1234P1 draw  #~abcd\n")[0] == jr.BAD
    # damaged checkpoint and void records that can hold no action cost nothing
    end = jr.seal("#] 2 63 8ed3")
    assert jr.classify(end.replace("63", "64").encode())[0] == jr.BAD_SKIP
    assert jr.classify((end + jr.seal("#= checkpoint x")).encode())[0] == jr.BAD_SKIP
    assert jr.classify(b"#= checkpoint stack31 pla")[0] == jr.BAD_SKIP


def test_a_lost_line_break_after_a_checkpoint_end_is_said(tmp_path):
    src = str(tmp_path / "src")
    s = Session.new(Journal(Storage(src), "game.txt"), "stack31", 3)
    for i, line in enumerate(stack31_lines()[:3 * Session.EVERY]):
        s.push(line)
        if i % 5 == 4:
            s.undo()
            s.push(line)
    whole = file_bytes(src)
    ends = [i for i in range(len(whole)) if whole.startswith(b"\n#] ", i)]
    assert len(ends) >= 2
    for e in ends:
        brk = whole.index(b"\n", e + 1)
        # the journal as it stood two records after this checkpoint: what follows the
        # glued record replays (the lost entry would go unseen)
        good = whole[:whole.index(b"\n", whole.index(b"\n", brk + 1) + 1) + 1]
        root = str(tmp_path / ("good%d" % brk))
        put(root, good)
        ok, report = resume(root)
        assert report is None
        want = ok.game.to_json()
        root = str(tmp_path / ("g%d" % brk))
        put(root, good[:brk] + good[brk + 1:])  # the record after it glued on
        back, report = resume(root)
        got = back.game.to_json() if back is not None else None
        assert got == want or report is not None, brk  # never silent
        if got != want:
            assert back.game.moves < ok.game.moves and report.startswith("Journal damaged")


# --- a full flash during an undo ----------------------------------------------------------

@pytest.mark.parametrize("past_checkpoint", [False, True])
@pytest.mark.parametrize("which", [1, 2, 3])
def test_a_full_flash_during_an_undo_leaves_the_record(tmp_path, which, past_checkpoint):
    from core.errors import IllegalAction
    n = Session.EVERY if past_checkpoint else 5  # the undo voids a checkpoint end too
    probe = FlakyFS()
    s = Session.new(Journal(Storage(str(tmp_path / "probe"), probe), "game.txt"), "stack31", 3)
    for line in stack31_lines()[:n]:
        s.push(line)
    before = probe.writes
    s.undo()
    undo_writes = probe.writes - before
    assert undo_writes >= (3 if past_checkpoint else 2)
    if which > undo_writes:
        return
    root = str(tmp_path / "full")
    fs = FlakyFS(enospc_at=before + which)
    s = Session.new(Journal(Storage(root, fs), "game.txt"), "stack31", 3)
    for line in stack31_lines()[:n]:
        s.push(line)
    want = s.game.to_json()
    with pytest.raises(IllegalAction) as e:
        s.undo()
    assert e.value.reason == "flash full: not saved"
    assert s.game.to_json() == want  # nothing changed in RAM ...
    back, report = resume(root)
    assert report is None and back.game.to_json() == want  # ... nor on flash
    assert replay_state(root) == want
    s.undo()  # space is back: the undo goes through
    back, report = resume(root)
    assert report is None and back.game.to_json() == s.game.to_json()


# --- a rewrite after an edit (Stack the Deck) ------------------------------------------

EDIT = ["P1 counts 0 0 1 0 0 0", "P2 counts 1 1 0 0 0 0", "P1 out"]


@pytest.mark.parametrize("r", [1, 13, 17, 18])
def test_an_edit_rewrites_a_journal_that_replays_and_resumes_with_undo(tmp_path, r):
    root = str(tmp_path)
    stackdeck_session(root, 17, open_lines=["P2 counts 1 0 0 0 0 0"])
    s, report = resume(root)  # from a checkpoint: the history starts there
    g = s.game
    assert report is None and g.base_checkpoint() is not None
    in_base = r <= 17 - len([a for a in g.history if a[1] == "end"])
    assert in_base == (r < 16)
    lines = EDIT if r < 18 else EDIT[:2]  # 18: the open round
    before = g.totals()
    old = g.edit_round(r, lines)
    assert old != lines and (g.totals() != before or r == 18)
    s.rewrite()
    want = g.to_json()
    assert replay_state(root) == want  # the journal replays to the device's state
    # the game goes on and stays in step
    s.push("P2 unturned 5G")
    assert replay_state(root) == g.to_json()
    s.undo()
    assert replay_state(root) == g.to_json() == want
    back, report = resume(root)
    assert report is None and back.game.to_json() == want
    assert back.game.entries(r) == lines
    assert len(back.game.history) >= 1
    last = back.game.format(back.game.history[-1])
    undone = back.undo()  # undo after the resume, like any resume
    assert back.game.format(undone) == last and back.game.to_json() != want
    assert replay_state(root) == back.game.to_json()
    again, report = resume(root)
    assert report is None and again.game.to_json() == back.game.to_json()


def test_an_edit_of_a_short_match_keeps_its_whole_history(tmp_path):
    root = str(tmp_path)
    s = stackdeck_session(root, 2, open_lines=["P2 counts 1 0 0 0 0 0"])
    assert s.game.base_checkpoint() is None
    s.game.edit_round(1, EDIT)
    s.rewrite()
    want = s.game.to_json()
    assert replay_state(root) == want
    back, report = resume(root)
    assert report is None and back.game.to_json() == want
    assert len(back.game.history) == len(s.game.history)  # undo all the way back


def test_a_rewrite_the_flash_refuses_changes_nothing(tmp_path):
    root = str(tmp_path)
    fs = FlakyFS()
    s = Session.new(Journal(Storage(root, fs), "game.txt"), "stackdeck", 2, {"rounds": 20})
    for r in range(17):
        for line in stackdeck_round(1 + r % 2):
            s.push(line)
    good = file_bytes(root)
    fs.enospc_at = fs.writes + 2  # the first write of the new file
    old = s.game.edit_round(1, EDIT)
    with pytest.raises(OSError):
        s.rewrite()
    s.game.edit_round(1, old)  # what the screen does
    assert file_bytes(root) == good
    assert sorted(os.listdir(root)) == ["game.txt"]
    back, report = resume(root)
    assert report is None and back.game.to_json() == s.game.to_json()


def test_a_stress_rewrite_after_a_resume_voids_and_appends_and_still_replays(tmp_path):
    """Stress edits inside its history (the base unchanged): the records since the base
    checkpoint are voided in place and the history appended again."""
    from core.stress.sim import Match
    root = str(tmp_path)
    m = Match(4, games=2)
    body = [ln for ln in m.lines if not ln.startswith(("game ", "option ", "#"))]
    head = [ln for ln in m.lines if ln.startswith(("game ", "option "))]
    opts = dict(ln.split()[1:3] for ln in head[1:])
    s = Session.new(Journal(Storage(root), "game.txt"), "stress", int(head[0].split()[3]), opts)
    for line in body[:150]:
        s.push(line, defer=line.startswith("@"))
    s.flush()
    s, report = resume(root)
    g = s.game
    assert report is None and g.base_checkpoint() is not None
    size = os.path.getsize(os.path.join(root, "game.txt"))
    keep = g.history[:-3]
    g._replay(keep)  # as the Stress screen takes back an earlier call
    s.rewrite()
    want = g.to_json()
    assert replay_state(root) == want
    assert os.path.getsize(os.path.join(root, "game.txt")) > size  # appended, not anew
    back, report = resume(root)
    assert report is None and back.game.to_json() == want
    back.undo()
    assert replay_state(root) == back.game.to_json()
