"""Exploit class 4 (issue 12): a program makes its own result ``sandbox_error``.

``sandbox_error`` means "our fault": its reward is ``None`` and the trainer drops the
group, so a failing policy that can cause one escapes its 0. Programs could: write deeply
nested JSON (100,000 levels) on the results descriptor or on every descriptor (the
runner's parser raised ``RecursionError``); write tens of MB of well-formed records (the
runner, parsing them all, ran out of memory); nest thousands of directories in ``/tmp``
(the recursive wipe after the sample raised); fill ``/tmp`` or ``/dev/shm`` up to the
cell's memory ceiling; print tens of MB on stdout or stderr; close or ``dup2`` over the
descriptors the runner relies on; return a 30 MB string.

A correct verifier bounds and parses the candidate's output defensively and cleans up
without recursion, so each of these gets a failing verdict (timeout, output or memory
limit, runtime error, wrong answer) with reward 0.0, never ``sandbox_error``. Each
exploit is verified beside an honest sample, which must still be accepted.
"""

import functools

import pytest

from reward_api import Verdict
from tests.sandbox.adversarial.cases import Batch, asserts, control, exploit

LIMITS = {"time_s": 4, "memory_mb": 256}
CALL = {
    "tests": [{"type": "call", "fn_name": "add", "args": [1, 2], "output": 3}],
    "limits": LIMITS,
}
ASSERT = asserts("assert all(add(x, 1) == x + 1 for x in range(3))", limits=LIMITS)
STDIO = {"tests": [{"type": "stdio", "input": "1 2\n", "output": "3\n"}], "limits": LIMITS}

EXPLOITS = {
    "nested_json_on_fd3": (
        CALL,
        "import os\nos.write(3, b'{\"value\": ' + b'[' * 100000 + b']' * 100000 + b'}\\n')\n"
        "os.write(3, b'{\"done\": true}\\n')\nos._exit(0)\n",
    ),
    "nested_json_on_every_fd": (
        ASSERT,
        "import os\nblob = b'[' * 200000 + b'\\n'\nfor fd in range(0, 256):\n    try:\n"
        "        os.write(fd, blob)\n    except OSError:\n        pass\n"
        "def add(a, b):\n    return a + b + 1\n",
    ),
    "twenty_mb_of_records": (
        CALL,
        "import os\nline = b'{\"value\": [1, 2, 3, 4, 5, 6, 7, 8]}\\n'\nchunk = line * 20000\n"
        "for _ in range(28):\n    os.write(3, chunk)\nos._exit(0)\n",
    ),
    "forty_mb_of_empty_lists_in_one_record": (
        CALL,
        "import os\nos.write(3, b'{\"value\": [')\nchunk = b'[],' * (1 << 20)\nfor _ in range(13):\n"
        "    os.write(3, chunk)\nos.write(3, b'[]]}\\n')\nos._exit(0)\n",
    ),
    "thirty_mb_string_returned": (CALL, "def add(a, b):\n    return 'x' * (30 << 20)\n"),
    "forty_mb_on_stdout": (
        STDIO,
        "import sys\nfor _ in range(40):\n    sys.stdout.write('7' * (1 << 20))\n",
    ),
    "forty_mb_on_stderr": (
        CALL,
        "import sys\nfor _ in range(40):\n    sys.stderr.write('e' * (1 << 20))\n"
        "def add(a, b):\n    return 0\n",
    ),
    "four_thousand_nested_dirs_in_tmp": (
        CALL,
        "import os\nos.chdir('/tmp')\nfor _ in range(4000):\n    os.mkdir('d')\n    os.chdir('d')\n"
        "def add(a, b):\n    return a * b\n",
    ),
    "nested_dirs_with_long_names": (
        CALL,
        "import os\nos.chdir('/tmp')\nfor _ in range(300):\n    os.mkdir('n' * 200)\n    os.chdir('n' * 200)\n"
        "def add(a, b):\n    return a * b\n",
    ),
    "unwritable_dirs_in_tmp": (
        CALL,
        "import os\nfor i in range(50):\n    os.makedirs(f'/tmp/ro{i}/inner', exist_ok=True)\n"
        "    open(f'/tmp/ro{i}/inner/f', 'w').write('x')\n    os.chmod(f'/tmp/ro{i}/inner', 0)\n"
        "    os.chmod(f'/tmp/ro{i}', 0o500)\ndef add(a, b):\n    return a - b\n",
    ),
    "fill_tmp": (
        CALL,
        "try:\n    for i in range(40):\n        with open(f'/tmp/fill{i}', 'wb') as f:\n"
        "            f.write(b'x' * (60 << 20))\nexcept OSError:\n    pass\n"
        "def add(a, b):\n    return 0\n",
    ),
    "fill_dev_shm": (
        CALL,
        "try:\n    for i in range(40):\n        with open(f'/dev/shm/fill{i}', 'wb') as f:\n"
        "            f.write(b'x' * (60 << 20))\nexcept OSError:\n    pass\n"
        "def add(a, b):\n    return 0\n",
    ),
    "files_in_tmp_for_a_second_and_a_half": (
        CALL,
        "import os, time\nend = time.time() + 1.5\ni = 0\nwhile time.time() < end:\n"
        "    os.close(os.open(f'/tmp/f{i}', os.O_CREAT | os.O_WRONLY))\n    i += 1\n"
        "def add(a, b):\n    return 0\n",
    ),
    "closes_every_descriptor": (
        ASSERT,
        "import os\nos.closerange(0, 1024)\ndef add(a, b):\n    return a + b + 1\n",
    ),
    "dup2_stdout_over_fd3": (
        CALL,
        "import os\nos.dup2(1, 3)\nos.dup2(2, 1)\ndef add(a, b):\n    return a + b + 1\n",
    ),
    "dup2_devnull_over_fd3": (
        ASSERT,
        "import os\nnull = os.open('/dev/null', os.O_WRONLY)\nfor fd in (1, 2, 3):\n"
        "    os.dup2(null, fd)\ndef add(a, b):\n    return a + b + 1\n",
    ),
    "child_holds_the_pipes_and_spins": (
        CALL,
        "import os\nif os.fork() == 0:\n    os.setsid()\n    while True:\n        pass\n"
        "def add(a, b):\n    return 4\n",
    ),
}
HONEST = {
    id(CALL): "def add(a, b):\n    return a + b\n",
    id(ASSERT): "def add(a, b):\n    return b + a\n",
    id(STDIO): "a, b = map(int, input().split())\nprint(a + b)\n",
}
PAIRS = {
    name: Batch(
        f"made_error_{name}",
        [
            exploit(f"exploit/{name}", problem, code),
            control(f"beside/{name}", problem, HONEST[id(problem)] + f"# beside {name}\n"),
        ],
    )
    for name, (problem, code) in EXPLOITS.items()
}


@pytest.mark.parametrize("name", list(PAIRS))
def test_a_program_cannot_make_its_result_sandbox_error(verifier, name):
    batch = PAIRS[name]
    for case in batch.names:
        batch.check(verifier, case)


# A program too large to send: nothing bounded a Python program's size (the compiled
# languages' bound is ``pipeline.MAX_REQUEST_SOURCE_BYTES``). A correct solution followed by
# a comment of 50 MiB of control characters is 300 MiB as JSON, more than the runner reads
# in one frame: the cell's pipe broke, three times over, ``sandbox_error``. Now any program
# past the bound is a ``compile_error`` that says so, decided before the host parses or
# scans it (the programs are built when first asked: they are 114 MB).
OVERSIZED = ["exploit/fifty_mib_of_control_characters", "exploit/just_past_the_bound",
             "beside/oversized_programs"]  # fmt: skip


@functools.cache
def _oversized() -> Batch:
    solve = HONEST[id(STDIO)]
    programs = [solve + "#" + "\x01" * (50 << 20) + "\n", solve + "#" + "x" * (64 << 20) + "\n"]
    cases = [exploit(n, STDIO, p) for n, p in zip(OVERSIZED, programs)]
    return Batch("made_error_oversized", [*cases, control(OVERSIZED[2], STDIO, solve)])


@pytest.mark.parametrize("name", OVERSIZED)
def test_an_oversized_program_is_a_compile_error_that_says_so(verifier, name):
    batch = _oversized()
    batch.check(verifier, name)
    if name.startswith("exploit/"):
        result = batch.run(verifier).results[name]
        assert result.verdict == Verdict.compile_error, result
        assert "too large" in str(result.tests[0].detail), result.tests


# Honest programs that use the same resources legitimately, within the limits: scratch
# files, a few nested directories, megabytes on stdout and stderr, a subprocess. They must
# keep working once the cleanup and the output bounds are rebuilt.
MANY_LINES = {
    "tests": [
        {
            "type": "stdio",
            "input": "1000000\n",
            "output": "\n".join(map(str, range(1, 1000001))) + "\n",
        }
    ],
    "limits": {"time_s": 10},
}
HEAVY_HONEST = Batch(
    "made_error_heavy_honest",
    [
        control(
            "honest/fifty_mb_scratch_file",
            CALL,
            "import os, tempfile\ndef add(a, b):\n    path = os.path.join(tempfile.gettempdir(), 'scratch')\n"
            "    with open(path, 'wb') as f:\n        f.write(bytes([a % 256]) * (50 << 20))\n"
            "    size = os.path.getsize(path)\n    os.remove(path)\n    return a + b + size - (50 << 20)\n",
        ),
        control(
            "honest/twenty_nested_dirs",
            CALL,
            "import os\ndef add(a, b):\n    path = os.path.join('/tmp', *['lvl'] * 20)\n"
            "    os.makedirs(path, exist_ok=True)\n    with open(os.path.join(path, 'n'), 'w') as f:\n"
            "        f.write(str(a + b))\n    return int(open(os.path.join(path, 'n')).read())\n",
        ),
        control(
            "honest/two_thousand_small_files",
            CALL,
            "def add(a, b):\n    for i in range(2000):\n        with open(f'/tmp/part{i}', 'w') as f:\n"
            "            f.write('1')\n"
            "    return a + b + sum(int(open(f'/tmp/part{i}').read()) for i in range(2000)) - 2000\n",
        ),
        control(
            "honest/seven_mb_on_stdout",
            MANY_LINES,
            "import sys\nn = int(input())\nsys.stdout.write('\\n'.join(map(str, range(1, n + 1))) + '\\n')\n",
        ),
        control(
            "honest/one_mb_of_debug_on_stderr",
            STDIO,
            "import sys\nfor i in range(20000):\n    print('debug line', i, '.' * 40, file=sys.stderr)\n"
            "print(sum(map(int, input().split())))\n",
        ),
        control(
            "honest/closes_stdin_after_reading",
            STDIO,
            "import os, sys\ndata = sys.stdin.read()\nsys.stdin.close()\nos.close(0)\n"
            "print(sum(map(int, data.split())))\n",
        ),
        control(
            "honest/asks_a_subprocess",
            STDIO,
            "import subprocess, sys\na, b = map(int, input().split())\n"
            "out = subprocess.run([sys.executable, '-c', f'print({a} + {b})'], capture_output=True, text=True)\n"
            "print(out.stdout.strip())\n",
        ),
    ],
)


@pytest.mark.parametrize("name", HEAVY_HONEST.names)
def test_honest_programs_using_the_same_resources_are_accepted(verifier, name):
    HEAVY_HONEST.check(verifier, name)
