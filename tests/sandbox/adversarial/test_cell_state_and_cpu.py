"""Exploit class 5 (issue 12): cells keep state between samples, and share the CPU.

State. A cell runs many samples in turn, and only ``/tmp`` and ``/dev/shm`` were wiped
between them, while ``/dev`` was writable: a program could replace ``/dev/stdin``,
``/dev/stdout`` or ``/dev/null``, take the write bit off ``/tmp`` or ``/dev/shm``, or pin
memory that outlives it (files in ``/dev``, POSIX shared memory, a SysV segment made with
``shmget`` through ctypes), so the next honest program in the cell reads the wrong
input, writes into a file, cannot open ``os.devnull`` or a scratch file, or hits its
memory limit. Each case here runs a polluter and then an honest follower in ONE cell (a
fresh one-cell verifier on the backend under test, both samples in one batch, so the
cell is surely reused): the polluter, which also answers wrongly, gets reward 0, and the
follower must be accepted with reward 1. A correct verifier gives every sample a private
read-only ``/dev`` with the standard nodes and wipes IPC and everything writable after
every sample.

CPU. A test that forks 30 spinning processes, each in its own session (``setsid``, so
they also leave the test's process group), took the CPU from honest programs in other
cells, which then timed out. Here the bomb keeps 30 spinners running for 5 x 3.5 s in
one cell (each of its tests ends with a wrong answer, not a timeout, so none is skipped)
while an honest CPU-bound program runs its 3 tests in the other cell of a fresh
two-cell verifier. The honest program needs about 0.9 s of CPU per test (0.8 to 1.5 s wall measured on
the 2-core CI machine at load 7 to 20, while a neighbouring bomb made it 4 to 6 times
slower) and gets 4 s per test: it passes unless its cell is starved. A correct verifier
gives each cell its own CPU share and counts ``setsid`` children against the test's
process limit.
"""

import pytest

from reward_api import Verifier
from tests.sandbox.adversarial.cases import Batch, control, exploit

ONE_TWO = {
    "tests": [{"type": "stdio", "input": "1 2\n", "output": "3\n"}],
    "limits": {"memory_mb": 512},
}


def polluting(action: str) -> str:
    """A wrong answer that first does ``action`` (any failure of it swallowed, no limit hit)."""
    body = "\n".join("    " + line for line in action.strip().splitlines())
    return f"try:\n{body}\nexcept Exception:\n    pass\nprint(0)\n"


PIN_450_MB_IN_DEV = """
import os
for i in range(8):
    with open(f'/dev/pin{i}', 'wb') as f:
        for _ in range(56):
            f.write(b'p' * (1 << 20))
"""
PIN_450_MB_POSIX_SHM = """
import mmap, os, _posixshmem
for i in range(8):
    fd = _posixshmem.shm_open(f'/pin{i}', os.O_CREAT | os.O_RDWR, 0o600)
    os.ftruncate(fd, 56 << 20)
    m = mmap.mmap(fd, 56 << 20)
    for off in range(0, 56 << 20, 4096):
        m[off] = 1
"""
PIN_450_MB_SYSV = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.shmat.restype = ctypes.c_void_p
size = 450 << 20
shmid = libc.shmget(0, size, 0o1600)
addr = libc.shmat(shmid, None, 0)
ctypes.memset(addr, 1, size)
"""
USES_400_MB = (
    "import sys\nb = bytearray(400 << 20)\nfor i in range(0, len(b), 4096):\n    b[i] = 1\n"
    "print(sum(map(int, sys.stdin.read().split())))\n"
)

PAIRS = {
    "dev_stdin_replaced": (
        "import os\nos.remove('/dev/stdin')\nopen('/dev/stdin', 'w').write('40 2\\n')",
        "print(sum(map(int, open('/dev/stdin').read().split())))\n",
    ),
    "dev_stdout_replaced": (
        "import os\nos.remove('/dev/stdout')\nopen('/dev/stdout', 'w').write('')",
        "import sys\nx = sum(map(int, sys.stdin.read().split()))\n"
        "with open('/dev/stdout', 'w') as out:\n    out.write(f'{x}\\n')\n",
    ),
    "dev_stdout_symlinked_to_null": (
        "import os\nos.remove('/dev/stdout')\nos.symlink('/dev/null', '/dev/stdout')",
        "import sys\nx = sum(map(int, sys.stdin.read().split()))\n"
        "with open('/dev/stdout', 'w') as out:\n    print(x, file=out)\n",
    ),
    "dev_null_made_a_directory": (
        "import os\nos.remove('/dev/null')\nos.mkdir('/dev/null')",
        "import os, sys\nsys.stderr = open(os.devnull, 'w')\nprint('debug', file=sys.stderr)\n"
        "print(sum(map(int, input().split())))\n",
    ),
    "tmp_made_read_only": (
        "import os\nos.chmod('/tmp', 0o500)",
        "import sys\nwith open('/tmp/scratch.txt', 'w') as f:\n    f.write(sys.stdin.read())\n"
        "print(sum(map(int, open('/tmp/scratch.txt').read().split())))\n",
    ),
    "dev_shm_made_read_only": (
        "import os\nos.chmod('/dev/shm', 0o500)",
        "import multiprocessing\nlock = multiprocessing.Lock()\nwith lock:\n"
        "    print(sum(map(int, input().split())))\n",
    ),
    "memory_pinned_in_dev_files": (PIN_450_MB_IN_DEV, USES_400_MB),
    "memory_pinned_in_posix_shm": (PIN_450_MB_POSIX_SHM, USES_400_MB),
    "memory_pinned_in_sysv_shm": (PIN_450_MB_SYSV, USES_400_MB),
}
BATCHES = {
    name: Batch(
        f"cell_state_{name}",
        [
            exploit(f"polluter/{name}", ONE_TWO, polluting(action)),
            control(f"follower/{name}", ONE_TWO, follower),
        ],
    )
    for name, (action, follower) in PAIRS.items()
}


@pytest.mark.parametrize("name", list(BATCHES))
def test_a_sample_leaves_nothing_for_the_next_one_in_its_cell(verifier, name):
    batch = BATCHES[name]
    with Verifier(verifier.settings.model_copy(update={"workers": 1})) as one_cell:
        for case in batch.names:
            batch.check(one_cell, case)


N = 6_000_000
BOMB_PROBLEM = {
    "tests": [{"type": "stdio", "input": f"{i}\n", "output": "done\n"} for i in range(5)],
    "limits": {"time_s": 5},
}
BOMB = """
import os, time
for _ in range(30):
    try:
        if os.fork() == 0:
            os.setsid()
            while True:
                pass
    except OSError:
        break
time.sleep(3.5)
print('spun')
"""
CPU_BOUND_PROBLEM = {
    "tests": [
        {"type": "stdio", "input": f"{N}\n", "output": f"{sum(i * i % 7 for i in range(N))}\n"}
    ]
    * 3,
    "limits": {"time_s": 4},
}
CPU_BOUND = "n = int(input())\ns = 0\nfor i in range(n):\n    s += i * i % 7\nprint(s)\n"
FAIRNESS = Batch(
    "cpu_fairness",
    [
        exploit("setsid_spinners", BOMB_PROBLEM, BOMB),
        control("cpu_bound_neighbour", CPU_BOUND_PROBLEM, CPU_BOUND),
    ],
)


def test_thirty_setsid_spinners_do_not_starve_another_cell(verifier):
    # two fresh cells of the backend under test, so both samples surely run at once
    with Verifier(verifier.settings.model_copy(update={"workers": 2})) as two_cells:
        for name in FAIRNESS.names:
            FAIRNESS.check(two_cells, name)
