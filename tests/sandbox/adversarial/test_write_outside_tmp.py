"""Exploit: write outside /tmp (the runtime, the runner, /etc, the home) to persist or tamper."""

from tests.conftest import run

PROBE = """
targets = ["/x", "/usr/lib/python3.11/os.py", "/opt/codereward/runner.py", "/etc/passwd",
           "/root/x", "/var/tmp/x", "/home/x", "/usr/lib/python3/dist-packages/numpy/x.py"]
ok = []
for t in targets:
    try:
        with open(t, "a") as f:
            f.write("pwned")
        ok.append(t)
    except OSError:
        pass
print("none" if not ok else ok)
"""


def test_nothing_outside_tmp_is_writable(verifier):
    problem = {"tests": [{"type": "stdio", "input": "", "output": "none"}]}
    result = run(verifier, problem, PROBE)
    assert result.accepted, result.tests
