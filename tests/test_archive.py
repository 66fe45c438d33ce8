"""The archive of past games (firmware/archive/store.py): kept when a new game starts over the
game in play (ended or abandoned), within its budget (the oldest dropped, said), safe at
every write against a power cut, never at the cost of the game in play on a full flash,
its index sealed and rebuilt when damaged, and read a row at a time."""

import os
import statistics

import pytest

from core.transcript import replay
from firmware.archive import store as ar
from firmware import journal as jr
from firmware.journal import Journal
from firmware.session import Session
from firmware.storage import Storage
from host_sim.flakyfs import FlakyFS, PowerCut

HERE = os.path.dirname(os.path.abspath(__file__))
TRANSCRIPTS = os.path.join(HERE, "transcripts")


def transcript_game(name):
    with open(os.path.join(TRANSCRIPTS, name)) as f:
        game, error = replay(f.read().splitlines())
    assert error is None
    return game


def play(storage, name, n=None, notes=()):
    """The transcript's game as the device would journal it: Session.new, then each
    action pushed (the first n only, when given). Returns the session."""
    game = transcript_game(name)
    options = {k: v for k, v in game.options.items() if v != type(game).OPTIONS.get(k)}
    s = Session.new(Journal(storage, "game.txt"), game.NAME, game.players, options or None)
    for text in notes:
        storage.append("game.txt", jr.seal_bytes("# " + text))
    actions = game.history if n is None else game.history[:n]
    for a in actions:
        s.push(game.format(a))
    return s


def files(root):
    out = {}
    for base, _, names in os.walk(root):
        for n in names:
            p = os.path.join(base, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, root)] = f.read()
    return out


def index_lines(root):
    with open(os.path.join(root, "archive", "index.txt"), "rb") as f:
        return [jr.unseal(raw) for raw in f.read().splitlines(True)]


def rows(arch):
    p = ar.Pager(arch)
    return [p.row(i) for i in range(p.count)]


def test_a_finished_game_is_kept_as_its_journal_when_the_next_starts(tmp_path):
    st = Storage(str(tmp_path))
    play(st, "stackdeck_full_match_2p.txt", notes=("date 2026-12-01", "table Friday club"))
    journal = st.read_bytes("game.txt")
    arch = ar.Archive(st)
    assert arch.keep() is None  # nothing dropped, nothing to say
    assert not st.exists("game.txt")
    assert st.read_bytes("archive/00001.txt") == journal  # the transcript is the journal
    (r,) = rows(arch)
    game = transcript_game("stackdeck_full_match_2p.txt")
    s = game.state()
    assert (r.seq, r.game, r.players, r.status) == (1, "stackdeck", 2, "end")
    assert r.winners == s["winners"] and r.scores == s["totals"]
    run = [0, 0]
    want = []
    for points in s["rounds"]:
        run = [run[i] + points[i] for i in range(2)]
        want.append(run)
    assert r.rounds() == want
    assert r.cost == arch.cost(len(journal)) and r.moves == len(game.history)
    # the report reads the archived transcript with its notes (header comments)
    from host_sim.report_data import load
    rec = load(str(tmp_path / "archive" / "00001.txt"))
    assert rec.state == s and rec.notes[:2] == ["date 2026-12-01", "table Friday club"]


def test_an_abandoned_game_is_kept_as_left_and_numbers_go_on(tmp_path):
    st = Storage(str(tmp_path))
    arch = ar.Archive(st)
    play(st, "stack31_long_3p.txt", n=20)
    arch.keep()
    play(st, "stack31_long_3p.txt")
    arch.keep()
    Session.new(Journal(st, "game.txt"), "stack31", 2)  # no action: nothing to keep
    assert arch.keep() is None and st.exists("game.txt")
    newest, oldest = rows(arch)
    assert (oldest.seq, oldest.status, oldest.moves) == (1, "quit", 20)
    assert (newest.seq, newest.status) == (2, "end")
    g = transcript_game("stack31_long_3p.txt")
    assert newest.winners == g.state()["winners"] and newest.scores == g.state()["piles_won"]
    piles = g.state()["piles"]
    # the game's own order, each pile's owner and value
    assert newest.piles() == [(s, piles[s]["owner"] or 0, piles[s]["value"]) for s in "HDCS"]
    assert sorted(os.listdir(tmp_path / "archive")) == ["00001.txt", "00002.txt", "index.txt"]


def test_stress_calls_and_median_margins(tmp_path):
    st = Storage(str(tmp_path))
    play(st, "stress_simulated_match_seed4.txt")
    ar.Archive(st).keep()
    (r,) = rows(ar.Archive(st))
    g = transcript_game("stress_simulated_match_seed4.txt")
    stats = g.call_stats()
    calls = r.calls()
    for p in range(2):
        won, tied, false, med = calls[p]
        assert (won, tied, false) == (stats["won"][p], stats["tied"][p], stats["false"][p])
        margins = [c["margin_us"] for c in g.state()["calls"]
                   if c["final"] and c.get("ruling") != "void" and not c["tie"]
                   and c["margin_us"] is not None and c["winner"] == p + 1]
        assert len(margins) == stats["margins"][p]
        assert med == sorted(margins)[(len(margins) - 1) // 2]  # few: exact
    assert r.winners == [g.state()["match_winner"]]


def test_median_from_the_histogram_is_fair():
    import random
    rnd = random.Random(5)
    from firmware.archive.summary import Margins
    m = Margins()
    xs = [int(rnd.lognormvariate(8, 1.2)) for _ in range(2001)]
    for x in xs:
        m.add(x)
    for x in xs[:300]:  # voided later
        m.remove(x)
    true = statistics.median_low(xs[300:])
    assert m.over and abs(m.median() - true) <= true * 0.13


def test_budget_drops_the_oldest_and_says_how_many(tmp_path):
    st = Storage(str(tmp_path))
    arch = ar.Archive(st, budget=3 * 4096, play_room=0)
    for k in range(3):
        play(st, "stack31_long_3p.txt", n=10 + k)
        assert arch.keep() is None
    play(st, "stack31_long_3p.txt", n=30)
    assert arch.keep() == "Archive full: 1 oldest game dropped"
    assert [r.seq for r in rows(arch)] == [4, 3, 2]
    assert sorted(os.listdir(tmp_path / "archive")) == ["00002.txt", "00003.txt", "00004.txt", "index.txt"]
    h, _ = arch.header()
    assert h[:4] == [5, 2, 3, 3 * 4096]
    arch.budget = 1 * 4096
    play(st, "stack31_long_3p.txt", n=5)
    assert arch.keep() == "Archive full: 3 oldest games dropped"
    assert [r.seq for r in rows(arch)] == [5]
    # a game bigger than the whole budget is not kept (said), and nothing is dropped
    arch.budget = 100
    play(st, "stack31_long_3p.txt", n=5)
    assert arch.keep() == "Game too long for the archive: not kept"
    assert [r.seq for r in rows(arch)] == [5]


def test_room_for_the_game_in_play_comes_first(tmp_path):
    fs = FlakyFS(capacity=24 * 512)
    st = Storage(str(tmp_path), fs)
    arch = ar.Archive(st, budget=1 << 20, play_room=12 * 512)
    said = []
    for k in range(12):
        play(st, "stack31_long_3p.txt", n=40)
        said.append(arch.keep())
        assert st.free() >= 12 * 512 or not rows(arch)  # the archive gave way
    assert any(s and "oldest" in s for s in said)
    assert len(rows(arch)) >= 2


def _archive_steps_ok(root, before_in_play, before_files):
    """After a power cut anywhere in keep(): the game is either still in play (whole)
    or archived whole; every other archived game is whole or was dropped; and after
    check() the index lists exactly the transcripts there."""
    st = Storage(root)
    st.recover()
    arch = ar.Archive(st, budget=3 * 4096, play_room=0)
    now = files(root)
    game = now.get("game.txt")
    archived = [n for n in now if n.startswith("archive/0")]
    kept = [n for n in archived if now[n] == before_in_play and n not in before_files]
    assert game == before_in_play or (game is None and len(kept) == 1), (game, kept)
    for n in archived:
        if n in before_files:
            assert now[n] == before_files[n]
    arch.check()
    listed = sorted(ar.name_of(r.seq) for r in rows(arch))
    there = sorted(n for n in os.listdir(os.path.join(root, "archive")) if ar.seq_of(n))
    assert listed == there
    h, _ = arch.header()
    assert h[2] == len(listed) and h[3] == sum(r.cost for r in rows(arch))
    assert sum(r.cost for r in rows(arch)) <= 3 * 4096
    if game is None:
        assert ar.name_of(h[0] - 1) in listed  # the game in play went in last
    return game is None


def test_power_cut_at_every_write_of_archiving(tmp_path):
    # an archive at its budget (3 games), then a fourth kept: rename, index, drop
    seed = tmp_path / "seed"
    st = Storage(str(seed))
    arch = ar.Archive(st, budget=3 * 4096, play_room=0)
    for k in range(3):
        play(st, "stack31_long_3p.txt", n=10 + k)
        arch.keep()
    play(st, "stackdeck_full_match_2p.txt")
    in_play = st.read_bytes("game.txt")
    start = files(str(seed))
    # how many writes a whole keep() makes
    whole = tmp_path / "whole"
    _copy(start, whole)
    fs = FlakyFS()
    ar.Archive(Storage(str(whole), fs), budget=3 * 4096, play_room=0).keep()
    total = fs.writes
    assert total >= 4  # rename, index.new open + write(s), rename, removes
    outcomes = []
    for cut in range(1, total + 1):
        d = tmp_path / ("cut%d" % cut)
        _copy(start, d)
        fs = FlakyFS(cut_at=cut)
        with pytest.raises(PowerCut):
            ar.Archive(Storage(str(d), fs), budget=3 * 4096, play_room=0).keep()
        outcomes.append(_archive_steps_ok(str(d), in_play, {k: v for k, v in start.items()
                                                            if k.startswith("archive/0")}))
    assert outcomes[0] is False and outcomes[-1] is True


def test_power_cut_at_every_write_of_a_drop_for_room(tmp_path):
    seed = tmp_path / "seed"
    st = Storage(str(seed))
    arch = ar.Archive(st, play_room=0)
    for k in range(3):
        play(st, "stack31_long_3p.txt", n=10 + k)
        arch.keep()
    start = files(str(seed))
    for cut in range(1, 8):
        d = tmp_path / ("cut%d" % cut)
        _copy(start, d)
        fs = FlakyFS(cut_at=cut, capacity=10 ** 9)
        try:
            ar.Archive(Storage(str(d), fs)).make_room(10 ** 9)
        except PowerCut:
            pass
        st2 = Storage(str(d))
        st2.recover()
        arch2 = ar.Archive(st2)
        arch2.check()
        listed = sorted(ar.name_of(r.seq) for r in rows(arch2))
        there = sorted(n for n in os.listdir(d / "archive") if ar.seq_of(n))
        assert listed == there
        for n in there:
            assert files(str(d))["archive/" + n] == start["archive/" + n]


def _copy(tree, dest):
    for rel, data in tree.items():
        p = os.path.join(str(dest), rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)


def test_a_full_flash_drops_archived_games_not_the_game_in_play(tmp_path):
    fs = FlakyFS(capacity=128 * 512)
    st = Storage(str(tmp_path), fs)
    arch = ar.Archive(st, budget=1 << 20, play_room=0)
    for k in range(4):
        play(st, "stack31_long_3p.txt")
        arch.keep()
    assert len(rows(arch)) == 4
    # fill the flash with something else, then play: every entry is saved
    archived = sum(r.cost for r in rows(arch))
    st.write_atomic("ballast.bin", b"x" * (st.free() - 8 * 512))
    s = play(st, "stackdeck_full_match_2p.txt", n=0)
    game = transcript_game("stackdeck_full_match_2p.txt")
    assert 8 * 512 < 8309 < archived + 8 * 512  # the match fits only if they go
    for a in game.history:
        s.push(game.format(a))  # IllegalAction("flash full: not saved") would fail here
    assert len(rows(arch)) < 4
    # what it said waits for History outside the archive's module (which a board drops
    # after the drop for room): a fresh import of the module still finds it
    import importlib
    import sys
    saved = sys.modules.pop("firmware.archive.store")
    try:
        fresh = importlib.import_module("firmware.archive.store")
        assert fresh is not saved and fresh.take_said().startswith("Flash full: ")
        assert fresh.take_said() is None  # said once
    finally:
        sys.modules["firmware.archive.store"] = saved
        sys.modules["firmware"].archive.store = saved  # the package's attribute too
    resumed, _ = Session.resume(Journal(Storage(str(tmp_path)), "game.txt"))
    assert resumed.game.state() == game.state()
    assert _archive_consistent(str(tmp_path))


def _archive_consistent(root):
    arch = ar.Archive(Storage(root))
    arch.check()
    listed = sorted(ar.name_of(r.seq) for r in rows(arch))
    return listed == sorted(n for n in os.listdir(os.path.join(root, "archive")) if ar.seq_of(n))


@pytest.mark.parametrize("damage", ["row", "header", "torn", "gone"])
def test_a_damaged_index_is_rebuilt_from_the_transcripts(tmp_path, damage):
    st = Storage(str(tmp_path))
    arch = ar.Archive(st)
    for name in ("stack31_long_3p.txt", "stackdeck_full_match_2p.txt", "stress_simulated_match_seed7.txt"):
        play(st, name)
        arch.keep()
    want = [vars(r) for r in rows(arch)]
    path = tmp_path / "archive" / "index.txt"
    data = bytearray(path.read_bytes())
    if damage == "row":
        k = data.index(b"stackdeck")
        data[k] = ord("X")
    elif damage == "header":
        data[3] = ord("X")
    elif damage == "torn":
        data = data[:-10]
    path.write_bytes(bytes(data))
    if damage == "gone":
        path.unlink()
    arch = ar.Archive(Storage(str(tmp_path)))
    try:
        said = arch.check()
        got = rows(arch)
    except ar.Damaged:
        said = arch.rebuild()
        got = rows(arch)
    assert said == {"row": "1 game re-read", "header": "Archive index mended",
                    "torn": "1 game re-read", "gone": "Archive index lost: rebuilt (3 games)"}[damage]
    assert [vars(r) for r in got] == want
    assert arch.header()[0][0] == 4  # the next number goes on


def test_the_pager_keeps_the_heap_flat_and_reads_rows_in_place(tmp_path):
    st = Storage(str(tmp_path))
    arch = ar.Archive(st, budget=1 << 30, play_room=0)
    play(st, "stack31_long_3p.txt", n=12)
    arch.keep()
    # many rows: the index of a long season (written the way keep() writes them)
    h, _ = arch.header()
    (r0,) = rows(arch)
    texts = []
    for seq in range(2, 401):
        texts.append("%s stack31 3 end 4096 %d 1 1,2,1 p=H1.S2.D3.C1" % (ar.name_of(seq)[:5], seq))
    arch._write_index([401, 1, 400, 400 * 4096], 0, texts)
    p = ar.Pager(arch)
    assert p.count == 400
    assert p.row(0).seq == 400 and p.row(399).seq == 1 and p.row(5).seq == 395
    assert p.row(398).seq == 2 and p.row(1).moves == 399


def test_the_index_lines_are_sealed(tmp_path):
    st = Storage(str(tmp_path))
    play(st, "stack31_long_3p.txt")
    ar.Archive(st).keep()
    lines = index_lines(str(tmp_path))
    assert all(line for line in lines)  # every line's CRC checks
    assert lines[0].startswith("archive 2 next 2 first 1 games 1 ")


def test_tools_pull_and_the_report_read_an_archive_made_by_the_firmware(tmp_path):
    """Games archived by the firmware on a virtual board's flash: tools/pull copies them
    (and the game in play), and the report's numbers agree with the index's rows."""
    import csv
    import io

    from tests import test_pull as tp
    if tp.pytestmark.args[0]:
        pytest.skip(tp.pytestmark.kwargs["reason"])
    from host_sim import report
    from host_sim.virtual_board import VirtualBoard
    flash = tmp_path / "flash"
    st = Storage(str(flash))
    arch = ar.Archive(st)
    names = ["stackdeck_full_match_2p.txt", "stress_simulated_match_seed7.txt", "stack31_long_3p.txt"]
    for name in names:
        play(st, name, notes=("table Friday club",))
        arch.keep()
    play(st, "stack31_long_5p.txt", n=30)  # the game in play
    dest = tmp_path / "games"
    dest.mkdir()
    with VirtualBoard(str(flash)) as board:
        r = tp.pull(dest, "--port", board.port)
    assert r.returncode == 0, r.stdout + r.stderr
    assert tp.copied(r) == ["archive/00001.txt", "archive/00002.txt", "archive/00003.txt",
                            "archive/index.txt", "game.txt"]
    for rel in ("archive/00001.txt", "archive/00002.txt", "archive/00003.txt", "archive/index.txt"):
        assert (dest / rel).read_bytes() == (flash / rel).read_bytes()
    out, err = io.StringIO(), io.StringIO()
    code = report.main([str(dest), "--out", str(tmp_path / "report")], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert "report: 4 games ->" in out.getvalue()
    with open(tmp_path / "report" / "games.csv") as f:
        table = {row["file"]: row for row in csv.DictReader(f)}
    for row in rows(ar.Archive(Storage(str(dest)))):
        got = table["archive/%s" % ar.name_of(row.seq)]
        assert got["game"] == row.game and int(got["players"]) == row.players
        assert got["scores"] == " ".join(str(s) for s in row.scores)
        assert got["winners"] == " ".join("P%d" % w for w in row.winners)
        assert int(got["moves"]) == row.moves and got["notes"] == "table Friday club"
    with open(tmp_path / "report" / "stackdeck_rounds.csv") as f:
        rounds = list(csv.reader(f))
    deck = [r for r in rows(ar.Archive(Storage(str(dest)))) if r.game == "stackdeck"][0]
    assert str(deck.rounds()[-1][0]) in rounds[-1] or str(deck.rounds()[-1][1]) in rounds[-1]


def test_the_names_it_was_played_with_are_kept_in_its_row(tmp_path):
    """The transcript's `#@names` line goes into the row (quoted: spaces, commas, '#',
    '%' and bytes beyond ASCII survive the index's format); without one, P1, P2.."""
    from core import names as core_names
    st = Storage(str(tmp_path))
    arch = ar.Archive(st)
    odd = ["ANN", "Bo, B", "#1 %x", "Zoë"]
    s = play(st, "stackdeck_tie_4p.txt", n=0)
    st.append("game.txt", jr.seal_bytes(core_names.line(odd)))
    g = transcript_game("stackdeck_tie_4p.txt")
    for a in g.history:
        s.push(g.format(a))
    arch.keep()
    play(st, "stack31_long_3p.txt", n=5)
    arch.keep()
    play(st, "stack31_long_3p.txt", n=6)
    arch.keep()
    third, second, first = rows(arch)
    assert first.names() == odd
    assert second.names() == ["P1", "P2", "P3"] and "n=" not in index_lines(str(tmp_path))[2]
    assert third.names() == ["P1", "P2", "P3"]
    # a seat named like another seat's default is kept as it is
    assert ar.Row(ar.row_text(9, "end", 4096, ("stack31", 2, 3, True, [1], [1, 0], "p=", ["P2", "P1"], None),
                              10, 0)).names() == ["P2", "P1"]


def test_a_version_1_index_is_mended_to_version_2_without_a_word(tmp_path):
    """An index written before this version (no digests, rows without the transcript's
    size, Stack 31 piles H S D C without values) is read, and rewritten once with its
    rows kept (the size and CRC added): no game re-read, nothing said."""
    st = Storage(str(tmp_path))
    arch = ar.Archive(st)
    play(st, "stack31_long_3p.txt")
    arch.keep()
    size = st.size("archive/00001.txt")
    old = ["archive 1 next 2 first 1 games 1 bytes %d" % arch.cost(size),
           "00001 stack31 3 end %d 102 3 1,0,3 p=H1.S3.D3.C3" % arch.cost(size)]
    st.write_atomic("archive/index.txt", b"".join(jr.seal_bytes(t) for t in old))
    fresh = ar.Archive(Storage(str(tmp_path)))
    assert not fresh.sound()
    assert fresh.check() is None  # an upgrade, not damage
    assert fresh.sound()
    (r,) = rows(fresh)
    assert (r.seq, r.moves, r.winners, r.size) == (1, 102, [3], size)
    assert r.piles() == [("H", 1, -1), ("S", 3, -1), ("D", 3, -1), ("C", 3, -1)]
    assert index_lines(str(tmp_path))[0].startswith("archive 2 ")
