"""The standard 52-card deck (Stack 31, Stress): a card is a small int.

card = suit * 13 + (rank - 1), rank 1 (A) to 13 (K), suits in the order H D C S.
Small ints keep the device's heap flat and compare fast.
"""

from core.errors import IllegalAction

SUITS = "HDCS"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JACK = 11
QUEEN = 12
KING = 13
DECK_SIZE = 52


def make(rank, suit_index):
    return suit_index * 13 + rank - 1


def rank(card):
    return card % 13 + 1


def suit(card):
    return card // 13


def parse(token):
    """'7H', '10s', 'TD', 'qc' -> card. Refuses anything else with a short reason."""
    text = token.upper()
    if len(text) < 2:
        raise IllegalAction("bad card: " + token)
    suit_index = SUITS.find(text[-1])
    rank_text = text[:-1]
    if rank_text == "T":
        rank_text = "10"
    if suit_index < 0 or rank_text not in RANK_NAMES:
        raise IllegalAction("bad card: " + token)
    return make(RANK_NAMES.index(rank_text) + 1, suit_index)


def parse_rank(token):
    """A rank alone, for games that ignore suits: 'Q' -> 12."""
    text = token.upper()
    if text == "T":
        text = "10"
    if text not in RANK_NAMES:
        raise IllegalAction("bad rank: " + token)
    return RANK_NAMES.index(text) + 1


def name(card):
    return RANK_NAMES[card % 13] + SUITS[card // 13]


def all_cards():
    return list(range(DECK_SIZE))
