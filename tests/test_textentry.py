"""Names typed on the letter board, through the real app, with the presses counted.

The route to each letter is found by asking the screen itself where a press takes its
cursor (breadth first), never from a copy of the layout."""

from firmware.drivers import buttons as b
from tests.fw_helpers import new_device
from tests.test_fw_settings import choose

ARROWS = (("UP", b.UP), ("DOWN", b.DOWN), ("LEFT", b.LEFT), ("RIGHT", b.RIGHT))


class Counter:
    """A device whose presses are counted (a long press is one press, a hold too)."""

    def __init__(self, dev):
        self.dev = dev
        self.n = 0

    def press(self, *names):
        for name in names:
            self.dev.press(name)
            self.n += 1

    def long(self, name):
        self.dev.long(name)
        self.n += 1


def route(screen, ch):
    """The fewest arrows that take the board's cursor from where it is to `ch`."""
    start = (screen.row, screen.col)
    seen = {start: None}
    queue = [start]
    redraw = screen.app.redraw
    screen.app.redraw = lambda: None
    try:
        for here in queue:
            screen.row, screen.col = here
            if screen.selected() == ch:
                path = []
                while seen[here] is not None:
                    here, name = seen[here]
                    path.append(name)
                return path[::-1]
            for name, button in ARROWS:
                screen.row, screen.col = here
                screen.on_button(b.PRESS, button)
                there = (screen.row, screen.col)
                if there not in seen:
                    seen[there] = (here, name)
                    queue.append(there)
        raise AssertionError("%r is not on the board" % ch)
    finally:
        screen.row, screen.col = start
        screen.app.redraw = redraw


def type_name(c, text):
    """On the open letter board: each letter by the fewest arrows and OK, then a long OK."""
    for ch in text:
        c.press(*route(c.dev.app.screen, ch))
        c.press("OK")
    c.long("OK")


def to_names(dev):
    choose(dev, "Settings")
    choose(dev, "Names")
    assert dev.shows("P1  P1")


def test_p1_becomes_ann_in_seven_presses(tmp_path):
    dev = new_device(tmp_path)
    to_names(dev)
    c = Counter(dev)
    c.press("OK")  # P1: the letter board, blank (the seat is no name to edit)
    assert dev.shows("Name P1") and dev.app.screen.text == ""
    assert dev.app.screen.selected() == "A"
    c.press("OK")  # A
    c.press("DOWN", "LEFT")  # N: a row down, across the left edge
    c.press("OK", "OK")  # N twice: the cursor stays
    assert dev.app.screen.text == "ANN"
    assert dev.shows_big("ANN")
    c.long("OK")
    assert dev.app.settings.name(1) == "ANN" and dev.shows("P1  ANN")
    assert c.n == 7  # was about 41 with the old letter wheel
    assert new_device(tmp_path, "flash").app.settings.name(1) == "ANN"  # saved


COMMON = ("ANN", "BOB", "EVA", "TOM", "JOE", "SAM", "MAX", "LEO", "MIA", "ZOE", "IDA",
          "KAI", "LIZ", "DAN", "AMY", "BEN", "GUS", "UMA", "VIC", "WES", "YUL", "ROY",
          "PAM", "HAL", "CY", "FAY", "NED", "QUIN", "XAVI", "OLLY")


def test_presses_per_name(tmp_path):
    """Every name of a list typed through the app: printed figures, and bounds."""
    dev = new_device(tmp_path)
    to_names(dev)
    counts = {}
    for i, name in enumerate(COMMON):
        p = i % 8 + 1
        dev.app.settings.set_name(p, "")  # each name typed from the seat's default
        dev.app.screen.enter()
        choose(dev, "P%d " % p)
        c = Counter(dev)
        assert dev.app.screen.text == ""
        type_name(c, name)
        assert dev.app.settings.name(p) == name
        counts[name] = c.n
    three = sorted(n for name, n in counts.items() if len(name) == 3)
    median = three[len(three) // 2]
    print("presses per 3-letter name (letter board, from the open board): median %d, worst %d"
          % (median, three[-1]))
    print(" ".join("%s %d" % kv for kv in sorted(counts.items(), key=lambda kv: kv[1])))
    assert counts["ANN"] == 6 and median <= 12 and three[-1] <= 18  # the old wheel: ANN 41


def test_back_deletes_and_an_empty_board_leaves_without_saving(tmp_path):
    dev = new_device(tmp_path)
    dev.app.settings.set_name(2, "BOB")
    to_names(dev)
    choose(dev, "P2 ")
    assert dev.app.screen.text == "BOB"  # a name to edit starts as it is
    dev.press("BACK")
    assert dev.app.screen.text == "BO" and dev.shows_big("BO")
    dev.presses("BACK", "BACK")
    assert dev.app.screen.text == ""
    dev.press("BACK")  # empty: leaves, nothing saved
    assert dev.shows("P2  BOB") and dev.app.settings.name(2) == "BOB"
    choose(dev, "P2 ")
    dev.presses("BACK", "BACK", "BACK")
    dev.long("OK")  # an empty name saved: the seat again
    assert dev.app.settings.name(2) == "P2" and dev.shows("P2  P2")


def test_a_long_back_goes_home_without_saving(tmp_path):
    dev = new_device(tmp_path)
    to_names(dev)
    choose(dev, "P1 ")
    dev.presses("OK", "OK")
    dev.long("BACK")
    assert dev.shows("Tabletop companion") and dev.app.settings.name(1) == "P1"


def test_the_board_wraps_and_a_held_arrow_runs(tmp_path):
    dev = new_device(tmp_path)
    to_names(dev)
    choose(dev, "P1 ")
    screen = dev.app.screen
    dev.press("LEFT")  # A -> G: across the edge
    assert screen.selected() == "G"
    dev.press("UP")  # the last row, under G
    assert screen.selected() == " "
    dev.press("DOWN")
    moves = 0
    row = screen.row
    dev.hold("DOWN")  # held: a move at once, then more while held (REPEAT)
    for _ in range(100):
        dev.step(10)
        if screen.row != row:
            moves += 1
            row = screen.row
    dev.let_go("DOWN")
    dev.step(60)
    assert moves >= 5  # a second: one move, then one every 120 ms after 400 ms
    from firmware.screens.textentry import BOARD
    assert screen.selected() == BOARD[screen.row][6]  # down the same column, wrapping


def test_a_name_stops_at_its_length_and_has_no_leading_space(tmp_path):
    dev = new_device(tmp_path)
    to_names(dev)
    choose(dev, "P3 ")
    screen = dev.app.screen
    dev.presses("UP", "LEFT")  # the space: the last cell of the last row
    assert screen.selected() == " "
    dev.press("OK")
    assert screen.text == ""  # no leading space
    dev.presses("DOWN", "RIGHT")  # back to A
    assert screen.selected() == "A"
    for _ in range(12):
        dev.press("OK")
    assert screen.text == "A" * 10  # settings_store.NAME_MAX at most, whole on the screen
    assert dev.shows_big("A" * 10)
    dev.long("OK")
    assert dev.app.settings.name(3) == "A" * 10


def test_a_ten_letter_name_is_typed_seen_whole_and_saved_whole(tmp_path):
    from firmware.settings.store import NAME_MAX
    name = "WILHELMINA"
    assert len(name) == NAME_MAX
    dev = new_device(tmp_path)
    to_names(dev)
    choose(dev, "P2 ")
    c = Counter(dev)
    for i, ch in enumerate(name):
        c.press(*route(dev.app.screen, ch))
        c.press("OK")
        assert dev.shows_big(name[:i + 1])  # whole while typing, large
    dev.press("OK")  # one more: refused (a beep), nothing cut or added
    assert dev.app.screen.text == name and dev.shows_big(name)
    dev.long("OK")
    assert dev.app.settings.name(2) == name and dev.shows("P2  " + name)
    assert new_device(tmp_path, "flash").app.settings.name(2) == name  # saved whole
