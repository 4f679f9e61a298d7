"""Exploit: register an ``atexit`` hook that forces a clean exit after a failing assertion."""

from tests.conftest import run
from tests.sandbox.adversarial.problems import ADD_ASSERT, ADD_CALL

HACK = (
    "import atexit, os, sys\n"
    "atexit.register(lambda: os._exit(0))\n"
    "sys.excepthook = lambda *a: None\n"
    "def add(a, b):\n    return -1\n"
)


def test_atexit_hook_does_not_turn_failures_into_passes(verifier):
    assert run(verifier, ADD_ASSERT, HACK).passed == 0


def test_atexit_hook_fails_call_tests(verifier):
    assert run(verifier, ADD_CALL, HACK).passed == 0
