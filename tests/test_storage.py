"""The file layer: plain operations, atomic writes, recovery, the power-cut seam."""

import os

import pytest

from firmware.storage import Storage
from host_sim.flakyfs import FlakyFS, PowerCut


def test_plain_operations(tmp_path):
    root = tmp_path / "flash"
    st = Storage(str(root))  # the root folder is created
    assert root.is_dir()
    assert st.read_bytes("a.txt") is None and st.read_text("a.txt") is None
    assert not st.exists("a.txt") and st.size("a.txt") == 0
    st.append("a.txt", "one\n")
    st.append("a.txt", b"two\n")
    assert st.read_text("a.txt") == "one\ntwo\n" and st.size("a.txt") == 8
    st.write_atomic("b.json", "{\"x\": \u00e9}")
    assert st.read_text("b.json") == "{\"x\": \u00e9}"
    st.write_atomic("b.json", b"second")
    assert st.read_bytes("b.json") == b"second"
    assert st.listdir() == ["a.txt", "b.json"]
    st.rename("a.txt", "c.txt")
    assert st.remove("c.txt") is True and st.remove("c.txt") is False
    assert st.listdir() == ["b.json"]
    f = st.open_read("b.json")
    assert f.readline() == b"second"
    f.close()


def test_root_slash_paths(tmp_path):
    assert Storage("/").path("journal.txt") == "/journal.txt"
    assert Storage(str(tmp_path) + "/").path("x") == str(tmp_path) + "/x"


def test_streamed_atomic_write_and_abort(tmp_path):
    st = Storage(str(tmp_path))
    st.write_atomic("s", "old")
    w = st.atomic("s")
    w.write("ne")
    w.write(b"w")
    assert st.read_text("s") == "old"  # not yet
    w.commit()
    assert st.read_text("s") == "new"
    w = st.atomic("s")
    w.write("never")
    w.abort()
    assert st.read_text("s") == "new" and st.listdir() == ["s"]


def test_keep_aside_numbers(tmp_path):
    st = Storage(str(tmp_path))
    for i in range(3):
        st.write_atomic("settings.json", str(i))
        assert st.keep_aside("settings.json") == "settings.bad%d" % (i + 1)
    assert st.read_text("settings.bad3") == "2"
    st.write_atomic("x", "1")
    assert st.keep_aside("x") == "x.bad1"
    st.write_atomic("y.txt", "1")
    st.write_atomic("y.txt", "1")
    for i in range(2):
        st.write_atomic("y.txt", str(i))
        st.keep_aside("y.txt", limit=1)
    assert st.read_text("y.bad1") == "1"  # the last slot is reused


@pytest.mark.parametrize(
    "files, expect, message",
    [
        ({"s": "old", "s.new": "ne"}, "old", "dropped"),  # cut while writing .new
        ({"s.new": "new"}, None, "dropped"),  # first write, not committed
        ({"s.new": "new", "s.old": "old"}, "new", "finished"),  # FAT, between renames
        ({"s": "new", "s.old": "old"}, "new", None),  # FAT, before removing .old
        ({"s.old": "old"}, "old", "restored"),
        ({"s": "old", "s.new": "x", "s.old": "y"}, "old", "dropped"),
        ({"s": "old"}, "old", None),
    ],
)
def test_recover(tmp_path, files, expect, message):
    for name, data in files.items():
        (tmp_path / name).write_text(data)
    st = Storage(str(tmp_path))
    done = st.recover()
    assert st.read_text("s") == expect
    assert [n for n in st.listdir() if n != "s"] == []
    if message:
        assert len(done) == 1 and message in done[0]
    else:
        assert done == []


def test_flaky_torn_write_holds_exactly_what_was_written(tmp_path):
    fs = FlakyFS(cut_at=3)
    st = Storage(str(tmp_path), fs)
    st.append("j", b"abcdef\n")  # open (1), write (2)
    with pytest.raises(PowerCut):
        st.append("j", b"0123456789\n")  # open (3): cut, nothing written
    assert (tmp_path / "j").read_bytes() == b"abcdef\n"
    with pytest.raises(PowerCut):
        st.read_bytes("j")  # the power is off
    fs = FlakyFS(cut_at=2, torn=lambda n: 4)
    st = Storage(str(tmp_path), fs)
    with pytest.raises(PowerCut):
        st.append("j", b"0123456789\n")
    assert (tmp_path / "j").read_bytes() == b"abcdef\n0123"
    assert fs.writes == 2 and fs.dead


def test_power_cut_is_not_an_exception(tmp_path):
    # firmware code may catch Exception; it must not swallow a power cut
    assert not issubclass(PowerCut, Exception)


@pytest.mark.parametrize("rename_replaces", [True, False], ids=["littlefs", "fat"])
def test_atomic_write_survives_a_cut_at_every_write(tmp_path, rename_replaces):
    probe = FlakyFS(rename_replaces=rename_replaces)
    st = Storage(str(tmp_path / "probe"), probe)
    st.write_atomic("s", "old contents")
    first = probe.writes
    st.write_atomic("s", "new contents")
    total = probe.writes - first
    assert total >= 3
    for n in range(1, total + 1):
        path = str(tmp_path / ("cut%d" % n))
        fs = FlakyFS(rename_replaces=rename_replaces)
        st = Storage(path, fs)
        st.write_atomic("s", "old contents")
        fs.cut_at = fs.writes + n
        with pytest.raises(PowerCut):
            st.write_atomic("s", "new contents")
        st = Storage(path)
        st.recover()
        assert st.read_text("s") in ("old contents", "new contents")
        assert os.listdir(path) == ["s"]
