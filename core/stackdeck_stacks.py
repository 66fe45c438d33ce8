"""Stack the Deck: the deck model and the stack checker (rules STD-1..STD-12 in
seeds/stack_the_deck.md). Pure functions, usable by the device one card at a time.

A card is a small int: a numbered card is colour * 10 + (number - 1), 0 to 49, with
colour 0 to 4 in the order of the colour letters (default R Y G B P); a wild is 50.
A stack is a tuple of cards in the order they were laid, written `4G-5G-6G`.

The checks raise core.errors.IllegalAction with a short reason (at most 21
characters, one screen line); the *_reason functions return that reason or None.

Loaded only when a stack is named: a match entered by counters (STD-34) never needs
it (core.stackdeck, core.stackdeck_round and core.stackdeck_counts import it inside
the functions that handle stacks).
"""

from core.errors import IllegalAction

COLOURS = "RYGBP"
COLOUR_NAMES = ("Red", "Yellow", "Green", "Blue", "Purple")
WILD = 50
WILD_NAME = "W"
NUMBERS = 10
DECK_WILDS = 7
DECK_SIZE = 5 * NUMBERS + DECK_WILDS  # 57

# Cards ---------------------------------------------------------------------------


def make(number, colour):
    """number 1..10, colour index 0..4 -> card."""
    return colour * NUMBERS + number - 1


def is_wild(card):
    return card == WILD


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
        if not ("A" <= ch <= "Z"):
            raise IllegalAction("colours: letters only")
        if ch == WILD_NAME:
            raise IllegalAction("colours: W is wild")
        if text.find(ch) != i:
            raise IllegalAction("colours: %s twice" % ch)
    return text


def _digits(text):
    """ASCII digits only (str.isdigit also takes Unicode digits that int() refuses)."""
    if not text or len(text) > 2:
        return False
    for ch in text:
        if ch < "0" or ch > "9":
            return False
    return True


def parse_card(token, letters=COLOURS):
    """'3R', '10b', 'W' -> card (letters: the five colour letters in use)."""
    text = token.upper()
    if text == WILD_NAME:
        return WILD
    if len(text) < 2:
        raise IllegalAction("bad card: " + token)
    c = letters.find(text[-1])
    digits = text[:-1]
    if c < 0 or not _digits(digits) or digits[0] == "0":
        raise IllegalAction("bad card: " + token)
    n = int(digits)
    if n < 1 or n > NUMBERS:
        raise IllegalAction("bad card: " + token)
    return make(n, c)


def card_name(card, letters=COLOURS):
    if card == WILD:
        return WILD_NAME
    return "%d%s" % (card % NUMBERS + 1, letters[card // NUMBERS])


def colour_name(index, names=COLOUR_NAMES):
    return names[index]


def parse_stack(token, letters=COLOURS):
    """'4G-5G-6G' -> (card, card, card), in the order laid."""
    parts = token.split("-")
    out = []
    for part in parts:
        if not part:
            raise IllegalAction("bad stack: " + token)
        out.append(parse_card(part, letters))
    return tuple(out)


def stack_name(stack, letters=COLOURS):
    return "-".join([card_name(c, letters) for c in stack])


def wild_count(stack):
    n = 0
    for c in stack:
        if c == WILD:
            n += 1
    return n

PAIR = "pair"
RUN = "run"

PAIR_POINTS = 5
PAIR_ONE_COLOUR_POINTS = 10
RUN_POINTS = 10
RUN_ONE_COLOUR_POINTS = 20
UNTURNED_POINTS = -5
UNTURNED_WILD_POINTS = -20

# Reasons (each fits a 21-character screen line)
WRAP = "runs don't wrap 10-1"
ONE_WAY = "runs go one way"
NOT_RUN = "not a run"
NOT_RUN_OR_PAIR = "not a run or a pair"
PAIR_IS_2 = "a pair is 2 cards"
RUN_NEEDS_3 = "run needs 3 cards"
ONE_CARD = "1 card: not complete"
TOO_MANY = "too many cards"
EMPTY = "empty stack"
PAIR_DONE = "pair is complete"
RUN_DONE = "run is complete"


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
    return a == WILD or b == WILD or number(a) == number(b)


def _run_start(stack, step, length, cyclic=False):
    """The first number of a run of `length` cards stepping by `step` that the
    stack's cards (its first len(stack) positions) fit, or None. Wilds fit anything.
    cyclic: numbers compared mod 10 (to tell a wrap from a plain miss)."""
    first = None
    for i in range(len(stack)):
        c = stack[i]
        if c == WILD:
            continue
        a = number(c) - i * step
        if cyclic:
            a = (a - 1) % NUMBERS + 1
        if first is None:
            first = a
        elif first != a:
            return None
    if cyclic:
        return first if first is not None else 1
    candidates = [first] if first is not None else list(range(1, NUMBERS + 1))
    for a in candidates:
        last = a + (length - 1) * step
        if 1 <= a <= NUMBERS and 1 <= last <= NUMBERS:
            return a
    return None


def is_run(stack):
    """Three cards stepping +1 each or -1 each in the order laid, no wrap."""
    if len(stack) != 3:
        return False
    return _run_start(stack, 1, 3) is not None or _run_start(stack, -1, 3) is not None


def is_run_start(stack):
    """The first two cards of some run (a third card could complete it)."""
    if len(stack) != 2:
        return False
    return _run_start(stack, 1, 3) is not None or _run_start(stack, -1, 3) is not None


def complete_kind(stack):
    """PAIR, RUN, or None when the stack is not complete."""
    if is_pair(stack):
        return PAIR
    if is_run(stack):
        return RUN
    return None


def _wraps(stack):
    return (_run_start(stack, 1, 3, True) is not None
            or _run_start(stack, -1, 3, True) is not None)


def _three_card_reason(stack):
    """Why three cards are not a run."""
    if _wraps(stack):
        return WRAP
    nums = [number(c) for c in stack if c != WILD]
    same = True
    for n in nums:
        if n != nums[0]:
            same = False
    if same:
        return PAIR_IS_2
    a, b, c = stack
    if a != WILD and b != WILD and c != WILD:
        d1 = number(b) - number(a)
        d2 = number(c) - number(b)
        if (d1 == 1 or d1 == -1) and (d2 == 1 or d2 == -1):
            return ONE_WAY
    return NOT_RUN


def _adjacent(stack):
    """Two cards whose numbers could be neighbours (wilds could be anything)."""
    a, b = stack
    if a == WILD or b == WILD:
        return True
    d = number(a) - number(b)
    return d == 1 or d == -1


# The checker ---------------------------------------------------------------------------

def turned_reason(stack):
    """None when the stack is complete (may be turned), else why not."""
    n = len(stack)
    if n == 0:
        return EMPTY
    if n == 1:
        return ONE_CARD
    if n == 2:
        if is_pair(stack):
            return None
        return RUN_NEEDS_3 if _adjacent(stack) else NOT_RUN_OR_PAIR
    if n == 3:
        return None if is_run(stack) else _three_card_reason(stack)
    return TOO_MANY


def unturned_reason(stack):
    """None when the stack may stand on the table unturned: a single card, or the
    first two cards of a run (a pair with a wild qualifies when a run could still
    follow); else why not."""
    n = len(stack)
    if n == 0:
        return EMPTY
    if n == 1:
        return None
    if n == 2:
        if is_run_start(stack):
            return None
        if is_pair(stack):
            return PAIR_DONE
        if _wraps(stack):
            return WRAP
        return NOT_RUN_OR_PAIR
    if n == 3:
        return RUN_DONE if is_run(stack) else _three_card_reason(stack)
    return TOO_MANY


def can_stand(stack):
    return unturned_reason(stack) is None


def check_turned(stack):
    reason = turned_reason(stack)
    if reason is not None:
        raise IllegalAction(reason)


def check_unturned(stack):
    reason = unturned_reason(stack)
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
    return UNTURNED_POINTS + UNTURNED_WILD_POINTS * wild_count(stack)


def describe(stack):
    """(kind, points, reason) for a screen: kind PAIR or RUN with the turned points,
    "open" with the unturned cost, or None with the reason it cannot stand."""
    kind = complete_kind(stack)
    if kind is not None:
        return (kind, turned_points(stack), None)
    reason = unturned_reason(stack)
    if reason is None:
        return ("open", unturned_points(stack), None)
    return (None, 0, reason)
