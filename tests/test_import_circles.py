"""No import circles among the device's modules (a module that imports another which
imports it back, at the top or inside a function): they make the load order matter
and keep both in a board's heap. The arrows point down: a screen that opens another
is handed the way (Stack the Deck's scoreboard opens the sheet and the rounds list).

None is known: a new one fails this test (the archive and the session meet below
both, in firmware.journal; the archive asks the app to resume a game it could
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
        for src, names in re.findall(r"^\s*from ([\w.]+) import (\([^)]*\)|[\w, ]+)", text, re.M):
            for item in names.strip("()").split(","):
                n = item.split()[0] if item.split() else ""
                if src + "." + n in mods:  # a module of a package: `from pkg import mod as m`
                    edges[m].add(src + "." + n)
                elif n and src in mods and src != m:  # a name of module src
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


def test_each_game_has_its_own_folder():
    """A game's rules live in core/<game>/, its screens in firmware/screens/<game>/,
    History's in firmware/screens/history/: no flat stress_*.py or stackdeck_*.py beside
    them (issue 21, the house by concept)."""
    prefixes = ("stack31", "stackdeck", "stress", "history")
    for folder in (os.path.join(ROOT, "core"), os.path.join(ROOT, "firmware", "screens")):
        flat = [f for f in os.listdir(folder) if f.endswith(".py") and f.startswith(prefixes)]
        assert flat == [], folder
    for game in ("stack31", "stackdeck", "stress"):
        assert os.path.isfile(os.path.join(ROOT, "core", game, "__init__.py"))
        assert os.path.isfile(os.path.join(ROOT, "firmware", "screens", game, "__init__.py"))


def test_every_package_says_what_lives_there():
    """Each package's docstring says in two lines what it holds and what may import it."""
    import ast
    for top in ("core", "firmware"):
        for base, _dirs, files in os.walk(os.path.join(ROOT, top)):
            if "__init__.py" not in files or "__pycache__" in base:
                continue
            with open(os.path.join(base, "__init__.py"), encoding="utf-8") as fh:
                doc = ast.get_docstring(ast.parse(fh.read()))
            assert doc and "import" in doc.lower(), base
