"""Stack the Deck: the deck model (rules STD-1..STD-3 in seeds/stack_the_deck.md).

A card is a small int: a numbered card is colour * 10 + (number - 1), 0 to 49, with
colour 0 to 4 in the order of the colour letters (default R Y G B P); a wild is 50.
A stack is a tuple of cards in the order they were laid, written `4G-5G-6G`.
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
