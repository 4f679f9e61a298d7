"""Honest shape (issue 12, class 7): tests that look at the type or the identity of a result.

``type(f(x)) == int``, ``type(f(x)) is float``, ``isinstance(f(x), list)``,
``callable(f(2))``, ``f(a) is a``, ``f(x) is None``, ``f(x) is True``: honest programs that
plain Python accepts were rejected when the result crossed the sandbox as an encoded copy
(a copy is never ``a``; a function does not encode). A correct verifier decodes results
into real builtin values, keeps the identity of an argument returned as itself, and hands
back functions as callable handles, so every control here is accepted with reward 1.

The exploit twins are the same tests with a program that plain Python rejects too (a
``bool`` where ``type(...) == int`` is asked, an ``int`` subclass, a copy where ``is`` is
asked, a non-callable): they must still fail, so "accept everything" does not pass here.
"""

import pytest

from tests.sandbox.adversarial.cases import (
    Batch,
    asserts,
    control,
    default_entry_point_twins,
    exploit,
)

TYPE_INT = asserts(
    "assert type(count_vowels('banana')) == int",
    "assert count_vowels('sky') == 0",
    entry_points=["count_vowels"],
)
TYPE_FLOAT = asserts(
    "assert type(mean([1, 2])) is float and mean([1, 2]) == 1.5", entry_points=["mean"]
)
TYPE_BOOL = asserts(
    "assert type(is_even(4)) is bool\nassert is_even(4) is True\nassert is_even(3) is False",
    entry_points=["is_even"],
)
ISINSTANCE = asserts(
    "assert isinstance(pair(1, 2), tuple)",
    "assert isinstance(chunks([1, 2, 3], 2), list) and chunks([1, 2, 3], 2) == [[1, 2], [3]]",
    "assert isinstance(index_of(['a', 'b']), dict)",
    entry_points=["pair", "chunks", "index_of"],
)
CALLABLE = asserts(
    "assert callable(make_adder(2))",
    "assert make_adder(2)(3) == 5",
    "add5 = make_adder(5)\nassert [add5(i) for i in range(3)] == [5, 6, 7]",
    entry_points=["make_adder"],
)
IS_SAME = asserts(
    "a = [3, 1, 2]\nassert sort_in_place(a) is a\nassert a == [1, 2, 3]",
    "b = []\nassert sort_in_place(b) is b",
    entry_points=["sort_in_place"],
)
IS_NONE = asserts(
    "assert find([1, 2], 5) is None", "assert find([1, 2], 2) == 1", entry_points=["find"]
)
IS_NOT = asserts(
    "a = [2, 1]\nr = sorted_copy(a)\nassert r is not a and r == [1, 2] and a == [2, 1]",
    entry_points=["sorted_copy"],
)

CASES = [
    control(
        "type_int/len_of_filter",
        TYPE_INT,
        "def count_vowels(s):\n    return len([c for c in s if c in 'aeiou'])\n",
    ),
    exploit(
        "type_int/returns_bool",
        TYPE_INT,
        "def count_vowels(s):\n    return any(c in 'aeiou' for c in s)\n",
    ),
    exploit(
        "type_int/int_subclass",
        TYPE_INT,
        "class Count(int):\n    pass\ndef count_vowels(s):\n"
        "    return Count(sum(c in 'aeiou' for c in s))\n",
    ),
    control(
        "type_float/true_division", TYPE_FLOAT, "def mean(xs):\n    return sum(xs) / len(xs)\n"
    ),
    exploit(
        "type_float/returns_fraction",
        TYPE_FLOAT,
        "from fractions import Fraction\ndef mean(xs):\n    return Fraction(sum(xs), len(xs))\n",
    ),
    control("type_bool/comparison", TYPE_BOOL, "def is_even(n):\n    return n % 2 == 0\n"),
    exploit("type_bool/returns_int", TYPE_BOOL, "def is_even(n):\n    return 1 - n % 2\n"),
    control(
        "isinstance/builtins",
        ISINSTANCE,
        "def pair(a, b):\n    return (a, b)\n"
        "def chunks(xs, n):\n    return [xs[i:i + n] for i in range(0, len(xs), n)]\n"
        "def index_of(xs):\n    return {x: i for i, x in enumerate(xs)}\n",
    ),
    exploit(
        "isinstance/lists_for_tuples",
        ISINSTANCE,
        "def pair(a, b):\n    return [a, b]\n"
        "def chunks(xs, n):\n    return [xs[i:i + n] for i in range(0, len(xs), n)]\n"
        "def index_of(xs):\n    return {x: i for i, x in enumerate(xs)}\n",
    ),
    control(
        "callable/closure",
        CALLABLE,
        "def make_adder(n):\n    def add(x):\n        return x + n\n    return add\n",
    ),
    control("callable/lambda", CALLABLE, "make_adder = lambda n: lambda x: x + n\n"),
    control(
        "callable/functools_partial",
        CALLABLE,
        "import functools, operator\ndef make_adder(n):\n"
        "    return functools.partial(operator.add, n)\n",
    ),
    control(
        "callable/instance_with_call",
        CALLABLE,
        "class Adder:\n    def __init__(self, n):\n        self.n = n\n"
        "    def __call__(self, x):\n        return self.n + x\n"
        "def make_adder(n):\n    return Adder(n)\n",
    ),
    exploit("callable/returns_a_number", CALLABLE, "def make_adder(n):\n    return n\n"),
    control(
        "is_same/returns_the_argument",
        IS_SAME,
        "def sort_in_place(a):\n    a.sort()\n    return a\n",
    ),
    exploit("is_same/returns_a_copy", IS_SAME, "def sort_in_place(a):\n    return sorted(a)\n"),
    control(
        "is_none/falls_off_the_end",
        IS_NONE,
        "def find(xs, v):\n    for i, x in enumerate(xs):\n        if x == v:\n"
        "            return i\n",
    ),
    exploit(
        "is_none/returns_minus_one",
        IS_NONE,
        "def find(xs, v):\n    return xs.index(v) if v in xs else -1\n",
    ),
    control("is_not/sorted_copy", IS_NOT, "def sorted_copy(a):\n    return sorted(a)\n"),
    exploit("is_not/sorts_in_place", IS_NOT, "def sorted_copy(a):\n    a.sort()\n    return a\n"),
]
BATCH = Batch("types_and_identity", CASES + default_entry_point_twins(CASES))


@pytest.mark.parametrize("name", BATCH.names)
def test_types_and_identity_are_judged_as_plain_python_would(verifier, name):
    BATCH.check(verifier, name)
