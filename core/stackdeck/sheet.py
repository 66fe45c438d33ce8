"""Stack the Deck: one round's score sheet (rules STD-20..STD-27 in
seeds/stack_the_deck.md). The entry lines of a round go in one at a time, each
checked before anything changes; the last one in can be taken back out (undo).

An ended round is kept as a compact record (pack, unpack): its entry actions in a
few bytes each, not a sheet of lists and sets (a long match keeps every round).
The stack checker (core.stackdeck.stacks) is loaded only when a stack is entered.
"""

from core.errors import IllegalAction
from core.stackdeck.counts import COUNTS, FIELDS, cards, check_shape, points, wilds

ROUND = "round"
END = "end"
TURNED = "turned"
UNTURNED = "unturned"
OUT = "out"
ENTRY_VERBS = (TURNED, UNTURNED, OUT, COUNTS)  # counts: STD-34, a project extension
# the deck as core.stackdeck.stacks has it (here so that counts need not load it)
WILD = 50
DECK_WILDS = 7
DECK_SIZE = 57


class RoundSheet:
    def __init__(self, players):
        self.players = players
        self.turned = [[] for _ in range(players)]  # per player: stacks
        self.unturned = [[] for _ in range(players)]
        self.out = []  # 1-based players who said `out`, in order
        self.used = set()  # numbered cards on the table this round
        self.wilds = 0
        self.counts = [[0] * FIELDS for _ in range(players)]  # STD-34, summed
        # the fewest cards and wilds the counts hold, all players
        self.counted = [0, 0]
        self.lines = []  # the entry actions, in order

    def check(self, action, letters="RYGBP"):
        """Raise IllegalAction if the entry may not be added; change nothing."""
        p, verb = action[0], action[1]
        if verb == OUT:
            if p in self.out:
                raise IllegalAction("P%d is out already" % p)
            return
        counted = self.counted
        # cards on the table this round as far as known (named and counted)
        known = len(self.used) + self.wilds + counted[0]
        if verb == COUNTS:
            counts = action[2]
            check_shape(counts)
            if self.wilds + counted[1] + wilds(counts) > DECK_WILDS:
                raise IllegalAction("more than 7 wilds")
            if known + cards(counts) > DECK_SIZE:
                raise IllegalAction("more than 57 cards")
            return
        from core.stackdeck import stacks as st
        seen = []
        n = self.wilds + counted[1]
        for stack in action[2]:
            if verb == TURNED:
                st.check_turned(stack)
            else:
                st.check_unturned(stack)
            for c in stack:
                if c == WILD:
                    n += 1
                    if n > DECK_WILDS:
                        raise IllegalAction("more than 7 wilds")
                elif c in self.used or c in seen:
                    raise IllegalAction("%s used twice" % st.card_name(c, letters))
                else:
                    seen.append(c)
        # STD-34: counted stacks hold cards too
        if counted[0] and known + len(seen) + n - self.wilds - counted[1] > DECK_SIZE:
            raise IllegalAction("more than 57 cards")

    def add(self, action, sign=1):
        """Add a checked entry (sign -1: take it back out, remove_last)."""
        p, verb = action[0], action[1]
        if sign > 0:
            self.lines.append(action)
        if verb == OUT:
            if sign > 0:
                self.out.append(p)
            else:
                self.out.pop()
            return
        if verb == COUNTS:
            counts = action[2]
            row = self.counts[p - 1]
            for i in range(FIELDS):
                row[i] += sign * counts[i]
            self.counted[0] += sign * cards(counts)
            self.counted[1] += sign * wilds(counts)
            return
        target = (self.turned if verb == TURNED else self.unturned)[p - 1]
        for stack in action[2]:
            if sign > 0:
                target.append(stack)
            else:
                target.pop()
            for c in stack:
                if c == WILD:
                    self.wilds += sign
                elif sign > 0:
                    self.used.add(c)
                else:
                    self.used.discard(c)

    def remove_last(self):
        """Take back the last entry added, exactly."""
        action = self.lines.pop()
        self.add(action, -1)
        return action

    def check_end(self):
        """Raise IllegalAction unless the round may be closed and scored."""
        if not self.out:
            raise IllegalAction("nobody is out")
        if len(self.out) > 1:
            raise IllegalAction("only one goes out")
        p = self.out[0]
        if self.unturned[p - 1] or self.counts[p - 1][4]:  # 4: unturned stacks counted
            raise IllegalAction("P%d out, has unturned" % p)

    def scores(self):
        """Each player's points for the round (as entered so far)."""
        out = []
        for p in range(self.players):
            total = points(self.counts[p])
            if self.turned[p] or self.unturned[p]:
                from core.stackdeck import stacks as st
                for stack in self.turned[p]:
                    total += st.turned_points(stack)
                for stack in self.unturned[p]:
                    total += st.unturned_points(stack)
            out.append(total)
        return out


# An ended round's record: per entry, one byte verb * 8 + player, then for `counts`
# its six counts, for stacks their number and each stack as its length and cards.

def pack(lines):
    """A round's entry actions -> its record (bytes)."""
    out = bytearray()
    for a in lines:
        verb = a[1]
        out.append(ENTRY_VERBS.index(verb) * 8 + a[0])
        if verb == COUNTS:
            out.extend(bytes(a[2]))
        elif verb != OUT:
            out.append(len(a[2]))
            for stack in a[2]:
                out.append(len(stack))
                out.extend(bytes(stack))
    return bytes(out)


def unpack(record):
    """A record -> the round's entry actions, as parsed from their lines."""
    out = []
    i = 0
    n = len(record)
    while i < n:
        verb = ENTRY_VERBS[record[i] >> 3]
        p = record[i] & 7
        i += 1
        if verb == OUT:
            out.append((p, OUT))
        elif verb == COUNTS:
            out.append((p, COUNTS, tuple(record[i:i + FIELDS])))
            i += FIELDS
        else:
            stacks = []
            for _ in range(record[i]):
                k = record[i + 1]
                stacks.append(tuple(record[i + 2:i + 2 + k]))
                i += 1 + k
            i += 1
            out.append((p, verb, tuple(stacks)))
    return out


def out_in(record):
    """The player who went out in a record's round (its one `out`), else None."""
    i = 0
    n = len(record)
    while i < n:
        b = record[i]
        i += 1
        if b >> 3 == 2:  # OUT
            return b & 7
        if b >> 3 == 3:  # COUNTS
            i += FIELDS
        else:
            for _ in range(record[i]):
                i += 1 + record[i + 1]
            i += 1
    return None


def sheet_of(record, players):
    """The sheet of an ended round again (its entries were checked when it ended)."""
    sheet = RoundSheet(players)
    for a in unpack(record):
        sheet.add(a)
    return sheet
