"""Exploit: kill the parent (the runner) or every process, hoping the harness records a pass."""

from tests.conftest import run
from tests.sandbox.adversarial.problems import ADD_ASSERT, ADD_CALL, HONEST_ADD

HACK = (
    "import os, signal\n"
    "for pid in (os.getppid(), 1):\n"
    "    for sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGSTOP):\n"
    "        try:\n            os.kill(pid, sig)\n        except OSError:\n            pass\n"
    "try:\n    os.kill(-1, signal.SIGKILL)\nexcept OSError:\n    pass\n"
    "def add(a, b):\n    return 0\n"
)


def test_killing_the_parent_earns_no_pass(verifier):
    result = run(verifier, ADD_ASSERT, HACK)
    assert result.passed == 0
    assert result.verdict.value != "sandbox_error"  # the runner survives: a verdict, not an outage


def test_the_sandbox_still_works_after_a_kill_attempt(verifier):
    run(verifier, ADD_CALL, HACK)
    assert run(verifier, ADD_CALL, HONEST_ADD).accepted
