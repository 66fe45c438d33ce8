"""Cards read as cards (issue 18): the suits are pips, never letters beside digits.

- The 6x8 font's pips (bytes 1..4) and the picker's big pips (firmware/drivers/pips.py) differ
  from every digit glyph and from each other, pixel for pixel.
- Every card of the deck, in every place a Stack 31 screen shows one (the picker's big
  card, its preview and its why line, the piles at its side, the words that confirm an
  entry, the undo message), is drawn with its suit's pip and no suit letter, and the
  big card keeps a blank pixel row above the text under it.
"""

import re

from host_sim import framebuf as host_framebuf

host_framebuf.install()

from core import cards  # noqa: E402
from core.stack31 import DISCARD_UP, DRAW, PLAY  # noqa: E402
from firmware.drivers import pips as big_pips  # noqa: E402
from firmware import ui  # noqa: E402
from firmware.screens.stack31.picker import CY, PREVIEW_Y, CardPickerScreen, card_text  # noqa: E402
from tests.fw_helpers import new_device, open_stack31  # noqa: E402

PIPS = "\x01\x02\x03\x04"


def _bitmap(draw, w, h):
    fb = host_framebuf.FrameBuffer(bytearray(w * ((h + 7) // 8)), w, h, host_framebuf.MONO_VLSB)
    draw(fb)
    return tuple(tuple(fb.pixel(x, y) for x in range(w)) for y in range(h))


def small(ch):
    return _bitmap(lambda fb: ui.text(fb, ch, 0, 0), ui.CHAR, ui.LINE)


def big_pip(s):
    n = big_pips.SIZE * big_pips.SIZE // 8
    data = big_pips.PIPS[n * s:n * s + n]
    size = big_pips.SIZE
    return tuple(tuple(data[(y // 8) * size + x] >> (y % 8) & 1 for x in range(size))
                 for y in range(size))


def big_digit(d):
    return _bitmap(lambda fb: ui.big(fb, d, 3, 0), big_pips.SIZE, big_pips.SIZE)


def test_the_small_pips_differ_from_every_digit_letter_and_each_other():
    pips = [small(p) for p in PIPS]
    others = [small(c) for c in "0123456789HDCS$[\x7f"]  # a letter, a look-alike, the box
    assert len(set(pips)) == 4
    for p in pips:
        assert any(any(row) for row in p)
        assert p not in others


def test_the_big_pips_differ_from_every_big_digit_and_each_other():
    pips = [big_pip(s) for s in range(4)]
    digits = [big_digit(d) for d in "0123456789"] + \
        [_bitmap(lambda fb, r=r: ui.big(fb, r, 3, 0), 16, 16) for r in "AJQK"]
    assert len(set(pips)) == 4
    for p in pips:
        assert sum(map(sum, p)) > 100  # a solid shape, read from across a table
        assert p not in digits
    # a heart and a diamond from a club and a spade at a glance: the top row's ink
    heart, diamond, club, spade = pips
    assert heart[1].count(1) > 4 and diamond[0].count(1) <= 2 and spade[0].count(1) <= 2
    assert club[0].count(1) >= 4  # the club's round top lobe, the spade's point


def _pixels(fb):
    return [[fb.pixel(x, y) for x in range(ui.W)] for y in range(ui.H)]


def _board(tmp_path):
    dev = new_device(tmp_path)
    for p, name in enumerate(("ANN", "BOB", "CY"), 1):
        dev.app.settings.set_name(p, name)
    open_stack31(dev, 3)
    session = dev.app.session
    for _ in range(6):
        session.push((None, DRAW))
    for card in ("5H", "5D", "5C", "5S"):  # every pile at 5: every rank can go on it
        session.push((None, PLAY, cards.parse(card)))
    for _ in range(3):
        session.push((None, DRAW))
    dev.app.screen._suggest()
    return dev, dev.app.screen


def _letters_by_digits(text):
    return re.search(r"(10|[2-9AJQK])[HDCS]", text)


def test_every_card_in_every_place_shows_its_pip(tmp_path):
    dev, board = _board(tmp_path)
    fb = dev.app.fb
    for card in range(cards.DECK_SIZE):
        s = cards.suit(card)
        pip = PIPS[s]
        name = card_text(card)
        assert name == cards.RANK_NAMES[cards.rank(card) - 1] + pip
        # the words of the board and of the picker
        texts = [board.said((None, PLAY, card)), board.said((None, DISCARD_UP, card)),
                 board.why_not(card), board.pile_preview(card)] + board._piles()
        for t in texts:
            assert not _letters_by_digits(t), t
        assert name in texts[0] and pip in texts[3] and name in texts[1]
        # the picker's big card: the rank, the big pip beside it, the preview under it
        picker = CardPickerScreen(dev.app, "ANN: play", None, board.pile_preview, None, card,
                                  True, board._piles(), board.why_not)
        fb.fill(0)
        picker.draw(fb)
        px = _pixels(fb)
        rx = 30
        drawn = tuple(tuple(px[CY + y][rx + 18 + x] for x in range(16)) for y in range(16))
        assert drawn == big_pip(s), cards.name(card)
        for other in range(4):
            if other != s:
                assert drawn != big_pip(other)
        # the big card's rows hold ink, the rows between it and the preview none
        card_cols = range(rx - 2, rx + 34)
        assert any(px[y][x] for y in range(CY, CY + 16) for x in card_cols)
        gap = [y for y in range(CY + 16, PREVIEW_Y) if any(px[y][x] for x in card_cols)]
        assert not gap, (cards.name(card), gap)
        assert not any(px[CY - 1][x] for x in card_cols)
        # the preview under the card opens with the pile's pip glyph, drawn as the pip
        preview = board.pile_preview(card)
        x = rx + 18 - len(preview) * 3
        cell = tuple(tuple(px[PREVIEW_Y + y][x + i] for i in range(ui.CHAR)) for y in range(ui.LINE))
        assert cell == small(pip), cards.name(card)
        assert all(cell != small(c) for c in "0123456789HDCS" + PIPS.replace(pip, ""))


def test_the_undo_message_shows_the_card_with_its_pip(tmp_path):
    from tests.fw_helpers import pick_card
    dev, board = _board(tmp_path)
    for name in ("7H", "10D", "KS"):
        dev.press("UP")
        pick_card(dev, name)
        assert dev.shows(card_text(cards.parse(name)))  # said on the board
        dev.press("BACK")
        text = " ".join(dev.app.toast_text())
        assert text.endswith(card_text(cards.parse(name))) and not _letters_by_digits(text), text
        assert dev.shows(dev.app.toast_text()[-1])
        dev.app.session.push((None, DRAW))
        dev.app.session.push((None, DRAW))
        dev.app.session.push((None, DRAW))
        dev.app.screen._suggest()
        dev.step(3000)


def test_the_font_modules_are_made_from_their_drawings():
    """firmware/drivers/font6x8.py, digits.py and pips.py are what tools/make_fonts makes of
    tools/fonts/ (the drawings are the source; nobody edits the bytes by hand)."""
    import os
    import subprocess
    import sys
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run([sys.executable, os.path.join(root, "tools", "make_fonts"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
