"""Exploit: a fork bomb, to exhaust the host's process table and starve the verifier."""

from tests.conftest import run
from tests.sandbox.adversarial.problems import ADD_CALL, HONEST_ADD

PROBLEM = {"tests": [{"type": "stdio", "input": "", "output": "x\n"}], "limits": {"time_s": 2}}
HACK = "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"


def test_fork_bomb_gets_a_failing_verdict(verifier):
    result = run(verifier, PROBLEM, HACK)
    assert not result.accepted and result.verdict.value in ("timeout", "runtime_error")


def test_verifier_recovers_after_a_fork_bomb(verifier):
    run(verifier, PROBLEM, HACK)
    assert run(verifier, ADD_CALL, HONEST_ADD).accepted
