"""The contract's replay command: output, error line, exit codes (python -m host_sim replay)."""

import json
import os
import subprocess
import sys

from hypothesis import given, settings, strategies as hs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(args, stdin=None):
    proc = subprocess.run([sys.executable, "-m", "host_sim", "replay"] + args, cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


GAME = """game stack31 players 3
# a comment line, then a blank one

P1 draw
draw            # P2, implied
P3 draw
P1 play KH
P2 play 9S
"""


def test_a_good_transcript_prints_the_state_and_exits_0():
    code, out, err = run(["-"], GAME)
    assert code == 0 and err == ""
    state = json.loads(out)
    assert state["game"] == "stack31" and state["players"] == 3
    assert state["to_move"] == 3 and state["deck"] == 49 and state["hands"] == [0, 0, 1]
    assert state["piles"]["H"] == {"value": 31, "owner": 1, "conquered": True}
    assert state["piles"]["S"] == {"value": 9, "owner": 2, "conquered": False}
    assert state["disqualified"] == [] and state["over"] is False
    assert state["piles_won"] == [1, 0, 0] and state["winners"] == []
    assert out.endswith("\n") and out.count("\n") == 1


def test_the_first_bad_line_stops_with_the_state_before_it(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(GAME + "P3 play 5H\nP1 draw\n")
    code, out, err = run([str(path)])
    assert code == 2
    assert err == "line 9: pile H would pass 31\n"
    good_code, good_out, _ = run(["-"], GAME)
    assert out == good_out


def test_line_numbers_count_the_header_blank_lines_and_comments():
    code, _, err = run(["-"], "\n# notes\ngame stack31 players 2\n\nP2 draw\n")
    assert code == 2 and err == "line 5: not P2's turn\n"


def test_malformed_lines_are_reported_like_illegal_ones():
    for line, reason in (("P1 fly", "unknown: fly"), ("play 11H", "bad card: 11H"),
                         ("play", "play needs one card"), ("discard sideways 7H", "discard up or down?"),
                         ("P0 draw", "no player P0"), ("option", "option KEY VALUE")):
        code, out, err = run(["-"], "game stack31 players 2\n" + line + "\n")
        assert code == 2 and err == "line 2: %s\n" % reason, line
        assert json.loads(out)["deck"] == 52


def test_keywords_and_cards_are_case_insensitive():
    code, out, _ = run(["-"], "GAME Stack31 PLAYERS 2\np1 DRAW\nP2 Draw\nP1 PLAY qh\np2 Discard UP tc\n")
    assert code == 0
    state = json.loads(out)
    assert state["discarded_up"] == ["10C"] and state["piles"]["H"]["owner"] == 1


def test_no_header_or_unreadable_file_gives_no_json(tmp_path):
    for text, message in (("", "no header"), ("draw\n", "line 1: header must be"),
                          ("game chess players 2\n", "line 1: unknown game chess"),
                          ("game stack31 players 9\n", "line 1: stack31: 1 to 8 players")):
        code, out, err = run(["-"], text)
        assert code == 2 and out == "" and message in err, text
    code, out, err = run([str(tmp_path / "missing.txt")])
    assert code == 2 and out == "" and "cannot read" in err
    binary = tmp_path / "garbage.bin"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    code, out, err = run([str(binary)])
    assert code == 2 and out == ""


def test_usage_error():
    code, out, err = run([])
    assert code == 2 and out == "" and "usage" in err


# Bad input never crashes the replay (issue 11) ---------------------------------------------

def run_bytes(data):
    proc = subprocess.run([sys.executable, "-m", "host_sim", "replay", "-"], cwd=ROOT,
                          input=data, capture_output=True, timeout=60)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def test_a_unicode_digit_is_a_refused_line_not_a_crash():
    code, out, err = run_bytes(b"game stack31 players 2\nP\xc2\xb2 draw\n")
    assert code == 2 and err.startswith("line 2: ")
    assert json.loads(out)["moves"] == 0


def test_a_huge_number_is_a_refused_line():
    code, out, err = run_bytes(b"game stress players 2\nstart\n@" + b"9" * 5000 + b" P1 down\n")
    assert code == 2 and err.startswith("line 3: bad time: ") and len(err) < 60
    assert json.loads(out)["on"] is True


def test_a_line_that_is_not_utf8_stops_with_the_state_before_it(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(b"game stack31 players 2\nP1 draw\nP2 dr\xffaw\nP1 draw\n")
    code, out, err = run([str(path)])
    assert code == 2 and err == "line 3: not text\n"
    assert json.loads(out)["moves"] == 1


def test_a_header_that_is_not_utf8_is_reported_by_line():
    code, out, err = run_bytes(b"game st\xc3ack31 players 2\n")
    assert code == 2 and err == "line 1: not text\n" and out == ""


def test_a_byte_order_mark_is_accepted():
    code, out, err = run_bytes(b"\xef\xbb\xbfgame stack31 players 2\r\nP1 draw\r\n")
    assert code == 0 and err == ""
    assert json.loads(out)["moves"] == 1


WORDS = ["P1", "P2", "P3", "P9", "p\u00b2", "draw", "play", "discard", "up", "down", "pass",
         "dq", "7H", "KS", "10D", "\u0663H", "round", "end", "turned", "unturned", "out",
         "counts", "4G-5G-6G", "W", "1", "0", "2", "centre", "start", "resume", "void",
         "takes", "@1000", "@99999999999999", "@\u00b2", "option", "games", "rounds",
         "hand_limit", "9" * 50, "", "#", "\u00e9", "-1"]


@settings(max_examples=300, deadline=None)
@given(hs.sampled_from(["stack31", "stackdeck", "stress"]), hs.integers(1, 5),
       hs.lists(hs.lists(hs.one_of(hs.sampled_from(WORDS), hs.text(max_size=4)), max_size=5),
                max_size=12))
def test_any_lines_replay_to_a_state_or_a_refusal(name, players, lines):
    from core.transcript import TranscriptError, replay
    text = ["game %s players %d" % (name, players)] + [" ".join(words) for words in lines]
    try:
        game, error = replay(text)
    except TranscriptError:
        return
    game.to_json()
    if error is not None:
        assert error[1]
