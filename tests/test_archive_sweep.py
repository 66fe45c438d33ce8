"""tools/archive_sweep, shortened (issue 22): the archive damaged in every way the
sweep knows (rows and files each cut, flipped, deleted and swapped, rows duplicated,
the header damaged, the index removed alone and with a file damaged), one game for
each, and History on the device checked three ways: its list and every summary
against the rules core's replay of the files, a second boot, a message for every
mend. Goal: 0 wrong, 0 boot2, 0 silent."""

import importlib.util
import os
from importlib.machinery import SourceFileLoader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("BENCH_NO_REEXEC", "1")
_loader = SourceFileLoader("archive_sweep", os.path.join(ROOT, "tools", "archive_sweep"))
sweep = importlib.util.module_from_spec(importlib.util.spec_from_loader("archive_sweep", _loader))
_loader.exec_module(sweep)


def test_every_kind_of_damage_is_mended_and_said():
    once = [k for k in sweep.KINDS if k.startswith("header") or k == "index-gone"]
    table, problems = sweep.sweep(once, only=[1])
    more, problems2 = sweep.sweep([k for k in sweep.KINDS if k not in once], only=[3])
    table.update(more)
    assert set(table) == set(sweep.KINDS)
    assert sum(r[0] for r in table.values()) == len(sweep.KINDS)
    assert not problems + problems2, "\n".join(problems + problems2)


def test_the_sweep_sees_damage_left_unmended():
    """The sweep's own check: the truth it compares with is the files' replay, so an
    index that lies (a row's result changed, sealed anew) is found wrong, and said
    nowhere."""
    import shutil
    import tempfile
    from firmware import journal as jr
    tmp = tempfile.mkdtemp()
    try:
        base = os.path.join(tmp, "seed")
        sweep.seed(base)
        before = sweep._files(base)
        lines = sweep._index_lines(base)
        text = jr.unseal(lines[2]).replace(" 55,40 ", " 40,55 ")  # game 2's totals
        lines[2] = jr.seal_bytes(text)
        # sealed and whole: the digest in the header is the only thing that tells
        sweep._write_index(base, lines)
        wrong, boot2, silent, said = sweep.judge(base, before)
        assert said == ["6 games re-read"], said  # which row lies is not known: all
        assert not wrong and not boot2
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
