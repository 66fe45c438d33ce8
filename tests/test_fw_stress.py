"""Stress on the device: the referee's screens driven by button and call presses through
host_sim.device.SimDevice, checked in the game's state and in the panel's pixels.

Exact-microsecond call edges: the virtual clock stands still between loop turns, so
`call_down(1); dev.clock.advance_us(900); call_down(2)` stamps the two presses 900 us
apart (the pin interrupt stamps with the clock's ticks_us).
"""

import os

from host_sim.device import find_text, install
from tests.fw_helpers import new_device

install()  # the stand-in framebuf and machine, before the firmware is imported
from firmware.screens.stress import StressScreen  # noqa: E402

FLIP_MS = 3100  # the 3-2-1 countdown and the turn after it


def open_stress(dev, players=2):
    """Home -> Stress -> players -> start, by buttons only; lands on the match view."""
    while not isinstance(dev.app.screen, StressScreen):
        entries = [e[0] for e in dev.app.screen.entries]
        target = entries.index("Stress")
        while dev.app.screen.menu.index != target:
            dev.press("DOWN")
        dev.press("OK")
        while dev.app.screen.players < players:
            dev.press("RIGHT")
        while dev.app.screen.players > players:
            dev.press("LEFT")
        dev.press("OK")
    assert dev.game.NAME == "stress" and dev.game.players == players
    assert dev.shows("OK: flip 3-2-1")


def flip(dev, centre=None):
    """OK on the match view (or a re-deal): the countdown, then the centre picker,
    where the two tops are entered or skipped with BACK."""
    assert dev.shows("Flip in") or dev.shows("Re-deal: flip in")
    dev.step(FLIP_MS)
    assert dev.shows("Centre stack 1")
    enter_centre(dev, centre)


def pick_rank(dev, token):
    """In the centre picker: the fewest UP/DOWN presses to the rank of `token` (a card
    such as "5H" or a rank such as "5": the suit is not entered), then OK."""
    from core import cards
    rank = cards.rank(cards.parse(token)) if token[-1:].upper() in cards.SUITS \
        else cards.parse_rank(token)
    screen = dev.app.screen
    up = (rank - screen.rank) % 13
    dev.presses(*(["UP"] * up if up <= 6 else ["DOWN"] * (13 - up)))
    assert screen.rank == rank
    dev.press("OK")
    return min(up, 13 - up)


def enter_centre(dev, centre):
    """The two centre tops by rank (BACK skips when centre is None)."""
    if centre is None:
        dev.press("BACK")
        return
    pick_rank(dev, centre[0])
    assert dev.shows("Centre stack 2")
    pick_rank(dev, centre[1])


def out(dev, label):
    """'P1 out' ('ANN out') on the play view, and OK to its question."""
    choose(dev, label)
    dev.press("OK")
    assert type(dev.app.screen).__name__ == "ConfirmScreen" and dev.shows("OK: yes")
    dev.press("OK")


def choose(dev, label):
    """LEFT/RIGHT to the action `label` on the play or call view."""
    screen = dev.app.screen
    labels = screen._labels(screen._sync_view())
    for _ in range(len(labels)):
        if labels[screen.choice % len(labels)] == label:
            assert dev.app._toast is not None or dev.shows("<" + label + ">")
            return
        dev.press("RIGHT")
    raise AssertionError("no action " + label)


def two_presses(dev, first, second, gap_us, hold_ms=100):
    """first presses, second presses gap_us later; both let go after hold_ms."""
    dev.call_down(first)
    dev.clock.advance_us(gap_us)
    dev.call_down(second)
    dev.step(hold_ms)
    dev.call_up(first)
    dev.call_up(second)
    dev.step(100)


def call(dev, n):
    return dev.game.state()["calls"][n]


def journal(dev):
    """The records on flash (checkpoints, voids and filler left out)."""
    with open(os.path.join(dev.root, "game.txt"), encoding="utf-8") as f:
        return [line.split("  #")[0] for line in f.read().splitlines() if line[:1] not in ("#", "")]


def lines(dev):
    """The game's lines as they go to the journal (some may still wait in RAM)."""
    g = dev.game
    return [g.format(a) for a in g.history]


# A whole match --------------------------------------------------------------------------


def test_a_whole_match_from_the_home_menu_to_the_match_end(tmp_path):
    dev = new_device(tmp_path)
    dev.app.settings.set_name(1, "ANN")
    dev.app.settings.set_name(2, "BOB")
    open_stress(dev)
    assert dev.shows("Game 1") and dev.shows("to win 2") and dev.shows_big("0-0")
    assert dev.shows("ANN") and dev.shows("BOB")

    dev.press("OK")
    assert dev.shows("Flip in") and find_text(dev.pixels(), "3", 4) is not None
    assert not dev.game.state()["on"]  # `start` waits for the end of the countdown
    dev.step(1000)
    assert find_text(dev.pixels(), "2", 4) is not None
    flip(dev, ("8C", "3D"))
    s = dev.game.state()
    # by rank alone: the device writes stack 1's in hearts, stack 2's in spades
    assert s["on"] and s["armed"] and s["tops"] == ["8H", "3S"] and not s["stress"]
    assert dev.shows_big("8  3") and dev.shows("<Centre cards>") and dev.shows("Game 1 armed")

    # The tops come to show one rank: the table enters them, STRESS shows.
    dev.press("OK")
    enter_centre(dev, ("5H", "5S"))
    assert dev.game.state()["stress"] and dev.shows("STRESS: CALL!")

    # BOB presses 0.9 ms before ANN.
    two_presses(dev, 2, 1, 900)
    c = call(dev, 0)
    assert (c["winner"], c["tie"], c["margin_us"], c["loser"], c["on_stress"]) == (2, False, 900, 1, True)
    assert dev.shows("BOB by 0.9 ms") and dev.shows("ANN takes stacks") and dev.shows("CALL BOB")
    assert dev.shows_big("BOB") and dev.shows("<Confirm>")

    dev.press("OK")  # confirm: ANN takes the stacks, the centre is laid anew
    assert dev.shows("Re-deal: flip in") and dev.game.state()["call_pending"]
    assert dev.shows("ANN takes the stacks")  # the ruling in words, with the name
    flip(dev, ("9H", "KD"))
    s = dev.game.state()
    assert s["armed"] and s["calls"][0]["final"] and s["tops"] == ["9H", "KS"]

    choose(dev, "ANN out")
    dev.press("OK")  # asked first: one OK does not end a game
    assert dev.shows("ANN is out of cards:") and not dev.game.state()["over"]
    dev.press("BACK")
    assert not dev.game.state()["over"] and dev.shows("<ANN out>")
    out(dev, "ANN out")
    s = dev.game.state()
    assert s["games_won"] == [1, 0] and s["over"] and not s["match_over"]
    assert dev.shows("ANN won game 1") and dev.shows_big("1-0") and dev.shows("Game 2")

    dev.press("OK")
    flip(dev)
    # New cards are down and were not entered: the old tops are not shown.
    assert dev.game.state()["game_no"] == 2 and dev.shows_big("?  ?")
    assert dev.shows("tops not entered") and not dev.shows_big("9  K")
    out(dev, "ANN out")
    s = dev.game.state()
    assert s["games_won"] == [2, 0] and s["match_over"] and s["match_winner"] == 1
    assert dev.shows("Match over") and dev.shows("match winner") and dev.shows_big("ANN")
    assert dev.shows_big("2-0")

    dev.press("OK")
    assert dev.shows("Tabletop companion") and not dev.shows("Resume Stress")
    assert journal(dev)[:3] == ["game stress players 2", "start", "centre 8H 3S"]


def test_three_players_the_last_to_press_takes_the_stacks(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev, 3)
    dev.press("OK")
    flip(dev)
    dev.call_down(3)
    dev.clock.advance_us(40000)
    dev.call_down(1)
    dev.clock.advance_us(200000)
    dev.call_down(2)
    dev.step(100)
    for p in (1, 2, 3):
        dev.call_up(p)
    dev.step(100)
    c = call(dev, 0)
    assert (c["winner"], c["margin_us"], c["loser"]) == (3, 40000, 2)
    assert dev.shows("P3 by 40.0 ms") and dev.shows("P2 takes stacks")


# The call decision ------------------------------------------------------------------------


def test_two_presses_900_us_apart_go_to_the_earlier_one(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    flip(dev)
    assert dev.shows_big("GO") and dev.shows("call buttons on")
    two_presses(dev, 1, 2, 900)
    c = call(dev, 0)
    assert c["winner"] == 1 and c["margin_us"] == 900 and not c["tie"] and c["loser"] == 2
    assert dev.shows("P1 by 0.9 ms") and dev.shows_big("P1")


def test_the_decision_comes_from_the_stamps_not_the_order_the_screen_hears_them(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    flip(dev)
    screen = dev.app.screen
    t = dev.clock.ticks_us()
    screen.on_call(2, 1, t + 900)  # reaches the screen first, stamped later
    screen.on_call(1, 1, t)
    dev.step(10)
    c = call(dev, 0)
    assert c["winner"] == 1 and c["margin_us"] == 900
    assert dev.shows("P1 by 0.9 ms")
    got = lines(dev)
    assert got[-2].endswith("P1 down") and got[-1].endswith("P2 down")
    dev.step(20)  # the call is decided: written after its frame
    assert journal(dev) == ["game stress players 2"] + got


def test_a_tie_is_shown_as_tie_and_nobody_takes_the_stacks(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    flip(dev)
    two_presses(dev, 2, 1, 300)
    c = call(dev, 0)
    assert c["tie"] and c["winner"] is None and c["margin_us"] == 300 and c["loser"] is None
    assert dev.shows_big("TIE") and dev.shows("TIE P2 P1 0.3 ms") and dev.shows("nobody takes")
    dev.press("OK")  # confirm: no re-deal, play goes on at once
    s = dev.game.state()
    assert s["armed"] and s["calls"][0]["final"] and dev.shows("tie: play on")
    two_presses(dev, 1, 2, 5000)
    assert call(dev, 1)["winner"] == 1 and dev.shows("P1 by 5.0 ms")


def test_bounce_on_a_call_button_does_not_make_a_second_press(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    flip(dev)
    # P1 presses; the contact chatters for 2 ms on the way down.
    dev.call_down(1)
    for _ in range(3):
        dev.clock.advance_us(300)
        dev.call_up(1)
        dev.clock.advance_us(300)
        dev.call_down(1)
    dev.step(300)
    assert len(dev.game.state()["calls"]) == 1 and call(dev, 0)["winner"] == 1
    # It is settled by the table, then P1 lets go with bounce on the release.
    dev.clock.advance_us(1500000)
    dev.step(10)
    dev.press("OK")
    dev.step(FLIP_MS)
    dev.press("BACK")
    assert dev.game.state()["armed"]
    dev.call_up(1)
    dev.clock.advance_us(2000)
    dev.call_down(1)  # bounce, 2 ms after the opening: no press, no call
    dev.clock.advance_us(1000)
    dev.call_up(1)
    dev.step(100)
    s = dev.game.state()
    assert s["armed"] and not s["call_pending"] and len(s["calls"]) == 1
    # Only the press is journalled: the chatter and the bounce on release change nothing.
    assert sum(1 for line in lines(dev) if line.endswith("P1 down")) == 1
    # A real press later calls.
    dev.call(2)
    assert call(dev, 1)["winner"] == 2


def test_a_press_during_the_countdown_is_not_a_call_and_a_held_button_must_let_go(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    dev.step(500)
    dev.call(2)  # pressed and let go during the countdown
    dev.step(500)
    dev.call_down(1)  # held through the flip
    dev.step(FLIP_MS)
    dev.press("BACK")  # skip the centre
    s = dev.game.state()
    assert s["armed"] and not s["call_pending"] and s["calls"] == [] and s["pressed"] == [1]
    got = lines(dev)
    assert got.index("start") > max(i for i, l in enumerate(got) if l.endswith("P1 down"))
    dev.call_up(1)
    dev.step(100)
    dev.call(2)
    assert call(dev, 0)["winner"] == 2 and dev.shows("CALL P2")


def test_STR_34_the_lines_follow_the_stamps_around_the_flip(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    screen = dev.app.screen
    end = screen.count_end
    dev.step(2900)
    # Two edges reach the screen in one turn, before it has seen the end: one stamped
    # 100 us before the flip, one 100 us after it.
    t0 = dev.clock.ticks_us()
    now = screen.ticks.unwrap(t0)
    before = (t0 + (end - now) - 100) & 0x3FFFFFFF
    screen.on_call(1, 1, before)
    screen.on_call(2, 1, (before + 200) & 0x3FFFFFFF)
    dev.step(10)
    dev.step(200)  # the stamps lie a little ahead of the clock: let it catch up
    got = lines(dev)
    assert got[-3].endswith("P1 down") and got[-2] == "start" and got[-1].endswith("P2 down")
    c = call(dev, 0)
    assert c["winner"] == 2 and c["margin_us"] is None
    assert dev.shows("CALL P2")  # the call closed the centre picker


def test_the_call_view_says_stress_or_no_stress_and_defaults_to_the_likely_ruling(tmp_path):
    dev = new_device(tmp_path)
    dev.app.settings.set_name(1, "ANN")
    open_stress(dev)
    dev.press("OK")
    flip(dev, ("8C", "3D"))  # no stress on the table
    two_presses(dev, 1, 2, 40000)
    assert dev.shows("CALL ANN") and dev.shows("G1 no stress") and dev.shows("<False call>")
    dev.press("OK")  # the default: a false call, play goes on
    assert call(dev, 0)["ruling"] == "void" and dev.game.state()["armed"]
    dev.press("OK")  # Centre cards
    enter_centre(dev, ("6D", "6S"))
    two_presses(dev, 2, 1, 2000)
    assert dev.shows("G1 stress") and not dev.shows("no stress") and dev.shows("<Confirm>")
    dev.press("OK")  # confirm: P1 takes the stacks, the re-deal
    flip(dev)  # the new centre is skipped: the tops are not known
    assert dev.shows_big("?  ?") and not dev.shows_big("6  6") and dev.shows("tops not entered")
    two_presses(dev, 1, 2, 300)
    assert dev.shows("TIE ANN P2 0.3 ms") and dev.shows("CALL") and not dev.shows("stress")
    assert dev.shows("<Confirm>")  # tops unknown: nothing speaks against the call


def test_a_restart_after_a_skipped_centre_still_shows_the_tops_unknown(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    flip(dev, ("6D", "6S"))
    two_presses(dev, 2, 1, 2000)
    dev.press("OK")
    flip(dev)
    two_presses(dev, 1, 2, 5000)  # decided: written
    again = new_device(tmp_path)
    again.step(50)
    assert again.shows("CALL P1") and not again.shows("stress") and again.shows("<Confirm>")


# Challenges settled by the players ------------------------------------------------------------


def test_a_false_call_is_overruled_and_play_goes_on(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    flip(dev, ("8C", "3D"))
    two_presses(dev, 1, 2, 40000)
    assert call(dev, 0)["on_stress"] is False
    choose(dev, "False call")
    dev.press("OK")
    s = dev.game.state()
    assert s["armed"] and s["calls"][0]["ruling"] == "void" and s["calls"][0]["loser"] is None
    assert lines(dev)[-2:] == ["void", "resume"] and dev.shows("false call by P1:")
    # BACK takes it back line by line: resume, then the ruling.
    dev.press("BACK")
    assert dev.game.state()["call_pending"] and dev.shows("void: no stacks")
    dev.press("BACK")
    assert "ruling" not in call(dev, 0) and dev.shows("P2 takes stacks")
    dev.press("BACK")
    assert dev.shows("use False call") and dev.game.state()["call_pending"]


def test_the_table_names_who_takes_the_stacks_when_the_referee_cannot(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev, 3)
    dev.press("OK")
    flip(dev)
    dev.call(1)  # only P1 presses: two players are slow, nobody can be named
    dev.step(1200)
    assert call(dev, 0)["loser"] is None and dev.shows("table decides")
    # Confirm would be refused: the default is the first who did not press in time.
    assert dev.shows("<P2 takes>")
    choose(dev, "Confirm")
    dev.press("OK")
    assert dev.shows("name who takes") and dev.game.state()["call_pending"]
    choose(dev, "P3 takes")
    dev.press("OK")
    assert call(dev, 0)["loser"] == 3 and call(dev, 0)["ruling"] == "P3 takes"
    assert dev.shows("Re-deal: flip in")
    flip(dev)
    s = dev.game.state()
    assert s["armed"] and s["calls"][0]["final"] and s["calls"][0]["loser"] == 3
    # The ruling went to flash during the re-deal countdown; `resume` armed the calls
    # again, so it waits in RAM until the next call is decided.
    assert lines(dev)[-2:] == ["P3 takes", "resume"] and journal(dev)[-1] == "P3 takes"


# Stall, undo, power care ----------------------------------------------------------------------


def test_a_stall_counts_down_and_takes_the_new_centre(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    flip(dev, ("8C", "3D"))
    choose(dev, "Stall 3-2-1")
    dev.press("OK")
    assert dev.shows("Stall: flip in") and dev.game.state()["armed"]
    dev.step(FLIP_MS)
    assert dev.shows("Centre stack 1")
    enter_centre(dev, ("7", "8"))
    assert dev.game.state()["tops"] == ["7H", "8S"] and dev.shows_big("7  8")
    # A call during a stall countdown stops it and shows the call.
    choose(dev, "Stall 3-2-1")
    dev.press("OK")
    dev.call(2)
    assert dev.shows("CALL P2") and not dev.shows("Stall: flip in")
    dev.step(FLIP_MS)
    assert dev.game.state()["call_pending"] and dev.shows("CALL P2")


def test_back_undoes_start_and_out_and_long_back_goes_home(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("BACK")
    assert dev.shows("nothing to undo")
    dev.press("OK")
    dev.press("BACK")  # cancels the countdown
    assert dev.shows("countdown off") and not dev.game.state()["on"]
    dev.press("OK")
    flip(dev)
    dev.call_down(1)
    dev.step(100)
    dev.press("RIGHT")
    dev.press("BACK")  # in the call view BACK does not undo the press itself
    assert dev.game.state()["call_pending"]
    dev.call_up(1)
    dev.clock.advance_us(1500000)
    dev.step(10)
    dev.press("LEFT")
    dev.press("OK")  # confirm
    dev.step(FLIP_MS)
    dev.press("BACK")
    out(dev, "P2 out")
    assert dev.game.state()["games_won"] == [0, 1]
    dev.press("BACK")  # a wrong out is taken back
    s = dev.game.state()
    assert s["games_won"] == [0, 0] and s["on"] and dev.shows("undone: P2 out")
    dev.long("BACK")
    assert dev.shows("Resume Stress")
    while dev.app.screen.menu.index != 0:
        dev.press("UP")
    dev.press("OK")
    assert isinstance(dev.app.screen, StressScreen) and dev.game.state()["armed"]


def test_the_screen_stays_awake_while_a_game_is_on_and_sleeps_between_games(tmp_path):
    dev = new_device(tmp_path)
    sleep_s = dev.app.settings.get("sleep_s")
    open_stress(dev)
    dev.press("OK")
    flip(dev)
    dev.step((sleep_s + 60) * 1000)
    assert not dev.app.asleep and not dev.app.dimmed
    out(dev, "P1 out")
    dev.step((sleep_s + 10) * 1000)
    assert dev.app.asleep


def test_the_countdown_beeps_once_a_second_when_the_buzzer_is_on(tmp_path):
    from host_sim import machine
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.step(500)
    del machine.pwm_log[:]
    dev.press("OK")
    dev.step(FLIP_MS)
    tones = [e for e in machine.pwm_log if e[3]]
    freqs = [e[2] for e in tones]
    assert freqs.count(880) == 3 and 1760 in freqs


# Restart ------------------------------------------------------------------------------------


def test_a_restart_resumes_the_match(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    flip(dev, ("8C", "8D"))
    two_presses(dev, 1, 2, 2500)
    dev.press("OK")
    flip(dev)
    out(dev, "P2 out")
    dev.press("OK")
    flip(dev)
    two_presses(dev, 1, 2, 300000)  # decided: written
    before = dev.game.to_json()

    again = new_device(tmp_path)  # the same flash
    assert isinstance(again.app.screen, StressScreen)
    assert again.game.to_json() == before
    s = again.game.state()
    assert s["games_won"] == [0, 1] and s["game_no"] == 2 and s["call_pending"]
    again.step(100)
    assert again.shows("CALL P1") and again.shows("P2 takes stacks")
    again.press("OK")
    flip(again)
    two_presses(again, 2, 1, 900)  # the time line goes on after the restart
    assert call(again, 2)["winner"] == 2 and again.shows("P2 by 0.9 ms")
    assert call(again, 0)["margin_us"] == 2500 and call(again, 1)["final"]


def test_undoing_a_ruling_keeps_the_presses_after_it(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    flip(dev)
    dev.call_down(1)
    dev.step(100)
    choose(dev, "P2 takes")
    dev.press("OK")
    dev.press("BACK")  # no re-deal yet: the countdown is off, the ruling stays
    assert call(dev, 0)["ruling"] == "P2 takes"
    dev.call(2)  # P2 presses late: the margin fills in
    margin = call(dev, 0)["margin_us"]
    assert margin is not None and margin > 100000
    dev.press("BACK")
    c = call(dev, 0)
    assert "ruling" not in c and c["margin_us"] == margin and c["loser"] == 2
    assert journal(dev)[-1].endswith("P2 up") and "P2 takes" not in journal(dev)


def test_undoing_the_start_drops_the_edges_it_armed_and_lets_go_of_the_buttons(tmp_path):
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    dev.step(1000)
    dev.call_down(1)  # held through the flip
    dev.step(FLIP_MS)
    dev.press("BACK")
    dev.call_up(1)
    dev.step(100)
    assert lines(dev)[-2:-1] == ["start"] and dev.game.state()["pressed"] == []
    dev.press("BACK")  # undo the start: the release after it goes too ...
    s = dev.game.state()
    assert not s["on"] and s["pressed"] == [] and dev.shows("undone: start")
    got = lines(dev)
    assert "start" not in got and got[-1].endswith("P1 up")  # ... and is made up anew
    dev.step(20)  # no game on: written
    assert journal(dev) == ["game stress players 2"] + got
    dev.press("OK")
    flip(dev)
    dev.call(1)
    assert call(dev, 0)["winner"] == 1


MP_SCRIPT = r'''
import machine, json, os
from firmware.boards import pico
from firmware import start
from host_sim.vclock import VirtualClock
clock = VirtualClock(start_us=(1 << 30) - 2000000)  # the tick count wraps mid-game
machine.set_time_source(clock.ticks_ms)
os.mkdir("/flash")
app = start.build(machine, pico, clock, "/flash")
app.start()
def step(ms):
    for i in range(max(1, ms // 10)):
        app.step_safely()
        clock.advance_ms(10)
def press(pin, hold=80):
    machine.press(pin)
    step(hold)
    machine.release(pin)
    step(60)
for pin in (pico.BTN_DOWN, pico.BTN_DOWN, pico.BTN_OK, pico.BTN_OK, pico.BTN_OK):
    press(pin)
step(3100)
press(pico.BTN_BACK)
machine.press(pico.CALL_PINS[1])
clock.advance_us(900)
machine.press(pico.CALL_PINS[0])
step(100)
machine.release(pico.CALL_PINS[0])
machine.release(pico.CALL_PINS[1])
step(200)
first = app.session.game.state()["calls"]
press(pico.BTN_RIGHT)
press(pico.BTN_OK)
print(json.dumps([type(app.screen).__name__, first, app.session.game.state()["calls"], app.crashes]))
'''


def test_the_referee_on_micropython_across_the_tick_wrap():
    import json

    from host_sim.micropython import ROOT, require_node, run_micropython

    require_node()
    with open(os.path.join(ROOT, "host_sim", "vclock.py"), encoding="utf-8") as f:
        vclock = f.read()
    out = run_micropython(MP_SCRIPT, files={"host_sim/__init__.py": "", "host_sim/vclock.py": vclock})
    screen, first, after, crashes = json.loads(out.strip().splitlines()[-1])
    assert screen == "StressScreen" and crashes == 0
    assert [(c["winner"], c["margin_us"], c["loser"]) for c in first] == [(2, 900, 1)]
    assert after[0]["ruling"] == "void" and after[0]["final"]


def test_STR_37_the_centre_tops_are_entered_by_rank_alone(tmp_path):
    """Issue 18: suits do not matter in Stress, so the picker after a flip asks for the
    rank only (UP/DOWN, from 7: at most 6 presses a stack), says when the two make a
    stress, and the journal's `centre` line carries the ranks with the device's suits
    (hearts for stack 1, spades for stack 2: a pair of one rank is two cards)."""
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    dev.step(FLIP_MS)
    screen = dev.app.screen
    assert type(screen).__name__ == "CentrePicker" and screen.rank == 7
    assert dev.shows("Centre stack 1") and dev.shows_big("7") and dev.shows("then stack 2")
    for rank in range(1, 14):  # every rank within 6 presses of where the picker opens
        assert min((rank - 7) % 13, (7 - rank) % 13) <= 6
    dev.presses("UP", "UP", "UP", "UP")  # 8 9 10 J
    assert dev.shows_big("J")
    dev.press("RIGHT")  # LEFT/RIGHT step the rank too: Q
    dev.press("OK")
    assert dev.shows("Centre stack 2") and dev.shows("stack 1: Q") and dev.app.screen.rank == 7
    dev.presses("DOWN", "DOWN", "DOWN", "DOWN", "DOWN", "DOWN", "DOWN")  # 6 .. A, then K
    assert dev.app.screen.rank == 13 and dev.shows("stack 1: Q")
    dev.press("DOWN")
    assert dev.shows("STRESS: both Q")
    dev.press("OK")
    s = dev.game.state()
    assert s["tops"] == ["QH", "QS"] and s["stress"] and dev.shows_big("Q  Q")
    assert dev.shows("STRESS: CALL!") and dev.game.format(dev.game.history[-1]) == "centre QH QS"


def test_a_new_stress_game_starts_at_two_players_whatever_the_last_game_had(tmp_path):
    """Issue 18: the player count of a new Stress game is the game's default (2), not
    the last game's; the table's size (settings "players") stays for the other games."""
    dev = new_device(tmp_path)
    open_stress(dev, players=3)
    assert dev.game.players == 3
    dev.long("BACK")
    entries = [e[0] for e in dev.app.screen.entries]
    while dev.app.screen.menu.index != entries.index("Stress"):
        dev.press("DOWN")
    dev.press("OK")
    assert dev.shows("Start a new game? The") and dev.shows("goes to History.")
    dev.press("OK")
    assert dev.app.screen.players == 2 and dev.shows_big("< 2 >")
    assert dev.app.settings.get("players") == 2  # the table's size: untouched
    dev.app.settings.set("players", 4)
    dev.press("BACK")
    entries = [e[0] for e in dev.app.screen.entries]
    while dev.app.screen.menu.index != entries.index("Stack 31"):
        dev.press("UP")
    dev.press("OK")
    dev.press("OK")  # over the saved Stress match
    assert dev.app.screen.players == 4  # Stack 31 starts at the table's size


def test_px_out_asks_first_and_a_call_meanwhile_is_taken(tmp_path):
    """Issue 23: 'P1 out' asks before it ends the game (as Stack 31's Disqualify); the
    referee keeps listening under the question: a call closes it and is decided."""
    dev = new_device(tmp_path)
    dev.app.settings.set_name(2, "BOB")
    open_stress(dev)
    dev.press("OK")
    flip(dev, ("5H", "5S"))
    choose(dev, "BOB out")
    dev.press("OK")
    assert dev.shows("BOB is out of cards:") and dev.shows("game 1 to BOB?")
    assert not dev.game.state()["over"]
    two_presses(dev, 1, 2, 900)
    assert isinstance(dev.app.screen, StressScreen) and dev.game.state()["call_pending"]
    assert dev.shows("CALL P1") and not dev.game.state()["over"]
    dev.press("OK")  # BOB takes the stacks: the re-deal says so under the count
    assert dev.shows("Re-deal: flip in") and dev.shows("BOB takes the stacks")
    flip(dev)
    out(dev, "BOB out")
    assert dev.game.state()["games_won"] == [0, 1] and dev.shows("BOB won game 1")


# The loop's pace (issue 19) ------------------------------------------------------------


def run_loop(dev, ms, until=None):
    """App.run's turns for `ms` of virtual time: a turn (App.step), then App.wait for
    App.idle_ms() (the virtual clock moves 1 ms a sleep; an edge in the ring ends the
    wait). Returns the turns, or with `until` (a test of the app) the virtual ms from
    the start at the first turn after which it holds (None if never)."""
    app = dev.app
    clock = dev.clock
    start = clock.ticks_ms()
    turns = 0
    while clock.ticks_diff(clock.ticks_ms(), start) < ms:
        app.step_safely()
        turns += 1
        if until is not None and until(app):
            return clock.ticks_diff(clock.ticks_ms(), start)
        app.wait(app.idle_ms())
    return None if until is not None else turns


def test_an_armed_game_waiting_for_a_call_takes_no_loop_turn_and_a_call_is_decided_on_time(tmp_path):
    """The Stress view while a game is on and nothing is pending asks for no turn (the
    call's edges wake the loop), so the loop turns once a second; a call's winner and
    who takes the stacks are known to the screen at the tie window's and the slow
    window's end to the millisecond, from deadlines, not from a 10 ms pace."""
    dev = new_device(tmp_path)
    dev.app.settings.set_rule("stress", "tie_window_us", 50000)  # "timing" shows first
    open_stress(dev)
    dev.press("OK")
    flip(dev)  # the centre skipped: armed
    screen = dev.app.screen
    assert screen._view() == 2 and screen.due_ms() == -1
    assert dev.app.idle_ms() == dev.app.IDLE_MAX_MS
    assert run_loop(dev, 10000) <= 12  # (10 s at the old 10 ms pace: 1,000 turns)
    assert not dev.app.dimmed  # still awake: a game is on
    dev.call_down(1)
    assert run_loop(dev, 200, lambda app: screen.known[0]) in (50, 51)  # the tie window
    assert dev.shows("CALL P1") and dev.shows("waiting")
    assert run_loop(dev, 2000, lambda app: screen.known[1]) in (950, 951)  # the slow window
    assert dev.shows("P2 takes")
    # the margin can still change (a late press): the lines wait in RAM for the table
    assert screen.unwritten and screen.due_ms() == -1
    dev.call_up(1)  # an opening the edge filter holds back for the debounce time
    assert run_loop(dev, 100, lambda app: not dev.game.arbiter.is_closed(0)) in (20, 21)
    assert run_loop(dev, 5000) <= 7  # then quiet
    dev.press("OK")  # the table confirms: the re-deal, and the lines written
    assert run_loop(dev, 100, lambda app: not screen.unwritten) is not None
    assert journal(dev)[-3:] == lines(dev)[-3:]  # down, up, the ruling's countdown


def test_a_second_press_inside_the_window_decides_at_once(tmp_path):
    """Two presses 2 ms apart with a 50 ms tie window: the margin decides the winner on
    the turn that takes the second edge (no wait for the window), and the loser too."""
    dev = new_device(tmp_path)
    dev.app.settings.set_rule("stress", "tie_window_us", 1000)
    open_stress(dev)
    dev.press("OK")
    flip(dev)
    screen = dev.app.screen
    dev.call_down(2)
    dev.clock.advance_us(2000)
    dev.call_down(1)
    assert run_loop(dev, 100, lambda app: screen.known == (True, True)) == 0
    assert dev.shows("P2 by 2.0 ms") and dev.shows("P1 takes")


def test_the_screens_over_an_armed_game_ask_no_turn_either_and_a_call_still_closes_them(tmp_path):
    """The centre picker and the 'Px out' question listen for calls over the armed
    game: they ask the loop for the Stress view's deadlines, none while nothing waits."""
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    dev.step(FLIP_MS + 300)  # (the flip's note has played: the buzzer paces the loop)
    assert type(dev.app.screen).__name__ == "CentrePicker"
    assert dev.app.screen.due_ms() == -1 and run_loop(dev, 3000) <= 4
    dev.press("BACK")
    choose(dev, "P1 out")
    dev.press("OK")
    assert type(dev.app.screen).__name__ == "ConfirmScreen"
    assert dev.app.screen.due_ms() == -1 and run_loop(dev, 3000) <= 4
    two_presses(dev, 1, 2, 900)
    assert isinstance(dev.app.screen, StressScreen) and dev.shows("P1 by 0.9 ms")
