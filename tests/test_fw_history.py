"""History through the real app (host_sim SimDevice): the game in play goes to the
archive when a new game starts over it or when History opens on a finished game; the
list newest first; each game's summary drawn on the panel (the Stack the Deck chart's
pixels checked against its data); the oldest dropped and said; a damaged index rebuilt
on opening."""

import os

from firmware.archive import store as ar
from firmware.storage import Storage
from tests.fw_helpers import draw, new_device, open_stack31
from tests.test_archive import play, transcript_game


def seed(root, names, budget=ar.DEFAULT_KB * 1024):
    st = Storage(str(root))
    arch = ar.Archive(st, budget=budget, play_room=0)
    for name in names:
        play(st, name)
        arch.keep()
    return st


def open_history(dev):
    while dev.app.screen.__class__.__name__ != "HomeScreen":
        dev.long("BACK")
    home = dev.app.screen
    for _ in range(len(home.entries)):
        if home.entries[home.menu.index][0] == "History":
            break
        dev.press("DOWN")
    assert dev.shows("History")
    dev.press("OK")
    assert dev.app.screen.__class__.__name__ == "HistoryScreen"


def lit(dev, x, y):
    return dev.pixels()[y][x] == 1


def test_a_game_left_for_a_new_one_is_in_history(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev, 2)
    draw(dev)
    draw(dev)
    dev.long("BACK")  # home; the game stays saved
    assert dev.shows("Resume Stack 31")
    dev.press("DOWN")
    dev.press("OK")  # Stack 31 again: a new game over the saved one
    assert dev.shows("Start a new game?") or dev.shows("Start a new")
    dev.press("OK")
    dev.press("OK")  # players: start
    assert dev.game is not None and dev.game.moves == 0
    assert os.path.exists(tmp_path / "flash" / "archive" / "00001.txt")
    open_history(dev)
    assert dev.shows("History") and dev.shows("1 game")
    assert dev.shows("1 S31 2p left") and dev.shows("P1 0 P2 0")  # piles by name
    dev.press("OK")
    assert dev.shows("#1 Stack 31 2p") and dev.shows("left after 2 moves")
    dev.press("OK")  # read-only: nothing happens
    assert dev.shows("#1 Stack 31 2p")
    dev.press("BACK")
    assert dev.shows("1 S31 2p left")


def test_a_finished_game_goes_to_history_when_it_opens(tmp_path):
    st = Storage(str(tmp_path / "flash"))
    play(st, "stack31_long_3p.txt")
    g = transcript_game("stack31_long_3p.txt")
    dev = new_device(tmp_path)
    assert dev.game is not None and dev.game.over  # the end screen, undo as before
    open_history(dev)
    assert dev.app.session is None and not os.path.exists(tmp_path / "flash" / "game.txt")
    (w,) = g.state()["winners"]
    assert dev.shows("1 S31 3p won") and dev.shows("P%d" % w)
    dev.press("OK")
    assert dev.shows("P%d won" % w)
    piles = g.state()["piles"]
    from host_sim.device import find_text
    px = dev.pixels()
    # the piles in the game's order, each on its line with its value and its owner
    for i, suit in enumerate("HDCS"):
        y = 20 + i * 10
        band = px[y - 1:y + 9]
        assert find_text(band, "%d" % piles[suit]["value"]), suit
        assert find_text(band, "P%d" % piles[suit]["owner"]), suit
        conquered = piles[suit]["value"] == 31
        assert lit(dev, 1, y - 1) == conquered  # inverted only when conquered
    dev.long("BACK")
    assert not dev.shows("Resume")  # nothing in play now


def test_newest_first_and_the_stack_the_deck_chart(tmp_path):
    seed(tmp_path / "flash", ["stack31_long_3p.txt", "stress_simulated_match_seed4.txt",
                              "stackdeck_full_match_2p.txt"])
    dev = new_device(tmp_path)
    open_history(dev)
    deck = transcript_game("stackdeck_full_match_2p.txt").state()
    stress = transcript_game("stress_simulated_match_seed4.txt")
    (dw,) = deck["winners"]
    assert dev.shows("3 games")
    top = dev.find_text("3 Deck 2p won")
    mid = dev.find_text("2 Stress 2p won")
    low = dev.find_text("1 S31 3p")
    assert top and mid and low and top[1] < mid[1] < low[1]
    dev.press("OK")
    assert dev.shows("#3 Deck 2p") and dev.shows("P%d won" % dw)
    for p in range(2):  # every player's total
        assert dev.find_text("%d P%d" % (p + 1, p + 1)) and dev.shows(str(deck["totals"][p]))
    dev.press("DOWN")  # page 2: the chart
    # the chart: axis, each round's running totals on the lines
    from firmware.screens.history import summary as hg
    rounds = dev.app.screen.row.rounds()
    assert rounds[-1] == deck["totals"]
    pts, lo, hi = hg.chart_points(rounds, 2)
    assert all(lit(dev, hg.X0, y) for y in range(hg.Y0, hg.Y1 + 1))  # the axis
    for x, ys in pts[1:]:
        assert lit(dev, x, ys[0]) and lit(dev, x, ys[0] + 1)  # P1: a thick solid line
    # P2 dotted: lit pixels along its line, but not every one
    x0, x1 = pts[1][0], pts[-1][0]
    p2 = sum(1 for x in range(x0, x1) for y in range(hg.Y0, hg.Y1 + 2) if lit(dev, x, y))
    assert p2 > 2 * (x1 - x0)
    assert dev.shows(str(hi)) and dev.shows("1") and dev.shows("2")  # scale and end labels
    dev.press("BACK")
    dev.press("DOWN")
    dev.press("OK")
    stats = stress.call_stats()
    assert dev.shows("won") and dev.shows("tie") and dev.shows("false") and dev.shows("med")
    for p in range(2):
        row = dev.find_text("P%d" % (p + 1))
        assert row is not None
    calls = dev.app.screen.row.calls()
    assert [c[0] for c in calls] == stats["won"] and [c[2] for c in calls] == stats["false"]
    assert dev.shows(hg.ms(calls[0][3]))


def test_the_oldest_dropped_are_named_and_a_damaged_index_rebuilt(tmp_path):
    seed(tmp_path / "flash", ["stack31_long_3p.txt"] * 3)
    dev = new_device(tmp_path)
    dev.app.settings.set("archive_kb", 32)
    st = Storage(str(tmp_path / "flash"))
    # the budget of 32 KB holds 8 games of one 4 KB block: play more and start anew
    for _ in range(5):
        play(st, "stack31_long_3p.txt", n=12)
        assert ar.for_app(dev.app).keep() is None
    play(st, "stack31_long_3p.txt", n=12)
    dev = new_device(tmp_path)
    dev.app.settings.set("archive_kb", 32)
    dev.long("BACK")
    home = dev.app.screen
    while home.entries[home.menu.index][0] != "Stack 31":
        dev.press("DOWN")
    dev.press("OK")  # a new game over the saved one: confirm, then start
    assert dev.shows("Start a new game?") or dev.shows("Start a new")
    dev.press("OK")
    dev.press("OK")
    assert dev.app.toast_text() and "1 oldest game dropped" in " ".join(dev.app.toast_text())
    assert len(os.listdir(tmp_path / "flash" / "archive")) == 9  # 8 games and the index
    # damage a row: History re-reads that game from its transcript and says so
    path = tmp_path / "flash" / "archive" / "index.txt"
    data = bytearray(path.read_bytes())
    data[data.rindex(b"stack31")] = ord("X")  # the newest row: on the first page
    path.write_bytes(bytes(data))
    open_history(dev)
    assert dev.shows("8 games"), dev.text()
    assert dev.shows("9 S31 3p left"), dev.text()
    assert " ".join(dev.app.toast_text()) == "1 game re-read"


def test_a_new_game_with_no_game_on_flash_does_not_load_the_archive(tmp_path):
    """The archive's code (18 KB of heap on a board) is loaded only to archive a game,
    for History or for a drop for room: a new game on an empty flash never loads it
    (checked in a fresh interpreter, where nothing was loaded before)."""
    import subprocess
    import sys
    code = ("import sys, pathlib, tests.fw_helpers as h;"
            "dev = h.new_device(pathlib.Path(%r)); h.open_stack31(dev); h.draw(dev);"
            "print(dev.game.state()['deck'], 'firmware.archive.store' in sys.modules)" % str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=str(__import__("pathlib").Path(__file__).parent.parent))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["51", "False"]


def test_the_new_game_screen_offers_each_games_own_player_limits():
    """The home menu's new-game screen takes the limits from core.games (so that the
    game's rules load only when it starts): they are the classes' own."""
    from core.games import GAMES, game_class
    for name, entry in GAMES.items():
        cls = game_class(name)
        assert (entry[3], entry[4]) == (cls.MIN_PLAYERS, cls.MAX_PLAYERS), name


def _full_flash(*_args, **_kw):
    raise OSError(28, "ENOSPC")


def test_a_game_history_cannot_archive_stays_in_play(tmp_path, monkeypatch):
    """The session is let go while the transcript is replayed; when the archive refuses,
    the game is read back from flash and stays the game in play, and History says so."""
    from firmware import modules
    monkeypatch.setattr(modules, "said", None)  # what an earlier test's drop left
    st = Storage(str(tmp_path / "flash"))
    play(st, "stack31_long_3p.txt")
    dev = new_device(tmp_path)
    moves = dev.game.moves
    monkeypatch.setattr(ar.Archive, "keep", _full_flash)
    open_history(dev)
    assert " ".join(dev.app.toast_text()) == "Game not archived: flash full"
    assert dev.app.session is not None and dev.game.over and dev.game.moves == moves
    assert os.path.exists(tmp_path / "flash" / "game.txt")
    assert dev.shows("0 games")


def test_a_new_game_that_cannot_archive_the_last_does_not_start(tmp_path, monkeypatch):
    dev = new_device(tmp_path)
    open_stack31(dev, 2)
    draw(dev)
    draw(dev)
    moves = dev.game.moves
    dev.long("BACK")
    monkeypatch.setattr(ar.Archive, "keep", _full_flash)
    dev.press("DOWN")
    dev.press("OK")  # Stack 31 again, over the saved one
    dev.press("OK")  # yes
    dev.press("OK")  # players: start
    assert " ".join(dev.app.toast_text()) == "Not started: flash full"
    assert dev.app.session is not None and dev.game.moves == moves and not dev.game.over
    dev.long("BACK")
    assert dev.shows("Resume Stack 31")
