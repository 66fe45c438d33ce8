"""The fewest presses to an entry, found by asking the screens themselves.

A planner for tests and tools/bench_presses: it never guesses a layout, it asks a
screen where a press would take it (CardPickerScreen.step) and searches breadth
first, so the route is the shortest the firmware allows.
"""

from firmware.drivers import buttons as b

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


def ring_route(pos, needs, n, down="DOWN", up="UP"):
    """The fewest presses that visit every position of `needs` (position -> the
    presses to make there, e.g. ["RIGHT", "RIGHT"]) on a ring of n positions, starting
    at pos, moving one step with `down` (+1) or `up` (-1): a search over (position,
    positions done), so it may turn back when that is shorter (the counters of Stack
    the Deck: six in a ring)."""
    import heapq
    goal = 0
    keys = sorted(needs)
    for i in range(len(keys)):
        goal |= 1 << i
    start = (0, pos, 0, ())
    best = {}
    heap = [start]
    while heap:
        cost, here, done, route = heapq.heappop(heap)
        if here in keys and not done & (1 << keys.index(here)):
            done |= 1 << keys.index(here)
            route = route + tuple(needs[here])
            cost += len(needs[here])
        if done == goal:
            return list(route)
        if best.get((here, done), cost + 1) <= cost:
            continue
        best[(here, done)] = cost
        for step, name in ((1, down), (-1, up)):
            heapq.heappush(heap, (cost + 1, (here + step) % n, done, route + (name,)))
    return []
