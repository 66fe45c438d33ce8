"""Run code in the real MicroPython interpreter (1.27, WebAssembly port) from CPython.

    from host_sim.micropython import run_micropython, MicroPythonError

    out = run_micropython("import core.stack31\\nprint(core.stack31.__name__)")

The interpreter is the npm package ``@micropython/micropython-webassembly-pyscript``
(pinned in package.json, installed by ``tools/setup``), run under Node by
``tools/mp_runner.mjs``. Each call starts a fresh interpreter (about 20 ms), so calls
share nothing.

With ``project=True`` the project's device files are copied into the interpreter's
file system at their usual paths, so ``import core.stack31`` and
``import firmware.x`` work: every ``core/**.py`` and ``firmware/**.py`` (found afresh on
each call), ``boot.py`` and ``main.py`` when they exist (copied, never run), and
``host_sim/machine.py`` as the top-level module ``machine`` when it exists.
``files`` adds or replaces files (path relative to the interpreter's working
directory ``/``; ``str`` or ``bytes`` contents, so ``.mpy`` files work too).

Facts about this interpreter worth knowing: it has ``framebuf``, ``json``, ``gc``,
``micropython.const`` and ``time.ticks_*``, but no ``machine``; its ``ticks_us`` moves
in 1 ms steps, so it cannot time code; its heap is 1 MiB unless ``heapsize`` says
otherwise (a Pico has about 190 KiB free).

For tests: ``require_node()`` skips the calling test when Node or the npm package is
missing, except under CI (environment variable ``CI`` set), where it fails instead, so
that CI can never silently skip the MicroPython half of the suite.

Command line: ``python -m host_sim.micropython FILE.py`` (or ``-c CODE``) runs a script
with the project's files, for trying things by hand.
"""

import base64
import json
import os
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = os.path.join(ROOT, "tools", "mp_runner.mjs")
PACKAGE = os.path.join(
    ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript", "micropython.mjs"
)

__all__ = [
    "MicroPythonError",
    "run_micropython",
    "project_files",
    "node_available",
    "require_node",
]


class MicroPythonError(Exception):
    """The code raised an uncaught exception in MicroPython, or timed out.

    ``str(err)`` and ``err.traceback`` hold the interpreter's traceback text (for a
    timeout, a one-line message); ``err.stdout`` holds what the code printed before.
    """

    def __init__(self, traceback, stdout=""):
        super().__init__(traceback)
        self.traceback = traceback
        self.stdout = stdout


def _node():
    return os.environ.get("NODE") or shutil.which("node")


def node_available():
    """Why the interpreter cannot run here (a sentence), or None when it can."""
    if not _node():
        return "node is not installed (the MicroPython tests need Node 20+)"
    if not os.path.exists(PACKAGE):
        return "the MicroPython npm package is missing: run tools/setup"
    return None


def require_node():
    """In a test: skip when the interpreter cannot run here; under CI, fail instead."""
    import pytest

    why = node_available()
    if why:
        if os.environ.get("CI"):
            pytest.fail("MicroPython tests cannot run under CI: " + why)
        pytest.skip(why)


def _walk_py(folder):
    base = os.path.join(ROOT, folder)
    found = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(".py"):
                full = os.path.join(dirpath, name)
                found.append(os.path.relpath(full, ROOT).replace(os.sep, "/"))
    return found


def project_files():
    """The device files as {path in the interpreter: path on disk}, found afresh."""
    files = {}
    for folder in ("core", "firmware"):
        for rel in _walk_py(folder):
            files[rel] = os.path.join(ROOT, rel)
    for name in ("boot.py", "main.py"):
        if os.path.isfile(os.path.join(ROOT, name)):
            files[name] = os.path.join(ROOT, name)
    machine = os.path.join(ROOT, "host_sim", "machine.py")
    if os.path.isfile(machine):
        files["machine.py"] = machine
    return files


def run_micropython(code, files=None, project=True, timeout=120, heapsize=None):
    """Run ``code`` as ``__main__`` in a fresh MicroPython interpreter; return its stdout.

    Raises MicroPythonError (with the traceback) on an uncaught exception or when it
    runs longer than ``timeout`` seconds, and RuntimeError when Node or the npm
    package is missing or the runner itself fails.
    """
    why = node_available()
    if why:
        raise RuntimeError(why)
    payload = {}
    if project:
        for rel, disk in project_files().items():
            with open(disk, "rb") as f:
                payload[rel] = base64.b64encode(f.read()).decode("ascii")
    for rel, content in (files or {}).items():
        if isinstance(content, str):
            content = content.encode("utf-8")
        payload[rel.lstrip("/")] = base64.b64encode(content).decode("ascii")
    spec = {"code": code, "files": payload}
    if heapsize:
        spec["heapsize"] = int(heapsize)
    try:
        proc = subprocess.run(
            [_node(), RUNNER],
            input=json.dumps(spec).encode("utf-8"),
            capture_output=True,
            timeout=timeout,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        raise MicroPythonError("timed out after %s s in MicroPython" % timeout, out) from None
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    if proc.returncode == 1:
        raise MicroPythonError(err, out)
    if proc.returncode != 0:
        raise RuntimeError("mp_runner failed (status %d): %s" % (proc.returncode, err))
    return out


def _main(argv):
    import sys

    if len(argv) == 2 and argv[0] == "-c":
        code = argv[1]
    elif len(argv) == 1 and argv[0] not in ("-h", "--help"):
        with open(argv[0], encoding="utf-8") as f:
            code = f.read()
    else:
        print("usage: python -m host_sim.micropython FILE.py | -c CODE", file=sys.stderr)
        return 2
    try:
        sys.stdout.write(run_micropython(code))
    except MicroPythonError as e:
        sys.stdout.write(e.stdout)
        sys.stderr.write(e.traceback)
        return 1
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(_main(sys.argv[1:]))
