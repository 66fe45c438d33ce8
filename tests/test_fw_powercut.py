"""Pull the power after every single write of a game played by buttons: the restarted
device must resume with nothing lost but the action in flight (issue 6, item 9)."""

import pytest

from host_sim.device import SimDevice
from host_sim.flakyfs import FlakyFS, PowerCut
from tests.fw_helpers import discard_down, draw, open_stack31, play


def play_session(dev):
    """A short game with every kind of write: new game, settings, appends, an undo."""
    open_stack31(dev, 2)
    draw(dev)
    draw(dev)
    play(dev, "KH")
    play(dev, "5D")
    dev.press("BACK")  # undo: the journal is rewritten atomically
    play(dev, "6D")
    draw(dev)
    draw(dev)
    discard_down(dev)
    draw(dev)


def count_writes(tmp_path):
    fs = FlakyFS(cut_at=None)
    dev = SimDevice(str(tmp_path / "count"), fs=fs)
    play_session(dev)
    return fs.writes, dev.game.history[:]


def test_the_session_writes_and_a_clean_run_resumes_whole(tmp_path):
    writes, history = count_writes(tmp_path)
    assert writes >= 15 and len(history) == 8
    again = SimDevice(str(tmp_path / "count"))
    assert again.game is not None and again.game.history == history
    assert again.shows("P2")  # back in the game screen, whose turn it is


def test_a_power_cut_at_every_write_loses_at_most_the_action_in_flight(tmp_path):
    writes, full_history = count_writes(tmp_path)
    for n in range(1, writes + 1):
        root = str(tmp_path / ("cut%d" % n))
        fs = FlakyFS(cut_at=n)
        dev = SimDevice(root, fs=fs)
        with pytest.raises(PowerCut):
            play_session(dev)
        on_screen = dev.game.history[:] if dev.game is not None else None
        back = SimDevice(root)  # power comes back: the real file system
        resumed = back.game.history if back.game is not None else None
        if on_screen is None:
            # cut before the game existed (or while its header was written)
            assert resumed in (None, []), n
            continue
        # Every action the screen had accepted is there, but perhaps the last one; an
        # undo in flight may leave the undone action in place (it was never confirmed).
        assert resumed is not None, n
        ok = (resumed == on_screen or resumed == on_screen[:-1]
              or (len(resumed) == len(on_screen) + 1 and resumed[:-1] == on_screen))
        assert ok, (n, on_screen, resumed)
        confirmed = on_screen if len(resumed) > len(on_screen) else resumed
        assert confirmed == full_history[:len(confirmed)], n
        assert not back.app.screen.__class__.__name__ == "ErrorScreen", n
