"""Challenges settled by the table: `void` and `PX takes` (STR-32, STR-33, project
extension in seeds/stress.md)."""

import pytest

from core import jsonfmt
from core.errors import IllegalAction
from core.stress import Stress
from core.transcript import replay, write


def game_after(*lines, players=2):
    game, error = replay(["game stress players %d" % players] + list(lines))
    assert error is None, error
    return game


def refused(game, line, reason):
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.push(line)
    assert info.value.reason == reason
    assert game.to_json() == before


def test_STR_32_void_makes_the_call_count_for_nothing():
    g = game_after("centre 8C 3D", "start", "@1000 P1 down", "@1900 P2 down", "void")
    call = g.state()["calls"][0]
    assert call["winner"] == 1 and call["margin_us"] == 900 and call["loser"] is None
    assert call["ruling"] == "void" and call["final"] is False
    assert g.state()["call_pending"]  # void does not close the call: resume does
    g.push("resume")
    s = g.state()
    assert s["armed"] and s["calls"][0]["ruling"] == "void" and s["calls"][0]["final"]
    assert s["calls"][0]["loser"] is None


def test_STR_32_ordinary_calls_have_no_ruling_key():
    g = game_after("start", "@1000 P1 down", "@1900 P2 down", "resume")
    assert "ruling" not in g.state()["calls"][0]
    assert g.state()["calls"][0]["loser"] == 2


def test_STR_32_void_needs_a_waiting_call():
    refused(game_after(), "void", "game not started")
    refused(game_after("start"), "void", "no call to rule on")
    refused(game_after("start", "@5 P1 down", "resume"), "void", "no call to rule on")
    refused(game_after("start", "P1 out"), "void", "game is over")
    refused(game_after("start", "@5 P1 down"), "P1 void", "void takes no player")


def test_STR_33_takes_overrules_the_loser_for_good():
    g = game_after("start", "@1000 P1 down", "@1100 P3 down", players=3)
    assert g.state()["calls"][0]["loser"] == 2  # P2 has not pressed: absent, so last
    g.push("P3 takes")
    assert g.state()["calls"][0]["loser"] == 3
    g.push("@1200 P2 down")  # a later press no longer changes the ruled loser
    call = g.state()["calls"][0]
    assert call["loser"] == 3 and call["ruling"] == "P3 takes"
    g.push("resume")
    assert g.state()["calls"][0]["loser"] == 3 and g.state()["calls"][0]["final"]


def test_STR_33_a_tie_settled_by_the_table_and_the_last_ruling_counts():
    g = game_after("start", "@1000 P1 down", "@1200 P2 down")
    assert g.state()["calls"][0]["tie"] and g.state()["calls"][0]["loser"] is None
    g.push("void")
    g.push("P2 takes")
    call = g.state()["calls"][0]
    assert call["loser"] == 2 and call["ruling"] == "P2 takes" and call["winner"] is None
    g.push("P1 out")  # out closes the call with its ruling
    assert g.state()["calls"][0]["final"] and g.state()["calls"][0]["ruling"] == "P2 takes"
    refused(g, "P1 takes", "game is over")


def test_STR_33_takes_needs_a_player_and_a_waiting_call():
    refused(game_after("start"), "P1 takes", "no call to rule on")
    refused(game_after("start", "@5 P1 down"), "takes", "who takes? PX takes")
    refused(game_after("start", "@5 P1 down"), "P3 takes", "no player P3")


def test_STR_33_undo_and_round_trip_of_rulings():
    g = game_after("start", "@1000 P1 down", "@1900 P2 down")
    before = g.to_json()
    for line in ("void", "P1 takes"):
        g.push(line)
    assert g.history[-1] == g.parse("p1 TAKES")
    assert g.format(g.history[-1]) == "P1 takes" and g.format(g.history[-2]) == "void"
    g.pop()
    g.pop()
    assert g.to_json() == before
    g.push("P1 takes")
    g.push("resume")
    again, error = replay(write(g))
    assert error is None and jsonfmt.dumps(again.state()) == jsonfmt.dumps(g.state())
    for action in g.legal():
        assert g.parse(g.format(action)) == action


def test_STR_33_rulings_are_listed_as_legal_only_while_a_call_waits():
    g = Stress(2)
    g.push("start")
    assert (None, "void") not in g.legal()
    g.push("@10 P2 down")
    legal = g.legal()
    assert (None, "void") in legal and (1, "takes") in legal and (2, "takes") in legal
