"""Exploit class 2 (issue 12): the test code runs in the program's namespace.

When an ``assert`` test runs as written next to the program (today: everything that is
not a literal ``assert f(x) == y``), the program decides what the test computes:

- top-level definitions shadow the builtins the test calls (``def abs``, ``class set``,
  ``def sorted``, ``def all``/``any``, ``def len``, ``def isinstance``, ``def print``,
  ``def range``, ``def zip``/``enumerate``, ``ValueError = Exception``), or patch modules
  (``math.isclose``, ``operator.eq``, ``functools.reduce``, ``unittest.TestCase``,
  ``collections.Counter.__eq__``, ``numpy.allclose``, ``builtins.all``, a fake
  ``sys.modules['math']``), including a module the test uses without importing it;
- the called function reads the test's data: ``inputs``/``results`` arrays, the loop
  variable holding the expected value, a tolerance global it can also rewrite, the
  locals of ``check(candidate)`` or of EvalPlus' loop (``sys._getframe``), the globals dict
  found through ``gc``, the genexpr frame of an ``all(...)`` test;
- an object that answers every comparison "equal" passes the shapes whose comparison
  runs beside it: walrus, ``ok = f(x) == y; assert ok``, ``if f(x) != y: raise``, and
  ``isinstance`` fooled by a ``__class__`` attribute.

A correct verifier runs the test in the judge, where nothing the program defines exists:
the program is reached only through calls of its entry points, values cross as plain data
(an object comes back as a handle, never as the program's ``__eq__``), so each exploit
fails (verdict not accepted, reward 0). Each shape also has an honest program that must be
accepted with reward 1, among them programs whose own globals happen to share a name with
the test's data (``results``), and a function legitimately named like a builtin (``sum``)
reached through ``entry_points`` or the reference's top-level names. Every problem is
verified twice: with ``entry_points`` named, and with the contract's default.
"""

import pytest

from tests.sandbox.adversarial.cases import Batch, asserts, control, entry_point_twins, exploit

YES = """
class Yes:
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __hash__(self):
        return 0
    def __bool__(self):
        return True
    def __mod__(self, other):
        return self
    __add__ = __radd__ = __sub__ = __mul__ = __mod__
"""

EVALPLUS = """
import numpy as np
def is_floats(x) -> bool:
    if isinstance(x, float):
        return True
    if isinstance(x, (list, tuple)):
        return all(isinstance(i, float) for i in x)
    if isinstance(x, np.ndarray):
        return x.dtype == np.float64 or x.dtype == np.float32
    return False
def assertion(out, exp, atol):
    exact_match = out == exp
    if atol == 0 and is_floats(exp):
        atol = 1e-6
    if not exact_match and atol != 0:
        assert np.allclose(out, exp, rtol=1e-07, atol=atol)
    else:
        assert exact_match
def check(candidate):
    inputs = [[2], [10], [0.25], [81]]
    results = [1.4142135623730951, 3.1622776601683795, 0.5, 9.0]
    for i, (inp, exp) in enumerate(zip(inputs, results)):
        assertion(candidate(*inp), exp, 0)
check(root)
"""

# (shape, problem, entry points, honest programs, exploit programs)
GROUPS = [
    (
        "abs_tolerance",
        asserts(
            "assert abs(root(2) - 1.4142135623730951) < 1e-9",
            "assert abs(root(9) - 3) < 1e-9",
        ),
        ["root"],
        {
            "sqrt": "import math\ndef root(x):\n    return math.sqrt(x)\n",
            "newton": "def root(x):\n    r = max(x, 1.0)\n    for _ in range(100):\n"
            "        r = (r + x / r) / 2\n    return r\n",
        },
        {
            "def_abs": "def abs(x):\n    return 0\ndef root(x):\n    return 0.0\n",
            "abs_lambda": "abs = lambda x: 0\ndef root(x):\n    return x / 2\n",
        },
    ),
    (
        "all_any_genexpr",
        asserts(
            "assert all(is_even(x) for x in [2, 4, 6, 100])",
            "assert not any(is_even(x) for x in [1, 3, 7])",
            "assert all(map(is_even, [0, -2])) and not any(map(is_even, [-1]))",
        ),
        ["is_even"],
        {"modulo": "def is_even(n):\n    return n % 2 == 0\n"},
        {
            "def_all_any": "def all(it):\n    return True\ndef any(it):\n    return False\n"
            "def is_even(n):\n    return True\n",
            "builtins_all_any_patched": "import builtins\nbuiltins.all = lambda it: True\n"
            "builtins.any = lambda it: False\ndef is_even(n):\n    return n > 50\n",
        },
    ),
    (
        "sorted_of_result",
        asserts(
            "assert sorted(uniq([3, 1, 3, 2])) == [1, 2, 3]", "assert sorted(uniq([9, 9])) == [9]"
        ),
        ["uniq"],
        {"set_then_sorted": "def uniq(xs):\n    return sorted(set(xs))\n"},
        {
            "def_sorted": YES + "def sorted(xs, key=None, reverse=False):\n    return Yes()\n"
            "def uniq(xs):\n    return xs\n"
        },
    ),
    (
        "set_of_result",
        asserts("assert set(uniq([3, 1, 3, 2])) == {1, 2, 3}", "assert set(uniq([])) == set()"),
        ["uniq"],
        {"dict_fromkeys": "def uniq(xs):\n    return list(dict.fromkeys(xs))\n"},
        {
            "class_set": YES + "class set(Yes):\n    def __init__(self, *args):\n        pass\n"
            "def uniq(xs):\n    return [0]\n"
        },
    ),
    (
        "len_of_result",
        asserts("assert len(uniq([4, 4, 1])) == 2", "assert len(uniq([7])) == 1"),
        ["uniq"],
        {
            "seen_loop": "def uniq(xs):\n    out = []\n    for x in xs:\n        if x not in out:\n"
            "            out.append(x)\n    return out\n"
        },
        {"len_lambda": YES + "len = lambda obj: Yes()\ndef uniq(xs):\n    return xs\n"},
    ),
    (
        "isinstance_of_result",
        asserts("assert isinstance(to_int('12'), int)", "assert isinstance(to_int('-7'), int)"),
        ["to_int"],
        {"int_call": "def to_int(s):\n    return int(s)\n"},
        {
            "def_isinstance": "def isinstance(obj, cls):\n    return True\n"
            "def to_int(s):\n    return s\n",
            "class_attribute_int": "class FakeInt:\n    __class__ = int\n"
            "def to_int(s):\n    return FakeInt()\n",
        },
    ),
    (
        "print_in_test",
        asserts("print('checking square')\nassert all(square(x) == x * x for x in range(5))"),
        ["square"],
        {"mul": "def square(x):\n    return x * x\n"},
        {
            "def_print_exits": "import os\ndef print(*args, **kwargs):\n"
            "    os.write(3, b'{\"done\": true}\\n')\n    os._exit(0)\n"
            "def square(x):\n    return x + 1\n"
        },
    ),
    (
        "range_in_test",
        asserts("import math\nassert all(fact(i) == math.factorial(i) for i in range(1, 8))"),
        ["fact"],
        {
            "loop": "def fact(n):\n    r = 1\n    for i in range(2, n + 1):\n        r *= i\n    return r\n"
        },
        {"def_range": "def range(*args):\n    return []\ndef fact(n):\n    return n\n"},
    ),
    (
        "math_isclose_imported_by_test",
        asserts(
            "import math\nassert math.isclose(area(1), 3.14159, rel_tol=1e-4)",
            "import math\nassert math.isclose(area(2), 12.56637, rel_tol=1e-4)",
        ),
        ["area"],
        {"pi_r2": "import math\ndef area(r):\n    return math.pi * r * r\n"},
        {
            "math_isclose_patched": "import math\nmath.isclose = lambda *a, **k: True\n"
            "def area(r):\n    return 0\n",
            "fake_math_in_sys_modules": "import sys, types\nfake = types.ModuleType('math')\n"
            "fake.isclose = lambda *a, **k: True\nsys.modules['math'] = fake\n"
            "def area(r):\n    return 3\n",
        },
    ),
    (
        "math_isclose_not_imported_by_test",
        asserts(
            "assert math.isclose(area(1), 3.14159, rel_tol=1e-4)",
            "assert math.isclose(area(3), 28.27433, rel_tol=1e-4)",
        ),
        ["area"],
        {"pi_r2_imports_math": "import math\ndef area(r):\n    return math.pi * r ** 2\n"},
        {
            "math_isclose_patched": "import math\nmath.isclose = lambda *a, **k: True\n"
            "def area(r):\n    return 0\n",
            "class_named_math": "class math:\n    isclose = staticmethod(lambda *a, **k: True)\n"
            "def area(r):\n    return r\n",
        },
    ),
    (
        "operator_eq",
        asserts(
            "import operator\nassert operator.eq(square(4), 16)\nassert operator.eq(square(-1), 1)"
        ),
        ["square"],
        {"pow": "def square(x):\n    return x ** 2\n"},
        {
            "operator_eq_patched": "import operator\noperator.eq = lambda a, b: True\n"
            "def square(x):\n    return 2 * x\n"
        },
    ),
    (
        "functools_reduce",
        asserts(
            "from functools import reduce\nassert reduce(lambda a, b: a * b, digits(1234)) == 24"
        ),
        ["digits"],
        {"str_digits": "def digits(n):\n    return [int(c) for c in str(n)]\n"},
        {
            "reduce_patched": YES + "import functools\nfunctools.reduce = lambda *a, **k: Yes()\n"
            "def digits(n):\n    return [n]\n"
        },
    ),
    (
        "unittest_assert_equal",
        asserts(
            "import unittest\ncase = unittest.TestCase()\ncase.assertEqual(square(3), 9)\n"
            "case.assertEqual(square(-2), 4)\ncase.assertTrue(square(0) == 0)"
        ),
        ["square"],
        {"mul_abs": "def square(x):\n    return abs(x) * abs(x)\n"},
        {
            "testcase_patched": "import unittest\n"
            "unittest.TestCase.assertEqual = lambda *a, **k: None\n"
            "unittest.TestCase.assertTrue = lambda *a, **k: None\n"
            "def square(x):\n    return -1\n"
        },
    ),
    (
        "counter_equality",
        asserts(
            "from collections import Counter\n"
            "assert Counter(word_counts('a b a')) == Counter({'a': 2, 'b': 1})"
        ),
        ["word_counts"],
        {
            "dict_count": "def word_counts(text):\n    out = {}\n    for w in text.split():\n"
            "        out[w] = out.get(w, 0) + 1\n    return out\n"
        },
        {
            "counter_eq_patched": "import collections\n"
            "collections.Counter.__eq__ = lambda self, other: True\n"
            "def word_counts(text):\n    return {}\n"
        },
    ),
    (
        "inputs_results_arrays",
        asserts(
            "inputs = [[1, 2], [3, 4], [10, -4]]\nresults = [3, 7, 6]\n"
            "for inp, exp in zip(inputs, results):\n    assert add(*inp) == exp"
        ),
        ["add"],
        {
            "plus": "def add(a, b):\n    return a + b\n",
            "own_global_named_inputs": "inputs = []\ndef add(a, b):\n    inputs.append((a, b))\n"
            "    return a + b\n",
            "own_global_named_results": "results = {}\ndef add(a, b):\n"
            "    if (a, b) not in results:\n        results[(a, b)] = a + b\n"
            "    return results[(a, b)]\n",
        },
        {
            "index_the_arrays": "def add(a, b):\n    return results[inputs.index([a, b])]\n",
            "find_the_arrays_with_gc": "import gc\ndef add(a, b):\n"
            "    for o in gc.get_objects():\n"
            "        if isinstance(o, dict) and isinstance(o.get('results'), list) and 'inputs' in o:\n"
            "            return o['results'][o['inputs'].index([a, b])]\n    return 0\n",
            "def_zip_empty": "def zip(*its):\n    return []\ndef add(a, b):\n    return a - b\n",
        },
    ),
    (
        "loop_variable_expected",
        asserts("for x, y in [(2, 4), (7, 49), (-5, 25)]:\n    assert square(x) == y"),
        ["square"],
        {"mul": "def square(x):\n    return x * x\n"},
        {
            "return_the_loop_variable": "def square(x):\n    return y\n",
            "caller_frame_locals": "import sys\ndef square(x):\n"
            "    return sys._getframe(1).f_locals.get('y')\n",
        },
    ),
    (
        "tolerance_global",
        asserts(
            "TOL = 1e-9\ndef close(a, b):\n    return abs(a - b) <= TOL\n"
            "assert close(root(2), 1.4142135623730951)\nassert close(root(10), 3.1622776601683795)"
        ),
        ["root"],
        {
            "pow_half": "def root(x):\n    return x ** 0.5\n",
            "own_tol_global": "TOL = 1e-12\ndef root(x):\n    r = x\n"
            "    while abs(r * r - x) > TOL * x:\n        r = (r + x / r) / 2\n    return r\n",
        },
        {
            "widen_tolerance": "def root(x):\n    globals()['TOL'] = float('inf')\n    return 0.0\n",
            "rewrite_the_helper": "def root(x):\n"
            "    globals()['close'].__code__ = (lambda a, b: True).__code__\n    return -1.0\n",
        },
    ),
    (
        "setup_code_helper",
        asserts(
            "assert all(close(root(x), x ** 0.5) for x in (2, 3, 5))",
            setup_code="def close(a, b):\n    return abs(a - b) < 1e-9\n",
        ),
        ["root"],
        {
            "newton": "def root(x):\n    r = x\n    for _ in range(60):\n        r = (r + x / r) / 2\n"
            "    return r\n"
        },
        {
            "redefine_setup_helper": "def close(a, b):\n    return True\ndef root(x):\n    return x\n",
            "shadow_abs_under_setup_helper": "def abs(v):\n    return 0\ndef root(x):\n    return 1\n",
        },
    ),
    (
        "check_candidate_locals",
        asserts(
            "def check(candidate):\n    for x, y in [(3, 9), (5, 25), (12, 144)]:\n"
            "        assert candidate(x) == y\ncheck(square)"
        ),
        ["square"],
        {"mul": "def square(x):\n    return x * x\n"},
        {
            "read_check_locals": "import sys\ndef square(x):\n"
            "    return sys._getframe(1).f_locals.get('y')\n"
        },
    ),
    (
        "evalplus_assertion",
        asserts(EVALPLUS),
        ["root"],
        {
            "math_sqrt": "import math\ndef root(x):\n    return math.sqrt(x)\n",
            "numpy_sqrt": "import numpy as np\ndef root(x):\n    return np.sqrt(x)\n",
        },
        {
            "read_exp_from_the_loop": "import sys\ndef root(x):\n"
            "    return sys._getframe(1).f_locals['exp']\n",
            "def_enumerate_empty": "def enumerate(it, start=0):\n    return iter(())\n"
            "def root(x):\n    return x\n",
            "numpy_allclose_patched": "import numpy\nnumpy.allclose = lambda *a, **k: True\n"
            "def root(x):\n    return x / 3\n",
        },
    ),
    (
        "genexpr_frame",
        asserts("assert all(square(x) == e for x, e in [(2, 4), (9, 81), (-1, 1)])"),
        ["square"],
        {"mul": "def square(x):\n    return x * x\n"},
        {
            "read_genexpr_locals": "import sys\ndef square(x):\n"
            "    return sys._getframe(1).f_locals.get('e')\n"
        },
    ),
    (
        "walrus",
        asserts(
            "assert (r := square(6)) == 36 and r % 4 == 0",
            "assert [y := square(3), y + 1] == [9, 10]",
        ),
        ["square"],
        {"mul": "def square(x):\n    return x * x\n"},
        {"always_equal": YES + "def square(x):\n    return Yes()\n"},
    ),
    (
        "ok_variable",
        asserts(
            "ok = square(7) == 49\nassert ok",
            "ok = square(-3) == 9 and square(0) == 0\nassert ok, 'square'",
        ),
        ["square"],
        {"mul": "def square(x):\n    return x * x\n"},
        {"always_equal": YES + "def square(x):\n    return Yes()\n"},
    ),
    (
        "if_then_raise",
        asserts(
            "if square(8) != 64:\n    raise AssertionError('square(8)')",
            "if not square(2) == 4:\n    raise ValueError('square(2)')",
        ),
        ["square"],
        {"mul": "def square(x):\n    return x * x\n"},
        {"always_equal": YES + "def square(x):\n    return Yes()\n"},
    ),
    (
        "expected_exception",
        asserts(
            "assert validate(3) == 3",
            "try:\n    validate(-1)\nexcept ValueError:\n    pass\n"
            "else:\n    raise AssertionError('no ValueError')",
        ),
        ["validate"],
        {
            "raise_value_error": "def validate(n):\n    if n < 0:\n"
            "        raise ValueError('negative')\n    return n\n"
        },
        {
            "value_error_rebound": "ValueError = Exception\ndef validate(n):\n"
            "    if n < 0:\n        raise KeyError(n)\n    return n\n"
        },
    ),
]

# A function legitimately named like a builtin: the problem says so (entry_points) or its
# reference defines it. Without either, ``sum`` in the test is the builtin.
SUM_TESTS = ["assert sum(2, 3) == 5", "assert sum(-1, 1) == 0"]
HONEST_SUM = "def sum(a, b):\n    return a + b\n"
BUILTIN_NAMED = [
    control(
        "builtin_named_entry_point/entry_points",
        asserts(*SUM_TESTS, entry_points=["sum"]),
        HONEST_SUM,
    ),
    control(
        "builtin_named_entry_point/reference",
        asserts(*SUM_TESTS, reference="def sum(a, b):\n    return b + a\n"),
        HONEST_SUM,
    ),
    exploit(
        "builtin_sum_shadowed",
        asserts("assert sum(parts(10)) == 10", "assert sum(parts(3)) == 3", entry_points=["parts"]),
        YES + "def sum(xs, start=0):\n    return Yes()\ndef parts(n):\n    return [1]\n",
    ),
    control(
        "builtin_sum_of_parts",
        asserts("assert sum(parts(10)) == 10", "assert sum(parts(3)) == 3", entry_points=["parts"]),
        "def parts(n):\n    return [1] * n\n",
    ),
]


def _cases():
    cases = []
    for shape, problem, entry_points, honest, hacks in GROUPS:
        group = [control(f"{shape}/{n}", problem, code) for n, code in honest.items()]
        group += [exploit(f"{shape}/{n}", problem, code) for n, code in hacks.items()]
        cases += group + entry_point_twins(group, entry_points)
    return cases + BUILTIN_NAMED


BATCH = Batch("test_namespace", _cases())


@pytest.mark.parametrize("name", BATCH.names)
def test_nothing_the_program_defines_changes_what_the_test_computes(verifier, name):
    BATCH.check(verifier, name)
