"""A tiny test runner for the portable tests, written in the MicroPython subset.

pytest collects tests/portable/test_*.py on CPython as usual; on MicroPython (where
there is no pytest) this runner imports each module, calls every module-level function
whose name starts with `test_` (in name order), and prints:

    PASS tests.portable.test_x.test_one
    FAIL tests.portable.test_x.test_two
      Traceback (most recent call last): ...
    ERROR tests.portable.test_y (import)
      Traceback ...
    RESULT passed=1 failed=2

Run it on MicroPython through tests/test_micropython.py (one pytest test per module),
or by hand on either interpreter:
    python -m tests.portable.runner tests.portable.test_x [...]
"""

import sys

try:
    import io
except ImportError:  # pragma: no cover
    import uio as io


def _traceback(exc):
    if hasattr(sys, "print_exception"):  # MicroPython
        buf = io.StringIO()
        sys.print_exception(exc, buf)
        return buf.getvalue()
    import traceback

    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))


def _indent(text):
    return "".join("  " + line + "\n" for line in text.rstrip("\n").split("\n"))


def _load(name):
    module = __import__(name)
    for part in name.split(".")[1:]:
        module = getattr(module, part)
    return module


def run_module(name, out):
    """Run one module's tests; returns (passed, failed)."""
    try:
        module = _load(name)
    except Exception as e:  # noqa: BLE001 - an import failure is a test failure
        out("ERROR %s (import)\n%s" % (name, _indent(_traceback(e))))
        return 0, 1
    passed = failed = 0
    for attr in sorted(dir(module)):
        if not attr.startswith("test_"):
            continue
        fn = getattr(module, attr)
        if not callable(fn) or isinstance(fn, type):
            continue
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            failed += 1
            out("FAIL %s.%s\n%s" % (name, attr, _indent(_traceback(e))))
        else:
            passed += 1
            out("PASS %s.%s\n" % (name, attr))
    return passed, failed


def main(names, out=None):
    if out is None:
        def out(text):
            sys.stdout.write(text)
    passed = failed = 0
    for name in names:
        p, f = run_module(name, out)
        passed += p
        failed += f
    out("RESULT passed=%d failed=%d\n" % (passed, failed))
    return failed == 0


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv[1:]) else 1)
