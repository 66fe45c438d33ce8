"""`.venv/bin/python -m host_sim` runs from any folder, not only the checkout's: tools/setup
puts the checkout on the venv's path (a .pth file in its site-packages). Paths on the
command line are the user's, relative to where it runs."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV_PY = os.path.join(ROOT, ".venv", "bin", "python")


def _python():
    return VENV_PY if os.path.exists(VENV_PY) else sys.executable


def _run(args, cwd, **kw):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # as a user's shell has it
    return subprocess.run([_python(), "-m", "host_sim"] + args, cwd=str(cwd), env=env,
                          capture_output=True, text=True, timeout=300, **kw)


def test_the_checkout_is_on_the_venvs_path():
    r = subprocess.run([_python(), "-c", "import host_sim, sys; print(host_sim.__file__)"],
                       cwd="/", capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, "run tools/setup: " + r.stderr
    assert os.path.realpath(r.stdout.strip()).startswith(os.path.realpath(ROOT))


def test_replay_script_and_report_run_outside_the_checkout(tmp_path):
    (tmp_path / "game.txt").write_text("game stack31 players 2\nP1 draw\nP2 draw\n")
    r = _run(["replay", "game.txt"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert '"game": "stack31"' in r.stdout
    (tmp_path / "s.script").write_text("expect Stack 31\nshot home the home menu\n")
    r = _run(["script", "s.script", "--out", "shots"], tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "shots" / "home.png").is_file()
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "g1.txt").write_text(
        open(os.path.join(ROOT, "tests", "transcripts", "stackdeck_full_match_2p.txt")).read())
    r = _run(["report", "games", "--out", "report"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "report" / "report.html").is_file()
    r = _run(["--help"], tmp_path)
    assert r.returncode == 0 and "python -m host_sim report" in r.stdout
