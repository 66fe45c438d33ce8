"""The journal: checksummed lines, undo, and a power cut after every single write."""

import os

import pytest

from firmware.journal.crc import crc16
from firmware.journal import Journal, seal, unseal
from firmware.storage import Storage
from host_sim.flakyfs import FlakyFS, PowerCut

HEADER = ["game stack31 players 2", "option deck 52"]
ACTIONS = [
    "P1 draw", "P2 draw", "P1 play 7H", "P2 draw", "P1 draw", "P2 play 8H",
    "P1 discard up 3C", "P2 draw", "P1 play KH", "P2 discard down", "P1 draw",
    "P2 play 2S", "P1 draw", "P2 draw", "P1 play QS",
]


def script():
    """A scripted game with two undos: [(op, arg)]."""
    ops = [("start", HEADER)]
    for i, a in enumerate(ACTIONS):
        ops.append(("append", a))
        if i in (4, 11):
            ops.append(("pop", None))
    ops.append(("pop", None))
    ops.append(("append", "P2 pass"))
    return ops


def states(ops):
    """Expected journal content after each prefix of ops."""
    cur = []
    out = [list(cur)]
    for op, arg in ops:
        if op == "start":
            cur = list(arg)
        elif op == "append":
            cur.append(arg)
        elif op == "pop":
            if len(cur) > len(HEADER):
                cur.pop()
        out.append(list(cur))
    return out


def apply(j, op, arg):
    if op == "start":
        j.start(arg)
    elif op == "append":
        j.append(arg)
    else:
        j.pop()


def run_until_cut(path, fs, ops, start=0):
    j = Journal(Storage(path, fs))
    if start:
        j.load()
    done = start
    try:
        for op, arg in ops[start:]:
            apply(j, op, arg)
            done += 1
    except PowerCut:
        return done, True
    return done, False


def count_writes(tmp_path, ops, **kw):
    fs = FlakyFS(**kw)
    run_until_cut(str(tmp_path / "count"), fs, ops)
    return fs.writes


# --- format -----------------------------------------------------------------

def test_seal_and_unseal():
    line = seal("P1 play 7H")
    assert line == "P1 play 7H  #~%04x" % crc16(b"P1 play 7H")
    assert unseal((line + "\n").encode()) == "P1 play 7H"
    assert unseal(line.encode()) == "P1 play 7H"
    assert unseal(b"\n") == "" and unseal(b"####\n") == ""  # filler
    # a comment-shaped line is checked like any other: unsealed, it is damage
    assert unseal(b"# a comment\n") is None
    assert unseal(("#" + line[1:]).encode()) is None  # first byte flipped to '#'
    assert unseal((seal("#= checkpoint") + "\n").encode()) == ""  # sealed comment
    assert unseal(line[:-1].encode()) is None  # torn
    assert unseal(b"P1 play 7H\n") is None  # no checksum
    assert unseal(line.replace("7H", "8H").encode()) is None  # bad checksum
    assert unseal(b"\xff\xfe  #~0000\n") is None
    assert unseal(b"#~1234\n") is None


def test_journal_is_a_transcript(tmp_path):
    st = Storage(str(tmp_path))
    j = Journal(st)
    j.start(HEADER)
    for a in ACTIONS[:3]:
        j.append(a)
    text = st.read_text("journal.txt")
    # every line: the record, then a comment that the notation ignores; after the
    # header its end record (a comment: `#} 2 crc`, the header's lines and their CRC)
    stripped = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    assert stripped == HEADER + [""] + ACTIONS[:3]
    assert text.splitlines()[2].startswith("#} 2 ")
    assert j.load() == (HEADER + ACTIONS[:3], None)
    assert (j.count, j.header_count) == (5, 2)


def test_append_does_not_rewrite(tmp_path):
    fs = FlakyFS()
    j = Journal(Storage(str(tmp_path), fs))
    j.start(HEADER)
    before = fs.writes
    j.append("P1 draw")
    ops = fs.log[before - fs.writes:] if fs.writes > before else []
    assert [op for op, _ in ops] == ["open ab", "write"]


def test_pop(tmp_path):
    j = Journal(Storage(str(tmp_path)))
    assert j.pop() is None  # no journal
    j.start(HEADER)
    j.append("P1 draw")
    j.append("P2 draw")
    assert j.pop() == "P2 draw"
    assert j.pop() == "P1 draw"
    assert j.pop() is None  # the header stays
    assert j.load() == (HEADER, None)
    j.append("P1 draw")
    assert j.load() == (HEADER + ["P1 draw"], None)


def test_refuses_bad_records(tmp_path):
    j = Journal(Storage(str(tmp_path)))
    for bad in ("", "P1 draw # x", "a\nb"):
        with pytest.raises(ValueError):
            j.append(bad)


def test_set_aside(tmp_path):
    st = Storage(str(tmp_path))
    j = Journal(st)
    assert j.set_aside() is None
    j.start(HEADER)
    assert j.set_aside() == "journal.bad1"
    assert st.listdir() == ["journal.bad1"] and j.load() == ([], None)


def test_clear(tmp_path):
    st = Storage(str(tmp_path))
    j = Journal(st)
    j.start(HEADER)
    j.clear()
    assert not st.exists("journal.txt")
    assert j.load() == ([], None)


# --- damaged files ----------------------------------------------------------

def write_raw(tmp_path, data):
    (tmp_path / "journal.txt").write_bytes(data)
    return Journal(Storage(str(tmp_path)))


def good_bytes(lines):
    return "".join(seal(t) + "\n" for t in lines).encode()


def test_missing_and_empty(tmp_path):
    assert Journal(Storage(str(tmp_path))).load() == ([], None)
    assert write_raw(tmp_path, b"").load() == ([], None)
    assert write_raw(tmp_path, b"\n\n").load() == ([], None)


def test_torn_last_record_is_dropped_and_repaired(tmp_path):
    lines = HEADER + ACTIONS[:4]
    data = good_bytes(lines) + seal("P1 draw")[:7].encode()
    j = write_raw(tmp_path, data)
    got, message = j.load()
    report = j.details
    assert got == lines
    assert message == "Last entry lost" and report["aside"] is None
    assert report["dropped"] == "P1 draw" and report["line"] == len(lines) + 1
    # repaired: appending now gives a clean file
    j.append("P1 draw")
    assert Journal(Storage(str(tmp_path))).load() == (lines + ["P1 draw"], None)


def test_bad_checksum_on_a_whole_last_line_is_damage(tmp_path):
    # A cut never leaves a bad line WITH its break (the break is written last): this
    # is damage, kept aside as a copy; the good lines before it stay.
    data = good_bytes(HEADER) + seal("P1 draw").replace("P1", "P2").encode() + b"\n"
    j = write_raw(tmp_path, data)
    got, message = j.load()
    assert got == HEADER and message == "Journal damaged"
    assert (tmp_path / "journal.bad1").read_bytes() == data


def test_last_line_without_break_is_kept(tmp_path):
    data = good_bytes(HEADER) + seal("P1 draw").encode()
    j = write_raw(tmp_path, data)
    assert j.load() == (HEADER + ["P1 draw"], None)
    j.append("P2 draw")
    assert Journal(Storage(str(tmp_path))).load() == (HEADER + ["P1 draw", "P2 draw"], None)


def test_damage_in_the_middle_is_kept_aside(tmp_path):
    lines = HEADER + ACTIONS[:6]
    raw = good_bytes(lines).split(b"\n")
    raw[4] = raw[4].replace(b"P", b"Q")  # flipped bits in the 5th line
    original = b"\n".join(raw)
    st = Storage(str(tmp_path))
    (tmp_path / "journal.txt").write_bytes(original)
    j = Journal(st)
    got, message = j.load()
    report = j.details
    assert got == lines[:4]
    assert message == "Journal damaged" and report["line"] == 5
    assert report["aside"] == "journal.bad1"
    assert st.read_bytes("journal.bad1") == original  # kept exactly
    assert Journal(st).load() == (lines[:4], None)  # the fresh journal
    # a second damaged file goes beside the first
    (tmp_path / "journal.txt").write_bytes(original)
    j = Journal(st)
    j.load()
    assert j.details["aside"] == "journal.bad2"


def test_garbage_is_kept_aside(tmp_path):
    garbage = bytes((i * 37 + 11) % 256 for i in range(600))
    st = Storage(str(tmp_path))
    (tmp_path / "journal.txt").write_bytes(garbage)
    j = Journal(st)
    got, message = j.load()
    assert got == [] and message == "Journal unreadable" and j.details["aside"] == "journal.bad1"
    assert not st.exists("journal.txt")
    assert st.read_bytes("journal.bad1") == garbage
    j.start(HEADER)  # the device goes on
    assert j.load() == (HEADER, None)


def test_a_hand_written_transcript_is_not_trusted(tmp_path):
    got, message = write_raw(tmp_path, b"game stack31 players 2\nP1 draw\n").load()
    assert got == [] and message == "Journal unreadable"


def test_unreadable_never_raises(tmp_path):
    class Broken(Storage):
        def open_read(self, name):
            raise OSError(5)
    st = Broken(str(tmp_path))
    (tmp_path / "journal.txt").write_bytes(good_bytes(HEADER))
    got, message = Journal(st).load()
    assert got == [] and message == "Journal unreadable"


# --- power cuts -------------------------------------------------------------

def torn_half(n):
    return n // 2


def torn_none(n):
    return 0


def torn_all_but_one(n):
    return max(0, n - 1)


@pytest.mark.parametrize("rename_replaces", [True, False], ids=["littlefs", "fat"])
@pytest.mark.parametrize("torn", [torn_half, torn_none, torn_all_but_one])
def test_power_cut_after_every_write(tmp_path, torn, rename_replaces):
    ops = script()
    expect = states(ops)
    total = count_writes(tmp_path, ops, rename_replaces=rename_replaces)
    assert total > len(ops)
    for n in range(1, total + 1):
        path = str(tmp_path / ("cut%d" % n))
        fs = FlakyFS(cut_at=n, torn=torn, rename_replaces=rename_replaces)
        done, cut = run_until_cut(path, fs, ops)
        assert cut, n
        # power back
        j = Journal(Storage(path, FlakyFS(rename_replaces=rename_replaces)))
        got, message = j.load()
        assert got in (expect[done], expect[done + 1]), (n, fs.log[-1])
        assert message in (None, "Last entry lost"), n  # never "damaged" from a cut
        # the game goes on: enter again what was in flight
        resume = done + 1 if got == expect[done + 1] and got != expect[done] else done
        j2 = Journal(Storage(path, FlakyFS(rename_replaces=rename_replaces)))
        j2.load()
        for op, arg in ops[resume:]:
            apply(j2, op, arg)
        assert Journal(Storage(path)).load() == (expect[-1], None), n
        leftovers = [f for f in os.listdir(path) if f != "journal.txt"]
        assert leftovers == [], n


def test_power_cut_while_repairing_after_a_power_cut(tmp_path):
    ops = script()
    expect = states(ops)
    total = count_writes(tmp_path, ops)
    for n in range(1, total + 1):
        for m in range(1, 8):
            path = str(tmp_path / ("cut%d_%d" % (n, m)))
            done, _ = run_until_cut(path, FlakyFS(cut_at=n), ops)
            try:
                Journal(Storage(path, FlakyFS(cut_at=m))).load()
            except PowerCut:
                pass
            got, report = Journal(Storage(path)).load()
            assert got in (expect[done], expect[done + 1]), (n, m)


def test_replay_reads_the_journal_as_it_is(tmp_path):
    import subprocess
    import sys

    st = Storage(str(tmp_path))
    j = Journal(st, "game.txt")
    j.start(["game stack31 players 2"])
    for a in ("P1 draw", "P2 draw", "P1 play 7H", "P2 draw"):
        j.append(a)
    j.pop()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, "-m", "host_sim", "replay", st.path("game.txt")],
                       cwd=root, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert '"to_move": 2' in r.stdout and '"deck": 50' in r.stdout
