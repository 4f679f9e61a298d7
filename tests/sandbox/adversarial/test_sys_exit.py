"""Exploit: call ``sys.exit(0)`` before the tests run, hoping a zero exit status reads as a pass."""

from tests.conftest import run
from tests.sandbox.adversarial.problems import ADD_ASSERT, ADD_CALL, ADD_STDIO

HACK = "import sys\ndef add(a, b):\n    return 0\nsys.exit(0)\n"


def test_sys_exit_before_call_tests_is_not_accepted(verifier):
    assert not run(verifier, ADD_CALL, HACK).accepted


def test_sys_exit_before_assert_tests_is_not_accepted(verifier):
    assert not run(verifier, ADD_ASSERT, HACK).accepted


def test_sys_exit_without_output_fails_stdio(verifier):
    result = run(verifier, ADD_STDIO, "import sys\nsys.exit(0)\n")
    assert result.verdict.value == "wrong_answer"
