"""The fewest presses to an entry, found by asking the screens themselves.

A planner for tests and tools/bench_presses: it never guesses a layout, it asks a
screen where a press would take it (CardPickerScreen.step) and searches breadth
first, so the route is the shortest the firmware allows.
"""

from firmware import buttons as b

ARROWS = (("UP", b.UP), ("DOWN", b.DOWN), ("LEFT", b.LEFT), ("RIGHT", b.RIGHT))


def picker_route(picker, card):
    """The arrow names that take the card picker from where it stands to `card`
    (rank and suit as core.cards), fewest first; None when it cannot get there."""
    from core import cards
    goal = (cards.rank(card), cards.suit(card))
    start = (picker.rank, picker.suit)
    seen = {start: None}
    queue = [start]
    try:
        i = 0
        while i < len(queue):
            here = queue[i]
            i += 1
            if here == goal:
                route = []
                while seen[here] is not None:
                    here, name = seen[here]
                    route.append(name)
                route.reverse()
                return route
            for name, button in ARROWS:
                picker.rank, picker.suit = here
                there = _step(picker, button)
                if there not in seen:
                    seen[there] = (here, name)
                    queue.append(there)
        return None
    finally:
        picker.rank, picker.suit = start


def _step(picker, button):
    """Where a press takes the picker: its own answer, or for a picker that has none
    (the plain 13 x 4 ring of old) the rank or suit one step round."""
    if hasattr(picker, "step"):
        return picker.step(button)
    rank, suit = picker.rank, picker.suit
    if button in (b.UP, b.DOWN):
        return (rank - 1 + (1 if button == b.UP else -1)) % 13 + 1, suit
    return rank, (suit + (1 if button == b.RIGHT else -1)) % 4


def cycle_steps(index, goal, n):
    """Presses of RIGHT (positive) or LEFT (negative) from index to goal on a ring of n."""
    right = (goal - index) % n
    return right if right <= n - right else right - n
