"""Stack 31's screens at every table size (1 to 8 players) with the longest names:
nothing leaves the panel, no title is cut, and no two things drawn overlap or touch
(at least one blank pixel between them), on the board, the picker and the end screen;
a message box never touches the hands (issue 23). The checks of tests/test_fit.py
(its Recorder) plus a record of every box drawn."""

import pytest

from core import cards
from core.stack31 import DISCARD_UP, DQ, DRAW, PLAY
from tests.fw_helpers import new_device, open_stack31
from tests.test_fit import Recorder, WIDEST_NAME

from host_sim import framebuf as host_framebuf
from firmware import ui  # noqa: E402  (tests.test_fit installed the host framebuf)

# Ten characters each, alike in their first letters (the cut names must stay distinct)
LONG_NAMES = ("ANNABELLEA", "ANNABELLEB", "BARTHOLOME", "CYPRIANUSX", "DOROTHEAXY",
              "EVANGELINE", "FREDERICKA", "GUINEVEREX")


def _ink(draw, w, h):
    """(x0, y0, x1, y1) of the ink that `draw(fb)` makes in a w x h scratch buffer."""
    fb = host_framebuf.FrameBuffer(bytearray(w * ((h + 7) // 8)), w, h, host_framebuf.MONO_VLSB)
    draw(fb)
    xs = [x for x in range(w) for y in range(h) if fb.pixel(x, y)]
    ys = [y for y in range(h) for x in range(w) if fb.pixel(x, y)]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


class Boxes:
    """Every text and big glyph run drawn through firmware.ui, as the box of its ink."""

    def __init__(self, monkeypatch):
        self.boxes = []
        real_text, real_big = ui.text, ui.big

        def text(fb, s, x, y, c=1):
            ink = _ink(lambda f: real_text(f, s, 0, 0, 1), max(1, len(s)) * ui.CHAR, ui.LINE)
            if ink:
                self.boxes.append((s, x + ink[0], y + ink[1], x + ink[2], y + ink[3]))
            real_text(fb, s, x, y, c)

        def big(fb, s, x, y, scale=2, c=1):
            ink = _ink(lambda f: real_big(f, s, 0, 0, scale, 1),
                       ui.big_width(s, scale) + scale * ui.CHAR, ui.big_height(scale))
            if ink:
                self.boxes.append((s, x + ink[0], y + ink[1], x + ink[2], y + ink[3]))
            real_big(fb, s, x, y, scale, c)

        monkeypatch.setattr(ui, "text", text)
        monkeypatch.setattr(ui, "big", big)

    def clear(self):
        self.boxes = []

    def touching(self):
        out = []
        b = self.boxes
        for i in range(len(b)):
            for j in range(i + 1, len(b)):
                s, x0, y0, x1, y1 = b[i]
                t, u0, v0, u1, v1 = b[j]
                if x0 <= u1 + 1 and u0 <= x1 + 1 and y0 <= v1 + 1 and v0 <= y1 + 1:
                    out.append("%r %r touches %r %r" % (s, b[i][1:], t, b[j][1:]))
        return out


def _device(tmp_path, players, names):
    dev = new_device(tmp_path)
    for p in range(1, 9):
        dev.app.settings.set_name(p, names[p - 1] if isinstance(names, tuple) else names)
    open_stack31(dev, players)
    return dev


def _play_some(dev):
    """Hands of 1 and 2 digits' worth, piles at 31 (conquered) and below, owners."""
    session = dev.app.session
    g = dev.game
    for _ in range(2 * g.players):
        session.push((None, DRAW))
    for card in ("KH", "9D", "10C", "QS"):
        if g.over:
            break
        if not g.hands[g.to_move]:
            session.push((None, DRAW))
        session.push((None, PLAY, cards.parse(card)))
    while not g.over and not g.hands[g.to_move]:
        session.push((None, DRAW))
    dev.app.screen._suggest()
    dev.app.redraw()
    dev.step(50)


def _check(dev, rec, boxes, what):
    dev.app.redraw()
    boxes.clear()
    dev.step(30)
    problems = list(rec.problems) + boxes.touching()
    assert boxes.boxes, what
    assert not problems, "%s:\n%s" % (what, "\n".join(problems))


@pytest.mark.parametrize("names", [WIDEST_NAME, LONG_NAMES], ids=["same", "distinct"])
@pytest.mark.parametrize("players", range(1, 9))
def test_the_board_picker_and_end_fit_every_table(tmp_path, monkeypatch, players, names):
    rec = Recorder(monkeypatch, lambda: None)
    boxes = Boxes(monkeypatch)
    dev = _device(tmp_path, players, names)
    _check(dev, rec, boxes, "board at the start, %d players" % players)
    _play_some(dev)
    _check(dev, rec, boxes, "board in play, %d players" % players)
    board = dev.app.screen
    names_shown = board._names()
    assert len(set(__import__("firmware.screens.stack31", fromlist=["labels"]).labels(
        names_shown, 2))) == players  # the cut names stay distinct
    dev.press("UP")  # the picker, with its preview and the piles at the side
    assert type(dev.app.screen).__name__ == "CardPickerScreen"
    _check(dev, rec, boxes, "picker, %d players" % players)
    for arrow in ("UP", "UP", "LEFT", "DOWN", "RIGHT", "RIGHT"):
        dev.press(arrow)  # a why note may show on the bottom line
        _check(dev, rec, boxes, "picker after %s, %d players" % (arrow, players))
    dev.press("BACK")
    session = dev.app.session
    while not dev.game.over:
        session.push((None, DQ))
    dev.app.redraw()
    _check(dev, rec, boxes, "end screen, %d players" % players)


@pytest.mark.parametrize("players", (3, 4, 8))
def test_a_message_box_never_touches_the_hands(tmp_path, monkeypatch, players):
    """The refusal and the entry's words (one line), the undo and the flash's words
    (two lines): a box over the action line, or over the piles when the hands take
    both rows; never on the hands or the title bar."""
    dev = _device(tmp_path, players, LONG_NAMES)
    _play_some(dev)
    board = dev.app.screen
    hands_rows = range(36, 36 + 8 * (2 if players > 3 else 1) - 1)
    g = dev.game
    before = [list(r) for r in dev.pixels()]
    for text in ("hand is full", "ANNABELLEA: 10\x01 ->31",
                 "undone: ANNABELLEA's discard up 10\x01", "flash full: not saved"):
        dev.app.toast(text)
        dev.step(30)
        px = dev.pixels()
        changed = [y for y in range(64) if px[y] != before[y]]
        assert changed, text
        assert not [y for y in changed if y < 8], (text, "the title bar")
        if len(dev.app.toast_text()) == 1 or players <= 3:
            assert min(changed) >= hands_rows[-1] + 2, (text, min(changed))
        else:  # over the piles: the hands stay as they were
            assert max(changed) < 35, (text, max(changed))
        # a blank row between the box and the hands' ink
        for y in (hands_rows[0] - 1, hands_rows[-1] + 1):
            assert not any(px[y][:ui.W]) or y in changed, (text, y)
    del board, g
