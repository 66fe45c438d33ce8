"""The Stress journal on the device, through the real app (SimDevice): only the edges
the referee needs are written, nothing is written while a press can still matter, the
frame goes out before the write, a failed write is shown and leaves the game as on
flash, and the resumed game is the live one.

The flash is host_sim.flakyfs.FlakyFS (every write operation counted and logged),
wrapped so that a test can see what the panel showed at each write.
"""

import pytest

from core.stress import Stress
from host_sim.device import install
from host_sim.flakyfs import FlakyFS
from tests.fw_helpers import new_device
from tests.test_fw_stress import (FLIP_MS, call, choose, flip, journal, lines, open_stress,
                                  two_presses)

install()
from firmware.screens.stress import StressScreen  # noqa: E402


class WatchedFS(FlakyFS):
    """Counts writes; on_write(op, path) runs before each one (a simulated erase)."""

    def __init__(self, **kw):
        FlakyFS.__init__(self, **kw)
        self.on_write = None

    def _op(self, what="write", path=None):
        if self.on_write is not None:
            self.on_write(what, path)
        return FlakyFS._op(self, what, path)


def device(tmp_path, **kw):
    fs = WatchedFS(**kw)
    dev = new_device(tmp_path, fs=fs)
    return dev, fs


def game_writes(fs):
    return sum(1 for op, path in fs.log if path and "game.txt" in path)


def bouncy_press(dev, player, chatter=3, gap_us=300):
    """A press whose contact chatters (open/close every gap_us) before it settles."""
    dev.call_down(player)
    for _ in range(chatter):
        dev.clock.advance_us(gap_us)
        dev.call_up(player)
        dev.clock.advance_us(gap_us)
        dev.call_down(player)


def bouncy_release(dev, player, chatter=3, gap_us=400):
    dev.call_up(player)
    for _ in range(chatter):
        dev.clock.advance_us(gap_us)
        dev.call_down(player)
        dev.clock.advance_us(gap_us)
        dev.call_up(player)


def armed_game(dev):
    open_stress(dev)
    dev.press("OK")
    flip(dev, ("5H", "5S"))
    assert dev.game.state()["armed"] and dev.shows("STRESS: CALL!")


def test_STR_37_a_bouncy_call_journals_two_edges_per_press_and_resumes_as_played(tmp_path):
    dev, fs = device(tmp_path)
    armed_game(dev)
    bouncy_press(dev, 2)
    dev.clock.advance_us(900)  # P1 presses 0.9 ms after P2's first contact
    bouncy_press(dev, 1)
    dev.step(120)
    bouncy_release(dev, 2)
    dev.clock.advance_us(3000)
    bouncy_release(dev, 1)
    dev.step(100)
    c = call(dev, 0)  # P1's first contact came 6 x 300 us + 900 us after P2's
    assert (c["winner"], c["margin_us"], c["loser"], c["on_stress"]) == (2, 2700, 1, True)
    edges = [line for line in lines(dev) if line[:1] == "@"]
    # 2 presses and 2 releases; every chatter and release bounce left out
    assert [e.split(" ", 1)[1] for e in edges] == ["P2 down", "P1 down", "P2 up", "P1 up"]
    dev.step(50)
    on_flash = journal(dev)
    assert on_flash[1:] == lines(dev)
    live = dev.game.to_json()
    again = new_device(tmp_path, fs=WatchedFS())
    assert isinstance(again.app.screen, StressScreen) and again.game.to_json() == live
    again.step(50)
    assert again.shows("P2 by 2.7 ms") and again.shows("stress")


def test_STR_37_the_filtered_live_game_equals_a_game_fed_every_edge(tmp_path):
    """Every raw edge the call buttons made, pushed into a plain game, gives the calls
    and score the device shows."""
    dev, fs = device(tmp_path)
    armed_game(dev)
    raw = []
    screen = dev.app.screen
    real = screen.on_call

    def spy(player, down, t_us):
        raw.append((player, down, screen.ticks.unwrap(t_us)))
        real(player, down, t_us)
    screen.on_call = spy
    for gap in (900, 40000, 300):
        bouncy_press(dev, 1)
        dev.clock.advance_us(gap)
        bouncy_press(dev, 2, chatter=2)
        dev.step(150)
        bouncy_release(dev, 1)
        bouncy_release(dev, 2, chatter=1)
        dev.step(1200)
        dev.press("OK")  # the likely ruling
        if dev.shows("Re-deal: flip in"):
            dev.step(FLIP_MS)
            dev.press("BACK")
    assert len(dev.game.state()["calls"]) == 3
    full = Stress(2)
    it = iter(raw)
    pending = next(it, None)
    for action in dev.game.history:
        if action[1] in ("down", "up"):
            t = action[2]
            while pending is not None and pending[2] <= t:
                full.push((pending[0], "down" if pending[1] else "up", pending[2]))
                pending = next(it, None)
        else:
            full.push(action)
    while pending is not None:
        full.push((pending[0], "down" if pending[1] else "up", pending[2]))
        pending = next(it, None)
    a, b = full.state(), dev.game.state()
    assert len(full.history) > len(dev.game.history) + 20  # the bounce that was left out
    for key in ("moves", "t"):
        del a[key], b[key]
    assert a == b


def test_STR_38_no_write_while_a_second_press_can_matter(tmp_path):
    dev, fs = device(tmp_path)
    armed_game(dev)
    dev.step(100)
    before = game_writes(fs)
    bouncy_press(dev, 1)
    dev.step(200)  # P1 alone: the margin and the loser are open for the slow window
    assert call(dev, 0)["winner"] == 1 and game_writes(fs) == before
    dev.call_up(1)
    dev.step(500)
    assert game_writes(fs) == before  # still nothing on flash
    dev.call_down(2)  # P2, 0.7 s late: the margin is fixed, the call decided
    dev.step(10)
    assert game_writes(fs) == before  # the frame first
    assert dev.shows("P1 by")
    dev.step(10)
    assert game_writes(fs) == before + 1  # one append for the call's lines
    assert journal(dev)[1:] == lines(dev)


@pytest.mark.parametrize("gap_us", [900, 25900])
def test_STR_38_a_900_us_margin_stays_exact_when_the_flash_would_block(tmp_path, gap_us):
    """A flash erase (here 45 ms with interrupts off) after the first press would stamp
    a second press that falls in it at the erase's end. The device never writes then,
    so the margin is exact, also when loop turns pass between the presses."""
    dev, fs = device(tmp_path)
    armed_game(dev)
    dev.step(100)
    erased = []  # writes between the two presses
    writes = []  # every write to the journal

    def erase(what, path):
        if path and "game.txt" in path:
            writes.append(what)
            if not pressed:
                erased.append(what)
                pressed.append(2)
                dev.clock.advance_us(45000)  # the erase: P2's press, due in it, waits
                dev.call_down(2)
    pressed = []
    fs.on_write = erase
    bouncy_press(dev, 1, chatter=2, gap_us=200)  # P1's first contact, then 800 us of chatter
    left = gap_us - 800
    while not pressed and left >= 10000:  # loop turns between the presses
        dev.app.step_safely()
        dev.clock.advance_us(10000)
        left -= 10000
    dev.app.step_safely()
    if not pressed:
        dev.clock.advance_us(left)
        pressed.append(2)
        dev.call_down(2)
    dev.step(100)
    c = call(dev, 0)
    assert not erased and c["winner"] == 1 and c["margin_us"] == gap_us, c
    assert dev.shows("P1 by %d.%d ms" % (gap_us // 1000, gap_us % 1000 // 100))
    assert writes  # written once decided
    fs.on_write = None
    assert journal(dev)[1:] == lines(dev)


def test_STR_38_the_frame_reaches_the_panel_before_the_write(tmp_path):
    dev, fs = device(tmp_path)
    seen = []
    fs.on_write = lambda what, path: seen.append(dev.app.frames) if path and "game.txt" in path else None
    armed_game(dev)
    dev.step(100)
    del seen[:]
    dev.call_down(1)
    dev.clock.advance_us(2500)
    dev.call_down(2)
    frames = dev.app.frames
    dev.app.step_safely()  # takes the call and draws it
    assert dev.app.frames == frames + 1 and seen == []
    assert dev.shows("P1 by 2.5 ms")
    dev.app.step_safely()  # the next turn writes
    assert seen and min(seen) == frames + 1
    # A ruling (P2 out, no game on after it): the frame, then the write.
    dev.call_up(1)
    dev.call_up(2)
    dev.step(100)
    dev.press("OK")
    dev.step(FLIP_MS)
    dev.press("BACK")
    choose(dev, "P2 out")
    dev.press("OK")  # the question (issue 23): the yes below is the ruling
    del seen[:]
    frames = dev.app.frames
    dev.press("OK")
    assert dev.shows("P2 won game 1")
    assert seen and min(seen) > frames


def test_STR_38_a_failed_write_is_shown_and_the_game_is_the_game_on_flash(tmp_path):
    dev, fs = device(tmp_path)
    armed_game(dev)
    dev.step(100)
    on_flash = journal(dev)
    fs.readonly = True
    dev.call_down(1)
    dev.clock.advance_us(5000)
    dev.call_down(2)
    dev.step(10)
    assert dev.shows("P1 by 5.0 ms")  # shown at once ...
    dev.step(10)
    # ... and taken back when it cannot be saved: the game is the game on flash
    assert dev.shows("flash read-only") and not dev.game.state()["call_pending"]
    assert journal(dev) == on_flash
    assert [dev.game.format(a) for a in dev.game.history] == on_flash[1:]
    # `start` and the centre waited in RAM with the call (no write while armed): they
    # went with it, so the screen is back on the match view, as on flash.
    s = dev.game.state()
    assert s["pressed"] == [] and not s["on"] and s["tops"] == [None, None]
    dev.step(3000)  # the message goes
    assert dev.shows("OK: flip 3-2-1")
    # The buttons go up (nothing to save), and once the flash takes writes again
    # the game goes on.
    dev.call_up(1)
    dev.call_up(2)
    dev.step(100)
    fs.readonly = False
    dev.press("OK")
    flip(dev)
    dev.call_down(2)
    dev.clock.advance_us(1200)
    dev.call_down(1)
    dev.step(50)
    c = call(dev, 0)
    assert (c["winner"], c["margin_us"]) == (2, 1200)
    dev.call_up(1)
    dev.call_up(2)
    dev.step(100)
    assert journal(dev)[1:] == lines(dev)
    again = new_device(tmp_path, fs=WatchedFS())
    assert again.game.to_json() == dev.game.to_json()


def test_STR_38_a_full_flash_refuses_an_out_and_the_game_stays_as_on_flash(tmp_path):
    dev, fs = device(tmp_path, capacity=4096)
    armed_game(dev)
    two_presses(dev, 1, 2, 3000)  # decided: written
    dev.press("OK")
    dev.step(FLIP_MS)
    dev.press("BACK")
    written = journal(dev)
    assert written[-1].endswith("P2 up") and lines(dev)[-1] == "resume"
    with open(dev.root + "/filler.bin", "wb") as f:  # something else fills the flash
        f.write(b"x" * 4096)
    choose(dev, "P1 out")
    dev.press("OK")
    dev.press("OK")  # yes to "P1 is out of cards: ...?"
    dev.step(30)
    assert dev.app._toast == ["flash full: not", "saved"]
    s = dev.game.state()
    assert s["games_won"] == [0, 0] and s["call_pending"] and journal(dev) == written
    assert lines(dev) == written[1:]  # `resume` was in RAM with the out: both went
    dev.step(3000)
    assert dev.shows("CALL P1") and dev.shows("<Confirm>")
