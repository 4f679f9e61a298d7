"""Hostile samples both backends must judge alike, one ``Case`` per exploit or limit.

Two kinds. *Hacks* try to earn a pass they did not compute (print a marker, exit early,
return an always-equal object, kill the runner): the expected verdict is never
``accepted``. *Probes* print the right answer only while the sandbox holds (no network, no
host files, no secrets, no capabilities, a runner that survives): ``accepted`` means the
wall stood, anything else names the leak. ``tests/docker/test_parity.py`` runs every case
through ``--sandbox process`` and ``--sandbox docker`` and asserts identical verdicts and
the verdict written here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Case:
    """One sample against one problem, the verdict both backends must give, and why."""

    name: str
    why: str
    code: str
    verdict: str
    tests: tuple[dict[str, Any], ...] = (
        {"type": "stdio", "input": "3 4\n", "output": "7\n"},
        {"type": "stdio", "input": "10 -2\n", "output": "8\n"},
    )
    time_s: float = 2.0
    memory_mb: int = 256

    def problem(self) -> dict[str, Any]:
        return {
            "id": f"adv/{self.name}",
            "tests": list(self.tests),
            "limits": {"time_s": self.time_s, "memory_mb": self.memory_mb},
        }


ANSWER = "a, b = map(int, input().split())\nprint(a + b)\n"
CALL_TESTS = ({"type": "call", "fn_name": "add", "args": [3, 4], "output": 7},)


def probe(name: str, why: str, check: str) -> Case:
    """A case that answers correctly only when ``check`` (code setting ``ok``) finds no leak."""
    code = f"ok = True\n{check}\nif ok:\n    {ANSWER.replace(chr(10), chr(10) + '    ').rstrip()}\n"
    return Case(name, why, code, "accepted")


CASES: tuple[Case, ...] = (
    Case("control", "an honest solution is accepted", ANSWER, "accepted"),
    Case(
        "print_passed",
        "printing what a test harness prints when it passes earns nothing",
        "print('PASSED')\nprint('All tests passed')\n",
        "wrong_answer",
    ),
    Case(
        "exit_zero_before_call",
        "exiting with status 0 before the call test runs is not a pass",
        "import sys\nsys.exit(0)\ndef add(a, b):\n    return a + b\n",
        "runtime_error",
        tests=CALL_TESTS,
    ),
    Case(
        "os_exit_in_function",
        "os._exit(0) inside the called function is not a pass",
        "import os\ndef add(a, b):\n    os._exit(0)\n",
        "runtime_error",
        tests=CALL_TESTS,
    ),
    Case(
        "always_equal",
        "an object whose __eq__ is always True is refused, not compared",
        "class Any:\n    def __eq__(self, o):\n        return True\n"
        "def add(a, b):\n    return Any()\n",
        "wrong_answer",
        tests=CALL_TESTS,
    ),
    Case(
        "int_subclass_liar",
        "an int subclass that lies in __eq__ is refused",
        "class L(int):\n    def __eq__(self, o):\n        return True\n    __hash__ = int.__hash__\n"
        "def add(a, b):\n    return L(0)\n",
        "wrong_answer",
        tests=CALL_TESTS,
    ),
    Case(
        "timeout", "a busy loop is stopped at the wall clock", "while True:\n    pass\n", "timeout"
    ),
    Case(
        "fork_bomb",
        "a fork bomb is held by the process limits and stopped at the wall clock",
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
        "timeout",
    ),
    Case(
        "memory_hog",
        "allocating far past the memory limit is a memory verdict",
        "x = bytearray(4 << 30)\n",
        "memory_limit",
    ),
    Case(
        "output_flood",
        "unbounded output is cut at the output cap",
        "import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n",
        "output_limit",
    ),
    Case(
        "recursion",
        "unbounded recursion is the program's own runtime error",
        "def f(n):\n    return f(n + 1)\nf(0)\n",
        "runtime_error",
    ),
    Case("syntax", "a syntax error is decided before anything runs", "def f(:\n", "syntax_error"),
    probe(
        "kill_runner",
        "signals to pid 1 (the runner) and the process group do not end the cell",
        "import os, signal\nfor sig in (signal.SIGKILL, signal.SIGTERM, signal.SIGSTOP):\n"
        "    try:\n        os.kill(1, sig)\n    except OSError:\n        pass\n",
    ),
    probe(
        "network",
        "no route out, and the host's loopback services are another namespace",
        "import socket\nfor addr in (('1.1.1.1', 53), ('127.0.0.1', 6379), ('127.0.0.1', 8000),"
        " ('172.17.0.1', 2375)):\n"
        "    try:\n        socket.create_connection(addr, timeout=0.3).close()\n        ok = False\n"
        "    except OSError:\n        pass\n",
    ),
    probe(
        "host_files",
        "no host paths, no Docker socket, no secrets readable",
        "import os\nfor p in ('/work', '/root/.ssh', '/var/run/docker.sock', '/run/docker.sock',"
        " '/var/lib/docker', '/var/lib/codereward', '/etc/docker'):\n"
        "    if os.path.exists(p):\n        ok = False\n"
        "try:\n    open('/etc/shadow').read()\n    ok = False\nexcept OSError:\n    pass\n",
    ),
    probe(
        "environment",
        "the environment holds exactly the policy's variables: no keys, no broker URLs",
        "import os\nallowed = {'PATH', 'HOME', 'LANG', 'LC_ALL', 'PYTHONHASHSEED',"
        " 'PYTHONDONTWRITEBYTECODE', 'OPENBLAS_NUM_THREADS', 'OMP_NUM_THREADS',"
        " 'MKL_NUM_THREADS', 'PWD'}\nok = set(os.environ) <= allowed\n",
    ),
    probe(
        "privilege",
        "uid 65534, no effective capabilities, no_new_privs set",
        "import os\nstatus = open('/proc/self/status').read().splitlines()\n"
        "fields = dict(l.split(':', 1) for l in status)\n"
        "ok = os.getuid() == 65534 and int(fields['CapEff'].strip(), 16) == 0"
        " and fields['NoNewPrivs'].strip() == '1'\n",
    ),
    probe(
        "read_only_root",
        "the root filesystem is read-only; only /tmp is writable",
        "for p in ('/usr/lib/python3/dist-packages/evil.py', '/opt/codereward/runner.py', '/etc/x'):\n"
        "    try:\n        open(p, 'w').write('x')\n        ok = False\n    except OSError:\n        pass\n"
        "open('/tmp/scratch', 'w').write('fine')\n",
    ),
    probe(
        "runner_unreadable",
        "the runner's fds and memory are closed to the program (non-dumpable pid 1)",
        "import os\nfor p in ('/proc/1/fd', '/proc/1/mem', '/proc/1/environ'):\n"
        "    try:\n        os.listdir(p) if p.endswith('fd') else open(p, 'rb').read(1)\n"
        "        ok = False\n    except OSError:\n        pass\n",
    ),
    probe(
        "tmp_fill",
        "filling /tmp hits a limit the program sees, and the cell survives",
        "try:\n    for i in range(8):\n        with open(f'/tmp/fill{i}', 'wb') as f:\n"
        "            f.write(b'x' * (40 << 20))\nexcept OSError:\n    pass\n",
    ),
    probe(
        "survivor_child",
        "a child left running after the program exits does not outlive the test",
        "import os, time\nif os.fork() == 0:\n    time.sleep(30)\n    os._exit(0)\n",
    ),
)
