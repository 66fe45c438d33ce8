"""What every test starts from."""

import pytest


@pytest.fixture(autouse=True)
def _stress_keeps_every_call():
    """The firmware bounds the calls a Stress game keeps (Session sets the class's
    CALLS_KEPT when it makes a Stress game); the replay command and the core's tests
    keep every call. Each test starts from the core's default and leaves it so."""
    from core.stress import Stress
    Stress.CALLS_KEPT = None
    yield
    Stress.CALLS_KEPT = None
