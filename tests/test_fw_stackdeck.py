"""Stack the Deck on the device: whole matches by button presses from the home menu,
checked in the game state and in the pixels of the emulated panel."""

from core.stackdeck import stacks as st
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


def at_home(dev):
    return type(dev.app.screen).__name__ == "HomeScreen"


def kind(dev):
    return type(dev.app.screen).__name__


def resume(dev):
    """Home: the saved game's row (its wording is the home menu's), OK."""
    screen = dev.app.screen
    labels = [e[0] for e in screen.entries]
    row = [label for label in labels if label.endswith("Stack the Deck") and
           label != "Stack the Deck"][0]
    choose(dev, row)


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
    assert at_home(dev)


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
    assert at_home(dev)


def open_stackdeck(dev, players=2):
    choose(dev, "Stack the Deck")
    screen = dev.app.screen
    while screen.players < players:
        dev.press("RIGHT")
    while screen.players > players:
        dev.press("LEFT")
    dev.press("OK")
    assert dev.game is not None and dev.game.NAME == "stackdeck"


def to_row(dev, name):
    """Scoreboard -> round sheet; the cursor on the player's row (DOWN only). From the
    next player's counters (opened by a save or by OK on a new round) BACK first."""
    if kind(dev) == "StackDeckScreen":
        dev.press("OK")
    while kind(dev) == "CountsScreen":
        dev.press("BACK")
    screen = dev.app.screen
    assert kind(dev) == "SheetScreen", kind(dev)
    for _ in range(len(screen.entries)):
        if screen.entries[screen.menu.index][0].startswith(name + " "):
            return
        dev.press("DOWN")
    raise AssertionError("no row %r" % name)


def to_player(dev, name):
    """Scoreboard -> round sheet -> the player's row -> RIGHT: their stacks."""
    to_row(dev, name)
    dev.press("RIGHT")
    assert kind(dev) == "PlayerScreen"


def pick_card(dev, card):
    """In the checker: UP to the card's number, RIGHT to its colour."""
    screen = dev.app.screen
    number = st.NUMBERS + 1 if card == st.WILD else st.number(card)
    while screen.number != number:
        dev.press("UP")
    if card != st.WILD:
        while screen.colour != st.colour(card):
            dev.press("RIGHT")


def build_stack(dev, stack, turned=True):
    """In the player's entries: Check a stack / Unturned stack, each card picked and
    added (OK); a long OK when the stack did not save itself."""
    choose(dev, "Check a stack" if turned else "Unturned stack")
    screen = dev.app.screen
    for card in st.parse_stack(stack):
        pick_card(dev, card)
        dev.press("OK")
    if dev.app.screen is screen:
        dev.long("OK")


def set_counters(dev, values):
    """On the counters: each counter moved to its value, OK saves."""
    from firmware.screens.stackdeck.counts import ORDER
    screen = dev.app.screen
    assert kind(dev) == "CountsScreen", kind(dev)
    for i, n in enumerate(values):
        if screen.counts[i] == n:
            continue  # (no need to go there: "wild" is passed while Untrn is 0)
        while ORDER[screen.pos] != i:
            dev.press("DOWN")
        while screen.counts[i] < n:
            dev.press("RIGHT")
        while screen.counts[i] > n:
            dev.press("LEFT")
    dev.press("OK")


def counts(dev, values):
    """In the player's entries: Counts, the counters set, OK saves."""
    choose(dev, "Counts")
    set_counters(dev, values)


def sheet_counts(dev, name, values):
    """From the scoreboard or the sheet: the player's row, OK, the counters, OK."""
    to_row(dev, name)
    dev.press("OK")
    set_counters(dev, values)


def back_to_board(dev):
    while kind(dev) != "StackDeckScreen":
        dev.press("BACK")
        if kind(dev) == "Ask":
            dev.press("BACK")  # discard
    dev.step(3000)  # any message goes by itself


def end_round(dev):
    if kind(dev) == "StackDeckScreen":
        dev.press("OK")
    while kind(dev) != "SheetScreen":
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
    build_stack(dev, "4G-5G-6G")  # a run of three saves itself
    assert shows_words(dev, "ANN: 4-5-6 Green run 1 colour +20")
    dev.step(3000)  # the message goes by itself
    assert dev.shows("ANN +20") and dev.shows("+20 4-5-6 Green")
    choose(dev, "Went out")
    assert dev.shows("Went out: yes") and kind(dev) == "PlayerScreen"
    dev.press("BACK")
    sheet_counts(dev, "P2", [0, 0, 0, 0, 1, 0])
    assert shows_words(dev, "P2: 1 unturned -5")
    assert dev.shows("ANN +20 out") and dev.shows("P2 -5")
    back_to_board(dev)
    s = dev.game.state()
    assert s["current"]["scores"] == [20, -5] and s["totals"] == [0, 0]
    assert dev.shows("now +20 out") and dev.shows("now -5")
    end_round(dev)
    s = dev.game.state()
    assert s["rounds"] == [[20, -5]] and s["totals"] == [20, -5] and s["dealer"] == 2
    # No message over the board: each player's row says what the round gave them.
    assert dev.app.toast_text() is None
    assert dev.shows("> ANN") and dev.shows("D P2") and dev.shows("R1 +20")
    assert dev.shows("R1 -5")
    assert shows_big(dev, "20", 3) and shows_big(dev, "-5", 3)
    assert dev.shows("R2/2") and dev.shows("OK:sheet >:hist")

    # Round 2: P2 counts two pairs; Ann is caught with a wild unturned; End round asks
    # who went out.
    sheet_counts(dev, "P2", [2, 0, 0, 0, 0, 0])
    to_player(dev, "ANN")
    build_stack(dev, "W", turned=False)
    dev.step(3000)
    assert dev.shows("-25 open W")
    end_round(dev)
    assert dev.shows("Who went out?")
    choose(dev, "P2")
    s = dev.game.state()
    assert s["over"] and s["rounds"] == [[20, -5], [-25, 10]]
    assert s["totals"] == [-5, 5] and s["winners"] == [2]
    assert dev.shows("P2 wins!") and dev.shows("1 P2") and dev.shows("2 ANN")
    assert dev.shows("winner") and shows_big(dev, "-5", 3) and shows_big(dev, "5", 3)
    assert dev.game.entries(2) == ["P2 counts 2 0 0 0 0 0", "P1 unturned W", "P2 out"]
    dev.press("OK")
    assert at_home(dev) and not [e for e in dev.app.screen.entries
                                 if e[0].endswith(" Stack the Deck")]


def test_STD_36_a_round_by_counters_flows_down_the_sheet(tmp_path):
    """OK on a new round opens P1's counters (on zero); OK saves and opens the next
    player's: "two pairs and a run" is 5 presses there (6 from the sheet's row), a
    zero round 1 press (no line: nothing in front of the player scores 0); after the
    last player the sheet is on End round."""
    dev = new_device(tmp_path)
    set_name(dev, 1, "ANN")
    open_stackdeck(dev, 3)
    dev.press("OK")  # a new round: the sheet, and ANN's counters on it
    assert kind(dev) == "CountsScreen" and dev.app.screen.p == 1
    sheet = dev.app.screens[-2]
    presses = ("RIGHT", "RIGHT", "DOWN", "RIGHT", "OK")
    dev.presses(*presses)
    assert len(presses) == 5 and dev.game.entries(1) == ["P1 counts 2 0 1 0 0 0"]
    counters = dev.app.screen
    assert kind(dev) == "CountsScreen" and counters.p == 2 and counters.counts == [0] * 6
    assert dev.shows("P2 counts") and dev.shows("ANN 2 pairs 1 run +20")
    dev.press("OK")  # a zero round: no line, on to P3
    assert dev.game.entries(1) == ["P1 counts 2 0 1 0 0 0"] and dev.app.screen.p == 3
    assert dev.shows("P2: nothing 0")
    dev.presses("UP", "RIGHT", "OK")  # UP from Pairs: the one-colour pairs
    assert dev.game.entries(1)[-1] == "P3 counts 0 1 0 0 0 0"
    assert dev.app.screen is sheet and sheet.entries[sheet.menu.index][0] == "End round"
    assert shows_words(dev, "P3: 1 1col pair +10")
    # BACK on a player's counters, unchanged: the sheet, on that player
    dev.presses("DOWN", "OK", "OK")  # ANN's counters (as entered), saved as they are
    assert kind(dev) == "CountsScreen" and dev.app.screen.p == 2
    dev.press("BACK")
    assert dev.app.screen is sheet and sheet.menu.index == 1
    assert dev.game.entries(1) == ["P1 counts 2 0 1 0 0 0", "P3 counts 0 1 0 0 0 0"]


def test_STD_37_the_counters_open_on_the_players_counts_and_edit_them_in_place(tmp_path):
    dev = new_device(tmp_path)
    open_stackdeck(dev, 2)
    sheet_counts(dev, "P1", [1, 0, 0, 0, 0, 0])
    to_player(dev, "P1")
    build_stack(dev, "4G-5G-6G")  # a one-colour run, named: the checker found it
    dev.step(3000)
    choose(dev, "Counts")
    counters = dev.app.screen
    assert counters.counts == [1, 0, 0, 1, 0, 0]  # the pair counted, the run checked
    # what the checker found is the floor: the run cannot be counted away
    while counters.pos != 4:  # 1col runs
        dev.press("DOWN")
    dev.press("LEFT")
    assert counters.counts[3] == 1
    set_counters(dev, [2, 0, 0, 1, 0, 0])
    # the counts line was replaced, not added to: one line for the counts
    assert dev.game.entries(1) == ["P1 counts 2 0 0 0 0 0", "P1 turned 4G-5G-6G"]
    assert dev.game.provisional() == [30, 0]
    # counted down to nothing: the counts line goes
    choose(dev, "Counts")
    set_counters(dev, [0, 0, 0, 1, 0, 0])
    assert dev.game.entries(1) == ["P1 turned 4G-5G-6G"]


def test_back_on_changed_counters_asks_save_or_discard(tmp_path):
    dev = new_device(tmp_path)
    open_stackdeck(dev, 2)
    to_row(dev, "P1")
    dev.press("OK")
    dev.presses("RIGHT", "RIGHT")
    dev.press("BACK")
    assert kind(dev) == "Ask" and dev.shows("Save changes?") and dev.shows("BACK: discard")
    dev.press("BACK")  # discard
    assert kind(dev) == "SheetScreen" and dev.game.provisional() is None
    dev.press("OK")
    dev.press("RIGHT")
    dev.press("BACK")
    dev.press("OK")  # save, and back (no next player: BACK was to leave)
    assert kind(dev) == "SheetScreen" and dev.game.entries(1) == ["P1 counts 1 0 0 0 0 0"]
    dev.press("OK")  # P2 now
    dev.press("BACK")  # unchanged: leaves without asking
    assert kind(dev) == "SheetScreen"


def test_STD_41_the_counters_go_past_wild_while_there_is_no_unturned_stack(tmp_path):
    """Wilds stand only in unturned stacks (two at most in each): with Untrn at 0 the
    cursor goes past "wild", one press fewer on the way round."""
    dev = new_device(tmp_path)
    from firmware.screens.stackdeck.counts import ORDER
    open_stackdeck(dev, 2)
    dev.press("OK")  # P1's counters
    c = dev.app.screen
    assert kind(dev) == "CountsScreen" and ORDER[c.pos] == 0
    dev.presses("DOWN", "DOWN")
    assert ORDER[c.pos] == 4  # Untrn
    dev.press("DOWN")  # past wild (no unturned stack): the one-colour runs
    assert ORDER[c.pos] == 3
    dev.press("UP")  # and back past it
    assert ORDER[c.pos] == 4
    dev.press("RIGHT")  # one unturned stack: now wild is on the way
    dev.press("DOWN")
    assert ORDER[c.pos] == 5
    dev.presses("RIGHT", "RIGHT", "RIGHT")  # two wilds at most in one stack
    assert c.counts[4:] == [1, 2]
    dev.presses("UP", "LEFT")  # no unturned stack: no wild in it either
    assert c.counts[4:] == [0, 0]
    dev.presses("RIGHT", "DOWN", "RIGHT", "OK")
    assert dev.game.entries(1) == ["P1 counts 0 0 0 0 1 1"]


def test_STD_39_the_checker_takes_a_run_in_5_presses_and_refuses_a_used_card_at_once(tmp_path):
    dev = new_device(tmp_path)
    set_name(dev, 2, "BOB")
    open_stackdeck(dev, 2)
    to_player(dev, "BOB")
    build_stack(dev, "10R-10B")  # a pair saves itself
    assert dev.game.entries(1) == ["P2 turned 10R-10B"]
    dev.press("BACK")
    to_player(dev, "P1")
    dev.press("OK")  # Check a stack: opens on 1, in the colour used last (Blue)
    screen = dev.app.screen
    assert kind(dev) == "StackScreen" and (screen.number, screen.colour) == (1, 3)
    dev.press("RIGHT")
    dev.press("OK")  # 1 Purple
    assert screen.number == 2 and screen.colour == 4  # the run's next card
    dev.presses("OK", "OK")  # 2 Purple, 3 Purple: saved
    assert kind(dev) == "PlayerScreen"
    assert dev.game.entries(1)[-1] == "P1 turned 1P-2P-3P"
    assert shows_words(dev, "P1: 1-2-3 Purple run 1 colour +20")
    dev.step(3000)
    # 1B-2B-3B from where the checker opens (1 Purple, the colour used last): 4 presses
    dev.press("OK")
    screen = dev.app.screen
    dev.presses("LEFT", "OK", "OK", "OK")
    assert dev.game.entries(1)[-1] == "P1 turned 1B-2B-3B" and kind(dev) == "PlayerScreen"
    # a card BOB holds: said before OK, refused at OK, nothing added
    dev.press("OK")
    screen = dev.app.screen
    pick_card(dev, st.make(10, 0))
    assert dev.shows("10 Red: BOB has it")
    before = dev.game.to_json()
    dev.press("OK")
    assert screen.stack == [] and dev.game.to_json() == before
    assert shows_words(dev, "10 Red: BOB has it")
    # the big card is a number and a word, never a letter: "1B" reads "18"
    pick_card(dev, st.make(1, 3))
    assert dev.shows("Blue", 2) and shows_big(dev, "1", 3) and not dev.shows("1B", 2)


def test_a_refused_entry_shows_the_reason_and_changes_nothing(tmp_path):
    dev = new_device(tmp_path)
    open_stackdeck(dev, 2)
    to_player(dev, "P1")
    build_stack(dev, "4G-5G-6G")
    dev.step(3000)
    before = dev.game.to_json()

    # The checker's verdict is live while the stack is built, and a long OK is refused.
    choose(dev, "Check a stack")
    for number in (4, 7):
        pick_card(dev, st.make(number, 0))
        dev.press("OK")
    assert dev.shows("4-7 Red") and shows_words(dev, "not a run or a pair")
    dev.long("OK")
    assert kind(dev) == "StackScreen"
    assert shows_words(dev, "not a run or a pair") and dev.game.to_json() == before
    dev.step(3000)
    dev.presses("BACK", "BACK")  # asked, then the 7R comes off
    pick_card(dev, st.make(5, 3))
    dev.press("OK")
    assert dev.shows("4 Red 5 Blue") and shows_words(dev, "run needs 3 cards")
    back_to_board(dev)

    # A card another player holds: refused the moment it is entered.
    to_player(dev, "P2")
    choose(dev, "Check a stack")
    pick_card(dev, st.make(5, 2))
    assert dev.shows("5 Green: P1 has it")
    dev.press("OK")
    assert dev.app.screen.stack == [] and dev.game.to_json() == before
    back_to_board(dev)

    # An unturned stack that is complete is refused by the checker.
    to_player(dev, "P2")
    choose(dev, "Unturned stack")
    for card in (st.make(7, 3), st.make(7, 1)):
        pick_card(dev, card)
        dev.press("OK")
    assert shows_words(dev, "pair is complete") and dev.game.to_json() == before
    dev.long("OK")
    assert shows_words(dev, "pair is complete") and dev.game.to_json() == before
    back_to_board(dev)


def test_STD_40_back_on_a_stack_being_built_asks_and_an_empty_checker_leaves_at_once(tmp_path):
    dev = new_device(tmp_path)
    set_name(dev, 1, "ANN")
    open_stackdeck(dev, 2)
    to_player(dev, "ANN")
    page = dev.app.screen
    before = dev.game.to_json()
    choose(dev, "Check a stack")
    dev.presses("UP", "RIGHT")  # the picker moved, nothing added: unchanged
    dev.press("BACK")  # leaves at once, nothing asked
    assert dev.app.screen is page and dev.game.to_json() == before
    dev.press("OK")  # the checker again
    checker = dev.app.screen
    pick_card(dev, st.make(4, 0))
    dev.press("OK")
    pick_card(dev, st.make(7, 0))
    dev.press("OK")  # 4-7 Red: not a stack, waits
    dev.press("BACK")  # asks, with the name and the stack in words
    assert kind(dev) == "Ask"
    assert dev.shows("Drop ANN's") and dev.shows("4-7 Red?")
    assert dev.shows("OK: drop it") and dev.shows("BACK: 7 Red off")
    dev.press("BACK")  # the correction: the last card off, still in the checker
    assert dev.app.screen is checker and checker.stack == [st.make(4, 0)]
    assert dev.shows("4 Red")
    pick_card(dev, st.make(5, 3))
    dev.press("OK")  # 4 Red 5 Blue
    dev.press("BACK")
    assert dev.shows("Drop ANN's") and dev.shows("4 Red 5 Blue?")
    dev.press("OK")  # dropped: the player's page, nothing saved
    assert dev.app.screen is page and dev.game.to_json() == before
    assert dev.game.provisional() is None  # no entry in the round


def test_back_undoes_the_last_line_and_long_back_goes_home(tmp_path):
    dev = new_device(tmp_path)
    open_stackdeck(dev, 2)
    to_player(dev, "P2")
    counts(dev, [1, 0, 0, 0, 0, 0])
    choose(dev, "Went out")
    back_to_board(dev)
    assert dev.game.provisional() == [0, 5] and dev.game.state()["moves"] == 2
    dev.press("BACK")
    assert dev.shows("undone:") and dev.shows("out")
    assert dev.game.state()["current"]["out"] == [] and dev.game.state()["moves"] == 1
    dev.long("BACK")
    assert at_home(dev)
    resume(dev)
    dev.step(3000)
    assert dev.shows("R1 of 10") and dev.shows("now +5")


def test_went_out_keeps_the_cursor_where_it_is(tmp_path):
    dev = new_device(tmp_path)
    open_stackdeck(dev, 2)
    to_player(dev, "P1")
    build_stack(dev, "4G-5G-6G")
    choose(dev, "Went out")
    screen = dev.app.screen
    assert screen.entries[screen.menu.index][0] == "Went out: yes"
    assert shows_words(dev, "P1 went out")
    dev.press("OK")  # again: nothing new
    assert dev.game.entries(1) == ["P1 turned 4G-5G-6G", "P1 out"]


def test_an_edit_of_an_earlier_round_asks_first_and_survives_a_restart(tmp_path):
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
    assert dev.shows("Edit R1")
    dev.press("RIGHT")  # P1's stacks
    choose(dev, "+20 4-5-6 Green")
    assert dev.shows("Remove P1's +20") and not dev.shows("Remove P1 turned")
    dev.press("OK")
    assert dev.game.totals() == [0, 0] and dev.game.entries(1) == ["P1 out"]
    build_stack(dev, "4G-5Y-6G")
    assert dev.game.totals() == [10, 0]
    dev.press("BACK")
    # P2's counts, in place: OK on the row, the counters, OK asks before it saves
    to_row(dev, "P2")
    dev.press("OK")
    set_counters(dev, [1, 0, 0, 0, 0, 0])
    assert kind(dev) == "Ask" and shows_words(dev, "Save P2, round 1: 1 pair +5?")
    assert dev.game.totals() == [10, 0]
    dev.press("OK")
    assert dev.game.totals() == [10, 5] and kind(dev) == "SheetScreen"
    assert dev.game.entries(1) == ["P1 out", "P1 turned 4G-5Y-6G", "P2 counts 1 0 0 0 0 0"]
    # again: the counters open on P2's counts; changed, then BACK asks; discard
    to_row(dev, "P2")
    dev.press("OK")
    assert dev.app.screen.counts == [1, 0, 0, 0, 0, 0]
    dev.press("RIGHT")
    dev.press("BACK")
    assert kind(dev) == "Ask"
    dev.press("BACK")
    assert dev.game.totals() == [10, 5]
    # An edit the round cannot take is refused with the core's reason.
    dev.long("BACK")
    resume(dev)
    dev.press("RIGHT")
    choose(dev, "R1")
    to_player(dev, "P1")
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
    assert kind(again) == "StackDeckScreen"
    assert again.shows("R2/10") and again.shows("now -5")
    again.press("BACK")  # undo still works on the rewritten journal
    assert again.game.provisional() is None
    third = new_device(tmp_path)
    assert third.game.totals() == [10, 5] and not third.game.state()["round_open"]
    with open(str(tmp_path / "flash" / "game.txt")) as f:
        replayed, err = transcript.replay(f.read().splitlines())
    assert err is None and replayed.state() == third.game.state()


def test_STD_38_end_round_on_an_empty_sheet_asks_who_went_out(tmp_path):
    dev = new_device(tmp_path)
    open_stackdeck(dev, 2)
    before = dev.game.to_json()
    assert dev.shows("OK:sheet") and not dev.shows(">:hist")  # no round ended yet
    dev.press("RIGHT")
    assert shows_words(dev, "no round ended yet")
    end_round(dev)  # the sheet of a round nobody has entered anything in
    assert dev.shows("Who went out?") and dev.game.to_json() == before
    dev.press("BACK")
    assert kind(dev) == "SheetScreen" and dev.game.to_json() == before
    # P1 out with an unturned stack: the end is refused with the reason, the out stays
    sheet_counts(dev, "P1", [0, 0, 0, 0, 1, 0])
    end_round(dev)
    choose(dev, "P1")
    assert shows_words(dev, "P1 out, has unturned") and kind(dev) == "SheetScreen"
    assert dev.game.state()["current"]["out"] == [1] and not dev.game.scores


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
