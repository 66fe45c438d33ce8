"""History at every table size (issue 23): the list and every summary page, at 2, 3
and 4 players (Stack 31 up to its 8), with names of 10 characters and the widest
numbers (5-digit game numbers, 3-digit and negative totals, 3-digit counts beside a
3-digit median, a false count of 0 beside "40ms"), every result (won, tie, left,
damaged). Each screen is drawn and fails on text that leaves the panel, a title cut,
and glyphs that touch or overlap anything else drawn (at least one blank pixel around
every text; an inverted text inside its band with a pixel of band around it; the
title bar is firmware.ui.bar's, shared by every screen, and only checked for a cut)."""

import pytest

from tests.test_fit import WIDEST_NAME, Canvas  # noqa: F401 - Canvas: the panel as drawn
from host_sim import framebuf as host_framebuf
from firmware.archive import store as ar
from firmware import ui
from firmware.screens import history as hs
from firmware.screens.history import summary as hg
from firmware.storage import Storage

NAMES = [WIDEST_NAME] * 8


def summary(game, players, status):
    """A summary tuple (firmware.archive.store.summarize's) with the widest values."""
    names = NAMES[:players]
    of = 9999 if status == "bad" else None
    over = status != "quit"
    winners = [] if status in ("quit", "bad") else [1] if status == "end" else list(range(1, players + 1))
    if game == "stackdeck":
        scores = [-199] * players
        extra = "r=" + "/".join([",".join(["-199"] * players)] * 10)
    elif game == "stress":
        scores = [9] * players
        calls = ["123:45:678:304999", "0:0:0:40000", "7:0:0:-1", "999:99:999:9999999"]
        extra = "c=" + ",".join(calls[p % 4] for p in range(players))
    else:
        scores = [4] + [0] * (players - 1)
        extra = "p=" + ".".join("%s%d:%d" % (s, players - i % players, v)
                                for i, (s, v) in enumerate(zip("HDCS", (31, 19, 0, 31))))
    if status == "bad":
        winners, scores, extra = [], [], ""
    return (game, players, 9998, over, winners, scores, extra, names, of)


def row(game, players, status, seq=99999):
    st = "end" if status in ("end", "tie") else "quit"
    return ar.Row(ar.row_text(seq, st, 4096, summary(game, players, status), 123456, 0xFFFFFFFF))


def cases():
    out = []
    for game, most in (("stackdeck", 4), ("stress", 4), ("stack31", 8)):
        for players in range(2, most + 1):
            for status in ("end", "tie", "quit", "bad"):
                out.append((game, players, status))
    return out


def drawn(draw):
    """(texts [(s, x, y, c)], ink: the pixels lit by everything but text, problems)."""
    texts = []
    problems = []
    real_text, real_bar = ui.text, ui.bar

    def text(fb, s, x, y, c=1):
        texts.append((s, x, y, c))

    def bar(fb, left, y=0, right_text=""):
        room = ui.COLS - len(right_text) - 1 if right_text else ui.COLS
        if len(left) > room:
            problems.append("title %r cut (right: %r)" % (left, right_text))
        real_bar(fb, left, y, right_text)

    canvas = Canvas()
    ui.text, ui.bar = text, bar
    try:
        draw(canvas.fb)
    finally:
        ui.text, ui.bar = real_text, real_bar
    ink = {(x, y) for y in range(ui.H) for x in range(ui.W) if canvas.fb.pixel(x, y)}
    return texts, ink, problems


def glyph_pixels(s, x, y):
    """The pixels the text's glyphs light, also those beyond the panel."""
    big = host_framebuf.FrameBuffer(bytearray(256 * 128 // 8), 256, 128, host_framebuf.MONO_VLSB)
    ui.text(big, s, 64, 32, 1)
    return {(px - 64 + x, py - 32 + y) for py in range(128) for px in range(256) if big.pixel(px, py)}


def around(pixels):
    return {(x + dx, y + dy) for x, y in pixels for dx in (-1, 0, 1) for dy in (-1, 0, 1)}


def problems_of(draw):
    texts, ink, problems = drawn(draw)
    shapes = []
    for s, x, y, c in texts:
        if not s.strip():
            continue
        px = glyph_pixels(s, x, y)
        out = [p for p in px if not (0 <= p[0] < ui.W and 0 <= p[1] < ui.H)]
        if out:
            problems.append("%r at %d,%d is clipped" % (s, x, y))
        near = around(px)
        if c:
            if near & ink:
                problems.append("%r at %d,%d touches a drawing" % (s, x, y))
        elif y > 0 and not near <= ink:  # (the title bar is ui.bar's, its descenders too)
            problems.append("inverted %r at %d,%d is not inside its band" % (s, x, y))
        for s2, near2, px2 in shapes:
            if near & px2:
                problems.append("%r at %d,%d touches %r" % (s, x, y, s2))
        shapes.append((s, near, px))
    return problems


@pytest.mark.parametrize("game,players,status", cases())
def test_every_summary_page_fits(game, players, status):
    r = row(game, players, status)
    screen = hg.game_screen(None, r)
    for page in range(screen.pages()):
        screen.page = page
        found = problems_of(screen.draw)
        assert not found, "%s %dp %s page %d:\n%s" % (game, players, status, page + 1,
                                                       "\n".join(found))


def test_every_summary_says_what_it_must():
    """The words are there: every player's name and total (Stack the Deck), every
    player's row of numbers apart (Stress), each pile's value and owner (Stack 31)."""
    r = row("stackdeck", 4, "quit")
    texts, _, _ = drawn(hg.game_screen(None, r).draw)
    words = [t[0] for t in texts]
    assert words.count("-199") == 4 and sum(1 for w in words if w.endswith(WIDEST_NAME)) == 4
    r = row("stress", 3, "end")
    screen = hg.game_screen(None, r)
    seen = []
    for page in range(screen.pages()):
        screen.page = page
        seen += [t[0] for t in drawn(screen.draw)[0]]
    assert {"won", "tie", "false", "med", "304ms", "40ms", "0", "678"} <= set(seen)
    assert seen.count(WIDEST_NAME) == 3
    r = row("stack31", 3, "end")
    texts, ink, _ = drawn(hg.game_screen(None, r).draw)
    words = [t[0] for t in texts]
    assert [w for w in words if w in ("31", "19", "0")] == ["31", "19", "0", "31"]  # H D C S
    inverted = [t for t in texts if t[3] == 0 and t[2] > 8]
    assert sorted({t[2] for t in inverted}) == [20, 50]  # H and S, conquered, only


@pytest.mark.parametrize("game", ["stackdeck", "stress", "stack31"])
def test_the_list_fits(tmp_path, game):
    """Three entries a screen, two lines each, under the title with its count."""
    st = Storage(str(tmp_path))
    arch = ar.Archive(st)
    arch._mkdir()
    most = 8 if game == "stack31" else 4
    rows = []
    seq = 99900
    for players in range(2, most + 1):
        for status in ("end", "tie", "quit", "bad"):
            rows.append(ar.row_text(seq, "end" if status in ("end", "tie") else "quit", 4096,
                                    summary(game, players, status), 10, 0))
            with open(str(tmp_path / "archive" / ar.name_of(seq)), "wb") as f:
                f.write(b"x" * 10)
            seq += 1
    arch._write_index([seq, 99900, len(rows), 4096 * len(rows)], 0, rows)
    assert ar.Index(st).sound()
    screen = hs.HistoryScreen(None)
    screen.arch = ar.Index(st)
    screen.pager = ar.Pager(screen.arch)
    for i in range(screen.count()):
        screen.index = i
        screen._fill()
        found = problems_of(screen.draw)
        assert not found, "%s row %d:\n%s" % (game, i, "\n".join(found))
