"""Stack the Deck on the device: whole matches by button presses from the home menu,
checked in the game state and in the pixels of the emulated panel."""

from core import stackdeck_stacks as st
from host_sim.device import SimDevice


def new_device(tmp_path, name="flash"):
    return SimDevice(str(tmp_path / name))


# Moves by buttons only (the screens are read to know which button to press) ------------

def choose(dev, prefix):
    """UP/DOWN in a menu to the row whose label starts with `prefix`, then OK."""
    screen = dev.app.screen
    labels = [e[0] for e in screen.entries]
    for _ in range(len(labels)):
        if screen.entries[screen.menu.index][0].startswith(prefix):
            dev.press("OK")
            return
        dev.press("DOWN")
    raise AssertionError("no row %r in %r" % (prefix, labels))


def set_rounds(dev, rounds):
    """Home -> Settings -> House rules -> Stack the Deck -> Rounds, LEFT/RIGHT -> home."""
    choose(dev, "Settings")
    choose(dev, "House rules")
    choose(dev, "Stack the Deck")
    choose(dev, "Rounds")
    screen = dev.app.screen
    while int(screen.entries[screen.menu.index][0].split()[-1]) > rounds:
        dev.press("LEFT")
    assert screen.entries[screen.menu.index][0].split() == ["Rounds", str(rounds)]
    dev.long("BACK")
    assert dev.shows("Tabletop companion")


def set_name(dev, p, text):
    """Home -> Settings -> Names -> Pp: each letter on the letter board, a long OK."""
    from firmware.screens.textentry import BOARD
    choose(dev, "Settings")
    choose(dev, "Names")
    choose(dev, "P%d " % p)
    screen = dev.app.screen
    for ch in text:
        row = [i for i in range(len(BOARD)) if ch in BOARD[i]][0]
        while screen.row != row:
            dev.press("DOWN")
        while screen.selected() != ch:
            dev.press("RIGHT")
        dev.press("OK")
    dev.long("OK")
    dev.long("BACK")
    assert dev.shows("Tabletop companion")


def open_stackdeck(dev, players=2):
    choose(dev, "Stack the Deck")
    screen = dev.app.screen
    while screen.players < players:
        dev.press("RIGHT")
    while screen.players > players:
        dev.press("LEFT")
    dev.press("OK")
    assert dev.game is not None and dev.game.NAME == "stackdeck"


def to_player(dev, name):
    """Scoreboard -> round sheet -> the player's row."""
    if type(dev.app.screen).__name__ == "StackDeckScreen":
        dev.press("OK")
    choose(dev, name)
    assert type(dev.app.screen).__name__ == "PlayerScreen"


def build_stack(dev, stack, turned=True):
    """In the player's entries: Turned/Unturned stack, the cards picked, a long OK."""
    choose(dev, "Turned stack" if turned else "Unturned stack")
    screen = dev.app.screen
    for card in st.parse_stack(stack):
        number = st.NUMBERS + 1 if card == st.WILD else st.number(card)
        while screen.number != number:
            dev.press("UP")
        if card != st.WILD:
            while screen.colour != st.colour(card):
                dev.press("RIGHT")
        dev.press("OK")
    dev.long("OK")


def counts(dev, values):
    """In the player's entries: Counts, each counter moved with RIGHT, OK saves."""
    choose(dev, "Counts")
    screen = dev.app.screen
    for i, n in enumerate(values):
        while screen.index != i:
            dev.press("DOWN")
        while screen.counts[i] < n:
            dev.press("RIGHT")
    dev.press("OK")


def back_to_board(dev):
    while type(dev.app.screen).__name__ != "StackDeckScreen":
        dev.press("BACK")
    dev.step(3000)  # any message goes by itself


def end_round(dev):
    if type(dev.app.screen).__name__ == "StackDeckScreen":
        dev.press("OK")
    while type(dev.app.screen).__name__ != "SheetScreen":
        dev.press("BACK")
    choose(dev, "End round")


def shows_words(dev, text):
    """The text is on the screen, wrapped as a screen line (16 columns) or a message
    (15, inside its frame) wraps it."""
    from firmware import ui
    return any(all(dev.shows(line) for line in ui.wrap(text, cols))
               for cols in (ui.COLS, ui.COLS - 1))


def shows_big(dev, text, scale):
    """`text` in the large digits of firmware.ui.big somewhere on the panel (lit, or
    dark on a lit row)."""
    return dev.find_text(text, scale) is not None


# Tests ----------------------------------------------------------------------------------

def test_a_whole_match_from_the_home_menu_to_the_final_standings(tmp_path):
    dev = new_device(tmp_path)
    set_rounds(dev, 2)
    set_name(dev, 1, "ANN")
    open_stackdeck(dev, 2)
    assert dev.shows("Round 1 of 2") and dev.shows("D ANN") and dev.shows("> P2")
    assert dev.shows("OK:sheet")  # the hint: OK opens the sheet

    # Round 1: Ann turned a run of one colour and went out; P2 has one unturned stack.
    to_player(dev, "ANN")
    assert dev.shows("ANN 0")
    build_stack(dev, "4G-5G-6G")
    assert shows_words(dev, "saved run 1 colour +20")
    dev.step(3000)  # the message goes by itself
    assert dev.shows("ANN +20") and dev.shows("+20 4G-5G-6G")
    choose(dev, "Went out")
    dev.press("BACK")
    to_player(dev, "P2")
    counts(dev, [0, 0, 0, 0, 1, 0])
    dev.press("BACK")
    assert dev.shows("ANN +20 out") and dev.shows("P2 -5")
    back_to_board(dev)
    s = dev.game.state()
    assert s["current"]["scores"] == [20, -5] and s["totals"] == [0, 0]
    assert dev.shows("now +20 out") and dev.shows("now -5")
    end_round(dev)
    s = dev.game.state()
    assert s["rounds"] == [[20, -5]] and s["totals"] == [20, -5] and s["dealer"] == 2
    # The message goes over the title, never over the bottom player's total.
    assert dev.shows("round 1 scored") and dev.shows("> ANN") and dev.shows("D P2")
    assert shows_big(dev, "20", 3) and shows_big(dev, "-5", 3)
    dev.step(3000)
    assert dev.shows("R2/2") and not dev.shows("round 1 scored")
    assert dev.shows("OK:sheet >:hist")  # a round ended: RIGHT opens the history

    # Round 2: P2 counts two pairs and goes out; Ann is caught with a wild unturned.
    to_player(dev, "P2")
    counts(dev, [2, 0, 0, 0, 0, 0])
    choose(dev, "Went out")
    dev.press("BACK")
    to_player(dev, "ANN")
    build_stack(dev, "W", turned=False)
    dev.step(3000)
    assert dev.shows("-25 unt W")
    end_round(dev)
    s = dev.game.state()
    assert s["over"] and s["rounds"] == [[20, -5], [-25, 10]]
    assert s["totals"] == [-5, 5] and s["winners"] == [2]
    dev.step(3000)
    assert dev.shows("P2 wins!") and dev.shows("1 P2") and dev.shows("2 ANN")
    assert dev.shows("winner") and shows_big(dev, "-5", 3) and shows_big(dev, "5", 3)
    assert dev.game.entries(2) == ["P2 counts 2 0 0 0 0 0", "P2 out", "P1 unturned W"]
    dev.press("OK")
    assert dev.shows("Tabletop companion") and not dev.shows("Resume")


def test_a_tie_is_shared_in_the_final_standings(tmp_path):
    dev = new_device(tmp_path)
    set_rounds(dev, 1)
    open_stackdeck(dev, 3)
    for p in ("P1", "P3"):
        to_player(dev, p)
        counts(dev, [0, 0, 1, 0, 0, 0])
        dev.press("BACK")
        dev.press("BACK")
    to_player(dev, "P1")
    choose(dev, "Went out")
    end_round(dev)
    s = dev.game.state()
    assert s["over"] and s["totals"] == [10, 0, 10] and s["winners"] == [1, 3]
    dev.step(3000)
    assert shows_big(dev, "10", 2) and shows_big(dev, "0", 2)
    assert dev.shows("Tie: P1 P3") and dev.shows("1 P1") and dev.shows("1 P3") and dev.shows("3 P2")


def test_a_refused_entry_shows_the_reason_and_changes_nothing(tmp_path):
    dev = new_device(tmp_path)
    open_stackdeck(dev, 2)
    to_player(dev, "P1")
    build_stack(dev, "4G-5G-6G")
    dev.step(3000)
    before = dev.game.to_json()

    # The checker's verdict is live while the stack is built, and a long OK is refused.
    choose(dev, "Turned stack")
    screen = dev.app.screen
    for number in (4, 6):
        while screen.number != number:
            dev.press("UP")
        while screen.colour != 0:
            dev.press("RIGHT")
        dev.press("OK")
    assert dev.shows("4R-6R") and shows_words(dev, "not a run or a pair")
    dev.long("OK")
    assert type(dev.app.screen).__name__ == "StackScreen"
    assert shows_words(dev, "not a run or a pair") and dev.game.to_json() == before
    dev.step(3000)
    dev.press("BACK")  # the 6R comes off
    while screen.number != 5:
        dev.press("UP")
    while screen.colour != 3:
        dev.press("RIGHT")
    dev.press("OK")
    assert dev.shows("4R-5B") and shows_words(dev, "run needs 3 cards")
    back_to_board(dev)

    # The round refuses a card used twice, with the core's reason.
    to_player(dev, "P2")
    build_stack(dev, "5G-5R")
    assert shows_words(dev, "5G used twice") and dev.game.to_json() == before
    back_to_board(dev)

    # An unturned stack that is complete is refused by the checker.
    to_player(dev, "P2")
    build_stack(dev, "7B-7Y", turned=False)
    assert shows_words(dev, "pair is complete") and dev.game.to_json() == before
    back_to_board(dev)

    # Ending the round with nobody out is refused.
    end_round(dev)
    assert shows_words(dev, "nobody is out") and dev.game.to_json() == before
    assert type(dev.app.screen).__name__ == "SheetScreen"


def test_back_undoes_the_last_line_and_long_back_goes_home(tmp_path):
    dev = new_device(tmp_path)
    open_stackdeck(dev, 2)
    to_player(dev, "P2")
    counts(dev, [1, 0, 0, 0, 0, 0])
    choose(dev, "Went out")
    back_to_board(dev)
    assert dev.game.provisional() == [0, 5] and dev.game.state()["moves"] == 2
    dev.press("BACK")
    assert dev.shows("undone: P2 out")
    assert dev.game.state()["current"]["out"] == [] and dev.game.state()["moves"] == 1
    dev.long("BACK")
    assert dev.shows("Tabletop companion") and dev.shows("Go on Stack the Deck")
    choose(dev, "Go on")
    dev.step(3000)
    assert dev.shows("R1 of 10") and dev.shows("now +5")


def test_an_edit_of_an_earlier_round_changes_the_totals_and_survives_a_restart(tmp_path):
    dev = new_device(tmp_path)
    open_stackdeck(dev, 2)
    to_player(dev, "P1")
    build_stack(dev, "4G-5G-6G")
    choose(dev, "Went out")
    end_round(dev)
    to_player(dev, "P2")
    build_stack(dev, "9R", turned=False)
    back_to_board(dev)
    assert dev.game.totals() == [20, 0] and dev.game.provisional() == [0, -5]

    # Scoreboard -> RIGHT: the history; round 1: P1's run was a plain run, P2 had a pair.
    dev.press("RIGHT")
    assert dev.shows("R1 +20 0")
    choose(dev, "R1")
    assert dev.shows("Edit round 1")
    choose(dev, "P1")
    choose(dev, "+20 4G-5G-6G")
    assert dev.shows("Remove P1 turned")
    dev.press("OK")
    assert dev.game.totals() == [0, 0] and dev.game.entries(1) == ["P1 out"]
    build_stack(dev, "4G-5Y-6G")
    assert dev.game.totals() == [10, 0]
    dev.press("BACK")
    choose(dev, "P2")
    counts(dev, [1, 0, 0, 0, 0, 0])
    assert dev.game.totals() == [10, 5]
    # An edit the round cannot take is refused with the core's reason.
    choose(dev, "Unturned stack")
    dev.long("BACK")
    choose(dev, "Go on")
    dev.press("RIGHT")
    choose(dev, "R1")
    choose(dev, "P1")
    build_stack(dev, "2B", turned=False)
    assert shows_words(dev, "P1 out, has unturned") and dev.game.totals() == [10, 5]
    back_to_board(dev)
    assert shows_big(dev, "10", 3) and shows_big(dev, "5", 3) and not shows_big(dev, "20", 3)
    s = dev.game.state()
    assert s["rounds"] == [[10, 5]] and s["current"]["scores"] == [0, -5]
    entries = dev.game.entries(1)
    # The journal is still a transcript: `python -m host_sim replay` gives this state.
    from core import transcript
    with open(str(tmp_path / "flash" / "game.txt")) as f:
        replayed, err = transcript.replay(f.read().splitlines())
    assert err is None and replayed.state() == s

    # Power off and on: the journal was written anew, the game resumes as edited.
    again = new_device(tmp_path)
    assert again.game.state() == s and again.game.entries(1) == entries
    assert type(again.app.screen).__name__ == "StackDeckScreen"
    assert again.shows("R2/10") and again.shows("now -5")
    again.press("BACK")  # undo still works on the rewritten journal
    assert again.game.provisional() is None
    third = new_device(tmp_path)
    assert third.game.totals() == [10, 5] and not third.game.state()["round_open"]
    with open(str(tmp_path / "flash" / "game.txt")) as f:
        replayed, err = transcript.replay(f.read().splitlines())
    assert err is None and replayed.state() == third.game.state()


def test_end_round_on_an_empty_sheet_says_nobody_is_out(tmp_path):
    dev = new_device(tmp_path)
    open_stackdeck(dev, 2)
    before = dev.game.to_json()
    assert dev.shows("OK:sheet") and not dev.shows(">:hist")  # no round ended yet
    dev.press("RIGHT")
    assert shows_words(dev, "no round ended yet")
    end_round(dev)  # the sheet of a round nobody has entered anything in
    assert type(dev.app.screen).__name__ == "SheetScreen"
    assert shows_words(dev, "nobody is out") and dev.game.to_json() == before


def test_scoreboard_messages_never_cover_the_last_total(tmp_path):
    """An undo's message goes over the title bar, not over the bottom player's row."""
    dev = new_device(tmp_path)
    open_stackdeck(dev, 3)
    to_player(dev, "P3")
    counts(dev, [1, 0, 0, 0, 0, 0])
    back_to_board(dev)
    dev.press("BACK")  # undo the counts: "undone: P3 counts ..."
    assert dev.app.toast_text() and dev.app.toast_text()[0].startswith("undone")
    with_message = dev.pixels()
    dev.step(3000)  # the message goes; the board under it is the same
    assert dev.app.toast_text() is None
    without = dev.pixels()
    assert with_message[24:] == without[24:]  # P2's and P3's rows untouched
    assert with_message[:8] != without[:8]  # the message sits over the title
