"""tools/fault_sweep, shortened (issue 11): the three games played through the whole
firmware by button presses, then the journal they left flipped and cut at sampled
bytes, the power cut and the flash full at sampled writes, the device booted each time.
Nothing lost beyond the entry in flight, no failed boot, no silent change.

(tests/test_journal_damage.py sweeps the same faults through Session alone, on
transcripts; this one goes through App.start, the screens and the real played journal.)
"""

import os
import importlib.util
from importlib.machinery import SourceFileLoader

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("BENCH_NO_REEXEC", "1")
_loader = SourceFileLoader("fault_sweep", os.path.join(ROOT, "tools", "fault_sweep"))
fs_tool = importlib.util.module_from_spec(importlib.util.spec_from_loader("fault_sweep", _loader))
_loader.exec_module(fs_tool)

BYTE_SAMPLE = {"stack31": 29, "stackdeck": 11, "stress": 23}
WRITE_SAMPLE = {"stack31": 23, "stackdeck": 6, "stress": 4}


@pytest.fixture(scope="module")
def references(tmp_path_factory):
    tmp = str(tmp_path_factory.mktemp("ref"))
    out = {}
    with fs_tool.NoCollect():
        for game in fs_tool.GAMES:
            out[game] = fs_tool.reference(game, tmp)
    return out


def header_end(data):
    """Bytes of the header records (game, option and names lines, and their end record)."""
    off = 0
    for line in data.split(b"\n"):
        if not (line.startswith(b"game ") or line.startswith(b"option ")
                or line.startswith(b"#@names ") or line.startswith(b"#} ")):
            break
        off += len(line) + 1
    return off


def check(t):
    lines = []
    for what, cases in (("boot failed", t.boot_fail), ("silent", t.silent), ("wrong", t.wrong),
                        ("screen, file and second boot disagree", t.disagree)):
        for c in cases[:4]:
            lines.append("%s %s %s: %s: %s" % (t.kind, t.game, what, c[0], c[1]))
    # (for flips: those before the newest whole checkpoint, where nothing may be lost)
    for c in t.lost_cases[:4]:
        lines.append("%s %s lost %d: %s" % (t.kind, t.game, c[1], c[0]))
    assert not lines, "\n".join(lines)


@pytest.mark.parametrize("game", fs_tool.GAMES)
def test_byte_flips_and_cuts_of_the_played_journal(tmp_path, references, game):
    data, _states, _writes = references[game]
    assert len(data) > 300 and header_end(data) > 40
    step = BYTE_SAMPLE[game]
    with fs_tool.NoCollect():  # from byte 0: the header's lines are swept too
        flips = fs_tool.sweep_bytes(game, data, str(tmp_path), "flip", step)
        cuts = fs_tool.sweep_bytes(game, data, str(tmp_path), "cut", step)
        # every byte of the header (its lines and end record), and the first record
        end = header_end(data) + 40
        head = fs_tool.sweep_bytes(game, data, str(tmp_path), "flip", 1, last=end)
        head_cuts = fs_tool.sweep_bytes(game, data, str(tmp_path), "cut", 1, last=end)
    assert flips.cases >= 2 * len(data) // step and cuts.cases >= len(data) // step
    # damage after the last checkpoint is found and said (a journal that ends with a
    # whole checkpoint has no flip after it: every flip is repaired)
    assert flips.said > 0 or not flips.cases_after
    check(flips)
    check(cuts)
    check(head)
    check(head_cuts)
    assert head.cases >= 2 * end  # restored: the game as played (said, not counted)


@pytest.mark.parametrize("game", fs_tool.GAMES)
def test_power_cuts_and_a_full_flash_at_sampled_writes(tmp_path, references, game):
    _data, _states, writes = references[game]
    step = WRITE_SAMPLE[game]
    with fs_tool.NoCollect():
        power = fs_tool.sweep_writes(game, writes, str(tmp_path), "power", step)
        full = fs_tool.sweep_writes(game, writes, str(tmp_path), "full", step)
    assert power.cases >= writes // step and full.cases >= writes // step
    check(power)
    check(full)


def test_a_damaged_option_line_is_restored_from_a_checkpoint(tmp_path, references):
    data, _states, _writes = references["stackdeck"]
    assert b"\noption rounds 2" in data
    at = data.index(b"\noption") + 1
    bad = bytearray(data)
    bad[at] = ord("#")  # 'option rounds 2' -> '#ption rounds 2': fails its seal
    prefixes = fs_tool.prefix_states(data)
    booter = fs_tool.Booter(str(tmp_path / "boot"))
    with fs_tool.NoCollect():
        state, msg, fail = booter.boot(bytes(bad))
        assert fail is None and state == prefixes[-1]
        assert msg == "Game header damaged: restored"
        with open(str(tmp_path / "boot" / "game.txt"), "rb") as f:
            assert f.read() == data  # the header written back
        # without a checkpoint after it, the damaged header sets the game aside: the
        # copies are gone, and the game is never resumed with 10 rounds instead of 2
        first_cp = data.index(b"\n#= ") + 1
        state, msg, fail = booter.boot(bytes(bad[:first_cp]))
        assert fail is None and state is None and msg == "Game header damaged: set aside"
