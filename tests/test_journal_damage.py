"""The journal under faults, through firmware.session.Session (issue 11): power cuts at
every write, a full flash at every write, a read-only flash, byte flips and cuts of
real journals of the three games; resume from checkpoints equals a full replay; a
long Stress journal resumes with bounded work."""

import os

import pytest

from core import transcript
from core.stress import Stress
from core.stress.sim import Match
from firmware.journal import Journal
from firmware.session import Session
from firmware.storage import OsFS, Storage
from host_sim.flakyfs import FlakyFS, PowerCut

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(autouse=True)
def calls_kept():
    old = Stress.CALLS_KEPT
    Stress.CALLS_KEPT = 32  # as the firmware sets it
    yield
    Stress.CALLS_KEPT = old


def split(lines):
    head, opts, body = None, {}, []
    for line in lines:
        text = line.split("#")[0].strip()
        if not text:
            continue
        if head is None:
            head = text.split()
        elif text.startswith("option ") and not body:
            opts[text.split()[1]] = text.split()[2]
        else:
            body.append(text)
    return head[1], int(head[3]), opts, body


def good_prefix(name, players, opts, body):
    g, err = transcript.replay(["game %s players %d" % (name, players)]
                               + ["option %s %s" % kv for kv in opts.items()] + body)
    return body if err is None else body[:err[0] - 2 - len(opts)]


def transcript_games():
    out = []
    for fn in sorted(os.listdir(os.path.join(HERE, "transcripts"))):
        with open(os.path.join(HERE, "transcripts", fn)) as f:
            lines = f.read().splitlines()
        try:
            name, players, opts, body = split(lines)
            body = good_prefix(name, players, opts, body)
        except Exception:  # noqa: BLE001 - no usable header: not a game
            continue
        if len(body) >= 6:
            out.append((fn, name, players, opts, body))
    return out


def stress_game(seed, games=2, n=None):
    m = Match(seed, games=games)
    name, players, opts, body = split(m.lines)
    return name, players, opts, body[:n] if n else body


def play(st, name, players, opts, body, undo_every=0):
    """Journal a game through Session (edges held like the Stress screen does);
    returns the session and the live actions as the screen saw them."""
    s = Session.new(Journal(st, "game.txt"), name, players, opts)
    for i, line in enumerate(body):
        s.push(line, defer=line.startswith("@"))
        if undo_every and i % undo_every == undo_every - 1:
            s.undo()
            s.push(line, defer=line.startswith("@"))
    s.flush()
    return s


def live_text(path):
    with open(path) as f:
        return f.read().splitlines()


def state_of(lines):
    g, err = transcript.replay(lines)
    assert err is None, err
    return g.to_json()


def resume(root, fs=None):
    j = Journal(Storage(root, fs), "game.txt")
    return Session.resume(j)


# --- resume from checkpoints == full replay --------------------------------------------

@pytest.mark.parametrize("fn,name,players,opts,body", transcript_games(),
                         ids=[g[0] for g in transcript_games()])
def test_resume_equals_full_replay_for_every_transcript(tmp_path, fn, name, players, opts, body):
    s = play(Storage(str(tmp_path)), name, players, opts, body, undo_every=5)
    text = live_text(str(tmp_path / "game.txt"))
    assert state_of(text) == s.game.to_json()  # the file replays as a plain transcript
    back, report = resume(str(tmp_path))
    assert report is None and back.game.to_json() == s.game.to_json()


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_resume_and_undo_of_simulated_stress_matches(tmp_path, seed):
    name, players, opts, body = stress_game(seed, games=3)
    s = play(Storage(str(tmp_path)), name, players, opts, body, undo_every=29)
    text = live_text(str(tmp_path / "game.txt"))
    assert any(line.startswith("#] ") for line in text)  # checkpoints were written
    assert state_of(text) == s.game.to_json()
    back, report = resume(str(tmp_path))
    assert report is None and back.game.to_json() == s.game.to_json()
    assert len(back.game.history) <= 3 * Session.EVERY
    live = [ln.split("  #")[0] for ln in text if ln[:1] not in ("#", "")]
    for k in range(1, Session.EVERY + 1):  # at least EVERY undo steps after a resume
        back.undo()
        assert back.game.to_json() == state_of(live[:-k]), k
    again, report = resume(str(tmp_path))
    assert report is None and again.game.to_json() == back.game.to_json()
    assert state_of(live_text(str(tmp_path / "game.txt"))) == back.game.to_json()


class CountingFS(OsFS):
    def __init__(self):
        self.read = 0

    def open(self, path, mode):
        f = open(path, mode)
        if mode != "rb":
            return f
        outer = self

        class F:
            def read(self, *a):
                b = f.read(*a)
                outer.read += len(b)
                return b

            def readline(self, *a):
                b = f.readline(*a)
                outer.read += len(b)
                return b

            def seek(self, *a):
                return f.seek(*a)

            def close(self):
                f.close()
        return F()


def test_a_2000_line_stress_journal_resumes_with_bounded_work(tmp_path):
    name, players, opts, body = stress_game(12, games=99, n=2000)
    # The records before the newest checkpoint are read once, their seals checked (a
    # damaged one is repaired, so the file still replays to the game: issue 20); what
    # is read beyond that (the checkpoints, the replay after them) stays bounded.
    reads = []
    for n in (250, 2000):
        root = str(tmp_path / str(n))
        s = play(Storage(root), name, players, opts, body[:n])
        fs = CountingFS()
        back, report = resume(root, fs)
        assert report is None and back.game.to_json() == s.game.to_json()
        assert len(back.game.history) <= 3 * Session.EVERY
        reads.append(fs.read - os.path.getsize(os.path.join(root, "game.txt")))
    assert reads[1] < 16000, reads
    assert reads[1] < 2 * reads[0] + 4000, reads


# --- power cuts, a full flash, a read-only flash -------------------------------------

GAMES = [
    ("stack31", lambda: transcript_by_name("stack31_long_3p.txt")),
    ("stackdeck", lambda: transcript_by_name("stackdeck_full_match_2p.txt")),
    ("stress", lambda: stress_game(3, 2, 90)),
]


def transcript_by_name(fn):
    for g in transcript_games():
        if g[0] == fn:
            return g[1:]
    raise AssertionError(fn)


def count_writes(tmp_path, game):
    fs = FlakyFS()
    play(Storage(str(tmp_path / "count"), fs), *game, undo_every=7)
    return fs.writes


def run_faulty(root, fs, game):
    """Play until the fault; the actions the game in RAM held when it stopped."""
    st = Storage(root, fs)
    s = None
    name, players, opts, body = game
    try:
        s = Session.new(Journal(st, "game.txt"), name, players, opts)
        for i, line in enumerate(body):
            s.push(line, defer=line.startswith("@"))
            if i % 7 == 6:
                s.undo()
                s.push(line, defer=line.startswith("@"))
        s.flush()
    except PowerCut:
        pass
    return s


@pytest.mark.parametrize("which", [g[0] for g in GAMES])
def test_a_power_cut_at_every_write_loses_at_most_the_entry_in_flight(tmp_path, which):
    game = dict(GAMES)[which]()
    total = count_writes(tmp_path, game)
    step = max(1, total // 60)
    for n in list(range(1, total + 1, step)) + [total]:
        root = str(tmp_path / ("cut%d" % n))
        s = run_faulty(root, FlakyFS(cut_at=n), game)
        back, report = resume(root)
        if s is None or back is None:
            assert back is None or back.game.moves == 0, n
            continue
        # held (deferred) lines were in flight too
        confirmed = s.game.moves - s.held
        assert confirmed - 1 <= back.game.moves <= s.game.moves + 1, (n, confirmed, back.game.moves)
        assert report in (None, "Last entry lost", "Last call lost"), (n, report)
        text = live_text(os.path.join(root, "game.txt"))
        assert state_of(text) == back.game.to_json(), n  # the file is still a transcript


@pytest.mark.parametrize("which", [g[0] for g in GAMES])
def test_a_full_flash_at_every_write_is_refused_and_ram_equals_flash(tmp_path, which):
    game = dict(GAMES)[which]()
    total = count_writes(tmp_path, game)
    step = max(1, total // 40)
    from core.errors import IllegalAction
    for n in range(2, total + 1, step):
        root = str(tmp_path / ("full%d" % n))
        fs = FlakyFS(enospc_at=n)
        st = Storage(root, fs)
        name, players, opts, body = game
        refused = None
        try:
            s = Session.new(Journal(st, "game.txt"), name, players, opts)
        except IllegalAction as e:
            assert e.reason == "flash full: not saved"
            continue
        for i, line in enumerate(body):
            try:
                s.push(line, defer=line.startswith("@"))
                if not line.startswith("@"):
                    s.flush()
            except IllegalAction as e:
                refused = e.reason
                break
        try:
            s.flush()
        except IllegalAction as e:
            refused = e.reason
        if refused is not None:
            assert refused == "flash full: not saved", refused
        back, report = resume(root)
        assert report is None, (n, report)  # no torn fragment left behind
        assert back.game.to_json() == s.game.to_json(), n  # RAM == flash
        assert state_of(live_text(os.path.join(root, "game.txt"))) == s.game.to_json()


def test_a_small_flash_fills_up_and_refuses_with_the_reason(tmp_path):
    from core.errors import IllegalAction
    name, players, opts, body = stress_game(5, 3)
    root = str(tmp_path / "small")
    fs = FlakyFS(capacity=6000)
    s = Session.new(Journal(Storage(root, fs), "game.txt"), name, players, opts)
    refused = None
    for line in body:
        try:
            s.push(line)
        except IllegalAction as e:
            refused = e.reason
            break
    assert refused == "flash full: not saved"
    assert os.path.getsize(os.path.join(root, "game.txt")) <= 6000
    back, report = resume(root)
    assert report is None and back.game.to_json() == s.game.to_json()
    fs.capacity = None  # space came back
    s.push(line)
    back, report = resume(root)
    assert report is None and back.game.to_json() == s.game.to_json()


def test_a_read_only_flash(tmp_path):
    from core.errors import IllegalAction
    name, players, opts, body = stress_game(2, 2, 41)
    root = str(tmp_path / "ro")
    fs = FlakyFS()
    s = play(Storage(root, fs), name, players, opts, body[:40])
    before = s.game.to_json()
    fs.readonly = True
    with pytest.raises(IllegalAction) as e:
        s.push(body[40])
    assert e.value.reason == "flash read-only"
    assert s.game.to_json() == before
    with pytest.raises(IllegalAction) as e:
        s.undo()
    assert e.value.reason == "flash read-only" and s.game.to_json() == before
    back, report = resume(root, FlakyFS(readonly=True))  # boots read-only
    assert back.game.to_json() == before


# --- byte flips and cuts of real journals ------------------------------------------------

def journal_bytes(tmp_path, which):
    game = dict(GAMES)[which]()
    root = str(tmp_path / ("src-" + which))
    play(Storage(root), *game, undo_every=11)
    with open(os.path.join(root, "game.txt"), "rb") as f:
        return f.read()


@pytest.mark.parametrize("which", [g[0] for g in GAMES])
def test_byte_flips_are_never_silent_and_never_fail_the_boot(tmp_path, which):
    data = journal_bytes(tmp_path, which)
    root0 = str(tmp_path / "good")
    os.makedirs(root0)
    with open(os.path.join(root0, "game.txt"), "wb") as f:
        f.write(data)
    good, _ = resume(root0)
    want = good.game.to_json()
    silent = 0
    step = max(1, len(data) // 50)
    for i in range(0, len(data), step):
        for flip in (ord("#"), data[i] ^ 0x04):
            bad = bytearray(data)
            bad[i] = flip
            if bad == data:
                continue
            root = str(tmp_path / ("f%d_%d" % (i, flip)))
            os.makedirs(root)
            with open(os.path.join(root, "game.txt"), "wb") as f:
                f.write(bad)
            back, report = resume(root)  # never raises
            got = back.game.to_json() if back is not None else None
            if got != want and report is None:
                silent += 1
            if back is not None and report is not None:
                # damage the device read: the file it goes on with replays to what it
                # shows. (Damage before the checkpoint it used is never read: the
                # device is right, but `host_sim replay` of that file may stop there or,
                # for a '#' in mid-line, read a shorter line: see the report.)
                g, err = transcript.replay(live_text(os.path.join(root, "game.txt")))
                assert err is None and g.to_json() == got, i
    assert silent == 0


@pytest.mark.parametrize("which", [g[0] for g in GAMES])
def test_cuts_of_a_journal_lose_nothing_before_the_cut(tmp_path, which):
    data = journal_bytes(tmp_path, which)
    lines = data.split(b"\n")
    step = max(1, len(data) // 80)
    for cut in range(1, len(data), step):
        root = str(tmp_path / ("c%d" % cut))
        os.makedirs(root)
        with open(os.path.join(root, "game.txt"), "wb") as f:
            f.write(data[:cut])
        back, report = resume(root)
        whole = data[:cut].rsplit(b"\n", 1)[0].decode().splitlines() if b"\n" in data[:cut] else []
        if back is None:
            assert not [ln for ln in whole if ln[:1] not in ("#", "")][1:], cut  # only a header
            continue
        now = state_of(live_text(os.path.join(root, "game.txt")))
        assert back.game.to_json() == now, cut  # the file goes on as a transcript
        # a held group (a call) whose records the cut left short is dropped whole
        groups = [k for k, ln in enumerate(whole) if ln.startswith("#( ")]
        if groups:
            g = groups[-1]
            if len([ln for ln in whole[g + 1:] if ln[:1] not in ("#", "")]) < int(whole[g].split()[1]):
                whole = whole[:g]
        if [ln for ln in whole if ln[:1] not in ("#", "")][1:]:
            before = transcript.replay(whole)[0]
            # every whole record before the cut is kept (the last one may be whole
            # without its line break: kept too)
            assert back.game.moves in (before.moves, before.moves + 1), cut
    assert lines
