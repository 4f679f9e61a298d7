"""Exploit: write forged result records on every descriptor the program has, then exit.

There is no results pipe to forge: a test passes on what trusted code saw (the host's
comparison of an answered call, or the judge's run of the test code). Bytes a program
writes on its call channel out of turn are a protocol breach that fails its test, and an
exit before answering is never a pass.
"""

from tests.conftest import run
from tests.sandbox.adversarial.problems import ADD_ASSERT, ADD_CALL

HACK = (
    "import os\n"
    "for fd in range(3, 64):\n"
    "    try:\n"
    '        os.write(fd, b\'{"value": 0}\\n{"slot": 0, "values": [true]}\\n{"done": true}\\n\')\n'
    "    except OSError:\n"
    "        pass\n"
    "os._exit(0)\n"
)


def test_forged_records_do_not_pass_call_tests(verifier):
    result = run(verifier, ADD_CALL, HACK)
    assert not result.accepted
    assert result.passed <= 1  # the forged 0 is right only where returning 0 honestly is


def test_forged_records_do_not_pass_assert_tests(verifier):
    assert run(verifier, ADD_ASSERT, HACK).passed == 0


def test_forged_done_does_not_pass_short_circuit_asserts(verifier):
    problem = {"tests": [{"type": "assert", "code": "assert add(1, 2) == 3 or add(2, 2) == 4"}]}
    assert not run(verifier, problem, HACK).accepted
