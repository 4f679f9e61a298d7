"""Exploit: ``raise SystemExit(0)`` from inside the candidate function, mid-assertion."""

from tests.conftest import run
from tests.sandbox.adversarial.problems import ADD_ASSERT, ADD_CALL

HACK = "def add(a, b):\n    raise SystemExit(0)\n"
QUIT = "def add(a, b):\n    quit()\n"


def test_systemexit_inside_function_fails_asserts(verifier):
    assert run(verifier, ADD_ASSERT, HACK).passed == 0


def test_systemexit_inside_function_fails_calls(verifier):
    assert run(verifier, ADD_CALL, HACK).passed == 0


def test_quit_inside_function_fails(verifier):
    assert run(verifier, ADD_ASSERT, QUIT).passed == 0
