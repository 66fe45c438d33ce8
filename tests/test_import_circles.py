"""No import circles among the device's modules (a module that imports another which
imports it back, at the top or inside a function): they make the load order matter
and keep both in a board's heap. The arrows point down: a screen that opens another
is handed the way (Stack the Deck's scoreboard opens the sheet and the rounds list).

None is known: a new one fails this test (the archive and the session meet below
both, in firmware.session_header; the archive asks the app to resume a game it could
not keep)."""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KNOWN = []  # sets of module names, each a circle left for now (none)


def _modules():
    mods = {}
    for top in ("core", "firmware"):
        for base, _dirs, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".py"):
                    path = os.path.join(base, f)
                    name = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                    if name.endswith(".__init__"):
                        name = name[:-9]
                    with open(path, encoding="utf-8") as fh:
                        mods[name] = fh.read()
    return mods


def _edges(mods):
    edges = {m: set() for m in mods}
    for m, text in mods.items():
        for src, names in re.findall(r"^\s*from ([\w.]+) import ([\w, ()]+)", text, re.M):
            for n in re.split(r"[,\s()]+", names):
                if src + "." + n in mods:
                    edges[m].add(src + "." + n)
                elif src in mods and src != m:
                    edges[m].add(src)
        for src in re.findall(r"^\s*import ([\w.]+)", text, re.M):
            if src in mods and src != m:
                edges[m].add(src)
    return edges


def _circles(edges):
    """The strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(group)

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_new_import_circles():
    circles = _circles(_edges(_modules()))
    new = [sorted(c) for c in circles if c not in KNOWN]
    assert new == []
    gone = [sorted(c) for c in KNOWN if c not in circles]
    assert gone == [], "a known circle is gone: take it off KNOWN"


def test_the_detector_finds_a_circle():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(edges) == [{"a", "b", "c"}]


def test_stack_the_deck_screens_have_their_own_folder():
    folder = os.path.join(ROOT, "firmware", "screens")
    flat = [f for f in os.listdir(folder) if f.startswith("stackdeck_")]
    assert flat == [] and os.path.isdir(os.path.join(folder, "stackdeck"))
