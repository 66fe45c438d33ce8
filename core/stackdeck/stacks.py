"""Stack the Deck: the deck model and the stack checker (rules STD-1..STD-12 in
seeds/stack_the_deck.md). Pure functions, usable by the device one card at a time.

A card is a small int: a numbered card is colour * 10 + (number - 1), 0 to 49, with
colour 0 to 4 in the order of the colour letters (default R Y G B P); a wild is 50.
A stack is a tuple of cards in the order they were laid, written `4G-5G-6G`.

The checks raise core.errors.IllegalAction with a short reason (at most 21
characters, one screen line); the *_reason functions return that reason or None.

Loaded only when a stack is named: a match entered by counters (STD-34) never needs
it (core.stackdeck, core.stackdeck.sheet and core.stackdeck.counts import it inside
the functions that handle stacks).
"""

from core.errors import IllegalAction
from core.notation import is_digits

COLOURS = "RYGBP"
WILD = 50
NUMBERS = 10
DECK_WILDS = 7
DECK_SIZE = 5 * NUMBERS + DECK_WILDS  # 57

# Heap (issue 11): the reasons are literals where they are given, and the shapes
# share two functions (_fits, _reason): every module-level name is an interned
# string a board never frees.

# Cards ---------------------------------------------------------------------------


def make(number, colour):
    """number 1..10, colour index 0..4 -> card."""
    return colour * NUMBERS + number - 1


def number(card):
    """1..10, or None for a wild."""
    if card == WILD:
        return None
    return card % NUMBERS + 1


def colour(card):
    """Colour index 0..4, or None for a wild."""
    if card == WILD:
        return None
    return card // NUMBERS


def all_cards():
    """The 57 cards: every numbered card once, then the 7 wilds."""
    return list(range(5 * NUMBERS)) + [WILD] * DECK_WILDS


def check_colours(letters):
    """Five distinct letters, none of them W -> the letters in upper case."""
    text = letters.upper()
    if len(text) != 5:
        raise IllegalAction("colours: 5 letters")
    for i in range(5):
        ch = text[i]
        if not 65 <= ord(ch) <= 90:  # A to Z
            raise IllegalAction("colours: letters only")
        if ch == "W":
            raise IllegalAction("colours: W is wild")
        if text.find(ch) != i:
            raise IllegalAction("colours: %s twice" % ch)
    return text


def parse_card(token, letters=COLOURS):
    """'3R', '10b', 'W' -> card (letters: the five colour letters in use)."""
    text = token.upper()
    if text == "W":
        return WILD
    digits = text[:-1]
    c = letters.find(text[-1]) if text else -1
    # ASCII digits only (str.isdigit also takes Unicode digits that int() refuses)
    if c >= 0 and len(digits) <= 2 and is_digits(digits) and digits[0] != "0":
        n = int(digits)
        if n <= NUMBERS:
            return make(n, c)
    raise IllegalAction("bad card: %s" % token)


def card_name(card, letters=COLOURS):
    if card == WILD:
        return "W"
    return str(card % NUMBERS + 1) + letters[card // NUMBERS]


def colour_name(index, names=None):
    """The colour's display name (names: the five names in use)."""
    return (names or "Red Yellow Green Blue Purple".split())[index]


def parse_stack(token, letters=COLOURS):
    """'4G-5G-6G' -> (card, card, card), in the order laid."""
    out = []
    for part in token.split("-"):
        if not part:
            raise IllegalAction("bad stack: " + token)
        out.append(parse_card(part, letters))
    return tuple(out)


def stack_name(stack, letters=COLOURS):
    return "-".join([card_name(c, letters) for c in stack])


PAIR = "pair"
RUN = "run"

PAIR_POINTS = 5
PAIR_ONE_COLOUR_POINTS = 10
RUN_POINTS = 10
RUN_ONE_COLOUR_POINTS = 20
UNTURNED_POINTS = -5
UNTURNED_WILD_POINTS = -20


# Shapes ----------------------------------------------------------------------------

def one_colour(stack):
    """True when the numbered cards share one colour (wilds take that colour)."""
    seen = None
    for c in stack:
        if c != WILD:
            if seen is None:
                seen = c // NUMBERS
            elif c // NUMBERS != seen:
                return False
    return True


def is_pair(stack):
    """Two cards of one number (a wild takes the number)."""
    if len(stack) != 2:
        return False
    a, b = stack
    return a == WILD or b == WILD or a % NUMBERS == b % NUMBERS


def _fits(stack, wrap=False):
    """True when the stack's cards (wilds fit anything) are the first len(stack)
    cards of a run of 3 stepping +1 or -1 in the order laid, from 1 to 10 (wrap:
    numbers compared mod 10, to tell a wrap from a plain miss)."""
    for step in (1, -1):
        first = None
        for i in range(len(stack)):
            c = stack[i]
            if c == WILD:
                continue
            a = c % NUMBERS + 1 - i * step
            if wrap:
                a = (a - 1) % NUMBERS + 1
            if first is None:
                first = a
            elif first != a:
                first = 0  # no run this way
                break
        if first is None or (first and (wrap or (1 <= first <= NUMBERS and
                                                 1 <= first + 2 * step <= NUMBERS))):
            return True
    return False


def is_run(stack):
    """Three cards stepping +1 each or -1 each in the order laid, no wrap."""
    return len(stack) == 3 and _fits(stack)


def complete_kind(stack):
    """PAIR, RUN, or None when the stack is not complete."""
    if is_pair(stack):
        return PAIR
    if is_run(stack):
        return RUN
    return None


# The checker ---------------------------------------------------------------------------

def _reason(stack, turned):
    """turned_reason (turned) or unturned_reason."""
    n = len(stack)
    if n == 0:
        return "empty stack"
    if n == 1:
        return "1 card: not complete" if turned else None
    if n == 2:
        if turned:
            if is_pair(stack):
                return None
            a, b = stack
            d = a % NUMBERS - b % NUMBERS
            if a == WILD or b == WILD or d == 1 or d == -1:  # neighbours: a run could follow
                return "run needs 3 cards"
            return "not a run or a pair"
        if _fits(stack):  # the first two cards of some run
            return None
        if is_pair(stack):
            return "pair is complete"
        if _fits(stack, True):
            return "runs don't wrap 10-1"
        return "not a run or a pair"
    if n == 3:
        if _fits(stack):
            return None if turned else "run is complete"
        # why three cards are not a run
        if _fits(stack, True):
            return "runs don't wrap 10-1"
        nums = [c % NUMBERS for c in stack if c != WILD]
        if nums.count(nums[0]) == len(nums):
            return "a pair is 2 cards"
        a, b, c = stack
        if a != WILD and b != WILD and c != WILD:
            d1 = b % NUMBERS - a % NUMBERS
            d2 = c % NUMBERS - b % NUMBERS
            if (d1 == 1 or d1 == -1) and (d2 == 1 or d2 == -1):
                return "runs go one way"
        return "not a run"
    return "too many cards"


def turned_reason(stack):
    """None when the stack is complete (may be turned), else why not."""
    return _reason(stack, True)


def unturned_reason(stack):
    """None when the stack may stand on the table unturned: a single card, or the
    first two cards of a run (a pair with a wild qualifies when a run could still
    follow); else why not."""
    return _reason(stack, False)


def can_stand(stack):
    return _reason(stack, False) is None


def check_turned(stack):
    reason = _reason(stack, True)
    if reason is not None:
        raise IllegalAction(reason)


def check_unturned(stack):
    reason = _reason(stack, False)
    if reason is not None:
        raise IllegalAction(reason)


def turned_points(stack):
    """Points of a complete stack, the wilds read the way that scores highest:
    pair 5, one-colour pair 10, run 10, one-colour run 20. Raises if not complete."""
    kind = complete_kind(stack)
    if kind is None:
        check_turned(stack)
    same = one_colour(stack)
    if kind == PAIR:
        return PAIR_ONE_COLOUR_POINTS if same else PAIR_POINTS
    return RUN_ONE_COLOUR_POINTS if same else RUN_POINTS


def unturned_points(stack):
    """What an unturned stack costs: -5, and -20 more per wild. Raises if it could
    not stand on the table."""
    check_unturned(stack)
    return UNTURNED_POINTS + UNTURNED_WILD_POINTS * stack.count(WILD)


def describe(stack):
    """(kind, points, reason) for a screen: kind PAIR or RUN with the turned points,
    "open" with the unturned cost, or None with the reason it cannot stand."""
    kind = complete_kind(stack)
    if kind is not None:
        return (kind, turned_points(stack), None)
    reason = _reason(stack, False)
    if reason is None:
        return ("open", unturned_points(stack), None)
    return (None, 0, reason)
