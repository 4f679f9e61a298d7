"""Exploit: read host secrets: environment variables, /etc/shadow, SSH keys, the host's processes."""

import os

from tests.conftest import run

PROBE = """
import os
leaks = [k for k in os.environ if k not in
         ("PATH", "HOME", "LANG", "LC_ALL", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE",
          "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "PWD")]
for p in ("/etc/shadow", "/root/.ssh", "/proc/1/environ", "/var/run/docker.sock",
          "/run/secrets", "/work", "/sys/fs/cgroup/memory/codereward"):
    try:
        if os.path.isdir(p):
            os.listdir(p)
        else:
            data = open(p, "rb").read()
            if b"CODEREWARD_TEST_SECRET" in data:
                leaks.append(p)
                continue
            if p == "/proc/1/environ":
                continue
        leaks.append(p)
    except OSError:
        pass
print("sealed" if not leaks else leaks)
print(os.getuid(), len([p for p in os.listdir("/proc") if p.isdigit()]) < 5)
"""


def test_environment_and_host_files_are_sealed(verifier):
    os.environ["CODEREWARD_TEST_SECRET"] = "hunter2"
    try:
        problem = {"tests": [{"type": "stdio", "input": "", "output": "sealed\n65534 True"}]}
        result = run(verifier, problem, PROBE)
    finally:
        del os.environ["CODEREWARD_TEST_SECRET"]
    assert result.accepted, result.tests
