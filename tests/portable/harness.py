"""What the portable tests may use besides plain `assert`: it works on CPython and on
MicroPython alike (no pytest on the board).

    from tests.portable.harness import raises, IS_MICROPYTHON

    def test_refused():
        with raises(IllegalAction) as caught:
            game.push("play 11H")
        assert caught.value.reason == "bad card: 11H"
"""

import sys

IS_MICROPYTHON = sys.implementation.name == "micropython"


class raises:
    """`with raises(E):` fails the test unless the block raises E (or a subclass).

    The caught exception is kept in `.value` (as pytest.raises does)."""

    def __init__(self, expected):
        self.expected = expected
        self.value = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            raise AssertionError("did not raise %s" % self.expected.__name__)
        if not issubclass(exc_type, self.expected):
            return False
        self.value = exc
        return True
