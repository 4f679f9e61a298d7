"""Exploit: ``os._exit(0)`` at import time or inside the function skips every check at once."""

from tests.conftest import run
from tests.sandbox.adversarial.problems import ADD_ASSERT, ADD_CALL

AT_IMPORT = "import os\ndef add(a, b):\n    return 0\nos._exit(0)\n"
IN_FUNCTION = "import os\ndef add(a, b):\n    os._exit(0)\n"


def test_os_exit_at_import_fails_call_tests(verifier):
    assert run(verifier, ADD_CALL, AT_IMPORT).passed == 0


def test_os_exit_at_import_fails_assert_tests(verifier):
    assert run(verifier, ADD_ASSERT, AT_IMPORT).passed == 0


def test_os_exit_inside_the_function_fails_every_test(verifier):
    result = run(verifier, ADD_ASSERT, IN_FUNCTION)
    assert result.passed == 0 and result.verdict.value == "runtime_error"
