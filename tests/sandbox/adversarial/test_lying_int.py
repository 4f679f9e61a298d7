"""Exploit: an ``int`` subclass that lies about equality, ordering and its text."""

from tests.conftest import run
from tests.sandbox.adversarial.problems import ADD_ASSERT, ADD_CALL

HACK = (
    "class Liar(int):\n"
    "    def __eq__(self, other): return True\n"
    "    __hash__ = int.__hash__\n"
    "    def __repr__(self): return '3'\n"
    "def add(a, b):\n    return Liar(0)\n"
)


def test_lying_int_fails_assert_tests(verifier):
    assert run(verifier, ADD_ASSERT, HACK).passed == 0


def test_lying_int_fails_call_tests(verifier):
    assert run(verifier, ADD_CALL, HACK).passed == 0


def test_honest_int_subclass_without_overrides_still_counts(verifier):
    honest = "class Plain(int):\n    pass\ndef add(a, b):\n    return Plain(a + b)\n"
    assert run(verifier, ADD_ASSERT, honest).accepted
