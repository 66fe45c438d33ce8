"""The whole game of Stress on the computer (rules STR-24 to STR-30 in seeds/stress.md):
a seeded shuffle, two hands, rows of four, piles, the centre stacks, calls and stalls.

The referee (core/stress/__init__.py) never sees hands; this model does, so simulated games
(core/stress/sim.py) have a known truth to test the referee against. Two players, as
the source describes the game ("the deck is split into two").

A pile, a row spot and a centre stack are lists of cards with the top card last.
"""

from core import cards

MASK32 = 0xFFFFFFFF


class Rng:
    """xorshift32 (Marsaglia 2003): the same numbers on CPython and MicroPython, and no
    dependence on either's `random`. Seeded with any int; seed 0 is mapped to a
    constant (xorshift has no zero state)."""

    def __init__(self, seed):
        x = seed & MASK32
        if x == 0:
            x = 0x2545F491
        self.x = x
        for _ in range(8):  # small seeds give small first outputs: stir them
            self.next()

    def next(self):
        x = self.x
        x ^= (x << 13) & MASK32
        x ^= x >> 17
        x ^= (x << 5) & MASK32
        self.x = x
        return x

    def below(self, n):
        """An int in 0 .. n-1 (n >= 1)."""
        return self.next() % n

    def between(self, lo, hi):
        """An int in lo .. hi, both included."""
        return lo + self.below(hi - lo + 1)

    def chance(self, per_thousand):
        return self.below(1000) < per_thousand

    def shuffle(self, items):
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def fits(card, top):
    step = (cards.rank(card) - cards.rank(top)) % 13
    return step == 1 or step == 12


class Table:
    """One game of two-player Stress with every card where it really is."""

    ROW = 4

    def __init__(self, rng):
        self.rng = rng
        deck = cards.all_cards()
        rng.shuffle(deck)
        self.piles = [deck[:26], deck[26:]]  # STR-24: the deck split in two
        self.rows = [[[] for _ in range(self.ROW)] for _ in range(2)]
        self.stacks = [[], []]
        self.log = []  # what happened, as notation lines the table would tell the device
        for p in range(2):
            self._fill_row(p)
        self.lay_centre()

    # Reading ----------------------------------------------------------------

    def tops(self):
        return [s[-1] if s else None for s in self.stacks]

    def stress(self):
        a, b = self.tops()
        return a is not None and b is not None and cards.rank(a) == cards.rank(b)

    def row_tops(self, p):
        return [spot[-1] for spot in self.rows[p] if spot]

    def cards_left(self, p):
        n = len(self.piles[p])
        for spot in self.rows[p]:
            n += len(spot)
        return n

    def moves(self, p):
        """(spot, stack) pairs: the top of a row spot that fits on a centre stack."""
        out = []
        tops = self.tops()
        for i in range(self.ROW):
            spot = self.rows[p][i]
            if not spot:
                continue
            for s in range(2):
                if tops[s] is not None and fits(spot[-1], tops[s]):
                    out.append((i, s))
        return out

    def stalled(self):
        return not self.moves(0) and not self.moves(1)

    def total(self):
        return sum(self.cards_left(p) for p in range(2)) + len(self.stacks[0]) + len(self.stacks[1])

    # Changing ---------------------------------------------------------------

    def _fill_row(self, p):
        """STR-25: empty spots are filled from the pile, and while two spots show one
        rank another card is dealt on top of the later one (as long as the pile lasts)."""
        row = self.rows[p]
        pile = self.piles[p]
        while pile:
            target = -1
            seen = {}
            for i in range(self.ROW):
                if not row[i]:
                    target = i
                    break
                r = cards.rank(row[i][-1])
                if r in seen:
                    target = i
                    break
                seen[r] = i
            if target < 0:
                return
            row[target].append(pile.pop())

    def play(self, p, spot, s):
        """STR-26: P plays the top of a row spot onto centre stack s (0-based)."""
        card = self.rows[p][spot].pop()
        if not fits(card, self.stacks[s][-1]):
            raise ValueError("model bug: %s does not fit" % cards.name(card))
        self.stacks[s].append(card)
        self._fill_row(p)
        self.log.append("P%d play %s %d" % (p + 1, cards.name(card), s + 1))
        return card

    def _deal_centre(self, s, dealers):
        """Stack s gets a card from the first of `dealers` with a pile; False if none."""
        for p in dealers:
            if self.piles[p]:
                self.stacks[s].append(self.piles[p].pop())
                return True
        return False

    def lay_centre(self):
        """STR-24 / STR-28: each player deals one card onto their centre stack; a player
        without a pile has the other deal it."""
        for s in range(2):
            self._deal_centre(s, (s, 1 - s))
        self._fill_row(0)
        self._fill_row(1)
        self._log_centre()

    def _log_centre(self):
        a, b = self.tops()
        self.log.append("centre %s %s" % (cards.name(a), cards.name(b)))

    def take_stacks(self, p):
        """STR-28: P takes both centre stacks and shuffles them into their pile."""
        pile = self.piles[p]
        pile.extend(self.stacks[0])
        pile.extend(self.stacks[1])
        self.stacks[0] = []
        self.stacks[1] = []
        self.rng.shuffle(pile)

    def unstall(self):
        """STR-29: nobody can move. Each player with a pile deals a card onto their own
        stack; if neither has a pile, each takes their own stack, turned over, as their
        pile and then deals from it."""
        if not self.piles[0] and not self.piles[1]:
            for p in range(2):
                stack = self.stacks[p]
                stack.reverse()  # face up turned face down: the first card laid is on top
                self.piles[p] = stack
                self.stacks[p] = []
            self.lay_centre()
            return
        for s in range(2):
            self._deal_centre(s, (s,))
        self._fill_row(0)
        self._fill_row(1)
        self._log_centre()

    def out(self):
        """The player with no cards left (STR-30), or None."""
        for p in range(2):
            if self.cards_left(p) == 0:
                return p
        return None
