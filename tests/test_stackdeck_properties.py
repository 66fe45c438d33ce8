"""Property tests for Stack the Deck: order of a round's lines, totals, undo, illegal
lines, notation round trips, edits (rules STD-6, STD-23, STD-25, STD-28, STD-30, STD-31,
STD-33), and the stack checker against a brute-force oracle."""

from hypothesis import given, settings, strategies as hs

from core.stackdeck import stacks as st
from core import transcript
from core.errors import IllegalAction
from core.stackdeck import StackDeck


# An independent oracle: try every reading of the wilds -----------------------------------

def _readings(stack):
    """Every (numbers, colours) the wilds could stand for."""
    colours = sorted(set(st.colour(c) for c in stack if c != st.WILD)) or [0]
    out = [([], [])]
    for c in stack:
        nxt = []
        for nums, cols in out:
            if c == st.WILD:
                for n in range(1, 11):
                    for k in colours:
                        nxt.append((nums + [n], cols + [k]))
            else:
                nxt.append((nums + [st.number(c)], cols + [st.colour(c)]))
        out = nxt
    return out


def oracle_points(stack):
    """Best turned points over all readings, or None when no reading is complete."""
    best = None
    for nums, cols in _readings(stack):
        same = len(set(cols)) == 1
        pts = None
        if len(nums) == 2 and nums[0] == nums[1]:
            pts = 10 if same else 5
        elif len(nums) == 3 and nums[1] - nums[0] in (1, -1) and nums[2] - nums[1] == nums[1] - nums[0]:
            pts = 20 if same else 10
        if pts is not None and (best is None or pts > best):
            best = pts
    return best


def oracle_stands(stack):
    if len(stack) == 1:
        return True
    if len(stack) != 2:
        return False
    for nums, _ in _readings(stack):
        d = nums[1] - nums[0]
        if d in (1, -1) and 1 <= nums[1] + d <= 10:
            return True
    return False


any_card = hs.one_of(hs.integers(0, 49), hs.just(st.WILD))


@hs.composite
def near_stack(draw):
    """Cards whose numbers sit close together in two colours: the shapes that matter."""
    base = draw(hs.integers(1, 10))
    colours = draw(hs.lists(hs.integers(0, 4), min_size=1, max_size=2))
    out = []
    for _ in range(draw(hs.integers(1, 4))):
        if draw(hs.integers(0, 3)) == 0:
            out.append(st.WILD)
        else:
            n = (base - 1 + draw(hs.integers(-2, 2))) % 10 + 1
            out.append(st.make(n, draw(hs.sampled_from(colours))))
    return tuple(out)


any_stack = hs.one_of(hs.lists(any_card, min_size=1, max_size=3).map(tuple), near_stack())


@settings(max_examples=400, deadline=None)
@given(any_stack)
def test_STD_6_checker_agrees_with_the_brute_force_oracle(stack):
    best = oracle_points(stack)
    if best is None:
        assert st.complete_kind(stack) is None
        reason = st.turned_reason(stack)
        assert reason and len(reason) <= 21
    else:
        assert st.turned_reason(stack) is None and st.turned_points(stack) == best
    stands = oracle_stands(stack)
    assert st.can_stand(stack) == stands
    if stands:
        assert st.unturned_points(stack) == -5 - 20 * stack.count(st.WILD)
    else:
        reason = st.unturned_reason(stack)
        assert reason and len(reason) <= 21


def test_STD_6_checker_agrees_with_the_oracle_on_every_short_stack_of_two_colours():
    cards = [st.make(n, c) for n in range(1, 11) for c in (0, 1)] + [st.WILD]
    stacks = [(a,) for a in cards] + [(a, b) for a in cards for b in cards]
    stacks += [(a, b, c) for a in cards for b in cards for c in cards]
    for stack in stacks:
        best = oracle_points(stack)
        assert st.complete_kind(stack) is None if best is None else st.turned_points(stack) == best, stack
        assert st.can_stand(stack) == oracle_stands(stack), stack


# Valid rounds ------------------------------------------------------------------------------

@hs.composite
def a_stack(draw, used, wilds):
    """(verb, stack) that fits a round where `used` cards and `wilds` wilds are taken."""
    kind = draw(hs.sampled_from(["pair", "run", "single", "start"]))
    d = draw(hs.sampled_from([1, -1]))
    if kind in ("run", "start"):
        lo, hi = (1, 8) if d == 1 else (3, 10)
        n = draw(hs.integers(lo, hi))
        nums = [n, n + d, n + 2 * d][: 3 if kind == "run" else 2]
    else:
        n = draw(hs.integers(1, 10))
        nums = [n, n] if kind == "pair" else [n]
    stack = []
    for num in nums:
        if wilds[0] < 7 and draw(hs.integers(0, 5)) == 0:
            wilds[0] += 1
            stack.append(st.WILD)
            continue
        card = st.make(num, draw(hs.integers(0, 4)))
        if card in used or card in stack:
            return None
        stack.append(card)
    for c in stack:
        if c != st.WILD:
            used.add(c)
    return ("turned" if kind in ("pair", "run") else "unturned", tuple(stack))


@hs.composite
def a_round(draw, players):
    """The entry lines of a legal round (as actions), and its expected scores."""
    used, wilds = set(), [0]
    out = draw(hs.integers(1, players))
    actions, scores = [], [0] * players
    for p in range(1, players + 1):
        stacks = {"turned": [], "unturned": []}
        for _ in range(draw(hs.integers(0, 4))):
            got = draw(a_stack(used, wilds))
            if got is None or (p == out and got[0] == "unturned"):
                continue
            stacks[got[0]].append(got[1])
        for verb in ("turned", "unturned"):
            group = stacks[verb]
            while group:
                k = draw(hs.integers(1, len(group)))
                actions.append((p, verb, tuple(group[:k])))
                group = group[k:]
        for s in stacks["turned"]:
            scores[p - 1] += oracle_points(s)
        for s in stacks["unturned"]:
            scores[p - 1] += -5 - 20 * s.count(st.WILD)
    actions.append((out, "out"))
    return actions, scores


@settings(max_examples=150, deadline=None)
@given(hs.integers(2, 4).flatmap(lambda n: hs.tuples(hs.just(n), a_round(n))), hs.randoms())
def test_STD_25_a_rounds_score_does_not_depend_on_line_order(case, rnd):
    players, (actions, expected) = case
    scores = []
    for _ in range(3):
        order = list(actions)
        rnd.shuffle(order)
        g = StackDeck(players)
        g.push("round")
        for a in order:
            g.push(a)
        g.push("end")
        scores.append(g.round_scores(1))
    assert scores[0] == scores[1] == scores[2] == expected


# Random lines, legal or not ----------------------------------------------------------------

WORDS = ["round", "end", "P1 out", "P2 out", "P3 out", "P4 out", "P1 flip", "P5 out"]


@hs.composite
def a_line(draw, players):
    if draw(hs.integers(0, 1)) == 0:
        return draw(hs.sampled_from(WORDS))
    p = draw(hs.integers(1, players))
    verb = draw(hs.sampled_from(["turned", "unturned"]))
    stacks = draw(hs.lists(any_stack, min_size=1, max_size=3))
    return "P%d %s %s" % (p, verb, " ".join(st.stack_name(s) for s in stacks))


def run_lines(players, lines, rounds=3):
    g = StackDeck(players, {"rounds": rounds})
    snapshots = [g.to_json()]
    for line in lines:
        before = g.to_json()
        try:
            g.push(line)
        except IllegalAction as e:
            assert e.reason and len(e.reason) <= 21, e.reason
            assert g.to_json() == before  # STD-30: an illegal line changes nothing
            continue
        snapshots.append(g.to_json())
    return g, snapshots


@settings(max_examples=150, deadline=None)
@given(hs.integers(2, 4).flatmap(lambda n: hs.tuples(hs.just(n), hs.lists(a_line(n), max_size=60))))
def test_STD_30_illegal_changes_nothing_and_undo_restores_exactly(case):
    players, lines = case
    g, snapshots = run_lines(players, lines)
    assert len(snapshots) == len(g.history) + 1
    for expected in reversed(snapshots[:-1]):
        g.pop()
        assert g.to_json() == expected


@settings(max_examples=100, deadline=None)
@given(hs.integers(2, 4).flatmap(lambda n: hs.tuples(hs.just(n), hs.lists(a_round(n), min_size=1, max_size=4))),
       hs.lists(hs.integers(0, 2), max_size=6))
def test_STD_28_totals_always_equal_the_sum_of_rounds(case, undos):
    players, rounds = case
    g = StackDeck(players, {"rounds": 4})
    for actions, expected in rounds:
        for a in actions:
            g.push(a)
        g.push("end")
        assert g.round_scores(len(g.scores)) == expected
        s = g.state()
        assert s["totals"] == [sum(row[p] for row in s["rounds"]) for p in range(players)]
    for n in undos:
        for _ in range(min(n, len(g.history))):
            g.pop()
        s = g.state()
        assert s["totals"] == [sum(row[p] for row in s["rounds"]) for p in range(players)]
        assert s["rounds_played"] == len(s["rounds"])


@settings(max_examples=60, deadline=None)
@given(hs.integers(2, 4).flatmap(lambda n: hs.tuples(hs.just(n), hs.lists(a_round(n), min_size=2, max_size=4),
                                                       a_round(n))), hs.data())
def test_STD_31_an_edit_equals_having_entered_the_round_that_way(case, data):
    players, rounds, replacement = case
    r = data.draw(hs.integers(1, len(rounds)))
    g = StackDeck(players)
    for actions, _ in rounds:
        for a in actions:
            g.push(a)
        g.push("end")
    g.edit_round(r, replacement[0])
    fresh = StackDeck(players)
    for i, (actions, _) in enumerate(rounds):
        fresh.push("round")
        for a in (replacement[0] if i + 1 == r else actions):
            fresh.push(a)
        fresh.push("end")
    state = g.state()
    assert g.round_scores(r) == replacement[1]
    assert state["totals"] == fresh.state()["totals"]
    assert state["rounds"] == fresh.state()["rounds"]
    again, error = transcript.replay(transcript.write(g))
    assert error is None and again.to_json() == g.to_json()


@hs.composite
def an_action(draw, players):
    kind = draw(hs.sampled_from(["round", "end", "out", "turned", "unturned"]))
    if kind in ("round", "end"):
        return (None, kind)
    p = draw(hs.integers(1, players))
    if kind == "out":
        return (p, "out")
    return (p, kind, tuple(draw(hs.lists(any_stack, min_size=1, max_size=4))))


@settings(max_examples=300, deadline=None)
@given(hs.integers(2, 4).flatmap(lambda n: hs.tuples(hs.just(n), an_action(n))),
       hs.sampled_from(["RYGBP", "ABCDE", "QRSTU", "PBRGY"]))
def test_STD_33_format_parse_round_trip_of_every_action(case, letters):
    players, action = case
    g = StackDeck(players, {"colours": letters})
    line = g.format(action)
    assert g.parse(line) == action
    assert g.parse(line.lower()) == action  # keywords and cards are case-insensitive
