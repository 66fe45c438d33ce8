"""Type check of the device code (core/, firmware/, boot.py, main.py) against the
MicroPython rp2 stubs, with pyright, offline.

pyright comes from npm (pinned in package.json); the stubs from pip
(micropython-rp2-rpi-pico-stubs and micropython-stdlib-stubs, pinned in
requirements-dev.txt). The stdlib stubs replace CPython's typeshed, so `machine`,
`framebuf`, `time.ticks_ms` and friends are MicroPython's, and a CPython-only API
(`time.perf_counter_ns`) or a `machine` API that does not exist is an error.
Rules: pyrightconfig.json (basic, minus the checks that only fire on untyped code).
A line that is right but cannot be typed (a CPython fallback branch) takes a
`# pyright: ignore[rule]` comment.
"""

import json
import os
import subprocess
import sysconfig

import pytest

from host_sim.micropython import ROOT

PYRIGHT = os.path.join(ROOT, "node_modules", ".bin", "pyright")
CONFIG = os.path.join(ROOT, "pyrightconfig.json")


def site_packages():
    return sysconfig.get_paths()["purelib"]


def require_tools():
    missing = []
    if not os.path.exists(PYRIGHT):
        missing.append("pyright (npm)")
    if not os.path.exists(os.path.join(site_packages(), "machine.pyi")):
        missing.append("micropython-rp2-rpi-pico-stubs (pip)")
    if not os.path.isdir(os.path.join(site_packages(), "stdlib")):
        missing.append("micropython-stdlib-stubs (pip)")
    if missing:
        why = "missing: %s; run tools/setup" % ", ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


def pyright(project_dir, config):
    """Run pyright offline; returns (exit status, diagnostics as 'path:line: message [rule]')."""
    env = dict(os.environ, PYRIGHT_PYTHON_FORCE_VERSION="", NO_UPDATE_NOTIFIER="1")
    proc = subprocess.run(
        [PYRIGHT, "--outputjson", "-p", config, "--typeshedpath", site_packages(),
         "--pythonpath", os.path.join(ROOT, ".venv", "bin", "python")],
        cwd=project_dir, capture_output=True, text=True, timeout=300, env=env)
    try:
        report = json.loads(proc.stdout)
    except ValueError:
        pytest.fail("pyright did not run: %s%s" % (proc.stdout, proc.stderr))
    found = []
    for d in report.get("generalDiagnostics", []):
        if d["severity"] != "error":
            continue
        rel = os.path.relpath(d["file"], project_dir).replace(os.sep, "/")
        found.append("%s:%d: %s [%s]" % (rel, d["range"]["start"]["line"] + 1,
                                         d["message"].split("\n")[0], d.get("rule", "")))
    return proc.returncode, found, report.get("summary", {})


def test_device_code_type_checks_against_the_micropython_stubs():
    require_tools()
    status, errors, summary = pyright(ROOT, CONFIG)
    assert summary.get("filesAnalyzed", 0) > 0
    assert not errors, ("pyright against the MicroPython rp2 stubs (pyrightconfig.json):\n"
                        + "\n".join(errors))
    assert status == 0


BAD = """\
import machine
import time

led = machine.Pin(25, machine.Pin.OUT)
led.value(1)
time.sleep_ms(10)
machine.Pinn(3)
led.blink()
time.perf_counter_ns()
"""


def test_a_machine_api_that_does_not_exist_fails_the_check(tmp_path):
    require_tools()
    with open(CONFIG, encoding="utf-8") as f:
        config = json.load(f)
    config["include"] = ["firmware"]
    config["venvPath"] = ROOT
    config.pop("typeshedPath", None)
    (tmp_path / "pyrightconfig.json").write_text(json.dumps(config))
    (tmp_path / "firmware").mkdir()
    (tmp_path / "firmware" / "blink.py").write_text(BAD)
    status, errors, _ = pyright(str(tmp_path), str(tmp_path / "pyrightconfig.json"))
    assert status != 0
    text = "\n".join(errors)
    assert "firmware/blink.py:7:" in text and '"Pinn" is not a known attribute of module "machine"' in text, text
    assert "firmware/blink.py:8:" in text and "blink" in text, text
    assert "firmware/blink.py:9:" in text and "perf_counter_ns" in text, text
    assert len(errors) == 3, text  # lines 1-6 are real MicroPython APIs
