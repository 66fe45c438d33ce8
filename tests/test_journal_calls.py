"""A Stress call is all or nothing (issue 20): the lines held in RAM while calls are
armed (a call's edges, its decision, its ruling) go to the journal as one sealed group,
an empty line, a `#( n crc` record and its n records. The power is cut at every byte of
every held group's write, for the four kinds of call (a clean win, a tie, a false call,
a bounce): the device, booted on what the flash holds, resumes the game as it stood
before the group or after it, never between, and says "Last call lost" whenever it
drops one, from the group's first byte on (the empty line tells it from a checkpoint
cut after its first byte, which says nothing); a cut before the first byte says
nothing, as nothing was written, and a second boot says nothing again. A checkpoint
cut at any byte costs nothing and says nothing, and the next entry written after it
is whole.
"""

import os

import pytest

from firmware.storage import Storage
from host_sim.device import install
from tests.fw_helpers import new_device
from tests.test_fw_stress import FLIP_MS, choose, enter_centre, flip, open_stress, two_presses
from tests.test_fault_sweep import fs_tool

install()


def win(dev):
    choose(dev, "Centre cards")
    dev.press("OK")
    enter_centre(dev, ("5H", "5S"))
    two_presses(dev, 2, 1, 900)
    dev.press("OK")  # confirm: P1 takes the stacks, a re-deal
    dev.step(FLIP_MS)
    enter_centre(dev, ("9H", "KD"))


def tie(dev):
    choose(dev, "Centre cards")
    dev.press("OK")
    enter_centre(dev, ("7H", "7S"))
    two_presses(dev, 1, 2, 300)
    dev.press("OK")  # a tie: nobody takes, play goes on


def false_call(dev):
    choose(dev, "Centre cards")
    dev.press("OK")
    enter_centre(dev, ("8C", "3D"))
    two_presses(dev, 1, 2, 40000)
    choose(dev, "False call")
    dev.press("OK")


def bounce(dev):
    dev.call_down(1)  # the contact chatters for 2 ms on the way down
    for _ in range(3):
        dev.clock.advance_us(300)
        dev.call_up(1)
        dev.clock.advance_us(300)
        dev.call_down(1)
    dev.step(300)
    dev.clock.advance_us(1500000)
    dev.step(10)
    dev.press("OK")  # settled by the table: a re-deal, its tops skipped
    dev.step(FLIP_MS)
    dev.press("BACK")
    dev.call_up(1)
    dev.step(100)


PATTERNS = {"win": win, "tie": tie, "false call": false_call, "bounce": bounce}


def played(tmp_path, monkeypatch):
    """The four calls played by buttons; every append to game.txt as (size before it,
    its bytes)."""
    writes = []
    orig = Storage.append

    def append(self, name, data):
        if name == "game.txt":
            if not isinstance(data, (bytes, bytearray, memoryview, str)):
                data = b"".join(bytes(p) for p in data)
            writes.append((self.size(name), bytes(data)))
        return orig(self, name, data)

    monkeypatch.setattr(Storage, "append", append)
    dev = new_device(tmp_path / "play")
    open_stress(dev)
    dev.press("OK")
    flip(dev, ("8C", "3D"))
    marks = {}
    for name, fn in PATTERNS.items():
        n = len(writes)
        fn(dev)
        dev.step(100)
        marks[name] = (n, len(writes))
    monkeypatch.setattr(Storage, "append", orig)
    with open(os.path.join(dev.root, "game.txt"), "rb") as f:
        data = f.read()
    return dev, data, writes, marks


def test_every_held_group_is_sealed_and_replays(tmp_path, monkeypatch):
    dev, data, writes, marks = played(tmp_path, monkeypatch)
    groups = [w for w in writes if w[1].startswith(b"\n#( ")]
    for name, (a, b) in marks.items():
        assert any(w[1].startswith(b"\n#( ") for w in writes[a:b]), name
    assert len(groups) >= 4
    from core.transcript import replay
    game, error = replay(data.splitlines())
    assert error is None and game.to_json() == dev.game.to_json()


def test_a_power_cut_at_every_byte_of_a_held_group(tmp_path, monkeypatch):
    dev, data, writes, marks = played(tmp_path, monkeypatch)
    booter = fs_tool.Booter(str(tmp_path / "boot"))
    checked = 0
    with fs_tool.NoCollect():
        for name, (a, b) in marks.items():
            groups = 0
            for size, chunk in writes[a:b]:
                if not chunk.startswith(b"\n#( "):
                    continue
                groups += 1
                assert data[size:size + len(chunk)] == chunk
                before = booter.boot(data[:size])  # a cut before its first byte
                after = booter.boot(data[:size + len(chunk)])
                assert before[2] is None and after[2] is None
                assert before[0] != after[0] and before[1] is None and after[1] is None
                for k in range(1, len(chunk)):
                    state, msg, fail = booter.boot(data[:size + k])
                    assert fail is None, (name, k, fail)
                    if k == len(chunk) - 1:
                        # only the last line break is missing: the call is whole
                        assert (state, msg) == (after[0], None), (name, k, msg)
                    else:
                        assert state == before[0], (name, k, msg)
                        assert msg == "Last call lost", (name, k, msg)
                    if k <= 3 or k == len(chunk) // 2:
                        # a second boot: the same game, nothing said again
                        again = booter.boot(None, again=True)
                        assert again == (state, None, None), (name, k, again)
                    checked += 1
            assert groups, name
    assert checked > 300


def checkpoint_blocks(data):
    """(start, end) of every checkpoint block in a journal (its `#=` lines, its end)."""
    out = []
    off = 0
    start = None
    for raw in data.splitlines(True):
        if raw.startswith(b"#= ") and start is None:
            start = off
        elif raw.startswith(b"#] ") and start is not None:
            out.append((start, off + len(raw)))
            start = None
        elif not raw.startswith(b"#= "):
            start = None
        off += len(raw)
    return out


def next_write(data, end):
    """The texts of the write after `end` (a group's records, or one action) and where
    that write ends."""
    from firmware.journal.record import sealed_body
    lines = data[end:].splitlines(True)
    if lines[0] != b"\n":  # one action
        return [sealed_body(lines[0].rstrip(b"\n")).decode()], end + len(lines[0])
    body = sealed_body(lines[1].rstrip(b"\n"))  # a group: its empty line, its record
    n = int(body.split()[1])
    texts = [sealed_body(ln.rstrip(b"\n")).decode() for ln in lines[2:n + 2]]
    return texts, end + sum(len(ln) for ln in lines[:n + 2])


def test_a_checkpoint_cut_at_every_byte_says_nothing_and_the_next_entry_is_whole(tmp_path):
    data, _states, _writes = fs_tool.reference("stress", str(tmp_path))
    blocks = checkpoint_blocks(data)
    assert len(blocks) >= 2
    booter = fs_tool.Booter(str(tmp_path / "boot"))
    with fs_tool.NoCollect():
        for start, end in blocks[:-1]:  # the last one ends the match: nothing follows
            state0 = booter.boot(data[:start])[0]
            texts, upto = next_write(data, end)
            want = booter.boot(data[:upto])[0]
            for k in range(1, end - start):
                state, msg, fail = booter.boot(data[:start + k])
                assert (state, msg, fail) == (state0, None, None), (start, k, msg, fail)
                if k <= 2 or k == (end - start) // 2:
                    # the game goes on: its next write must not glue onto what the
                    # cut left (a lone '#' was left as it was: the next record glued
                    # onto it, "Journal damaged" at the next boot)
                    s = booter.dev.app.session
                    for t in texts:
                        s.push(t, defer=True)
                    s.flush()
                    again = booter.boot(None, again=True)
                    assert again == (want, None, None), (start, k, again)
