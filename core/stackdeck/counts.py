"""Stack the Deck: the counter line, a project extension (rule STD-34 in
seeds/stack_the_deck.md).

    P2 counts PAIRS CPAIRS RUNS CRUNS UNTURNED WILDS

A table that does not want to name every card gives a player's stacks as six counts:
pairs, pairs of one colour, runs, runs of one colour, unturned stacks, and the wilds
in those unturned stacks. They score exactly like the equivalent stacks (5, 10, 10,
20 each; -5 per unturned stack and -20 more per wild in one). The cards are not named,
so only what the counts themselves prove is checked: see `check`.
"""

from core import notation
from core.errors import IllegalAction

COUNTS = "counts"
FIELDS = 6  # pairs, one-colour pairs, runs, one-colour runs, unturned, their wilds: 0..5
MAX_COUNT = 57  # no count can exceed the deck
# the points of each count, as core.stackdeck.stacks scores the equivalent stacks
# (written out: this module must not load the stack checker)
POINTS = (5, 10, 10, 20, -5, -20)

TOO_MANY_CARDS = "more than 57 cards"
# Heap (issue 11): the fields are indexes and the other reasons literals (a board
# never frees a module-level name)


def parse(tokens):
    """The six count words -> a tuple of six ints (IllegalAction if malformed)."""
    if len(tokens) != FIELDS:
        raise IllegalAction("counts: 6 numbers")
    out = []
    for t in tokens:
        if not notation.is_digits(t) or int(t) > MAX_COUNT:
            raise IllegalAction("counts: 6 numbers")
        out.append(int(t))
    return tuple(out)


def format_counts(counts):
    return " ".join([str(n) for n in counts])


def points(counts):
    """The counts' points, scored like the equivalent stacks."""
    total = 0
    for i in range(FIELDS):
        total += counts[i] * POINTS[i]
    return total


def cards(counts):
    """The fewest cards the counted stacks hold (a pair 2, a run 3, an unturned 1)."""
    return 2 * (counts[0] + counts[1]) + 3 * (counts[2] + counts[3]) + max(counts[4], counts[5])


def wilds(counts):
    """The fewest wilds the counted stacks hold: the unturned wilds, and one in each
    pair of one colour (the deck has each numbered card once, so two cards of one
    number and one colour need a wild)."""
    return counts[5] + counts[1]


def check_shape(counts):
    """What one counts line must be on its own."""
    if len(counts) != FIELDS:
        raise IllegalAction("counts: 6 numbers")
    for n in counts:
        if n < 0 or n > MAX_COUNT:
            raise IllegalAction("counts: 6 numbers")
    if not any(counts):
        raise IllegalAction("nothing counted")
    if counts[5] > 2 * counts[4]:
        raise IllegalAction("2 W per unturned max")
