"""Shared moves for the firmware tests: reach a game from the home menu by buttons."""

from host_sim.device import SimDevice


def new_device(tmp_path, name="flash", **kw):
    return SimDevice(str(tmp_path / name), **kw)


def open_stack31(dev, players=2):
    """Home -> Stack 31 -> players -> start, by buttons only."""
    assert dev.shows("Stack 31")
    dev.press("OK")  # the first entry on a fresh device
    assert dev.shows("Players")
    while dev.app.screen.players < players:
        dev.press("RIGHT")
    while dev.app.screen.players > players:
        dev.press("LEFT")
    dev.press("OK")
    assert dev.game is not None and dev.game.NAME == "stack31"


def choose_action(dev, label):
    """Move the Stack 31 action line to `label` with LEFT/RIGHT presses."""
    from firmware.screens.stack31 import LABELS
    for _ in range(len(LABELS)):
        if LABELS[dev.app.screen.choice] == label:
            return
        dev.press("RIGHT")
    raise AssertionError("no action " + label)


def pick_card(dev, name, ok=True):
    """In the card picker: the fewest arrow presses to the card (the picker skips
    cards that cannot be taken), then OK."""
    from core import cards
    from host_sim.planner import picker_route
    route = picker_route(dev.app.screen, cards.parse(name))
    assert route is not None, "the picker cannot reach " + name
    dev.presses(*route)
    if ok:
        dev.press("OK")
    return len(route)


def draw(dev):
    choose_action(dev, "Draw")
    dev.press("OK")


def play(dev, card):
    choose_action(dev, "Play")
    dev.press("OK")
    pick_card(dev, card)


def discard_down(dev):
    choose_action(dev, "Disc down")
    dev.press("OK")
