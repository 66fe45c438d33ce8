"""Every word the device can show fits on the 128x64 panel in the 6x8 font (21
columns): nothing clipped, nothing cut.

- The rules' refusal reasons: every IllegalAction("...") in core/ (found in the
  source, % formats and + joins filled with the widest values they can take) fits the
  message box (two lines of ui.BOX_COLS, no word cut), and renders inside it.
- The screens: the gallery scripts (every screen of every game) are played with the
  widest player names, while every text, title bar, menu row, big number and toast
  the firmware draws is checked: inside the panel, a title not cut, a menu label not
  cut, a toast in at most two lines.
"""

import ast
import importlib
import os
import re

import pytest

from host_sim import framebuf as host_framebuf

host_framebuf.install()

from firmware import ui  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(ROOT, "core")
GALLERY = os.path.join(ROOT, "tools", "gallery")

WIDEST_NAME = "WWWWWWWWWW"  # firmware.settings.NAME_MAX characters

# The widest value a % conversion or a joined name can take, by the name of what is
# formatted (a local variable, an attribute); numbers not found here get 2 digits.
WIDEST = {
    "token": "X" * 12,  # core.notation.shorten: at most 12 characters
    "first": "X" * 12,
    "verb": "discard",
    "key": "debounce_us",
    "what": "X" * 12,
    "NAME": "stackdeck",
    "card": "10H",
    "name": "10H",
    "ch": "X",
}


def _module_of(path):
    rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
    return importlib.import_module(rel)


def _widest(node, module):
    """The widest text an expression can stand for."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else str(node.value)
    if isinstance(node, ast.Name):
        value = getattr(module, node.id, None)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            return str(value)
        return WIDEST.get(node.id, "99")
    if isinstance(node, ast.Attribute):
        base = node.value
        if isinstance(base, ast.Name) and base.id not in ("self",):
            owner = getattr(module, base.id, None)
            value = getattr(owner, node.attr, None)
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return str(value)
        if node.attr in ("MIN_PLAYERS", "MAX_PLAYERS"):
            return "8"
        return WIDEST.get(node.attr, "99")
    if isinstance(node, ast.Call):
        fn = node.func
        name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
        if name in ("name", "card_name"):
            return "10H"
        if name == "shorten":
            return "X" * 12
        if name == "len":
            return "9999"
        return "X" * 8
    if isinstance(node, ast.Subscript):  # e.g. cards.SUITS[s]
        return "X"
    if isinstance(node, ast.IfExp):
        a, b = _widest(node.body, module), _widest(node.orelse, module)
        return a if len(a) >= len(b) else b
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _widest(node.left, module) + _widest(node.right, module)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        fmt = _widest(node.left, module)
        args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        values = [_widest(a, module) for a in args]
        it = iter(values)
        return re.sub(r"%[-0-9]*[sdi]", lambda m: next(it), fmt)
    raise AssertionError("cannot size %s" % ast.dump(node))


def reasons():
    """[(where, widest text)] of every refusal the rules can give."""
    found = []
    for fname in sorted(os.listdir(CORE)):
        if not fname.endswith(".py"):
            continue
        path = os.path.join(CORE, fname)
        with open(path) as f:
            tree = ast.parse(f.read())
        module = _module_of(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction" \
                    and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Name) and not hasattr(module, arg.id):
                    continue  # a variable holding one of the module's constants (below)
                found.append(("core/%s:%d" % (fname, node.lineno), _widest(arg, module)))
        # module-level message constants (reasons passed around by name)
        for node in tree.body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) \
                    and isinstance(node.value.value, str) and len(node.targets) == 1 \
                    and isinstance(node.targets[0], ast.Name) \
                    and node.targets[0].id.isupper() and " " in node.value.value:
                found.append(("core/%s:%d" % (fname, node.lineno), node.value.value))
    return found


def test_the_reasons_are_found():
    texts = [t for _w, t in reasons()]
    assert len(texts) > 100
    assert "nobody is out" in texts or "no round open" in texts
    assert "pile X would pass 31" in texts
    assert "10H already shown" in texts


class Canvas:
    """Draws like the panel and notes every pixel that would fall outside it."""

    def __init__(self):
        self.fb = host_framebuf.FrameBuffer(bytearray(1024), ui.W, ui.H,
                                            host_framebuf.MONO_VLSB)


def box_lines(reason):
    return ui.wrap(reason, ui.BOX_COLS)


@pytest.mark.parametrize("where,reason", reasons())
def test_every_refusal_fits_the_message_box(where, reason):
    lines = box_lines(reason)
    words = reason.split()
    assert len(lines) <= 2, "%s: %r takes %d lines of %d" % (where, reason, len(lines),
                                                              ui.BOX_COLS)
    assert all(len(w) <= ui.BOX_COLS for w in words), "%s: a word of %r is cut" % (where, reason)
    assert " ".join(lines).split() == words  # nothing lost on the way
    # drawn in the box the app uses (full width, at the bottom): inside its frame
    drawn = []
    real = ui.text

    def text(fb, s, x, y, c=1):
        drawn.append((s, x, y))
        real(fb, s, x, y, c)

    ui.text = text
    try:
        h = len(lines) * 9 + 2
        ui.box(Canvas().fb, 0, ui.H - h, ui.W, h, lines)
    finally:
        ui.text = real
    for s, x, y in drawn:
        assert x >= 2 and x + ui.width(s) - 1 <= ui.W - 2, (where, s, x)
        assert y >= ui.H - h and y + ui.LINE <= ui.H, (where, s, y)


# -- the screens -----------------------------------------------------------------------
class Recorder:
    """Wraps the ui functions the screens draw with; notes everything clipped."""

    def __init__(self, monkeypatch, dev_ref):
        self.problems = []
        self.seen = set()
        self.dev_ref = dev_ref
        real_text, real_bar, real_big = ui.text, ui.bar, ui.big
        real_menu_draw = ui.Menu.draw

        def where():
            dev = dev_ref()
            return type(dev.app.screen).__name__ if dev is not None else "?"

        def text(fb, s, x, y, c=1):
            self.seen.add(s)
            if x < 0 or x + ui.width(s) - 1 > ui.W or y < 0 or y + ui.LINE > ui.H:
                self.problems.append("%s: text %r at %d,%d leaves the panel" % (where(), s, x, y))
            real_text(fb, s, x, y, c)

        def bar(fb, left, y=0, right_text=""):
            room = ui.COLS - len(right_text) - 1 if right_text else ui.COLS
            if len(left) > room:
                self.problems.append("%s: title %r cut to %r (right: %r)"
                                     % (where(), left, left[:room], right_text))
            real_bar(fb, left, y, right_text)

        def big(fb, s, x, y, scale=2, c=1):
            self.seen.add(s)
            w = ui.big_width(s, scale)
            if x < 0 or x + w > ui.W or y < 0 or y + ui.big_height(scale) > ui.H:
                self.problems.append("%s: big %r (x%d) at %d,%d leaves the panel"
                                     % (where(), s, scale, x, y))
            real_big(fb, s, x, y, scale, c)

        def menu_draw(menu, fb, *a, **kw):
            for label in menu.items:
                self.seen.add(label)
                if len(label) > menu.LABEL_COLS:
                    self.problems.append("%s: menu row %r cut to %r"
                                         % (where(), label, label[:menu.LABEL_COLS]))
            return real_menu_draw(menu, fb, *a, **kw)

        monkeypatch.setattr(ui, "text", text)
        monkeypatch.setattr(ui, "bar", bar)
        monkeypatch.setattr(ui, "big", big)
        monkeypatch.setattr(ui.Menu, "draw", menu_draw)

    def check_toast(self, text):
        lines = ui.wrap(text, ui.BOX_COLS)
        if len(lines) > 2 or any(len(w) > ui.BOX_COLS for w in text.split()):
            self.problems.append("toast %r does not fit two lines" % text)


def gallery_scripts():
    return sorted(f[:-7] for f in os.listdir(GALLERY) if f.endswith(".script"))


@pytest.mark.parametrize("name", gallery_scripts())
def test_every_screen_of_the_gallery_fits_with_the_widest_names(name, tmp_path, monkeypatch):
    from firmware.app import App
    from host_sim import script

    runner_ref = [None]
    rec = Recorder(monkeypatch, lambda: runner_ref[0].dev if runner_ref[0] else None)
    real_toast = App.toast

    def toast(app, text, ms=None):
        rec.check_toast(text)
        return real_toast(app, text, ms)

    monkeypatch.setattr(App, "toast", toast)
    with open(os.path.join(GALLERY, name + ".script")) as f:
        instructions = script.parse(f.read())
    runner = script.Runner(str(tmp_path))
    runner_ref[0] = runner
    settings = runner.dev.app.settings
    for i in range(1, 9):
        settings.set_name(i, WIDEST_NAME)
    runner.dev.app.redraw()
    for ins in instructions:
        if ins[0] in ("expect", "absent", "shot"):
            continue  # the words differ with these names; the drawing is what counts
        runner.do(ins)
    runner.driver.settle()
    assert rec.seen, "nothing was drawn through firmware.ui"
    assert not rec.problems, "\n".join(sorted(set(rec.problems)))
