"""A checkpoint block is written in parts, sealed into the session's hold buffer: no
contiguous copy of the whole block (a Stack the Deck checkpoint holds every ended
round, so it grows with the match). The file bytes are those of the block written in
one piece; a power cut or a full flash between the parts loses nothing."""

import os
import random

import pytest

from firmware.journal import Journal, checkpoint_bytes, checkpoint_parts
from firmware.journal.record import block_crc, seal_bytes
from firmware.session import HOLD_BYTES, Session
from firmware.storage import Storage
from host_sim.flakyfs import FlakyFS, PowerCut


def one_piece(lines, moves):
    """The block as it was written before: every record sealed, joined."""
    parts = [seal_bytes("#= " + line) for line in lines]
    parts.append(seal_bytes("#] %d %d %04x" % (len(lines), moves, block_crc(lines))))
    return b"".join(parts)


def test_the_parts_are_the_block_in_one_piece():
    rnd = random.Random(11)
    for _ in range(300):
        lines = ["".join(rnd.choice("ab 1Pé-") for _ in range(rnd.randint(1, 110))).strip()
                 or "x" for _ in range(rnd.randint(1, 30))]
        moves = rnd.randint(0, 5000)
        want = one_piece(lines, moves)
        assert checkpoint_bytes(lines, moves) == want
        for size in (24, 64, 130, 512, HOLD_BYTES):
            buf = bytearray(size)
            parts = checkpoint_parts(lines, moves, buf)
            total, last = next(parts)
            got = []
            for p in parts:
                assert len(p) <= size or bytes(p).startswith(b"#= ")  # a line too long alone
                got.append(bytes(p))
            assert b"".join(got) == want and total == len(want)
            assert want[-last:].startswith(b"#] ") and want[-last - 1:-last] == b"\n"


def long_match(root, fs=None, rounds=24, watch=None):
    """A 4-player Stack the Deck match by counters; returns the session."""
    st = Storage(root, fs)
    if watch is not None:
        append = st.append

        def watched(name, data):
            if not isinstance(data, (str, bytes, bytearray, memoryview)):
                data = [bytes(p) for p in data]
                watch.append([len(p) for p in data])
            return append(name, data)
        st.append = watched
    s = Session.new(Journal(st, "game.txt"), "stackdeck", 4, {"rounds": 40})
    for r in range(rounds):
        for p in range(1, 5):
            s.push("P%d counts %d %d 1 0 0 0" % (p, (r + p) % 2, (r * p) % 2))
        s.push("P%d out" % (1 + r % 4))
        s.push("end")
    return s


def test_a_long_match_writes_its_checkpoints_in_parts_of_the_hold_buffer(tmp_path):
    seen = []
    s = long_match(str(tmp_path), watch=seen)
    assert seen and max(max(p) for p in seen) <= HOLD_BYTES
    assert max(sum(p) for p in seen) > HOLD_BYTES  # a block bigger than the buffer
    assert max(len(p) for p in seen) >= 2
    data = (tmp_path / "game.txt").read_bytes()
    block = one_piece(s.header + s.game.checkpoint(), s.game.moves)
    assert data.endswith(block)  # the last checkpoint, byte for byte
    back, report = Session.resume(Journal(Storage(str(tmp_path)), "game.txt"))
    assert report is None and back.game.to_json() == s.game.to_json()


def last_checkpoint_writes(tmp_path):
    """The FlakyFS write operations of the last checkpoint of a long match (its open
    and its parts), and the match's state before and after it."""
    fs = FlakyFS()
    root = str(tmp_path / "probe")
    s = long_match(root, fs, rounds=23)
    for p in range(1, 5):
        s.push("P%d counts 1 0 0 0 0 0" % p)
    before = fs.writes
    s.push("P1 out")  # a checkpoint follows the action
    ops = [i + 1 for i in range(before, fs.writes) if fs.log[i][0] == "write"]
    return ops


def test_a_power_cut_at_any_part_of_a_checkpoint_loses_nothing(tmp_path):
    ops = last_checkpoint_writes(tmp_path)
    assert len(ops) >= 3  # the action, then two parts at least
    for n, cut in enumerate(ops[1:]):
        root = str(tmp_path / ("cut%d" % n))
        fs = FlakyFS(cut_at=cut)
        s = long_match(root, fs, rounds=23)
        for p in range(1, 5):
            s.push("P%d counts 1 0 0 0 0 0" % p)
        with pytest.raises(PowerCut):
            s.push("P1 out")
        want = s.game.to_json()  # the action is on flash before its checkpoint
        back, report = Session.resume(Journal(Storage(root), "game.txt"))
        assert report is None and back.game.to_json() == want
        back.push("end")  # and the journal goes on and resumes
        again, report = Session.resume(Journal(Storage(root), "game.txt"))
        assert report is None and again.game.to_json() == back.game.to_json()


@pytest.mark.parametrize("part", [1, 2])
def test_a_full_flash_at_a_part_of_a_checkpoint_keeps_the_game(tmp_path, part):
    ops = last_checkpoint_writes(tmp_path)
    root = str(tmp_path / "full")
    fs = FlakyFS(enospc_at=ops[part])
    s = long_match(root, fs, rounds=23)
    for p in range(1, 5):
        s.push("P%d counts 1 0 0 0 0 0" % p)
    s.push("P1 out")  # the checkpoint fails: made filler, the game goes on
    assert s.since > 0  # no checkpoint was written
    data = open(os.path.join(root, "game.txt"), "rb").read()
    assert data.rstrip(b"\n").endswith(b"#")  # filler, no half block
    s.push("end")
    back, report = Session.resume(Journal(Storage(root), "game.txt"))
    assert report is None and back.game.to_json() == s.game.to_json()
