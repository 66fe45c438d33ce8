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
FIELDS = 6
PAIRS, CPAIRS, RUNS, CRUNS, UNTURNED, WILDS = 0, 1, 2, 3, 4, 5
MAX_COUNT = 57  # no count can exceed the deck
# the points of each count, as core.stackdeck_stacks scores the equivalent stacks
# (written out: this module must not load the stack checker)
POINTS = (5, 10, 10, 20, -5, -20)

BAD_COUNTS = "counts: 6 numbers"
NOTHING = "nothing counted"
TOO_MANY_W = "2 W per unturned max"
TOO_MANY_CARDS = "more than 57 cards"


def parse(tokens):
    """The six count words -> a tuple of six ints (IllegalAction if malformed)."""
    if len(tokens) != FIELDS:
        raise IllegalAction(BAD_COUNTS)
    out = []
    for t in tokens:
        if not notation.is_digits(t) or int(t) > MAX_COUNT:
            raise IllegalAction(BAD_COUNTS)
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
    return (2 * (counts[PAIRS] + counts[CPAIRS]) + 3 * (counts[RUNS] + counts[CRUNS])
            + max(counts[UNTURNED], counts[WILDS]))


def wilds(counts):
    """The fewest wilds the counted stacks hold: the unturned wilds, and one in each
    pair of one colour (the deck has each numbered card once, so two cards of one
    number and one colour need a wild)."""
    return counts[WILDS] + counts[CPAIRS]


def check_shape(counts):
    """What one counts line must be on its own."""
    if len(counts) != FIELDS:
        raise IllegalAction(BAD_COUNTS)
    for n in counts:
        if n < 0 or n > MAX_COUNT:
            raise IllegalAction(BAD_COUNTS)
    if not any(counts):
        raise IllegalAction(NOTHING)
    if counts[WILDS] > 2 * counts[UNTURNED]:
        raise IllegalAction(TOO_MANY_W)
