"""tools/gallery: pictures of the screens from scripts, and an index with captions."""

import os
import shutil
import subprocess
import sys

from host_sim.script import shots

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GALLERY = os.path.join(ROOT, "tools", "gallery")


def run(args):
    proc = subprocess.run([sys.executable, os.path.join(GALLERY, "gallery.py")] + args,
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def planned(name, folder=GALLERY):
    with open(os.path.join(folder, name + ".script")) as f:
        return shots(f.read())


def test_the_gallery_of_a_subset(tmp_path):
    out = tmp_path / "png"
    readme = tmp_path / "README.md"
    code, stdout, err = run(["--only", "home", "--out", str(out), "--readme", str(readme)])
    assert code == 0, err
    want = planned("home")
    assert sorted(os.listdir(out)) == sorted(n + ".png" for n, _c, _l in want)
    for name, _c, _l in want:
        size = os.path.getsize(out / (name + ".png"))
        assert 300 < size < 8000  # small enough to commit
    text = readme.read_text()
    assert text.startswith("# Gallery")
    for name, caption, _l in want:
        assert "| ![%s](png/%s.png) | %s |" % (name, name, caption) in text
    assert "failed" not in text.lower()


def test_a_failing_script_is_reported_with_the_shots_before_it(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "good.script").write_text("# Good\nshot one The home menu\n")
    (scripts / "bad.script").write_text("# Bad\nshot two Before\npress DOWN\n"
                                        "expect No such screen\nshot three After\n")
    out = tmp_path / "png"
    code, _out, err = run(["--scripts", str(scripts), "--out", str(out)])
    assert code == 1
    assert "FAILED bad.script line 4: 'No such screen' is not on the screen" in err
    assert sorted(os.listdir(out)) == ["one.png", "two.png"]  # not fail-line-4.png
    text = (tmp_path / "README.md").read_text()
    assert "**Scripts that failed**" in text and "`bad.script line 4:" in text
    assert "![two](png/two.png)" in text and "three" not in text


def test_stale_pictures_go_when_everything_is_made(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "a.script").write_text("shot one\n")
    out = tmp_path / "png"
    out.mkdir()
    (out / "old.png").write_bytes(b"x")
    code, _o, err = run(["--scripts", str(scripts), "--out", str(out)])
    assert code == 0, err
    assert os.listdir(out) == ["one.png"]
    code, _o, err = run(["--only", "nope", "--scripts", str(scripts), "--out", str(out)])
    assert code == 2 and "no such script: nope.script" in err


def test_the_committed_gallery_has_every_planned_picture():
    names = [f[:-7] for f in os.listdir(GALLERY) if f.endswith(".script")]
    assert {"home", "stack31"} <= set(names)
    with open(os.path.join(GALLERY, "README.md")) as f:
        index = f.read()
    for n in names:
        for shot, _c, _l in planned(n):
            assert os.path.exists(os.path.join(GALLERY, "png", shot + ".png")), shot
            assert "png/%s.png" % shot in index


def test_the_launcher_is_executable():
    for tool in ("tools/gallery/make", "tools/sim"):
        path = os.path.join(ROOT, tool)
        assert os.access(path, os.X_OK), tool
        with open(path) as f:
            assert f.readline().startswith("#!/usr/bin/env bash")
    assert shutil.which("bash")
