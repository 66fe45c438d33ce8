"""Stack 31 through the public interface, on CPython (pytest) and MicroPython (runner).

Games here are played by a fixed pseudo-random chooser (an LCG, so both interpreters
pick exactly the same moves), then checked for: replay from the written transcript,
undo to any depth, notation round trips, and state JSON that does not depend on the
interpreter.
"""

from core import cards, jsonfmt, notation, transcript
from core.errors import IllegalAction
from core.stack31 import Stack31
from tests.portable.harness import raises


class Lcg:
    """Numerical Recipes LCG: the same sequence everywhere (no `random` needed)."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF

    def below(self, n):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return (self.state >> 8) % n


def play_out(players, seed, limit=400):
    """A whole game: the chooser prefers plays, then draws, then anything legal."""
    game = Stack31(players)
    rng = Lcg(seed)
    snapshots = [game.to_json()]
    while not game.over and len(game.history) < limit:
        legal = [a for a in game.legal() if a[1] != "dq"]
        plays = [a for a in legal if a[1] == "play"]
        draws = [a for a in legal if a[1] == "draw"]
        if plays and rng.below(3) == 0:
            action = plays[rng.below(len(plays))]
        elif draws and rng.below(4) != 0:
            action = draws[0]
        elif legal:
            action = legal[rng.below(len(legal))]
        else:
            action = (None, "dq")
        game.push(action)
        snapshots.append(game.to_json())
    return game, snapshots


def test_a_whole_game_ends():
    for seed in (1, 2, 3):
        game, _ = play_out(3, seed)
        assert game.over, seed
        state = game.state()
        assert state["to_move"] is None and state["winners"]


def test_replaying_the_written_transcript_gives_the_same_state():
    for players, seed in ((1, 7), (2, 11), (4, 5)):
        game, _ = play_out(players, seed)
        again, error = transcript.replay(transcript.write(game))
        assert error is None, error
        assert again.to_json() == game.to_json()
        assert again.history == game.history


def test_undo_to_any_depth_retraces_every_state():
    game, snapshots = play_out(3, 42)
    assert len(snapshots) == len(game.history) + 1
    while game.history:
        assert game.to_json() == snapshots[len(game.history)]
        game.pop()
    assert game.to_json() == snapshots[0]
    with raises(IllegalAction) as caught:
        game.pop()
    assert caught.value.reason == "nothing to undo"


def test_every_legal_action_round_trips_through_notation():
    game, _ = play_out(2, 9, limit=12)
    for action in game.legal():
        line = game.format(action)
        assert game.parse(line) == action, line
        assert game.parse(line.upper()) == action, line


def test_every_card_round_trips():
    for card in cards.all_cards():
        assert cards.parse(cards.name(card)) == card
        assert cards.parse(cards.name(card).lower()) == card
    assert cards.parse("TD") == cards.parse("10D")


def test_an_illegal_line_leaves_the_state_and_gives_the_reason():
    game, error = transcript.replay(["game stack31 players 2", "draw", "draw",
                                     "P1 play KH", "P2 play KH", "P1 draw"])
    assert error == (5, "KH already shown")
    assert game.to_json() == transcript.replay(["game stack31 players 2", "draw", "draw",
                                                "P1 play KH"])[0].to_json()
    before = game.to_json()
    for line, reason in (("P1 play 5H", "not P1's turn"), ("play 11H", "bad card: 11H"),
                         ("fly", "unknown: fly"), ("P9 draw", "no player P9")):
        with raises(IllegalAction) as caught:
            game.push(line)
        assert caught.value.reason == reason
        assert str(caught.value) == reason
        assert game.to_json() == before


def test_the_state_json_is_the_contract_example():
    game, error = transcript.replay(["game stack31 players 3", "P1 draw", "draw", "P3 draw",
                                     "P1 play KH", "P2 play 9S"])
    assert error is None
    assert game.to_json().startswith(
        '{"game": "stack31", "players": 3, "to_move": 3, "deck": 49, "hands": [0, 0, 1], '
        '"piles": {"H": {"value": 31, "owner": 1, "conquered": true}, '
        '"D": {"value": 0, "owner": null, "conquered": false}, '
        '"C": {"value": 0, "owner": null, "conquered": false}, '
        '"S": {"value": 9, "owner": 2, "conquered": false}}, '
        '"disqualified": [], "over": false, "piles_won": [1, 0, 0], "winners": []')


def test_tokens_and_headers():
    assert notation.tokenize("  P1  play 7H   # note") == ["P1", "play", "7H"]
    assert notation.tokenize("# only a comment") == []
    assert notation.parse_header(["GAME", "Stack31", "Players", "3"]) == ("stack31", 3)
    assert notation.parse_int("-12") == -12
    with raises(IllegalAction):
        notation.parse_int("1-2")


def test_jsonfmt_bytes_do_not_depend_on_insertion_order():
    a = {}
    b = {}
    keys = ["zeta", "alpha", "mid", "b", "a", "x", "y", "q", "k10", "k2"]
    for k in keys:
        a[k] = len(k)
    for k in reversed(keys):
        b[k] = len(k)
    assert jsonfmt.dumps(a) == jsonfmt.dumps(b)
    assert jsonfmt.dumps(a, ("x", "zeta")).startswith('{"x": 1, "zeta": 4, "a": 1, "alpha": 5')
    assert jsonfmt.dumps({"s": 'q"\\\n\x01\u00e9', "n": None, "t": True, "l": [-3, (1, 2)]}) == (
        '{"l": [-3, [1, 2]], "n": null, "s": "q\\"\\\\\\n\\u0001\\u00e9", "t": true}')
