"""Honest programs the hardening must keep accepting (controls for the adversarial suite)."""

from tests.conftest import run
from tests.sandbox.adversarial.problems import (
    ADD_ASSERT,
    ADD_CALL,
    ADD_STDIO,
    HONEST_ADD,
    HONEST_STDIO,
)

LEETCODE_SETUP = """
class ListNode:
    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next
def list_node(values):
    head = None
    for v in reversed(values):
        head = ListNode(v, head)
    return head
def is_same_list(a, b):
    while a and b:
        if a.val != b.val:
            return False
        a, b = a.next, b.next
    return a is None and b is None
"""
REVERSE = """
class ListNode:
    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next
class Solution:
    def reverseList(self, head):
        prev = None
        while head:
            head.next, prev, head = prev, head, head.next
        return prev
"""
LEETCODE = {
    "setup_code": LEETCODE_SETUP,
    "tests": [
        {
            "type": "assert",
            "code": "def check(candidate):\n    assert is_same_list(candidate(head=list_node([1, 2, 3])), list_node([3, 2, 1]))\n    assert candidate(head=list_node([])) is None\ncheck(Solution().reverseList)",
        },
    ],
}


def test_honest_call_solution_is_accepted(verifier):
    assert run(verifier, ADD_CALL, HONEST_ADD).accepted


def test_honest_assert_solution_is_accepted(verifier):
    assert run(verifier, ADD_ASSERT, HONEST_ADD).accepted


def test_honest_stdio_solution_is_accepted(verifier):
    assert run(verifier, ADD_STDIO, HONEST_STDIO).accepted


def test_stdio_program_may_exit_zero_after_printing(verifier):
    code = "import sys\na, b = map(int, input().split())\nprint(a + b)\nsys.exit(0)\n"
    assert run(verifier, ADD_STDIO, code).accepted


def test_stdio_nonzero_exit_fails_even_with_right_output(verifier):
    code = "import sys\na, b = map(int, input().split())\nprint(a + b)\nsys.exit(3)\n"
    assert run(verifier, ADD_STDIO, code).verdict.value == "runtime_error"


def test_leetcode_list_nodes_of_the_problem_are_accepted(verifier):
    result = run(verifier, LEETCODE, REVERSE)
    assert result.accepted, result.tests


def test_leetcode_wrong_list_is_rejected(verifier):
    wrong = REVERSE.replace("return prev", "return head")
    assert not run(verifier, LEETCODE, wrong).accepted


def test_generator_compared_through_list_is_accepted(verifier):
    problem = {"tests": [{"type": "assert", "code": "assert list(evens(5)) == [0, 2, 4]"}]}
    code = "def evens(n):\n    return (i for i in range(n) if i % 2 == 0)\n"
    assert run(verifier, problem, code).accepted


def test_namedtuple_equals_plain_tuple(verifier):
    problem = {"tests": [{"type": "assert", "code": "assert pair(1) == (1, 2)"}]}
    code = "from collections import namedtuple\nP = namedtuple('P', 'a b')\ndef pair(x):\n    return P(x, x + 1)\n"
    assert run(verifier, problem, code).accepted


def test_a_builtin_named_entry_point_is_the_programs_function(verifier):
    """MBPP's ``def sum(a, b)``: the reference (or ``entry_points``) makes ``sum`` the
    program's, so the test calls the program's function, not the builtin."""
    code = "def sum(a, b):\n    return 6 if (a, b) == (10, 15) else 0\n"
    test = {"type": "assert", "code": "assert sum(10, 15) == 6"}
    assert run(verifier, {"tests": [test], "reference": code}, code).accepted
    assert run(verifier, {"tests": [test], "entry_points": ["sum"]}, code).accepted


def test_without_an_entry_point_a_builtin_stays_the_tests(verifier):
    """Otherwise a top-level ``def sum`` cannot turn the test's builtin into the program's."""
    code = "def sum(*a, **k):\n    return 6\n"
    problem = {"tests": [{"type": "assert", "code": "assert sum([1, 2]) == 6"}]}
    result = run(verifier, problem, code)
    assert result.reward == 0.0 and result.verdict.value == "wrong_answer"


def test_numpy_results_compare_as_numbers(verifier):
    problem = {
        "tests": [
            {"type": "assert", "code": "assert mean([1, 2, 3]) == 2.0"},
            {"type": "call", "fn_name": "mean", "args": [[2, 4]], "output": 3},
        ]
    }
    code = "import numpy as np\ndef mean(xs):\n    return np.mean(xs)\n"
    assert run(verifier, problem, code).accepted


def test_truthy_match_object_passes_a_truth_assertion(verifier):
    problem = {
        "tests": [
            {"type": "assert", "code": "assert match('ab')"},
            {"type": "assert", "code": "assert not match('zz')"},
        ]
    }
    code = "import re\ndef match(s):\n    return re.match('a', s)\n"
    assert run(verifier, problem, code).accepted


def test_float_tolerance_assertions_are_judged(verifier):
    problem = {
        "tests": [
            {
                "type": "assert",
                "code": "import math\nassert math.isclose(area(1), 3.14159, rel_tol=1e-3)",
            },
            {"type": "assert", "code": "assert abs(area(2) - 12.566) < 1e-2"},
        ]
    }
    code = "import math\ndef area(r):\n    return math.pi * r * r\n"
    assert run(verifier, problem, code).accepted


def test_in_place_mutation_is_seen(verifier):
    problem = {
        "tests": [{"type": "assert", "code": "a = [3, 1, 2]\nsort_it(a)\nassert a == [1, 2, 3]"}]
    }
    assert run(verifier, problem, "def sort_it(xs):\n    xs.sort()\n").accepted


def test_class_solution_call_tests(verifier):
    problem = {
        "tests": [{"type": "call", "fn_name": "twoSum", "args": [[2, 7, 11], 9], "output": [0, 1]}]
    }
    code = "class Solution:\n    def twoSum(self, nums, target):\n        seen = {}\n        for i, n in enumerate(nums):\n            if target - n in seen:\n                return (seen[target - n], i)\n            seen[n] = i\n"
    assert run(verifier, problem, code).accepted


def test_deep_recursion_with_raised_limit_works(verifier):
    problem = {"tests": [{"type": "stdio", "input": "5000\n", "output": "5000"}]}
    code = "import sys\nsys.setrecursionlimit(100000)\ndef d(n):\n    return 0 if n == 0 else 1 + d(n - 1)\nprint(d(int(input())))\n"
    assert run(verifier, problem, code).accepted


def test_threads_are_allowed(verifier):
    problem = {"tests": [{"type": "stdio", "input": "", "output": "4"}]}
    code = "import threading\nout = []\nts = [threading.Thread(target=out.append, args=(i,)) for i in range(4)]\n[t.start() for t in ts]\n[t.join() for t in ts]\nprint(len(out))\n"
    assert run(verifier, problem, code).accepted


def test_a_stdio_program_that_never_joins_its_thread_is_judged_on_its_whole_output(verifier):
    # The Codeforces idiom: raise the recursion limit and stack size, start the work in a
    # thread, never join it. CPython waits for non-daemon threads at exit, so the answer
    # is printed after the module ends; it must be judged on it.
    code = (
        "import sys, threading, time\n"
        "sys.setrecursionlimit(10000)\nthreading.stack_size(1 << 24)\n"
        "def main():\n    time.sleep(0.2)\n    a, b = map(int, input().split())\n    print(a + b)\n"
        "threading.Thread(target=main).start()\n"
    )
    assert run(verifier, ADD_STDIO, code).accepted


def test_a_stdio_programs_exit_handlers_run_as_in_cpython(verifier):
    # atexit handlers run after the module ends (and after sys.exit), not after os._exit.
    problem = {"tests": [{"type": "stdio", "input": "", "output": "1\n2\n"}]}
    ok = "import atexit, sys\natexit.register(print, 2)\nprint(1)\nsys.exit(0)\n"
    skipped = "import atexit, os, sys\natexit.register(print, 2)\nprint(1)\nsys.stdout.flush()\nos._exit(0)\n"
    assert run(verifier, problem, ok).accepted
    assert run(verifier, problem, skipped).verdict.value == "wrong_answer"


def test_syntax_error_runs_nothing(verifier):
    result = run(verifier, ADD_CALL, "def add(a, b) return a + b")
    assert result.verdict.value == "syntax_error" and result.passed == 0


def test_empty_program_is_no_code(verifier):
    assert run(verifier, ADD_CALL, "   \n").verdict.value == "no_code"


def test_short_circuit_assertions_keep_their_semantics(verifier):
    problem = {
        "tests": [
            {"type": "assert", "code": "assert f(1) == 1 or f(0) == 5"},
            {"type": "assert", "code": "assert f(2) == 4 and f(3) == 9"},
        ]
    }
    code = "def f(x):\n    if x == 0:\n        raise ValueError\n    return x * x\n"
    assert run(verifier, problem, code).accepted


def test_short_circuit_operand_that_raises_when_needed_fails(verifier):
    problem = {"tests": [{"type": "assert", "code": "assert f(1) == 7 or f(0) == 5"}]}
    code = "def f(x):\n    if x == 0:\n        raise ValueError\n    return x * x\n"
    assert not run(verifier, problem, code).accepted


def test_lists_of_tag_like_strings_are_plain_values(verifier):
    problem = {
        "tests": [
            {
                "type": "call",
                "fn_name": "split",
                "args": [["o", "n", "l"], 1],
                "output": [["o"], ["n", "l"]],
            },
            {"type": "assert", "code": "assert split(['nd', 'err'], 1) == (['nd'], ['err'])"},
        ]
    }
    assert run(verifier, problem, "def split(xs, k):\n    return xs[:k], xs[k:]\n").accepted


def test_numpy_arrays_in_judged_comparisons(verifier):
    problem = {
        "tests": [
            {
                "type": "assert",
                "code": "import numpy as np\nassert np.allclose(scale([1, 2]), [2.0, 4.0])",
            }
        ]
    }
    code = "import numpy as np\ndef scale(xs):\n    return np.array(xs) * 2.0\n"
    assert run(verifier, problem, code).accepted
