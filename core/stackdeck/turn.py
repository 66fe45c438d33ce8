"""Stack the Deck: checking a single play at the table (rules STD-13..STD-17 in
seeds/stack_the_deck.md), for the device to answer "may I?" one card at a time.

    play_on(stack, card)   -> the stack with card laid on it (own unturned stack)
    steal(stack, card)     -> the completed stack taken from an opponent
    lay_pair(a, b)         -> a drawn pair laid as a new scoring stack
    Turn((a, b))           -> the two drawn cards of one turn, with the order rules

Each raises core.errors.IllegalAction with a short reason when the play is refused.
"""

from core.errors import IllegalAction
from core.stackdeck import stacks as st

NO_STACK = "no stack there"
STEAL_WILD = "can't steal with a W"
STEAL_HOLDS_WILD = "stack holds a wild"
STEAL_COMPLETE = "steal must complete"
STEAL_TURNED = "stack is turned"
NOT_PAIR = "not a pair"
PLAY_FIRST = "play a card first"
ONE_STEAL = "one steal a turn"
NOT_DRAWN = "card not drawn"
USED = "card already used"
BOTH_USED = "pair needs both cards"


def play_on(stack, card):
    """Lay CARD on the player's own unturned STACK. The result must be complete
    (turn it over) or still able to stand (a run's first two cards)."""
    if not stack:
        raise IllegalAction(NO_STACK)
    if st.complete_kind(stack) is not None and not st.can_stand(stack):
        raise IllegalAction(STEAL_TURNED)
    new = tuple(stack) + (card,)
    if st.complete_kind(new) is None:
        st.check_unturned(new)
    return new


def steal(stack, card):
    """Complete an opponent's unturned STACK with CARD and take it. A wild may not
    steal, a stack holding a wild may not be stolen, and the card must complete it."""
    if not stack:
        raise IllegalAction(NO_STACK)
    if card == st.WILD:
        raise IllegalAction(STEAL_WILD)
    if st.WILD in stack:
        raise IllegalAction(STEAL_HOLDS_WILD)
    if st.complete_kind(stack) is not None:
        raise IllegalAction(STEAL_TURNED)
    new = tuple(stack) + (card,)
    if st.complete_kind(new) is None:
        raise IllegalAction(STEAL_COMPLETE)
    return new


def lay_pair(a, b):
    """Two drawn cards that make a pair may be laid as a new scoring stack."""
    stack = (a, b)
    if not st.is_pair(stack):
        raise IllegalAction(NOT_PAIR)
    return stack


class Turn:
    """One turn's two drawn cards. A card is played once; a steal needs the other
    drawn card to have gone onto one of the player's own stacks first; the cards
    left over go back into the deck (stacking the deck)."""

    def __init__(self, drawn):
        self.drawn = tuple(drawn)
        self.used = [False] * len(self.drawn)
        self.played_own = False
        self.stole = False

    def _take(self, card):
        found_used = False
        for i in range(len(self.drawn)):
            if self.drawn[i] == card:
                if not self.used[i]:
                    return i
                found_used = True
        raise IllegalAction(USED if found_used else NOT_DRAWN)

    def play(self, card, stack):
        i = self._take(card)
        new = play_on(stack, card)
        self.used[i] = True
        self.played_own = True
        return new

    def steal(self, card, stack):
        i = self._take(card)
        if self.stole:
            raise IllegalAction(ONE_STEAL)
        if not self.played_own:
            raise IllegalAction(PLAY_FIRST)
        new = steal(stack, card)
        self.used[i] = True
        self.stole = True
        return new

    def lay_pair(self):
        if len(self.drawn) != 2 or self.used[0] or self.used[1]:
            raise IllegalAction(BOTH_USED)
        new = lay_pair(self.drawn[0], self.drawn[1])
        self.used[0] = True
        self.used[1] = True
        return new

    def left(self):
        """The drawn cards not played: they go back into the deck."""
        return [self.drawn[i] for i in range(len(self.drawn)) if not self.used[i]]
