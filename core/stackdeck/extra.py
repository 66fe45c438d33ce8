"""Stack the Deck: what a match needs rarely, loaded when used (the board keeps it out
of the heap during play): editing an earlier round (STD-31), reading a checkpoint
(STD-35: at resume, and after an edit), the state for a reader (replay, reports, the
archive), the lines the device can offer (legal).
StackDeck's methods of the same names call these.
"""

from core import checkpoint as cp
from core import notation
from core.errors import IllegalAction
from core.stackdeck import sheet as rd
from core.stackdeck.sheet import RoundSheet, ROUND, END, ENTRY_VERBS


def _round_span(g, r, number=0, inside=False):
    """(opening index or None when opened by its first entry, first entry index,
    end index) of round r's lines in the history; `number` rounds come before it
    (inside: the last of them is open where the history starts)."""
    start = 0 if inside else None
    opener = None
    history = g.history
    for i in range(len(history)):
        verb = history[i][1]
        if start is None:
            if verb == ROUND or verb in ENTRY_VERBS:
                number += 1
                if number == r:
                    opener = i if verb == ROUND else None
                start = i + 1 if verb == ROUND else i
        elif verb == END:
            if number == r:
                return opener, start, i
            start = None
    return opener, start, len(history)


def edit_round(g, r, lines):
    """STD-31: replace round r's entry lines (an ended round, or the open one)
    with LINES (strings or actions: turned, unturned, out), checked like new
    lines; the totals follow. Illegal: IllegalAction, nothing changed.
    Returns the round's old entry lines (edit back with them to take it back).

    The history keeps replaying: a round in the history has its lines replaced
    there; a round before it (after restore or rebase) is changed in the base
    checkpoint, base_checkpoint() then gives the new one (STD-35). Either way the
    journal is rewritten as header, base_checkpoint() (if any), the history.
    """
    if 1 <= r <= len(g.sheets):
        ended = True
    elif g.open is not None and r == len(g.sheets) + 1:
        ended = False
    else:
        raise IllegalAction("no round %d" % r)
    actions = []
    new = RoundSheet(g.players)
    for line in lines:
        action = g.parse(line) if isinstance(line, str) else tuple(line)
        if action[1] not in ENTRY_VERBS:
            raise IllegalAction("edit: entries only")
        new.check(action, g.letters)
        new.add(action)
        actions.append(action)
    if ended:
        new.check_end()
    old_lines = g.entries(r)
    old = list(g.history)
    old_base = g._base
    text = None
    if old_base is not None:  # the base as lines while Game replays from it
        text = g._base = tuple(base_lines(g))
    try:
        g._to_base()
        in_base = len(g.sheets)
        if r <= in_base:  # ended before the history starts
            g.sheets[r - 1] = rd.pack(new.lines)
            g.scores[r - 1] = tuple(new.scores())
            history = old
        elif r == in_base + 1 and g.open is not None:  # opened before it
            g.open = new
            k = 0
            while k < len(old) and old[k][1] in ENTRY_VERBS:
                k += 1
            history = old[k:]
        else:
            g.history = old
            inside = g.open is not None
            opener, start, stop = _round_span(g, r, in_base + (1 if inside else 0), inside)
            head = old[:start]
            if opener is None:
                head.append((None, ROUND))
            history = head + actions + old[stop:]
            g.history = []
        if g._base is not None:
            g._base = tuple(g.checkpoint())
        g._replay(history)
    except IllegalAction:
        g._base = text
        g._replay(old)
        g._base = old_base
        raise
    if g._base is not None:  # compact again (StackDeck.rebase), from the head only
        g.rebase(0, g._base)
    return old_lines


def base_lines(g, b=None):
    """The checkpoint lines of the base (StackDeck.base_checkpoint): b (or g's
    compact base) written as the game writes a checkpoint, its first k ended rounds
    from g.sheets; a base kept as text (after restore) as it is."""
    b = g._base if b is None else b
    if b is None or type(b[0]) is str:
        return None if b is None else list(b)
    tokens = cp.head(g.NAME, g.players, b[0])
    for i in range(b[1]):
        tokens.append(" ".join(["r"] + [g.format(a) for a in rd.unpack(g.sheets[i])]))
    if b[2] is not None:
        tokens.append(" ".join(["open"] + [g.format(a) for a in rd.unpack(b[2])]))
    tokens.append(cp.END)
    return cp.pack(tokens)


def legal(g):
    """The lines the device can offer without knowing the cards: round, end,
    PX out (stack lines are too many to list)."""
    if g.over:
        return []
    out = []
    sheet = g.open
    if sheet is None:
        out.append((None, ROUND))
    for p in range(1, g.players + 1):
        if sheet is None or p not in sheet.out:
            out.append((p, rd.OUT))
    if sheet is not None:
        try:
            sheet.check_end()
            out.append((None, END))
        except IllegalAction:
            pass
    return out


def _sheet_state(g, sheet, r):
    from core.stackdeck.stacks import stack_name
    names = g.letters
    return {
        "round": r,
        "turned": [[stack_name(s, names) for s in stacks] for stacks in sheet.turned],
        "unturned": [[stack_name(s, names) for s in stacks] for stacks in sheet.unturned],
        "out": list(sheet.out),
        "scores": sheet.scores(),
    }


def state(g):
    r = g.current_round()
    played = len(g.scores)
    current = None
    if g.open is not None:
        current = _sheet_state(g, g.open, played + 1)
    return {
        "game": g.NAME,
        "players": g.players,
        "rounds_played": played,
        "rounds": [list(row) for row in g.scores],
        "totals": g.totals(),
        "dealer": None if r is None else g.dealer_of(r),
        "over": g.over,
        "winners": g.winners(),
        "first": None if r is None else g.first_of(r),
        "round_open": g.open is not None,
        "current": current,
        "out": [g.out_of(i + 1) for i in range(played)],
        "tally": g.tally_order(played) if played else [],
        "match_rounds": g.options["rounds"],
        "colours": g.letters,
        "colour_names": g.colour_names(),
        "moves": g.moves,
    }


# Checkpoint (STD-35) -------------------------------------------------------------

def _sheet_from(g, tokens):
    """A round's entry words -> its sheet, every entry checked as when pushed."""
    sheet = RoundSheet(g.players)
    start = 0
    for i in range(1, len(tokens) + 1):
        if i == len(tokens) or notation.is_player_token(tokens[i]):
            if not notation.is_player_token(tokens[start]):
                raise IllegalAction("checkpoint: entry without player")
            action = g.parse(tokens[start:i])
            if action[1] not in ENTRY_VERBS:
                raise IllegalAction("checkpoint: entries only")
            sheet.check(action, g.letters)
            sheet.add(action)
            start = i
    return sheet


def read(g, r):
    sheets = []
    stops = ("r", "open", cp.END)
    scores = []
    while r.peek() == "r":
        r.take()
        sheet = _sheet_from(g, r.until(stops))
        sheet.check_end()
        sheets.append(rd.pack(sheet.lines))
        scores.append(tuple(sheet.scores()))
        sheet = None
        if len(sheets) > g.options["rounds"]:
            raise IllegalAction("checkpoint: too many rounds")
    sheet = None
    if r.peek() == "open":
        r.take()
        sheet = _sheet_from(g, r.until(stops))
        if len(sheets) >= g.options["rounds"]:
            raise IllegalAction("checkpoint: round after the last")
    g.sheets = sheets
    g.scores = scores
    g.open = sheet
    g.over = len(sheets) >= g.options["rounds"]
