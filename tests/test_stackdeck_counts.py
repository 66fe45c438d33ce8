"""STD-34: the counts line (a project extension): `PX counts PAIRS CPAIRS RUNS CRUNS
UNTURNED WILDS`, scored exactly like the equivalent stacks."""

import pytest

from core import transcript
from core.errors import IllegalAction
from core.stackdeck import StackDeck


def refused(g, line):
    before = g.state()
    with pytest.raises(IllegalAction) as e:
        g.push(line)
    assert g.state() == before
    return e.value.reason


def test_STD_34_counts_score_like_the_equivalent_stacks():
    g = StackDeck(3)
    g.push("P1 counts 1 1 1 1 0 0")  # 5 + 10 + 10 + 20
    g.push("P2 counts 0 0 0 0 2 1")  # -5 -5 -20
    g.push("P3 turned 4G-5G-6G")
    assert g.provisional() == [45, -30, 20]
    named = StackDeck(3)
    named.push("P1 turned 1R-1Y 2G-W 3R-4Y-5Y 6B-7B-8B")
    named.push("P2 unturned 9R W")
    named.push("P3 turned 4G-5G-6G")
    assert named.provisional() == g.provisional()
    g.push("P1 out")
    g.push("end")
    assert g.totals() == [45, -30, 20] and g.state()["rounds"] == [[45, -30, 20]]


def test_STD_34_counts_repeat_add_and_undo():
    g = StackDeck(2)
    g.push("P1 counts 1 0 0 0 0 0")
    g.push("p1 COUNTS 0 0 1 0 0 0")
    assert g.provisional() == [15, 0]
    g.pop()
    assert g.provisional() == [5, 0]
    g.pop()
    assert g.provisional() is None and not g.state()["round_open"]


def test_STD_34_notation_round_trip():
    g = StackDeck(4)
    a = g.parse("P4 counts 0 1 2 3 4 5")
    assert a[1] == "counts" and a[2] == (0, 1, 2, 3, 4, 5)
    assert g.format(a) == "P4 counts 0 1 2 3 4 5"
    assert g.parse(g.format(a)) == a


@pytest.mark.parametrize("line, reason", [
    ("P1 counts 1 0 0 0 0", "counts: 6 numbers"),
    ("P1 counts 1 0 0 0 0 0 0", "counts: 6 numbers"),
    ("P1 counts 1 0 x 0 0 0", "counts: 6 numbers"),
    ("P1 counts 1 0 -1 0 0 0", "counts: 6 numbers"),
    ("P1 counts 58 0 0 0 0 0", "counts: 6 numbers"),
    ("counts 1 0 0 0 0 0", "name the player first"),
])
def test_STD_34_malformed_counts(line, reason):
    with pytest.raises(IllegalAction) as e:
        StackDeck(2).parse(line)
    assert e.value.reason == reason


@pytest.mark.parametrize("lines, line, reason", [
    ([], "P1 counts 0 0 0 0 0 0", "nothing counted"),
    ([], "P1 counts 0 0 0 0 1 3", "2 W per unturned max"),
    ([], "P1 counts 0 8 0 0 0 0", "more than 7 wilds"),
    (["P2 unturned W W W"], "P1 counts 0 1 0 0 2 4", "more than 7 wilds"),
    (["P1 counts 0 0 0 0 4 7"], "P2 unturned W", "more than 7 wilds"),
    ([], "P1 counts 20 0 0 0 0 0", None),
    (["P1 counts 20 0 0 0 0 0"], "P2 counts 0 0 6 0 0 0", "more than 57 cards"),
    (["P1 counts 0 0 19 0 0 0"], "P2 turned 1R-1Y", "more than 57 cards"),
])
def test_STD_34_what_counts_prove_is_checked(lines, line, reason):
    g = StackDeck(2)
    for x in lines:
        g.push(x)
    if reason is None:
        g.push(line)
    else:
        assert refused(g, line) == reason


def test_STD_34_out_player_with_counted_unturned_cannot_end():
    g = StackDeck(2)
    g.push("P1 counts 1 0 0 0 1 0")
    g.push("P1 out")
    assert refused(g, "end") == "P1 out, has unturned"
    g.pop()
    g.push("P2 out")
    g.push("end")
    assert g.totals() == [0, 0]


def test_STD_34_edit_round_with_counts_and_transcript_replays():
    g = StackDeck(2, {"rounds": 2})
    for line in ("round", "P1 turned 4G-5G-6G", "P1 out", "end", "P2 counts 0 0 1 0 0 0", "P2 out", "end"):
        g.push(line)
    assert g.totals() == [20, 10] and g.over
    old = g.edit_round(1, ["P1 counts 2 0 0 0 0 0", "P2 counts 0 0 0 0 1 1", "P1 out"])
    assert old == ["P1 turned 4G-5G-6G", "P1 out"]
    assert g.totals() == [10, -15] and g.entries(1)[0] == "P1 counts 2 0 0 0 0 0"
    again, error = transcript.replay(transcript.write(g))
    assert error is None and again.state() == g.state()
    with pytest.raises(IllegalAction) as e:
        g.edit_round(1, ["P1 counts 0 0 0 0 1 0", "P1 out"])
    assert e.value.reason == "P1 out, has unturned" and g.totals() == [10, -15]


def test_STD_34_count_points_are_the_checkers_points():
    # core.stackdeck.counts writes them out so that a match by counters never loads
    # the stack checker; they must stay the checker's own.
    from core.stackdeck import counts as ct
    from core.stackdeck import sheet as rd
    from core.stackdeck import stacks as st
    assert ct.POINTS == (st.PAIR_POINTS, st.PAIR_ONE_COLOUR_POINTS, st.RUN_POINTS,
                         st.RUN_ONE_COLOUR_POINTS, st.UNTURNED_POINTS, st.UNTURNED_WILD_POINTS)
    assert (rd.WILD, rd.DECK_WILDS, rd.DECK_SIZE) == (st.WILD, st.DECK_WILDS, st.DECK_SIZE)
