"""Stack the Deck's screens at every table size and with every card (issues 18 and 23).

- The scoreboard and the final standings at 2, 3 and 4 players, with 10-character
  names and the widest totals (3-digit and negative: 215, -110, as well as the
  issue's 15, 20, -10, 5), after a round, during one ("now +100 out") and at the end:
  nothing leaves the panel or is cut (test_fit's Recorder), every name and total is
  drawn whole, and no two things drawn touch (each draw's pixels at least one pixel
  from every other's).
- Every card (1 to 10 in every colour, and the wild) in every place it appears: the
  checker's big card, the stack line under it, the verdict and refusals, the
  confirmation messages, the player's entry rows and the remove question. A colour
  is never a letter beside a digit ("1B" reads "18"): no colour glyph drawn equals a
  digit glyph (pixel bitmaps, at the scale it is drawn), and nothing touches.
"""

import re

import pytest

from tests.test_fit import WIDEST_NAME, Recorder  # noqa: F401  (installs the host framebuf)
from tests.test_fw_stackdeck import new_device, open_stackdeck

import framebuf  # noqa: E402  (the host's, installed by test_fit)

from core.stackdeck import stacks as st  # noqa: E402
from firmware import ui  # noqa: E402

NAMES = ("WWWWWWWWWW", "MMMMMMMMMM", "ANNABELLEX", "P4XXXXXXXX")


# -- drawing, call by call ------------------------------------------------------------

class Draws:
    """Notes every ui.text and ui.big call while a screen draws (the ones bar, center
    and the menu make included), so each can be drawn again alone."""

    def __init__(self, monkeypatch):
        self.calls = []
        self.real_text, self.real_big = ui.text, ui.big
        rec = self

        def text(fb, s, x, y, c=1):
            rec.calls.append(("text", s, x, y, 1))
            rec.real_text(fb, s, x, y, c)

        def big(fb, s, x, y, scale=2, c=1):
            rec.calls.append(("big", s, x, y, scale))
            rec.real_big(fb, s, x, y, scale, c)

        monkeypatch.setattr(ui, "text", text)
        monkeypatch.setattr(ui, "big", big)

    def pixels(self, call):
        """The lit pixels of one call drawn alone (dark text drawn lit: the glyphs)."""
        fb = framebuf.FrameBuffer(bytearray(ui.W * ui.H // 8), ui.W, ui.H, framebuf.MONO_VLSB)
        what, s, x, y, scale = call
        if what == "text":
            self.real_text(fb, s, x, y, 1)
        else:
            self.real_big(fb, s, x, y, scale, 1)
        return {(px, py) for py in range(ui.H) for px in range(ui.W) if fb.pixel(px, py)}

    def touching(self):
        """Pairs of calls whose glyphs touch or overlap (closer than one blank pixel)."""
        drawn = [(c, self.pixels(c)) for c in self.calls if c[1].strip()]
        out = []
        for i in range(len(drawn)):
            a, pa = drawn[i]
            near = {(x + dx, y + dy) for x, y in pa for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            for j in range(i + 1, len(drawn)):
                b, pb = drawn[j]
                if near & pb:
                    out.append((a[:4], b[:4]))
        return out


def render(dev, draws):
    draws.calls = []
    dev.app.redraw()
    dev.step(20)
    assert draws.calls, "nothing drawn"


# -- the scoreboard at every table size -----------------------------------------------

def counts_for(score):
    """A counts line's six numbers scoring `score` (a multiple of 5, -110 to 215)."""
    if score >= 0:
        rest = score % 20
        return [1 if rest in (5, 15) else 0, 0, 1 if rest in (10, 15) else 0, score // 20, 0, 0]
    k = -score
    w = min(4, k // 25)
    return [0, 0, 0, 0, (k - 20 * w) // 5, w]


TOTALS = [(15, 20, -10, 5), (215, -110, 5, -5), (-110, 215, 100, -5), (100, -100, 100, 100)]


def table(tmp_path, n, scores, name):
    dev = new_device(tmp_path, name)
    for p in range(1, 5):
        dev.app.settings.set_name(p, NAMES[p - 1])
    dev.app.settings.set_rule("stackdeck", "rounds", 2)
    open_stackdeck(dev, n)
    session = dev.app.session
    for p in range(1, n + 1):
        if scores[p - 1]:
            session.push("P%d counts %s" % (p, " ".join(map(str, counts_for(scores[p - 1])))))
    out = [p for p in range(1, n + 1) if scores[p - 1] >= 0][0]
    session.push("P%d out" % out)
    session.push("end")
    return dev, out


def check_board(dev, draws, rec, n, what):
    render(dev, draws)
    g = dev.game
    drawn = [c[1] for c in draws.calls]
    for p in range(1, n + 1):  # every name whole, every total whole and large
        assert any(NAMES[p - 1] in s for s in drawn), (what, NAMES[p - 1], drawn)
        total = str(g.totals()[p - 1])
        assert any(c[0] == "big" and c[1] == total for c in draws.calls), (what, total, drawn)
    assert not rec.problems, (what, rec.problems)
    assert not draws.touching(), (what, draws.touching())


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("scores", TOTALS)
def test_the_scoreboard_fits_every_table_size_with_the_widest_names_and_totals(
        tmp_path, monkeypatch, n, scores):
    dev, out = table(tmp_path, n, scores, "flash")
    rec = Recorder(monkeypatch, lambda: dev)
    draws = Draws(monkeypatch)
    check_board(dev, draws, rec, n, "after round 1")
    # during round 2: the widest provisional points, the out player marked
    session = dev.app.session
    session.push("P%d counts 0 0 0 5 0 0" % out)
    session.push("P%d out" % out)
    check_board(dev, draws, rec, n, "round 2 open")
    if n < 4:
        assert dev.shows("now +100 out")
    session.push("end")
    check_board(dev, draws, rec, n, "final standings")


# -- every card in every place --------------------------------------------------------

CARDS = [st.make(number, colour) for colour in range(5) for number in range(1, 11)] + [st.WILD]
DIGIT_BESIDE_LETTER = re.compile(r"[0-9][A-Za-z]|[A-Za-z][0-9]")


def glyph(draws, ch, scale):
    """The pixels of one character drawn alone at `scale`, moved to the origin."""
    pixels = draws.pixels(("big", ch, 0, 0, scale) if scale > 1 else ("text", ch, 0, 0, 1))
    if not pixels:
        return frozenset()
    x0 = min(x for x, _ in pixels)
    y0 = min(y for _, y in pixels)
    return frozenset((x - x0, y - y0) for x, y in pixels)


def check_words(draws, what):
    """No drawn word puts a letter right beside a digit, and no letter glyph drawn
    equals a digit glyph at its scale (in the big card, the colour word)."""
    for call in draws.calls:
        kind, s, _, _, scale = call
        for token in s.split():
            if DIGIT_BESIDE_LETTER.search(token) and token not in ("1col", "R1", "R2"):
                raise AssertionError("%s: %r puts a letter beside a digit" % (what, s))
        if kind == "big":
            digits = {glyph(draws, d, scale) for d in "0123456789"}
            for ch in s:
                if ch.isalpha():
                    assert glyph(draws, ch, scale) not in digits, (what, s, ch)


def pick(screen, card):
    screen.number = 11 if card == st.WILD else st.number(card)
    if card != st.WILD:
        screen.colour = st.colour(card)


def test_every_card_in_every_place_reads_as_a_number_and_a_colour_word(tmp_path, monkeypatch):
    dev = new_device(tmp_path)
    for p in (1, 2):
        dev.app.settings.set_name(p, NAMES[p - 1])
    open_stackdeck(dev, 2)
    from firmware.screens.stackdeck.sheet import PlayerScreen, RoundTarget
    from firmware.screens.stackdeck.stack import StackScreen
    app = dev.app
    draws = Draws(monkeypatch)
    rec = Recorder(monkeypatch, lambda: dev)
    toasts = []
    real_toast = app.toast
    monkeypatch.setattr(app, "toast", lambda text, ms=None: (toasts.append(text),
                                                             real_toast(text, ms)))
    names = dev.game.colour_names()
    for card in CARDS:
        target = RoundTarget(app.session, dev.game.current_round(), True)
        screen = StackScreen(app, target, 1, True)
        app.push(screen)
        pick(screen, card)
        render(dev, draws)  # the card alone, large
        word = "Wild" if card == st.WILD else names[st.colour(card)]
        assert any(c[0] == "big" and c[1] == word for c in draws.calls), (card, draws.calls)
        check_words(draws, "card %d" % card)
        assert not draws.touching(), (card, draws.touching())
        dev.press("OK")  # on the stack: the stack line and the verdict under the card
        assert screen.stack == [card]
        render(dev, draws)
        check_words(draws, "stack of %d" % card)
        assert not draws.touching(), (card, draws.touching())
        # a pair of its number (two wilds for the wild): saved, said in words
        pick(screen, st.WILD if card == st.WILD else
             st.make(st.number(card), (st.colour(card) + 1) % 5))
        dev.press("OK")
        if app.screen is screen:
            dev.long("OK")
        assert app.screen is not screen and len(dev.game.entries(1)) == 1, card
        # the player's page: the entry row in words; the remove question in words
        page = PlayerScreen(app, target, 1)
        app.push(page)
        render(dev, draws)
        check_words(draws, "entry row with %d" % card)
        page.menu.index = len(page.entries) - 1
        dev.press("OK")  # Remove ...?
        assert type(app.screen).__name__ == "ConfirmScreen"
        render(dev, draws)
        check_words(draws, "remove question with %d" % card)
        dev.press("OK")  # yes: the round is empty again, for the next card
        assert dev.game.provisional() in (None, [0, 0]) and not dev.game.entries(1)
        while len(app.screens) > 2:
            app.pop()
        dev.step(3000)
    assert not rec.problems, rec.problems
    assert len(toasts) >= len(CARDS)
    for text in toasts:
        for token in text.split():
            assert not DIGIT_BESIDE_LETTER.search(token), text
        assert len(ui.wrap(text, ui.BOX_COLS)) <= 2, text
