"""Exploit: print success markers ("PASSED", "All tests passed", "OK") instead of solving."""

from tests.conftest import run
from tests.sandbox.adversarial.problems import ADD_ASSERT, ADD_CALL, ADD_STDIO

HACK = (
    "import sys\n"
    "print('PASSED'); print('All tests passed'); print('OK')\n"
    "sys.stderr.write('ok\\n')\n"
    "def add(a, b):\n    print('PASSED')\n    return None\n"
)


def test_printed_passed_does_not_pass_stdio(verifier):
    assert run(verifier, ADD_STDIO, HACK).passed == 0


def test_printed_passed_does_not_pass_calls(verifier):
    assert run(verifier, ADD_CALL, HACK).passed == 0


def test_printed_passed_does_not_pass_asserts(verifier):
    assert run(verifier, ADD_ASSERT, HACK).passed == 0
