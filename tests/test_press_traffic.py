"""Display traffic per press (issue 12): no press sends more than one full frame.

A press that changes the screen must end in one frame: the screens answer the press
(a picker closes, the action line moves, a dialog goes) before anything is drawn, and
the panel already shows that final frame when the journal is written. Measured on the
emulated SSD1306 behind the simulated device, over the bench's whole sessions and on the
paths that used to send two frames."""

import importlib.util
import os
import random
from importlib.machinery import SourceFileLoader

import pytest

from host_sim.device import install
from tests.fw_helpers import choose_action, draw, new_device, open_stack31

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FULL_FRAME = 7 + 1 + 8 * 128  # one window command, one control byte, the whole GDDRAM

install()


def bench():
    """tools/bench_device as a module: its sessions, Recorder and full_frame."""
    loader = SourceFileLoader("bench_device", os.path.join(ROOT, "tools", "bench_device"))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


def journal_watch(dev):
    """The panel's picture at each write of the journal (game.txt)."""
    seen = []
    storage = dev.app.hw.storage
    append = storage.append

    def watched(name, data):
        if "game.txt" in name:
            seen.append(dev.pixels())
        return append(name, data)
    storage.append = watched
    return seen


class Press:
    """The bytes and the frames of one press (from the driver's show())."""

    def __init__(self, dev):
        self.dev = dev
        self.frames = []
        fb = dev.app.fb
        show = fb.show

        def counted(full=False):
            before = dev.emu.total.bytes
            show(full)
            if dev.emu.total.bytes > before:
                self.frames.append(dev.emu.total.bytes - before)
        fb.show = counted

    def __call__(self, action, *args):
        self.frames = []
        self.dev.emu.reset_counters()
        action(*args)
        return self.dev.emu.total.bytes


def test_the_driver_full_frame_is_1032_bytes(tmp_path):
    dev = new_device(tmp_path)
    assert bench().full_frame(dev) == FULL_FRAME


@pytest.mark.parametrize("name", ["menus", "stack31", "stackdeck", "stress"])
def test_no_press_of_a_bench_session_costs_more_than_a_full_frame(tmp_path, name):
    b = bench()
    dev = b.Recorder(str(tmp_path / "flash"))
    dict(b.FLOWS)[name](dev)
    assert len(dev.costs) > 10
    assert b.over_full(dev) == []
    assert max(dev.costs) <= FULL_FRAME


def test_a_picker_play_sends_the_board_once_and_before_the_write(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    for _ in range(4):
        draw(dev)
    press = Press(dev)
    choose_action(dev, "Play")
    dev.press("OK")
    assert type(dev.app.screen).__name__ == "CardPickerScreen"
    moves = len(dev.game.history)
    seen = journal_watch(dev)
    cost = press(dev.press, "OK")  # the card it opens on can be played
    assert len(dev.game.history) == moves + 1
    assert type(dev.app.screen).__name__ == "Stack31Screen"
    assert len(press.frames) == 1 and cost <= FULL_FRAME, press.frames
    # The board after the play was on the panel before the flash write began.
    assert seen and seen[0] == dev.pixels()


def test_a_dialog_entry_sends_one_frame_the_final_one_before_the_write(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev, 3)  # the game goes on after one is out
    draw(dev)
    choose_action(dev, "Disqualify")
    dev.press("OK")
    assert type(dev.app.screen).__name__ == "ConfirmScreen"
    press = Press(dev)
    seen = journal_watch(dev)
    cost = press(dev.press, "OK")  # yes: the board, its action line moved on, one frame
    assert dev.game.history[-1][1] == "dq" and not dev.game.over
    assert len(press.frames) == 1 and cost <= FULL_FRAME, press.frames
    assert seen and seen[0] == dev.pixels()


def test_a_refused_write_brings_the_picker_back_with_the_reason(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    draw(dev)
    draw(dev)
    before = dev.game.to_json()
    choose_action(dev, "Play")
    dev.press("OK")
    card = dev.app.screen.card
    storage = dev.app.hw.storage

    def full(name, data):
        raise OSError(28, "no space")
    storage.append = full
    dev.press("OK")
    assert dev.game.to_json() == before
    assert type(dev.app.screen).__name__ == "CardPickerScreen" and dev.app.screen.card == card
    assert "not saved" in " ".join(dev.app.toast_text())


def test_an_entry_is_written_when_the_press_crashes_after_it(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    screen = dev.app.screen
    suggest = screen._suggest

    def broken():
        suggest()
        raise ValueError("after the entry")
    screen._suggest = broken
    choose_action(dev, "Draw")
    dev.press("OK")
    assert dev.shows("Oops - error")
    dev.step(dev.app.RESTART_AFTER_MS + 100)
    assert dev.game is not None and dev.game.state()["deck"] == 51  # the draw was kept


def test_a_stress_call_sends_the_decision_in_one_frame(tmp_path):
    from tests.test_fw_stress import flip, open_stress
    dev = new_device(tmp_path)
    open_stress(dev)
    dev.press("OK")
    flip(dev, ("5H", "5S"))
    press = Press(dev)
    cost = press(dev.call, 2)  # the winner is known 0.5 ms after the press: no "timing"
    assert dev.shows("P2") and not dev.shows("timing")
    assert len(press.frames) == 1 and cost <= FULL_FRAME, press.frames
    cost = press(dev.call, 1)
    assert cost <= FULL_FRAME and dev.shows("P2 by")


def test_a_message_running_out_during_a_long_back_costs_one_frame(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    draw(dev)
    dev.press("BACK")  # undo: "undone: draw" for TOAST_MS
    assert dev.app.toast_text()
    dev.step(dev.app.TOAST_MS - 500)  # it runs out while BACK is held
    press = Press(dev)
    cost = press(dev.long, "BACK")
    assert type(dev.app.screen).__name__ == "HomeScreen"
    assert len(press.frames) == 1 and cost <= FULL_FRAME, press.frames


def test_a_message_runs_out_once_the_button_is_let_go(tmp_path):
    dev = new_device(tmp_path)
    open_stack31(dev)
    draw(dev)
    dev.press("BACK")
    dev.step(dev.app.TOAST_MS - 200)
    dev.hold("RIGHT")
    dev.step(400)
    assert dev.app.toast_text()  # past its time, but a button is down
    dev.let_go("RIGHT")
    dev.step(50)
    assert dev.app.toast_text() is None and not dev.shows("undone")


def test_no_frame_costs_more_than_a_full_frame():
    """The driver's plan: pages whose two ends changed (sent as two windows when alone)
    between pages that changed whole: a page that splits may still join a group."""
    from firmware.drivers.ssd1306 import SSD1306_I2C
    from host_sim.ssd1306_emu import SSD1306Emulator

    class Bus:
        def __init__(self, emu):
            self.emu = emu

        def writeto(self, addr, buf, stop=True):
            self.emu.write(bytes(buf))

    emu = SSD1306Emulator()
    oled = SSD1306_I2C(128, 64, Bus(emu))
    for p in range(8):
        if p % 2:  # two ends changed, 16 columns between them unchanged
            oled.fill_rect(0, p * 8, 56, 8, 1)
            oled.fill_rect(72, p * 8, 56, 8, 1)
        else:
            oled.fill_rect(0, p * 8, 128, 8, 1)
    emu.reset_counters()
    oled.show()
    assert emu.total.bytes <= FULL_FRAME  # 1,056 before
    assert emu.ram_bytes() == bytes(oled.buffer)
    rnd = random.Random(12)
    for _ in range(300):
        for _ in range(rnd.randint(1, 20)):
            oled.fill_rect(rnd.randrange(128), rnd.randrange(64), rnd.randint(1, 60),
                           rnd.randint(1, 12), rnd.randint(0, 1))
        emu.reset_counters()
        oled.show()
        assert emu.total.bytes <= FULL_FRAME
        assert emu.ram_bytes() == bytes(oled.buffer)
