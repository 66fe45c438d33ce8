"""Plays the example evening of the README's report (host_sim/examples/evening/): real
games, played by button presses on the simulated device (host_sim.device.SimDevice,
the unchanged firmware), laid out as `tools/pull` copies a board's flash.

    .venv/bin/python -m host_sim.examples.make_evening [--out DIR]

The table: ANN, BOB and CY (named on the letter board, Settings -> Names); a Stack 31
game for three to its end, a Stack the Deck match of two rounds for ANN and BOB, a
Stress match of three games with a false call, then a Stack 31 game left in play. Each
finished game goes to the archive as the firmware does it (a new game over it, or
History opened), so DIR holds archive/00001.txt ..., archive/index.txt and game.txt,
every line sealed with its checksum, the names in each header (#@names).
"""

import argparse
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, "evening")
NAMES = ("ANN", "BOB", "CY")


def _home(dev):
    while type(dev.app.screen).__name__ != "HomeScreen":
        dev.long("BACK")
        dev.step(200)


def _choose_home(dev, prefix):
    from tests.test_fw_stackdeck import choose
    choose(dev, prefix)


def stack31(dev):
    """Three players to the end: draws, plays, an undo, then discards until it ends."""
    from tests.fw_helpers import discard_down, draw, play
    _new_stack31(dev, 3)
    for _ in range(6):
        draw(dev)
    play(dev, "KH")
    play(dev, "9S")
    play(dev, "10S")
    dev.press("BACK")  # undo the 10 of spades
    play(dev, "5D")
    game = dev.game
    while not game.over:
        hand = game.hands[game.to_move]
        if game.deck and hand == 0:
            draw(dev)
        elif hand:
            discard_down(dev)
        else:
            dev.press("RIGHT")
            dev.press("OK")
    dev.step(3000)


def stackdeck(dev):
    """ANN and BOB, two rounds: stack by stack through the checker and by counters."""
    from tests.test_fw_stackdeck import (back_to_board, build_stack, choose, counts,
                                         end_round, open_stackdeck, set_rounds, to_player)
    _home(dev)
    set_rounds(dev, 2)
    open_stackdeck(dev, 2)
    for _ in range(2):  # a question over the finished game: OK
        if type(dev.app.screen).__name__ == "StackDeckScreen":
            break
        dev.press("OK")
    assert type(dev.app.screen).__name__ == "StackDeckScreen", dev.text()
    to_player(dev, "ANN")
    build_stack(dev, "4G-5G-6G")
    choose(dev, "Went out")
    dev.press("BACK")
    to_player(dev, "BOB")
    counts(dev, [1, 0, 1, 0, 1, 0])
    back_to_board(dev)
    end_round(dev)
    to_player(dev, "BOB")
    counts(dev, [2, 0, 0, 0, 0, 0])
    choose(dev, "Went out")
    dev.press("BACK")
    to_player(dev, "ANN")
    build_stack(dev, "W", turned=False)
    back_to_board(dev)
    end_round(dev)
    dev.step(3000)


def stress(dev):
    """ANN and BOB, first to two games (three played): flips, calls (close ones, a slow
    one), a false call."""
    from tests.test_fw_stress import choose, enter_centre, flip, open_stress, two_presses
    _home(dev)
    open_stress(dev)
    margins_us = (900, 3200, 15000, 1800, 60000, 700)
    n = 0
    for game in range(3):  # ANN, BOB, then ANN again: 2-1
        dev.press("OK")
        flip(dev, ("8C", "3D"))
        for _ in range(3):
            dev.press("OK")
            enter_centre(dev, ("5H", "5S"))
            first, second = (1, 2) if (game + n) % 3 else (2, 1)
            two_presses(dev, first, second, margins_us[n % len(margins_us)])
            n += 1
            dev.press("OK")  # the likely ruling: the loser takes the stacks, re-deal
            flip(dev, ("9H", "KD"))
        if game == 0:  # a false call: the tops show no stress
            dev.press("OK")
            enter_centre(dev, ("2H", "7S"))
            dev.call(2)
            dev.step(200)
            dev.press("OK")  # the ruling offered first: False call
            dev.step(200)
        choose(dev, "%s out" % NAMES[game % 2])
        dev.press("OK")
        if type(dev.app.screen).__name__ == "ConfirmScreen":
            dev.press("OK")
    dev.press("OK")
    dev.step(3000)


def _new_stack31(dev, players):
    """Home -> Stack 31 -> players -> start (OK to a question over a saved game)."""
    _home(dev)
    _choose_home(dev, "Stack 31")
    while type(dev.app.screen).__name__ == "ConfirmScreen":  # a new game over a saved one
        dev.press("OK")
    screen = dev.app.screen
    while screen.players < players:
        dev.press("RIGHT")
    while screen.players > players:
        dev.press("LEFT")
    dev.press("OK")
    for _ in range(2):
        if dev.game is not None and dev.game.NAME == "stack31" and not dev.game.history:
            break
        dev.press("OK")
    assert dev.game.NAME == "stack31" and dev.game.players == players, dev.text()


def in_play(dev):
    """A Stack 31 game for ANN, BOB and CY left after a few moves."""
    from tests.fw_helpers import draw
    _new_stack31(dev, 3)
    for _ in range(4):
        draw(dev)
    dev.step(500)


def history(dev):
    _home(dev)
    _choose_home(dev, "History")
    dev.step(500)
    _home(dev)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_sim.examples.make_evening")
    ap.add_argument("--out", default=OUT)
    a = ap.parse_args(argv)
    sys.path.insert(0, ROOT)
    from host_sim.device import SimDevice
    from tests.test_fw_stackdeck import set_name
    flash = tempfile.mkdtemp(prefix="evening-flash-")
    try:
        dev = SimDevice(flash)
        for p, name in enumerate(NAMES, 1):
            set_name(dev, p, name)
        stack31(dev)
        stackdeck(dev)
        stress(dev)
        history(dev)  # the ended match goes to the archive
        in_play(dev)
        if os.path.isdir(a.out):
            shutil.rmtree(a.out)
        os.makedirs(os.path.join(a.out, "archive"))
        for rel in sorted(os.listdir(os.path.join(flash, "archive"))):
            shutil.copyfile(os.path.join(flash, "archive", rel), os.path.join(a.out, "archive", rel))
        shutil.copyfile(os.path.join(flash, "game.txt"), os.path.join(a.out, "game.txt"))
        print("make_evening: %s: %s" % (a.out, ", ".join(
            sorted(os.listdir(os.path.join(a.out, "archive"))) + ["game.txt"])))
    finally:
        shutil.rmtree(flash, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
