"""tools/pull against the virtual board (host_sim/virtual_board.py): the unchanged
mpremote copies the board's archive/ and game.txt, only what is new, and the folder it
fills is what `python -m host_sim report` reads.

The board's flash starts with two archived games, an index and the game in play; later
files are put on it the way the device would have them, through mpremote.
"""

import io
import os
import shutil
import subprocess
import sys

import pytest

from host_sim.virtual_board import VirtualBoard

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PULL = os.path.join(ROOT, "tools", "pull")
MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")
TRANSCRIPTS = os.path.join(ROOT, "tests", "transcripts")

pytestmark = pytest.mark.skipif(
    not (shutil.which("node") and os.path.exists(MPREMOTE)
         and os.path.isdir(os.path.join(ROOT, "node_modules", "@micropython"))),
    reason="needs node, node_modules and mpremote (tools/setup)")


def transcript(name):
    with open(os.path.join(TRANSCRIPTS, name)) as f:
        return f.read()


def pull(*args, timeout=180):
    env = dict(os.environ, DEPLOY_NO_VENV="1")
    return subprocess.run([sys.executable, PULL] + [str(a) for a in args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def mpremote(port, *args, timeout=30):
    cmd = ["timeout", "-k", "3", str(timeout), MPREMOTE, "connect", port, *args]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 10)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def copied(r):
    return sorted(ln.split()[1] for ln in r.stdout.splitlines() if ln.startswith("copy "))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


@pytest.fixture
def board(tmp_path):
    flash = tmp_path / "flash"
    write(str(flash / "archive" / "00001.txt"), transcript("stackdeck_full_match_2p.txt"))
    write(str(flash / "archive" / "00002.txt"), transcript("stack31_long_3p.txt"))
    write(str(flash / "archive" / "index.txt"), "1 stackdeck\n2 stack31\n")
    write(str(flash / "game.txt"), "game stack31 players 2\nP1 draw\n")
    with VirtualBoard(str(flash)) as b:
        yield b


def test_pull_copies_what_is_new_and_the_report_reads_it(board, tmp_path):
    dest = tmp_path / "games"
    dest.mkdir()
    r = pull(dest, "--port", board.port)
    assert r.returncode == 0, r.stdout + r.stderr
    assert copied(r) == ["archive/00001.txt", "archive/00002.txt", "archive/index.txt", "game.txt"]
    assert "board: %s: game.txt (31 bytes), archive/ with 2 games" % board.port in r.stdout
    assert "done: 4 copied, 0 already here" in r.stdout
    for rel in ("archive/00001.txt", "archive/00002.txt", "archive/index.txt", "game.txt"):
        assert (dest / rel).read_bytes() == (tmp_path / "flash" / rel).read_bytes(), rel
    assert not list(dest.rglob("*.part"))

    r = pull(dest, "--port", board.port)
    assert r.returncode == 0, r.stderr
    assert copied(r) == [] and "done: nothing new (4 already here" in r.stdout

    # A game ends on the device and joins the archive: only it is copied.
    third = transcript("stress_simulated_match_seed4.txt")
    (tmp_path / "third.txt").write_text(third)
    mpremote(board.port, "fs", "cp", str(tmp_path / "third.txt"), ":archive/00003.txt")
    r = pull(dest, "--port", board.port)
    assert r.returncode == 0, r.stderr
    assert copied(r) == ["archive/00003.txt"]
    assert (dest / "archive" / "00003.txt").read_text() == third
    assert "done: 1 copied, 4 already here" in r.stdout

    # game.txt changes without changing its size (an undo, then the same move written
    # another way): it is fetched again all the same (SHA-256 on the board).
    (tmp_path / "game.txt").write_text("game stack31 players 2\np1 DRAW\n")
    mpremote(board.port, "fs", "cp", str(tmp_path / "game.txt"), ":game.txt")
    r = pull(dest, "--port", board.port, "--dry-run")
    assert r.returncode == 0 and "would copy game.txt (31 bytes, changed)" in r.stdout
    assert "P1 draw" in (dest / "game.txt").read_text()  # a dry run copies nothing
    r = pull(dest, "--port", board.port, "--no-reset")
    assert copied(r) == ["game.txt"] and (dest / "game.txt").read_text().endswith("p1 DRAW\n")

    # The pulled folder is the report's input: three archived games and the game in play.
    from host_sim import report
    out, err = io.StringIO(), io.StringIO()
    code = report.main([str(dest), "--out", str(tmp_path / "report")], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    assert "report: 4 games ->" in out.getvalue()


def test_a_board_that_started_its_archive_again_keeps_the_old_game(board, tmp_path):
    dest = tmp_path / "games"
    write(str(dest / "archive" / "00001.txt"), transcript("stackdeck_tie_4p.txt"))  # another game
    r = pull(dest, "--port", board.port)
    assert r.returncode == 0, r.stderr
    assert "archive/00001.txt" in copied(r)
    assert "kept archive/00001~1.txt: the board's archive/00001.txt is another game" in r.stdout
    assert (dest / "archive" / "00001~1.txt").read_text() == transcript("stackdeck_tie_4p.txt")
    assert (dest / "archive" / "00001.txt").read_text() == transcript("stackdeck_full_match_2p.txt")


def test_games_the_board_dropped_stay_here(board, tmp_path):
    dest = tmp_path / "games"
    write(str(dest / "archive" / "00000.txt"), transcript("stack31_long_5p.txt"))
    r = pull(dest, "--port", board.port, "--dry-run")
    assert r.returncode == 0, r.stderr
    assert "kept here: 1 archived game the board no longer has (00000.txt)" in r.stdout
    assert "dry run: 4 to copy, 0 already in" in r.stdout
    assert sorted(p.name for p in dest.rglob("*") if p.is_file()) == ["00000.txt"]


def test_clear_messages_without_a_folder_or_a_board(tmp_path):
    r = pull(tmp_path / "missing", "--port", str(tmp_path / "tty"))
    assert r.returncode == 2
    assert r.stderr.startswith("pull: no folder %s: make it first" % (tmp_path / "missing"))
    (tmp_path / "afile").write_text("x")
    r = pull(tmp_path / "afile", "--port", str(tmp_path / "tty"))
    assert r.returncode == 2 and "is a file, not a folder" in r.stderr
    r = pull(tmp_path, "--port", str(tmp_path / "no-such-port"))
    assert r.returncode == 2
    assert "pull: no board on %s" % (tmp_path / "no-such-port") in r.stderr


def test_a_board_without_the_firmwares_files(tmp_path):
    with VirtualBoard(str(tmp_path / "flash")) as b:
        r = pull(tmp_path, "--port", b.port)
    assert r.returncode == 0, r.stderr
    assert "no game in play, no archive/ folder" in r.stdout
    assert "nothing to pull" in r.stdout
