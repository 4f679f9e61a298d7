"""Exploit: ignore SIGTERM/SIGINT and spin forever, hoping to outlive the time limit."""

from tests.conftest import run

PROBLEM = {"tests": [{"type": "stdio", "input": "", "output": "done\n"}], "limits": {"time_s": 1}}
HACK = (
    "import signal\n"
    "for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGXCPU):\n"
    "    signal.signal(s, signal.SIG_IGN)\n"
    "while True:\n    pass\n"
)


def test_signal_ignoring_loop_times_out(verifier):
    result = run(verifier, PROBLEM, HACK)
    assert result.verdict.value == "timeout"
