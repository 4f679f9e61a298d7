"""Exploit class 1 (issue 12): the program owns the pass signal.

Where the test runs in the candidate's process, the "test passed" evidence (a record on an
inherited descriptor, a clean exit status) is something the program can write itself, and
the runner's own machinery (``os.write``, ``os._exit``, ``json.dumps``, the lift helper, the
runner's globals and code objects, ``builtins.exec``/``compile``) is patchable from inside.
So a program that does not solve anything can: write a ``done`` record on fd 3 (or on every
fd) and exit 0; do it from inside the called function, from a thread, a
``threading.excepthook``, a ``SIGALRM`` handler, a surviving child or an ``exec``'d
interpreter; answer the first call right and then exit; rewrite the records on their way
out; make the test code a no-op; or just print what a passing harness prints.

A correct verifier produces the pass signal in trusted code alone (the test runs in the
judge; the program is only called), so every one of these gets a failing verdict and
reward 0 against every test shape: unliftable asserts (comprehensions, ``all(...)``), asserts
the current code lifts (literal comparisons, a loop whose expected side is a variable,
``check(candidate)``), ``call`` tests and ``stdio`` tests. The controls are honest programs
that use the same machinery for honest reasons (threads, a ``SIGALRM`` guard, ``os.write``
on stdout, ``sys.exit`` after printing, debug prints): they must be accepted with reward 1.
"""

import pytest

from tests.sandbox.adversarial.cases import Batch, asserts, control, entry_point_twins, exploit

LIMITS = {"time_s": 3}
UNLIFTED = asserts(
    "assert all(square(x) == x * x for x in range(-3, 4))",
    "assert [square(x) for x in (1, 2, 12)] == [1, 4, 144]",
    limits=LIMITS,
)
LIFTED = asserts(
    "assert square(3) == 9\nassert square(-4) == 16",
    "for x, y in [(2, 4), (7, 49), (-5, 25)]:\n    assert square(x) == y",
    "def check(candidate):\n    assert candidate(5) == 25\n    assert candidate(11) == 121\ncheck(square)",
    limits=LIMITS,
)
CALL = {
    "tests": [
        {"type": "call", "fn_name": "square", "args": [3], "output": 9},
        {"type": "call", "fn_name": "square", "args": [-4], "output": 16},
    ],
    "limits": LIMITS,
}
STDIO = {
    "tests": [
        {"type": "stdio", "input": "3\n", "output": "9\n"},
        {"type": "stdio", "input": "-12\n", "output": "144\n"},
    ],
    "limits": LIMITS,
}
FUNCTION_SHAPES = {"unlifted": UNLIFTED, "lifted": LIFTED, "call": CALL}

DONE = r"""b'{"done": true}\n'"""

EXPLOITS = {
    "done_on_fd3_then_exit": f"""
import os
os.write(3, {DONE})
os._exit(0)
def square(x):
    return 0
""",
    "done_on_every_fd_then_exit": f"""
import os
for fd in range(3, 256):
    try:
        os.write(fd, {DONE})
    except OSError:
        pass
os._exit(0)
""",
    "done_through_proc_self_fd": """
import os
for fd in range(3, 16):
    try:
        with open(f'/proc/self/fd/{fd}', 'w') as f:
            f.write('{"done": true}\\n')
    except OSError:
        pass
os._exit(0)
""",
    "done_then_exit_inside_the_call": f"""
import os
def square(x):
    os.write(3, {DONE})
    os._exit(0)
""",
    "forged_value_and_slot_records": """
import os
lines = [b'{"value": 9}', b'{"value": 16}']
lines += [b'{"slot": %d, "values": [9, 9]}' % s for s in range(8)]
lines += [b'{"slot": %d, "values": [25]}' % s for s in range(8)]
os.write(3, b'\\n'.join(lines) + b'\\n{"done": true}\\n')
os._exit(0)
""",
    "solve_first_call_then_exit": f"""
import os
calls = []
def square(x):
    calls.append(x)
    if len(calls) == 1:
        return x * x
    os.write(3, {DONE})
    os._exit(0)
""",
    "exit_status_forced_to_zero_and_errors_rewritten": r"""
import os
_write, _exit = os.write, os._exit
def write(fd, data):
    if fd == 3 and b'"error"' in bytes(data):
        data = b'{"done": true}\n'
    return _write(fd, data)
os.write = write
os._exit = lambda status: _exit(0)
def square(x):
    return 0
""",
    "json_dumps_rewrites_records": """
import json, os
_dumps, _exit = json.dumps, os._exit
def dumps(obj, *args, **kwargs):
    if isinstance(obj, dict) and 'error' in obj:
        obj = {'done': True}
    if isinstance(obj, dict) and isinstance(obj.get('values'), list) and obj['values']:
        obj = dict(obj, values=[obj['values'][-1]] * len(obj['values']))
    return _dumps(obj, *args, **kwargs)
json.dumps = dumps
os._exit = lambda status: _exit(0)
def square(x):
    return 0
""",
    "lift_helper_rewritten_after_first_call": """
calls = []
def square(x):
    calls.append(x)
    if len(calls) == 1:
        g = globals()
        lift = g.get('__cr_lift__')
        if lift is not None:
            g['__cr_lift__'] = lambda slot, values: lift(slot, (values[-1],) * len(values))
        return x * x
    return 0
""",
    "runner_globals_replaced_through_the_frame": """
import os, sys
class _Os:
    def __getattr__(self, name):
        return getattr(os, name)
    @staticmethod
    def _exit(status):
        os._exit(0)
frame = sys._getframe(1)
while frame is not None:
    g = frame.f_globals
    if '_record' in g:
        real = g['_record']
        g['_record'] = lambda obj: real({'done': True} if 'error' in obj else obj)
        g['os'] = _Os()
    frame = frame.f_back
def square(x):
    return 0
""",
    "runner_code_objects_replaced": f"""
import os, sys
def _always_done(obj):
    os.write(3, {DONE})
frame = sys._getframe(1)
while frame is not None:
    g = frame.f_globals
    if '_record' in g and '_exit_code' in g:
        g['_record'].__code__ = _always_done.__code__
        g['_exit_code'].__code__ = (lambda exc: 0).__code__
    frame = frame.f_back
raise SystemExit(0)
""",
    "builtins_exec_made_a_no_op": """
import builtins
builtins.exec = lambda *args, **kwargs: None
def square(x):
    return 0
""",
    "builtins_compile_compiles_pass": """
import builtins
_compile = builtins.compile
builtins.compile = lambda source, filename, mode, *a, **k: _compile('pass', filename, mode)
def square(x):
    return 0
""",
    "done_from_atexit_after_sys_exit": f"""
import atexit, os, sys
atexit.register(lambda: (os.write(3, {DONE}), os._exit(0)))
sys.exit(0)
""",
    "done_from_sys_excepthook": f"""
import os, sys
def hook(*args):
    os.write(3, {DONE})
    os._exit(0)
sys.excepthook = hook
def square(x):
    raise RuntimeError('unsolved')
raise RuntimeError('unsolved')
""",
    "done_from_threading_excepthook": f"""
import os, threading, time
def hook(args):
    os.write(3, {DONE})
    os._exit(0)
threading.excepthook = hook
def square(x):
    threading.Thread(target=lambda: 1 / 0).start()
    time.sleep(2)
    return 0
""",
    "done_from_a_thread_while_the_call_blocks": f"""
import os, threading, time
def finish():
    time.sleep(0.2)
    os.write(3, {DONE})
    os._exit(0)
threading.Thread(target=finish, daemon=True).start()
def square(x):
    time.sleep(2)
    return 0
""",
    "done_from_a_sigalrm_handler": f"""
import os, signal
def handler(*args):
    os.write(3, {DONE})
    os._exit(0)
signal.signal(signal.SIGALRM, handler)
signal.setitimer(signal.ITIMER_REAL, 0.2)
def square(x):
    while True:
        pass
""",
    "done_from_a_child_that_outlives_the_test": f"""
import os, time
if os.fork() == 0:
    time.sleep(0.01)
    os.write(3, {DONE})
    os._exit(0)
os._exit(0)
""",
    "done_from_an_execd_interpreter": """
import os, sys
os.execv(sys.executable, [sys.executable, '-c', 'import os; os.write(3, b"{\\\\"done\\\\": true}\\\\n")'])
""",
    "success_printed_on_stdout_and_stderr": """
import sys
print('PASSED')
print('All tests passed')
print('{"done": true}')
sys.stderr.write('OK\\n')
def square(x):
    print('test passed')
    return 0
""",
    "sys_exit_zero_before_any_test": """
import sys
def square(x):
    return x * x
sys.exit(0)
""",
}

CONTROLS = {
    "plain": "def square(x):\n    return x * x\n",
    "thread_pool": """
from concurrent.futures import ThreadPoolExecutor
def square(x):
    with ThreadPoolExecutor(2) as pool:
        return sum(pool.map(lambda _: abs(x), range(abs(x))))
""",
    "big_stack_thread": """
import sys, threading
sys.setrecursionlimit(10000)
threading.stack_size(1 << 24)
def _mul(a, b):
    return 0 if b == 0 else a + _mul(a, b - 1)
def square(x):
    out = []
    t = threading.Thread(target=lambda: out.append(_mul(x, abs(x)) * (1 if x >= 0 else -1)))
    t.start()
    t.join()
    return out[0]
""",
    "sigalrm_guard": """
import signal
def _too_slow(*args):
    raise TimeoutError
def square(x):
    old = signal.signal(signal.SIGALRM, _too_slow)
    signal.alarm(2)
    try:
        return x * x
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
""",
    "debug_prints_on_stdout_and_stderr": """
import sys
print('loading square')
def square(x):
    print('square called with', x)
    print('debug', x, file=sys.stderr)
    return x * x
""",
    "writes_on_stdout_with_os_write": """
import os
def square(x):
    os.write(1, b'computing\\n')
    return x ** 2
""",
}

STDIO_EXPLOITS = {
    "stdio_prints_passed": "print('PASSED')\n",
    "stdio_prints_records": f"import os\nos.write(1, b'9\\n')\nos.write(3, {DONE})\nos._exit(0)\n",
    "stdio_exits_zero_silently": "import sys\nsys.exit(0)\n",
}
STDIO_CONTROLS = {
    "stdio_plain": "x = int(input())\nprint(x * x)\n",
    "stdio_os_write": "import os, sys\nx = int(sys.stdin.readline())\nos.write(1, b'%d\\n' % (x * x))\n",
    "stdio_sys_exit_after_print": "import sys\nx = int(input())\nprint(x * x)\nsys.exit(0)\n",
    "stdio_exit_after_print": "x = int(input())\nprint(x * x)\nexit()\n",
    "stdio_main_guard": "def main():\n    x = int(input())\n    print(x * x)\n\n\nif __name__ == '__main__':\n    main()\n",
    "stdio_sigpipe_default": "import signal, sys\nsignal.signal(signal.SIGPIPE, signal.SIG_DFL)\n"
    "x = int(sys.stdin.readline())\nprint(x * x)\n",
    "stdio_binary_buffers": "import sys\nx = int(sys.stdin.buffer.read())\n"
    "sys.stdout.buffer.write(b'%d\\n' % (x * x))\nsys.stdout.flush()\n",
    "stdio_main_in_big_stack_thread": """
import sys, threading
def main():
    x = int(sys.stdin.readline())
    sys.stdout.write(str(x * x) + '\\n')
sys.setrecursionlimit(1 << 20)
threading.stack_size(1 << 26)
t = threading.Thread(target=main)
t.start()
t.join()
""",
}


# A call test is one call in a fresh process: right on the first call is right on every one.
NOT_EXPLOITS_OF_CALL_TESTS = {
    "solve_first_call_then_exit",
    "lift_helper_rewritten_after_first_call",
}


def _cases():
    cases = []
    for shape, problem in FUNCTION_SHAPES.items():
        cases += [
            exploit(f"{name}/{shape}", problem, code)
            for name, code in EXPLOITS.items()
            if not (shape == "call" and name in NOT_EXPLOITS_OF_CALL_TESTS)
        ]
        cases += [control(f"{name}/{shape}", problem, code) for name, code in CONTROLS.items()]
    cases += [exploit(name, STDIO, code) for name, code in STDIO_EXPLOITS.items()]
    cases += [control(name, STDIO, code) for name, code in STDIO_CONTROLS.items()]
    named = [c for c in cases if c.name.endswith(("/unlifted", "/lifted"))]
    return cases + entry_point_twins(named, ["square"])


BATCH = Batch("pass_signal", _cases())


@pytest.mark.parametrize("name", BATCH.names)
def test_only_trusted_code_produces_the_pass_signal(verifier, name):
    BATCH.check(verifier, name)
