"""MicroPython-vs-CPython differences that bite, pinned as executable facts.

Every test passes on both interpreters. Where the two agree, the test states what the
core relies on; where they differ, the test states both answers, so that whoever
reads it knows the trap (and hears about it if a new interpreter changes it).
"""

import json

from core import jsonfmt
from core.errors import IllegalAction
from tests.portable.harness import IS_MICROPYTHON, raises


def test_floor_division_and_modulo_of_negatives_round_down():
    assert -7 // 2 == -4 and -7 % 2 == 1
    assert 7 // -2 == -4 and 7 % -2 == -1
    assert divmod(-7, 3) == (-3, 2)
    assert (-1 - 1) % 8 == 6  # turn order wrapping backwards
    assert -(2 ** 70) // 3 == -393530540239137101142  # big ints too
    assert int(-3.7) == -3 and round(2.5) == 2 and round(-2.5) == -2


def test_string_methods_the_core_may_use():
    assert "a,b,,c".split(",") == ["a", "b", "", "c"]
    assert "  a  b ".split() == ["a", "b"]
    assert "a b c".split(None, 1) == ["a", "b c"]
    assert "x".rsplit("x") == ["", ""]
    assert "p1".upper() == "P1" and "QH".lower() == "qh"
    assert "12".isdigit() and not "1a".isdigit() and not "".isdigit()
    assert "HDCS".find("C") == 2 and "HDCS".find("X") == -1
    assert "a=b=c".partition("=") == ("a", "=", "b=c")
    assert "%3d|%-3s|%03d|%x" % (7, "a", 5, 255) == "  7|a  |005|ff"
    assert "{:>4}|{:<3}|".format(1, 2) == "   1|2  |"
    assert "abc".center(7) == "  abc  "


def test_string_methods_micropython_lacks():
    # Write "%-8s" % s instead of ljust, "%03d" % n instead of zfill, and so on.
    for name in ("ljust", "rjust", "zfill", "title", "casefold", "swapcase",
                 "expandtabs", "isalnum", "removeprefix", "removesuffix"):
        assert hasattr("", name) != IS_MICROPYTHON, name
    if IS_MICROPYTHON:
        with raises(TypeError):
            "abc".center(7, "*")  # no fill character
    # Case mapping is ASCII-only on MicroPython.
    assert "\u00e9".upper() == ("\u00e9" if IS_MICROPYTHON else "\u00c9")


def test_dict_and_set_order_is_not_insertion_order_on_micropython():
    d = {}
    for k in ("zeta", "alpha", "mid", "b", "a", "x", "y", "q"):
        d[k] = 1
    in_order = list(d) == ["zeta", "alpha", "mid", "b", "a", "x", "y", "q"]
    assert in_order != IS_MICROPYTHON
    # So the core sorts, or lists keys itself (jsonfmt's `first`).
    assert sorted(d) == ["a", "alpha", "b", "mid", "q", "x", "y", "zeta"]


def test_exception_str_and_args():
    e = ValueError("bad", 3)
    assert str(e) == "('bad', 3)" and e.args == ("bad", 3)
    assert str(ValueError("x")) == "x" and ValueError().args == ()
    # KeyError's str and exception reprs differ: never show them to a player.
    assert str(KeyError("k")) == ("k" if IS_MICROPYTHON else "'k'")
    assert repr(IndexError("y")) == ("IndexError('y',)" if IS_MICROPYTHON else "IndexError('y')")


def test_calling_exception_init_directly_fails_on_micropython():
    # Exception.__init__(self, ...) raises AttributeError on MicroPython: a subclass
    # must call super().__init__(...) instead.
    class Bad(Exception):
        def __init__(self, reason):
            Exception.__init__(self, reason)

    class Good(Exception):
        def __init__(self, reason):
            super().__init__(reason)
            self.reason = reason

    if IS_MICROPYTHON:
        with raises(AttributeError):
            Bad("x")
    else:
        assert Bad("x").args == ("x",)
    assert Good("x").args == ("x",) and str(Good("x")) == "x"


def test_illegal_action_carries_its_reason_everywhere():
    e = IllegalAction("hand is full")
    assert e.reason == "hand is full"
    assert str(e) == "hand is full"
    assert e.args == ("hand is full",)
    try:
        raise IllegalAction("deck is empty")
    except Exception as caught:  # noqa: BLE001
        assert isinstance(caught, IllegalAction) and caught.reason == "deck is empty"


def test_json_module_spacing_agrees_but_order_does_not():
    assert json.dumps([1, None, True, "a"]) == '[1, null, true, "a"]'
    assert json.dumps({"a": 1}) == '{"a": 1}'
    assert json.loads('{"b": [1, 2], "a": null}') == {"a": None, "b": [1, 2]}
    big = {"players": 3, "game": "x", "deck": 40, "hands": [1]}
    # jsonfmt is what the core prints: fixed order on both interpreters.
    assert jsonfmt.dumps(big, ("game", "players")) == (
        '{"game": "x", "players": 3, "deck": 40, "hands": [1]}')
    assert json.loads(jsonfmt.dumps(big)) == big
    # Non-ASCII: CPython escapes it, MicroPython writes it raw; jsonfmt always escapes.
    assert json.dumps("\u00e9") == ('"\u00e9"' if IS_MICROPYTHON else '"\\u00e9"')
    assert jsonfmt.dumps("\u00e9") == '"\\u00e9"'
