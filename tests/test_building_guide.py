"""The builder's guide (firmware/boards/BUILDING.md) says what the project does.

Every command in it (the indented lines of its code blocks) is one the test knows and
checks:

- `tools/NAME ...`: the tool exists and takes every option the guide gives it
  (`tools/NAME --help`); the deploy itself is the end-to-end test's
  (tests/test_e2e_deploy.py: too slow to run twice);
- `.venv/bin/mpremote ...`: run against a virtual board with its panel
  (host_sim/virtual_board.py, `connect PORT` put in front), in the guide's order, each
  with what the guide says it shows: MicroPython's version, the I2C scan finding the
  panel at 0x3C, error.log printed, copied and deleted, the reset; `repl` (interactive)
  must be one of mpremote's commands;
- `.venv/bin/python -m host_sim.virtual_board ...`: started as written, it prints a port
  mpremote answers on;
- the system's own (`ls`, `sudo usermod`): named here, so nothing else slips in.

And the picture and the pin table are the pin map's (firmware/boards/pico.py).
"""

import importlib.machinery
import importlib.util
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUIDE = os.path.join(ROOT, "firmware", "boards", "BUILDING.md")
MPREMOTE = os.path.join(ROOT, ".venv", "bin", "mpremote")
SYSTEM = {"ls": "lists the serial ports", "sudo": "the dialout group (Linux)"}

needs_board = pytest.mark.skipif(
    not (shutil.which("node") and os.path.exists(MPREMOTE)
         and os.path.isdir(os.path.join(ROOT, "node_modules", "@micropython"))),
    reason="needs node, node_modules and mpremote (tools/setup)")


def commands():
    """[(line number, argv)] of every command in the guide's code blocks (indented four
    spaces or more, after a blank line), comments after two spaces and # dropped."""
    out = []
    lines = open(GUIDE, encoding="utf-8").read().split("\n")
    in_block = False
    for i, line in enumerate(lines, 1):
        if not line.strip():
            in_block = True
            continue
        m = re.match(r"^( {4,})(\S.*)$", line)
        if m and in_block and not re.match(r"^\s*[-*] |^\s*\d+\. ", line):
            text = m.group(2).split("  #")[0].strip()
            out.append((i, shlex.split(text)))
            continue
        in_block = False
    return out


def _wiring():
    loader = importlib.machinery.SourceFileLoader("tools_wiring", os.path.join(ROOT, "tools", "wiring"))
    spec = importlib.util.spec_from_loader("tools_wiring", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_the_guide_has_the_commands_a_builder_needs():
    got = [" ".join(argv[:2]) for _, argv in commands()]
    for want in ("tools/deploy --dry-run", "tools/deploy", ".venv/bin/mpremote cat",
                 ".venv/bin/mpremote exec", ".venv/bin/mpremote devs", ".venv/bin/mpremote reset"):
        assert want in got, (want, got)


def test_every_tool_the_guide_names_exists_with_its_options():
    helps = {}
    for number, argv in commands():
        if not argv[0].startswith("tools/"):
            continue
        path = os.path.join(ROOT, argv[0])
        assert os.path.isfile(path) and os.access(path, os.X_OK), (number, argv[0])
        if argv[0] not in helps:
            r = subprocess.run([path, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, (argv[0], r.stderr)
            helps[argv[0]] = r.stdout
        for arg in argv[1:]:
            if arg.startswith("--"):
                assert re.search(r"(^|\s|\[)%s\b" % re.escape(arg), helps[argv[0]]), (number, arg)


def test_no_command_the_test_does_not_know():
    for number, argv in commands():
        known = (argv[0].startswith("tools/") or argv[0] == ".venv/bin/mpremote"
                 or argv[:3] == [".venv/bin/python", "-m", "host_sim.virtual_board"]
                 or argv[0] in SYSTEM)
        assert known, "line %d: %s is not checked by this test" % (number, " ".join(argv))
        if argv[0] == "sudo":
            assert argv[1:3] == ["usermod", "-aG"] and argv[3] == "dialout", argv


@needs_board
def test_the_mpremote_commands_on_a_virtual_board(tmp_path):
    from host_sim.virtual_board import VirtualBoard
    flash = tmp_path / "flash"
    flash.mkdir()
    logged = "Traceback (most recent call last):\nMemoryError: memory allocation failed\n"
    (flash / "error.log").write_text(logged)
    here = tmp_path / "here"  # the folder the guide's commands run in
    here.mkdir()
    usage = subprocess.run([MPREMOTE, "help"], capture_output=True, text=True, timeout=60).stdout
    ran = set()
    with VirtualBoard(str(flash), vdevice=True) as board:
        for number, argv in commands():
            if argv[0] != ".venv/bin/mpremote":
                continue
            sub = argv[1]
            assert re.search(r"^\s+%s\b" % re.escape(sub), usage, re.M), (number, sub)
            if sub == "repl":  # interactive: a command mpremote has is enough
                continue
            if sub == "devs":  # the computer's ports: no board needed
                cmd = [MPREMOTE, "devs"]
            else:
                cmd = [MPREMOTE, "connect", board.port] + argv[1:]
            r = subprocess.run(["timeout", "-k", "3", "60"] + cmd, cwd=str(here), capture_output=True,
                               text=True, timeout=75)
            assert r.returncode == 0, (number, argv, r.stdout, r.stderr)
            ran.add(sub)
            text = " ".join(argv[2:])
            if sub == "exec" and "sys.version" in text:
                assert "MicroPython v1." in r.stdout, r.stdout
            elif sub == "exec" and "scan()" in text:
                assert r.stdout.strip() == "['0x3c']", r.stdout  # the panel, where the guide says
            elif sub == "cat":
                assert r.stdout == logged
            elif sub == "cp":
                assert (here / "error.log").read_text() == logged
            elif sub == "rm":
                assert not (flash / "error.log").exists()
    assert ran >= {"devs", "exec", "cat", "cp", "rm", "reset"}, ran


@needs_board
def test_the_virtual_board_starts_as_the_guide_writes_it(tmp_path):
    [(number, argv)] = [c for c in commands() if c[1][:3] == [".venv/bin/python", "-m", "host_sim.virtual_board"]]
    cmd = [os.path.join(ROOT, argv[0])] + argv[1:]
    proc = subprocess.Popen(cmd, cwd=str(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True)
    try:
        port = proc.stdout.readline().strip()
        assert port, "the virtual board printed no port"
        r = subprocess.run(["timeout", "-k", "3", "60", MPREMOTE, "connect", port, "exec", "print(6 * 7)"],
                           capture_output=True, text=True, timeout=75)
        assert r.returncode == 0 and r.stdout.strip() == "42", (r.stdout, r.stderr)
        assert (tmp_path / "my-board").is_dir()  # --dir: the board's flash, kept here
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_the_picture_and_the_pin_table_are_the_pin_maps():
    from firmware.boards import pico
    wiring = _wiring()
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "wiring"), "--check"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr  # the committed SVG is what the pin map draws now
    svg, wired = wiring.draw(pico)
    gpios = [pico.I2C_SDA, pico.I2C_SCL] + list(pico.NAV_PINS) + list(pico.CALL_PINS) + [pico.BUZZER]
    for gp in gpios:
        assert wiring.pico_pin(gp) in wired
        assert "GP%d" % gp in svg
    text = open(GUIDE, encoding="utf-8").read()
    assert "](pico-wiring.svg)" in text
    assert "0x%02X" % pico.OLED_ADDR in text
    scan = "I2C(%d, sda=Pin(%d), scl=Pin(%d))" % (pico.I2C_ID, pico.I2C_SDA, pico.I2C_SCL)
    assert scan in text  # the blank-screen scan asks the firmware's own bus
    # the table: each row's GPIOs and Pico pins, in the same order
    rows = [ln for ln in text.splitlines() if ln.startswith("| ") and "GP" in ln]
    seen = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        gps = [int(g) for g in re.findall(r"GP(\d+)", cells[1])]
        pins = [int(p) for p in re.findall(r"\d+", cells[2])]
        if gps:
            assert [wiring.pico_pin(g) for g in gps] == pins, row
            seen += gps
    assert sorted(seen) == sorted(gpios)
