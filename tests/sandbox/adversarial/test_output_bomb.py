"""Exploit: print without bound, to exhaust the host's memory through captured output."""

from tests.conftest import run

PROBLEM = {"tests": [{"type": "stdio", "input": "", "output": "x\n"}], "limits": {"time_s": 5}}


def test_unbounded_stdout_is_an_output_limit(verifier):
    hack = "import sys\nwhile True:\n    sys.stdout.write('y' * 65536)\n"
    assert run(verifier, PROBLEM, hack).verdict.value == "output_limit"


def test_unbounded_stderr_does_not_pass(verifier):
    hack = "import sys\nwhile True:\n    sys.stderr.write('y' * 65536)\n"
    assert not run(verifier, PROBLEM, hack).accepted
