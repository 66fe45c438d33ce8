"""Stack the Deck through the public interface, on CPython (pytest) and MicroPython
(tests/portable/runner.py): the stack checker, single plays, the scorer, undo, edits,
transcripts and state JSON that does not depend on the interpreter. Plain asserts only.
"""

from core.stackdeck import stacks as st
from core.stackdeck import turn
from core import transcript
from core.errors import IllegalAction
from core.stackdeck import StackDeck
from tests.portable.harness import raises


class Lcg:
    """Numerical Recipes LCG: the same sequence everywhere (no `random` needed)."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF

    def below(self, n):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return (self.state >> 8) % n


def S(text):
    return st.parse_stack(text)


def random_stack(rng):
    """Near-miss shapes: a base number and small steps, two colours, some wilds."""
    base = rng.below(10) + 1
    colours = (rng.below(5), rng.below(5))
    out = []
    for _ in range(rng.below(3) + 1):
        if rng.below(4) == 0:
            out.append(st.WILD)
        else:
            n = (base - 1 + rng.below(5) - 2) % 10 + 1
            out.append(st.make(n, colours[rng.below(2)]))
    return tuple(out)


def random_line(rng, players):
    pick = rng.below(10)
    if pick == 0:
        return "round"
    if pick == 1:
        return "end"
    p = rng.below(players) + 1
    if pick == 2:
        return "P%d out" % p
    verb = "turned" if rng.below(2) else "unturned"
    stacks = [st.stack_name(random_stack(rng)) for _ in range(rng.below(2) + 1)]
    return "P%d %s %s" % (p, verb, " ".join(stacks))


def play_lines(players, seed, count=300, rounds=4):
    game = StackDeck(players, {"rounds": rounds})
    rng = Lcg(seed)
    snapshots = [game.to_json()]
    refused = 0
    for _ in range(count):
        line = random_line(rng, players)
        before = game.to_json()
        try:
            game.push(line)
        except IllegalAction as e:
            assert 0 < len(e.reason) <= 21, e.reason
            assert game.to_json() == before
            refused += 1
            continue
        snapshots.append(game.to_json())
    return game, snapshots, refused


def test_STD_1_the_deck_and_every_card_round_trip():
    deck = st.all_cards()
    assert len(deck) == 57 and deck.count(st.WILD) == 7
    for card in deck:
        assert st.parse_card(st.card_name(card)) == card
        assert st.parse_card(st.card_name(card).lower()) == card
        assert st.parse_card(st.card_name(card, "ABCDE"), "ABCDE") == card


def test_STD_7_and_STD_8_points():
    assert st.turned_points(S("4G-5G-6G")) == 20 and st.turned_points(S("3Y-4G-5B")) == 10
    assert st.turned_points(S("5R-5G")) == 5 and st.turned_points(S("7B-W")) == 10
    assert st.unturned_points(S("5R")) == -5 and st.unturned_points(S("W")) == -25
    assert st.unturned_points(S("7B-W")) == -25


def test_STD_9_wraps_and_standing():
    assert st.unturned_reason(S("2R-1R")) == "runs don't wrap 10-1"
    assert st.turned_reason(S("9R-10R-1R")) == "runs don't wrap 10-1"
    assert st.can_stand(S("7B-W")) and not st.can_stand(S("W-1R"))
    with raises(IllegalAction) as caught:
        st.check_unturned(S("5R-5G"))
    assert caught.value.reason == "pair is complete"


def test_STD_14_steals():
    assert turn.steal(S("4R-5R"), st.parse_card("6G")) == S("4R-5R-6G")
    with raises(IllegalAction) as caught:
        turn.steal(S("4R-W"), st.parse_card("6R"))
    assert caught.value.reason == "stack holds a wild"
    t = turn.Turn((st.parse_card("5R"), st.parse_card("9B")))
    with raises(IllegalAction) as caught:
        t.steal(st.parse_card("9B"), S("9G"))
    assert caught.value.reason == "play a card first"


def test_STD_25_contract_example_state():
    game, error = transcript.replay([
        "game stackdeck players 3", "round", "P1 turned 4G-5G-6G 7B-W", "P2 unturned 9R",
        "P1 out", "end", "round", "P1 turned 1R-1G 2Y-3Y-4B", "P2 turned 6P-7P-8P",
        "P3 turned 9Y-W", "P2 out", "end"])
    assert error is None
    assert game.to_json().startswith(
        '{"game": "stackdeck", "players": 3, "rounds_played": 2, "rounds": [[30, -5, 0], [15, 20, 10]], '
        '"totals": [45, 15, 10], "dealer": 3, "over": false, "winners": [], "first": 1, '
        '"round_open": false, "current": null, "out": [1, 2], "tally": [2, 3, 1], '
        '"match_rounds": 10, "colours": "RYGBP", '
        '"colour_names": ["Red", "Yellow", "Green", "Blue", "Purple"], "moves": 11}')


def test_STD_28_and_STD_30_random_lines_keep_totals_and_undo_retraces():
    for players, seed in ((2, 1), (3, 7), (4, 13)):
        game, snapshots, refused = play_lines(players, seed)
        assert refused and len(game.history) > 10
        s = game.state()
        assert s["totals"] == [sum([r[p] for r in s["rounds"]]) for p in range(players)]
        again, error = transcript.replay(transcript.write(game))
        assert error is None and again.to_json() == game.to_json()
        while game.history:
            assert game.to_json() == snapshots[len(game.history)]
            game.pop()
        assert game.to_json() == snapshots[0]


def test_STD_31_edit_round_keeps_the_transcript_replayable():
    game, error = transcript.replay([
        "game stackdeck players 2", "P1 turned 4G-5G-6G", "P1 out", "end",
        "P2 turned 1R-1G", "P2 out", "end"])
    assert error is None and game.totals() == [20, 5]
    old = game.edit_round(1, ["P1 turned 4G-5G-6G", "P2 unturned W", "P1 out"])
    assert old == ["P1 turned 4G-5G-6G", "P1 out"]
    assert game.totals() == [20, -20]
    again, error = transcript.replay(transcript.write(game))
    assert error is None and again.to_json() == game.to_json()
    before = game.to_json()
    with raises(IllegalAction) as caught:
        game.edit_round(2, ["P2 turned 1R-1G"])
    assert caught.value.reason == "nobody is out"
    assert game.to_json() == before


def test_STD_33_actions_round_trip():
    game = StackDeck(3, {"colours": "ABCDE"})
    rng = Lcg(5)
    for _ in range(200):
        line = random_line(rng, 3)
        for a, b in (("R", "A"), ("Y", "B"), ("G", "C"), ("B", "D")):
            line = line.replace(a, b)
        try:
            action = game.parse(line)
        except IllegalAction:
            continue
        assert game.parse(game.format(action)) == action
