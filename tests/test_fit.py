"""Every word the device can show fits on the 128x64 panel in the 6x8 font (21
columns): nothing clipped, nothing cut.

- The rules' refusal reasons: every IllegalAction("...") in core/ (found in the
  source, % formats and + joins filled with the widest values they can take) fits the
  message box (two lines of ui.BOX_COLS, no word cut), and renders inside it.
- The screens: the gallery scripts (every screen of every game) are played with the
  widest player names, while every text, title bar, menu row, big number and toast
  the firmware draws is checked: inside the panel, a title not cut, a menu label not
  cut, a toast in at most two lines.
- Every menu: every menu row and every title reachable from home (Settings, Names,
  House rules, each game's rules, About, History, each game's new-game screen and its
  question over a saved game), with each game saved in turn (its Resume row) and the
  widest 10-character names; and the Stress screens at 2, 3 and 4 players, every view
  and every label of the action line. There, what is drawn is also checked for
  overlap: no two texts share a cell, and no big glyph comes within a pixel of any
  other ink (the house rule: at least one pixel between big glyphs and text).

Helpers other tests import (names kept stable): WIDEST_NAME; fit_device(path, names)
-> a SimDevice with every seat named; Recorder(monkeypatch, dev_ref, ink=False) (its
.problems, .seen; ink=True adds the overlap checks, per frame); drawn_problems(dev,
rec) -> the problems of the frame drawn now; walk_menus(dev, rec, depth) -> the
screens visited from the menu on top.
"""

import ast
import importlib
import os
import re
import sys

import pytest

from host_sim import framebuf as host_framebuf

host_framebuf.install()

from firmware import ui  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(ROOT, "core")
GALLERY = os.path.join(ROOT, "tools", "gallery")

WIDEST_NAME = "WWWWWWWWWW"  # firmware.settings.store.NAME_MAX characters

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
    paths = sorted(os.path.join(base, f) for base, _dirs, files in os.walk(CORE)
                   for f in files if f.endswith(".py"))
    for path in paths:
        fname = os.path.relpath(path, CORE).replace(os.sep, "/")
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
    """Wraps the ui functions the screens draw with; notes everything clipped. With
    ink=True it also keeps, for each frame the app renders, where each text and big
    glyph string put its ink, and notes two texts that share a cell and a big glyph
    that comes within one pixel of other ink (a toast, drawn over the screen on
    purpose, is left out)."""

    def __init__(self, monkeypatch, dev_ref, ink=False):
        self.problems = []
        self.seen = set()
        self.dev_ref = dev_ref
        self.ink = ink
        self.drawn = []  # this frame: (kind, string, cell box, ink pixels)
        real_text, real_bar, real_big = ui.text, ui.bar, ui.big
        real_menu_draw = ui.Menu.draw
        canvas = Canvas().fb

        def where():
            dev = dev_ref()
            return type(dev.app.screen).__name__ if dev is not None else "?"

        def in_toast():
            f = sys._getframe(2)
            for _ in range(3):
                if f is None:
                    return False
                if f.f_code.co_name == "render" and f.f_code.co_filename.endswith("app.py"):
                    return True
                f = f.f_back
            return False

        def note(kind, s, x, y, w, h, draw):
            if not self.ink or in_toast():
                return
            canvas.fill(0)
            draw(canvas)
            pixels = set()
            for yy in range(max(0, y), min(ui.H, y + h)):
                for xx in range(max(0, x), min(ui.W, x + w)):
                    if canvas.pixel(xx, yy):
                        pixels.add((xx, yy))
            self.drawn.append((kind, s, (x, y, x + w, y + h), pixels))

        def text(fb, s, x, y, c=1):
            self.seen.add(s)
            if x < 0 or x + ui.width(s) - 1 > ui.W or y < 0 or y + ui.LINE > ui.H:
                self.problems.append("%s: text %r at %d,%d leaves the panel" % (where(), s, x, y))
            core = s.strip()
            if core:
                # the cells of the characters between the spaces at either end, less
                # the last glyph's blank column
                x0 = x + (len(s) - len(s.lstrip())) * ui.CHAR
                note("text", s, x0, y, len(core) * ui.CHAR - 1, ui.LINE,
                     lambda cv: real_text(cv, s, x, y, 1))
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
            if scale >= 2 and s.strip():
                note("big", s, x, y, w, ui.big_height(scale),
                     lambda cv: real_big(cv, s, x, y, scale, 1))
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
        # Every frame drawn whole: each state is checked as draw() shows it (a frame
        # drawn in part is the same: tests/test_partial_draw.py)
        from firmware.app import App
        real_redraw = App.redraw
        monkeypatch.setattr(App, "redraw", lambda app, part=False: real_redraw(app))
        if ink:
            real_render = App.render

            def render(app):
                self.drawn = []
                real_render(app)
                self.problems.extend(self.overlaps(where()))

            monkeypatch.setattr(App, "render", render)

    def overlaps(self, where):
        """The overlaps of the frame just drawn (see the class)."""
        found = []
        drawn = self.drawn
        for i in range(len(drawn)):
            ka, sa, ba, pa = drawn[i]
            for j in range(i + 1, len(drawn)):
                kb, sb, bb, pb = drawn[j]
                if ka == "text" and kb == "text":
                    if ba[0] < bb[2] and bb[0] < ba[2] and ba[1] < bb[3] and bb[1] < ba[3]:
                        found.append("%s: text %r and %r share a cell" % (where, sa, sb))
                    continue
                # a big glyph: no ink of the other within one pixel of its ink
                small, large = (pa, pb) if len(pa) <= len(pb) else (pb, pa)
                if any((x + dx, y + dy) in large for x, y in small
                       for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                    found.append("%s: %s %r touches %s %r" % (where, ka, sa, kb, sb))
        return found

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


# -- every menu, every title; Stress at 2, 3 and 4 players -------------------------------
def fit_device(path, names=WIDEST_NAME):
    """A simulated device (flash in `path`) with every seat named `names` (the widest
    10-character name by default), on the home screen."""
    from host_sim.device import SimDevice
    dev = SimDevice(str(path))
    for i in range(1, 9):
        dev.app.settings.set_name(i, names)
    dev.app.redraw()
    dev.step(20)
    return dev


def drawn_problems(dev, rec):
    """Draw the screen on top again and give the problems found so far (the frame's
    own included)."""
    dev.app.redraw()
    dev.step(20)
    return rec.problems


GAME_SCREENS = ("stack31", "stackdeck", "stress", "view", "scoreboard")  # their own tests


def walk_menus(dev, rec, depth=2):
    """From the menu on top: every row opened (OK) and drawn, a menu under it walked
    to `depth`, then BACK until the menu is on top again. Returns the names of the
    screens seen (the rows' titles are checked by `rec` as they are drawn)."""
    from firmware.screen import MenuScreen
    top = dev.app.screen
    seen = [type(top).__name__]
    for i in range(len(top.entries)):
        while top.menu.index != i:
            dev.press("DOWN")
        dev.press("OK")
        dev.step(200)
        screen = dev.app.screen
        if screen is not top:
            seen.append(type(screen).__name__)
            if isinstance(screen, MenuScreen) and depth > 1 and screen.entries:
                seen += walk_menus(dev, rec, depth - 1)[1:]
            if type(screen).__module__.split(".")[-1] in GAME_SCREENS:
                dev.long("BACK")  # a game resumed: home (BACK would undo)
                dev.step(200)
            for _ in range(14):  # a name being edited loses a letter a BACK, unsaved
                if dev.app.screen is top:
                    break
                dev.press("BACK")
                dev.step(100)
            assert dev.app.screen is top, "no way back to %s" % type(top).__name__
    return seen


def _saved_game(dev, name):
    """Start game `name` from home with its fewest players, then long BACK home: the
    game stays saved (its Resume row)."""
    from core.games import GAMES
    home = dev.app.screen
    labels = [e[0] for e in home.entries]
    while home.menu.index != labels.index(GAMES[name][2]):
        dev.press("DOWN")
    dev.press("OK")
    if type(dev.app.screen).__name__ == "ConfirmScreen":
        dev.press("OK")
    dev.press("OK")  # the new-game screen: start
    dev.step(200)
    assert dev.app.session is not None and dev.app.session.name == name
    dev.long("BACK")
    dev.step(200)
    assert dev.app.screen is home


@pytest.mark.parametrize("saved", [None, "stack31", "stackdeck", "stress"])
def test_every_menu_row_and_title_fits_with_the_longest_names(tmp_path, monkeypatch, saved):
    """Every row and title of every menu from home, with each game saved in turn: the
    saved game's row names it whole (it once read "Resume Stack the Dec")."""
    dev_ref = [None]
    rec = Recorder(monkeypatch, lambda: dev_ref[0], ink=True)
    dev = dev_ref[0] = fit_device(tmp_path)
    if saved:
        _saved_game(dev, saved)
        assert any(e[0].endswith(__import__("core.games").games.GAMES[saved][2])
                   and e[0] != __import__("core.games").games.GAMES[saved][2]
                   for e in dev.app.screen.entries)
    seen = walk_menus(dev, rec, depth=3)
    for name in ("HomeScreen", "SettingsScreen", "NamesScreen", "TextEntryScreen",
                 "HouseRulesScreen", "RulesScreen", "AboutScreen"):
        assert name in seen, (name, seen)
    # each game's new-game screen; over a saved game, the question first
    assert seen.count("ConfirmScreen" if saved else "NewGameScreen") == 3, seen
    assert "Tabletop companion" in rec.seen
    assert not rec.problems, "\n".join(sorted(set(rec.problems)))


def test_the_fit_test_catches_a_menu_row_one_column_too_long(tmp_path, monkeypatch):
    """The old resume row, 'Resume Stack the Deck' (21 columns, cut to 20 by the
    menu's marker), fails the check that the home rows pass."""
    from firmware.screens import home_menu
    dev_ref = [None]
    rec = Recorder(monkeypatch, lambda: dev_ref[0])
    monkeypatch.setattr(home_menu, "resume_label", lambda title: "Resume " + title)
    dev = dev_ref[0] = fit_device(tmp_path)
    _saved_game(dev, "stackdeck")
    assert any("menu row 'Resume Stack the Deck' cut to 'Resume Stack the Dec'" in p
               for p in drawn_problems(dev, rec)), rec.problems


def _to_choice(dev, i):
    """RIGHT to label i of the Stress action line (by place: the names may be alike)."""
    screen = dev.app.screen
    n = len(screen._labels(screen._sync_view()))
    for _ in range(n):
        if screen.choice % n == i:
            return
        dev.press("RIGHT")
    raise AssertionError("no label %d" % i)


def _stress_views(dev, players):
    """Every view of the Stress screen and every label of its action lines, at
    `players` players: the match, the countdown, the centre picker (both stacks, a
    stress), play, a call decided, the table naming who takes, the re-deal, a tie, a
    false call, "Px out" asked, a game won, the match won."""
    from tests.test_fw_stress import FLIP_MS, flip, open_stress, two_presses
    names = [dev.app.settings.name(p) for p in range(1, players + 1)]
    dev.app.settings.set_rule("stress", "games", 2)
    open_stress(dev, players)
    assert all(dev.shows(n) for n in names), "a name cut in the match view"
    dev.press("OK")
    dev.step(1000)
    flip(dev, ("10H", "10S"))
    for _ in range(players + 2):  # every label of the play view
        dev.press("RIGHT")
    for p in range(players, 0, -1):  # the last seat first, everybody presses
        dev.call(p)
        dev.step(30)
    dev.step(1500)
    assert dev.shows(names[-1], 2) or dev.shows(names[-1]), "the caller's name cut"
    for _ in range(players + 2):  # every label of the call view
        dev.press("RIGHT")
    _to_choice(dev, 2)  # the table names P1 to take the stacks
    dev.press("OK")
    dev.step(1000)  # the re-deal says who takes them
    assert dev.shows(names[0] + " takes")
    flip(dev, ("QH", "KS"))
    two_presses(dev, 1, 2, 300)  # a tie
    dev.step(1500)
    dev.press("OK")
    dev.step(200)
    two_presses(dev, 2, 1, 40000)  # no stress on the table: a false call
    dev.step(1500)
    _to_choice(dev, 1)
    dev.press("OK")
    dev.step(200)
    for game in range(2):
        _to_choice(dev, players + 1)  # the last seat is out
        dev.press("OK")
        dev.step(100)
        assert type(dev.app.screen).__name__ == "ConfirmScreen" and dev.shows(names[-1])
        dev.press("OK")
        dev.step(100)
        if game == 0:
            dev.press("OK")
            dev.step(FLIP_MS)
            dev.press("BACK")
    assert dev.game.match_winner() == players and dev.shows("Match over")
    assert dev.shows(names[-1], 2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_stress_fits_at_every_table_size_with_the_longest_names(tmp_path, monkeypatch, players):
    dev_ref = [None]
    rec = Recorder(monkeypatch, lambda: dev_ref[0], ink=True)
    dev = dev_ref[0] = fit_device(tmp_path)
    for p in range(1, 5):  # as wide, and each its own (a cut name shows as another's)
        dev.app.settings.set_name(p, WIDEST_NAME[:-1] + str(p))
    _stress_views(dev, players)
    assert "<" + WIDEST_NAME[:-1] + "%d out>" % players in rec.seen
    assert not rec.problems, "\n".join(sorted(set(rec.problems)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_stress_fits_at_every_table_size_with_short_names(tmp_path, monkeypatch, players):
    """The gallery's names (ANN, BOB, CY, DEE): the same views, nothing touching."""
    dev_ref = [None]
    rec = Recorder(monkeypatch, lambda: dev_ref[0], ink=True)
    dev = dev_ref[0] = fit_device(tmp_path)
    for i, name in enumerate(("ANN", "BOB", "CY", "DEE")):
        dev.app.settings.set_name(i + 1, name)
    _stress_views(dev, players)
    assert not rec.problems, "\n".join(sorted(set(rec.problems)))


def test_the_overlap_check_sees_texts_that_share_a_cell_and_ink_that_touches(monkeypatch):
    """The checks of Recorder(ink=True) find what they are meant to find."""
    rec = Recorder(monkeypatch, lambda: None, ink=True)
    fb = Canvas().fb
    ui.big(fb, "8", 0, 0, 2)  # 16 px tall: rows 0..15
    ui.text(fb, "T", 2, 16)  # its top row right under the 8's bottom row
    ui.text(fb, "ab", 40, 30)
    ui.text(fb, "cd", 45, 30)  # starts in b's cell
    ui.text(fb, "ef", 40, 40)
    ui.text(fb, "gh", 52, 40)  # beside it: no problem
    found = rec.overlaps("t")
    assert any("'8' touches text 'T'" in p for p in found), found
    assert any("'ab' and 'cd' share a cell" in p for p in found), found
    assert not any("'ef'" in p for p in found) and len(found) == 2, found
