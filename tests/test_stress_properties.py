"""Property tests for Stress (hypothesis): the arbiter against a plain reference written
straight from the contract's words, delivery-order independence (STR-21), undo and
illegal lines (STR-22), round trips (STR-23)."""

from hypothesis import given, settings, strategies as st

from core.errors import IllegalAction
from core.stress import Stress
from core.stress.arbiter import TICKS_MAX, TICKS_PERIOD, Arbiter

DEBOUNCE = 20000
TIE = 500
SLOW = 1000000
SPAN = 10000000  # every stamp within 10 s of the others: well inside 2**27 us


def reference(players, arm_at, edges):
    """The contract, read literally, on unwrapped times. edges: (t, button, closed), in
    delivery order with each button's own edges in order. Returns the decision."""
    closed = [False] * players
    opened = [None] * players  # None: never pressed, settled open
    first_press = [None] * players
    for t, b, is_down in edges:
        if not is_down:
            closed[b] = False
            opened[b] = t
            continue
        if closed[b]:
            continue
        closed[b] = True
        if opened[b] is not None and t - opened[b] < DEBOUNCE:
            continue
        if t >= arm_at and first_press[b] is None:
            first_press[b] = t
    pressed = sorted((t, b) for b, t in enumerate(first_press) if t is not None)
    if not pressed:
        return (None, False, None, None)
    first_t, first_b = pressed[0]
    margin = pressed[1][0] - first_t if len(pressed) > 1 else None
    tie = margin is not None and margin <= TIE
    winner = None if tie else first_b
    in_time = [(t, b) for t, b in pressed if t - first_t <= SLOW]
    absent = [b for b in range(players) if b not in [x[1] for x in in_time]]
    if len(absent) >= 2:
        loser = None
    elif len(absent) == 1:
        loser = absent[0]
    elif in_time[-1][0] - in_time[-2][0] <= TIE:
        loser = None
    else:
        loser = in_time[-1][1]
    return (winner, tie, margin, loser)


def decide(players, base, arm_at, edges):
    a = Arbiter(players, DEBOUNCE, TIE, SLOW, now=base & TICKS_MAX)
    a.arm(arm_at & TICKS_MAX)
    for t, b, is_down in edges:
        a.edge(b, is_down, t & TICKS_MAX)
    return (a.winner(), a.tie(), a.margin_us(), a.loser())


@st.composite
def button_runs(draw):
    """Per button: a list of (t, closed) in time order, with bounce-like short gaps and
    human-like long ones, all within SPAN of a base placed anywhere, near a wrap too."""
    players = draw(st.integers(2, 4))
    base = draw(st.one_of(st.integers(0, 3 * TICKS_PERIOD),
                          st.integers(TICKS_PERIOD - SPAN, TICKS_PERIOD)))
    runs = []
    for b in range(players):
        t = base + draw(st.integers(0, SPAN // 2))
        down = draw(st.booleans())
        run = []
        for _ in range(draw(st.integers(0, 8))):
            run.append((t, b, down))
            down = not down if draw(st.integers(0, 9)) else down  # now and then a repeat
            t += draw(st.one_of(st.integers(0, 3), st.integers(0, 30000), st.integers(0, 400000)))
            t = min(t, base + SPAN)
        runs.append(run)
    arm_at = base + draw(st.integers(0, SPAN // 4))
    return players, base, arm_at, runs


def interleave(draw, runs):
    runs = [list(r) for r in runs]
    out = []
    while any(runs):
        choices = [i for i, r in enumerate(runs) if r]
        i = draw(st.sampled_from(choices))
        out.append(runs[i].pop(0))
    return out


@settings(max_examples=400, deadline=None)
@given(button_runs(), st.data())
def test_STR_21_the_decision_never_depends_on_the_delivery_order(case, data):
    """Any interleaving of the buttons' edge sequences gives the reference's decision:
    time order with equal stamps broken either way, or no time order at all."""
    players, base, arm_at, runs = case
    by_time = sorted((e for r in runs for e in r), key=lambda e: (e[0], e[1]))
    by_time_rev = sorted((e for r in runs for e in r), key=lambda e: (e[0], -e[1]))
    expected = reference(players, arm_at, by_time)
    assert decide(players, base, arm_at, by_time) == expected
    assert decide(players, base, arm_at, by_time_rev) == expected
    assert decide(players, base, arm_at, interleave(data.draw, runs)) == expected


@settings(max_examples=200, deadline=None)
@given(button_runs(), st.permutations(range(4)))
def test_STR_21_the_notation_agrees_whatever_order_equal_stamps_come_in(case, perm):
    """Transcripts in time order (T never goes back) that differ only in the order of
    equal-stamped edges of different buttons give the same calls, the reference's."""
    players, _, _, runs = case
    edges = [e for r in runs for e in r]  # grouped by button, each in its own order
    results = []
    for rank in (lambda b: b, lambda b: -b, lambda b: perm[b]):
        g = Stress(players)
        g.push("start")
        ordered = sorted(edges, key=lambda e: (e[0], rank(e[1])))  # stable: own order kept
        for t, b, is_down in ordered:
            g.push("@%d P%d %s" % (t, b + 1, "down" if is_down else "up"))
        results.append([(c["winner"], c["tie"], c["margin_us"], c["loser"])
                        for c in g.state()["calls"]])
    w, tie, margin, loser = reference(players, 0, sorted(edges, key=lambda e: (e[0], e[1])))
    one_based = (None if w is None else w + 1, tie, margin, None if loser is None else loser + 1)
    expected = [one_based] if w is not None or tie else []
    assert results[0] == results[1] == results[2] == expected


CANDIDATES = ["centre 8C 8D", "centre 9H KS", "centre 2C 2C", "start", "resume", "P1 out",
              "P2 out", "P3 out", "P1 play 9H 1", "P2 play 7S 1", "P1 play AS 2", "P2 play QD 2",
              "P1 play 10D 1", "P2 play 3C 2", "bogus", "P1 play 8C 1"]


@st.composite
def scripts(draw):
    lines = []
    t = draw(st.integers(0, TICKS_PERIOD * 2))
    for _ in range(draw(st.integers(0, 40))):
        if draw(st.integers(0, 2)):
            lines.append(draw(st.sampled_from(CANDIDATES)))
        else:
            t += draw(st.one_of(st.integers(0, 3), st.integers(0, 50000), st.integers(-5, 1000000)))
            p = draw(st.integers(1, 3))
            lines.append("@%d P%d %s" % (t, p, draw(st.sampled_from(["down", "up"]))))
    return lines


@settings(max_examples=300, deadline=None)
@given(scripts(), st.integers(2, 3))
def test_STR_22_undo_restores_exactly_and_illegal_lines_change_nothing(lines, players):
    g = Stress(players)
    snaps = [(g.to_json(), g.arbiter.save())]
    for line in lines:
        before = (g.to_json(), g.arbiter.save(), len(g.history))
        try:
            g.push(line)
        except IllegalAction as e:
            assert e.reason and len(e.reason) <= 30
            assert (g.to_json(), g.arbiter.save(), len(g.history)) == before
            continue
        snaps.append((g.to_json(), g.arbiter.save()))
    while g.history:
        g.pop()
        snaps.pop()
        assert (g.to_json(), g.arbiter.save()) == snaps[-1]


@settings(max_examples=300, deadline=None)
@given(scripts(), st.integers(2, 3))
def test_STR_23_format_parse_round_trip_and_replay(lines, players):
    g = Stress(players)
    for line in lines:
        try:
            g.push(line)
        except IllegalAction:
            pass
    for action in g.history + g.legal():
        assert g.parse(g.format(action)) == action
    again = Stress(players)
    for action in g.history:
        again.push(g.format(action))
    assert again.to_json() == g.to_json()
    for action in g.legal():
        assert g.is_legal(action), action
