"""Stack 31: what a game needs rarely, loaded when used (a board plays without it in
its heap): reading a checkpoint (S31-22), the lines the device could offer (legal),
the state for a reader (replay, reports, the archive). Stack31's methods of the same
names call these, handing over pile_after (this module does not import core.stack31:
no import circle).
"""

from core import cards
from core import checkpoint as cp
from core.errors import IllegalAction

# core.stack31's verbs and goal
DRAW = "draw"
PLAY = "play"
DISCARD_UP = "discard up"
DISCARD_DOWN = "discard down"
PASS = "pass"
DQ = "dq"
GOAL = 31


def read(g, r, pile_after):
    n = g.players
    r.word("turn")
    to_move = r.num(1, n, "turn") - 1
    r.word("deck")
    deck = r.num(0, cards.DECK_SIZE, "deck")
    r.word("quiet")
    quiet = r.num(0, n, "quiet")
    r.word("down")
    down = r.num(0, cards.DECK_SIZE, "down")
    r.word("hands")
    hands = [r.num(0, g.options["hand_limit"], "hands") for _ in range(n)]
    r.word("piles")
    values = []
    owners = []
    for _ in range(4):
        values.append(r.num(0, GOAL, "piles"))
        owners.append(cp.read_player(r.take(), n))
    r.word("dq")
    dq = [cp.read_player(t, n, False) for t in r.until(("played",))]
    r.word("played")
    played = [cards.parse(t) for t in r.until(("up",))]
    r.word("up")
    up = [cards.parse(t) for t in r.until((cp.END,))]
    # Consistency: what play itself keeps true.
    active = [True] * n
    for p in dq:
        if not active[p]:
            raise IllegalAction("checkpoint: dq twice")
        if hands[p]:
            raise IllegalAction("checkpoint: dq with cards")
        active[p] = False
    seen = set()
    for c in played + up:
        if c in seen:
            raise IllegalAction("checkpoint: card twice")
        seen.add(c)
    if deck + sum(hands) + len(played) + len(up) + down != cards.DECK_SIZE:
        raise IllegalAction("checkpoint: cards don't add up")
    if deck and quiet:
        raise IllegalAction("checkpoint: bad quiet")
    for s in range(4):
        value = 0
        for c in played:
            if cards.suit(c) == s:
                value = pile_after(value, c)
        if value != values[s] or (owners[s] is None) != (value == 0 and not any(
                cards.suit(c) == s for c in played)):
            raise IllegalAction("checkpoint: pile " + cards.SUITS[s])
    g.deck = deck
    g.hands = hands
    g.values = values
    g.owners = owners
    g.active = active
    g.disqualified = dq
    g.seen = seen
    g.played = played
    g.discarded_up = up
    g.discarded_down = down
    g.to_move = to_move
    g.quiet_turns = quiet
    g.over = g._is_over()
    if not g.over and not active[to_move]:
        raise IllegalAction("checkpoint: turn of a dq")


def legal(g, pile_after):
    """What the player to move may do, as far as the device can know (actor None)."""
    if g.over:
        return []
    out = []
    hand = g.hands[g.to_move]
    if g.deck and hand < g.options["hand_limit"]:
        out.append((None, DRAW))
    if hand:
        for card in range(cards.DECK_SIZE):
            if card in g.seen:
                continue
            try:
                pile_after(g.values[cards.suit(card)], card)
                out.append((None, PLAY, card))
            except IllegalAction:
                pass
        for card in range(cards.DECK_SIZE):
            if card not in g.seen:
                out.append((None, DISCARD_UP, card))
        out.append((None, DISCARD_DOWN))
    elif not g.deck:
        out.append((None, PASS))
    out.append((None, DQ))
    return out


def state(g):
    piles = {}
    for s in range(4):
        owner = g.owners[s]
        piles[cards.SUITS[s]] = {
            "value": g.values[s],
            "owner": None if owner is None else owner + 1,
            "conquered": g.values[s] == GOAL,
        }
    return {
        "game": g.NAME,
        "players": g.players,
        "to_move": None if g.over else g.to_move + 1,
        "deck": g.deck,
        "hands": list(g.hands),
        "piles": piles,
        "disqualified": [p + 1 for p in g.disqualified],
        "over": g.over,
        "piles_won": g.piles_won(),
        "winners": g.winners(),
        "played": [cards.name(c) for c in g.played],
        "discarded_up": [cards.name(c) for c in g.discarded_up],
        "discarded_down": g.discarded_down,
        "moves": g.moves,
    }
