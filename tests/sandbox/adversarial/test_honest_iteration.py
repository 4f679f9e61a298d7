"""Honest shape (issue 12, class 7): the test iterates, maps or sorts with the program's code.

``next(gen(3))``, ``list(gen(3))``, ``for v in gen(3)``, ``itertools.islice`` of an
infinite generator, ``list(map(f, xs))``, ``sorted(xs, key=f)``, ``max(xs, key=f)``,
``filter``, ``functools.reduce(f, xs)``, ``all(map(pred, xs))``, a callback the test passes
in (``apply_twice(lambda x: x * 2, 3)``), methods of returned builtin values: plain Python
accepts all of these, but a result that must cross the sandbox as encoded data cannot be
a generator or a function, so they were rejected. A correct verifier hands functions and
generators back as handles whose calls and iteration are further calls (pulled lazily: an
infinite generator is fine), so every control is accepted with reward 1.

The exploit twins are wrong programs under the same tests (a generator yielding the
wrong values, a key that sorts the wrong way): they must still fail.
"""

import pytest

from tests.sandbox.adversarial.cases import (
    Batch,
    asserts,
    control,
    default_entry_point_twins,
    exploit,
)

GEN = asserts(
    "assert next(countdown(3)) == 3",
    "assert list(countdown(3)) == [3, 2, 1]",
    "out = []\nfor v in countdown(2):\n    out.append(v)\nassert out == [2, 1]",
    "g = countdown(1)\nassert next(g) == 1\nassert next(g, 'end') == 'end'",
    "assert sum(1 for _ in countdown(50)) == 50",
    entry_points=["countdown"],
)
INFINITE = asserts(
    "import itertools\nassert list(itertools.islice(naturals(), 5)) == [0, 1, 2, 3, 4]",
    "g = naturals()\nassert [next(g) for _ in range(3)] == [0, 1, 2]",
    entry_points=["naturals"],
)
MAP = asserts(
    "assert list(map(double, [1, 2, 3])) == [2, 4, 6]",
    "assert list(map(double, 'ab')) == ['aa', 'bb']",
    "assert [double(x) for x in range(3)] == [0, 2, 4]",
    entry_points=["double"],
)
SORT_KEY = asserts(
    "assert sorted(['bb', 'a', 'ccc'], key=weight) == ['a', 'bb', 'ccc']",
    "assert max(['bb', 'a', 'ccc'], key=weight) == 'ccc'",
    "assert min([3, -5, 2], key=weight) == 2",
    entry_points=["weight"],
)
FILTER_REDUCE = asserts(
    "assert list(filter(is_prime, range(12))) == [2, 3, 5, 7, 11]",
    "assert all(map(is_prime, [2, 13])) and not any(map(is_prime, [1, 4, 9]))",
    "import functools\nassert functools.reduce(lambda a, p: a + is_prime(p), range(20), 0) == 8",
    entry_points=["is_prime"],
)
CALLBACK = asserts(
    "assert apply_twice(lambda x: x * 2, 3) == 12",
    "def inc(v):\n    return v + 1\nassert apply_twice(inc, 0) == 2",
    entry_points=["apply_twice"],
)
RETURNED_METHODS = asserts(
    "assert tally('a b a').get('a') == 2 and sorted(tally('a b a').items()) == [('a', 2), ('b', 1)]",
    "assert shout('hi').upper().lower() == 'hi!'",
    "assert shout('x').endswith('!') and shout('x').count('!') == 1",
    "assert evens(7).index(4) == 2",
    entry_points=["tally", "shout", "evens"],
)

CASES = [
    control(
        "generator/yield",
        GEN,
        "def countdown(n):\n    while n > 0:\n        yield n\n        n -= 1\n",
    ),
    control(
        "generator/genexpr", GEN, "def countdown(n):\n    return (i for i in range(n, 0, -1))\n"
    ),
    control("generator/iterator", GEN, "def countdown(n):\n    return iter(range(n, 0, -1))\n"),
    control(
        "generator/iterator_class",
        GEN,
        "class Countdown:\n    def __init__(self, n):\n        self.n = n\n"
        "    def __iter__(self):\n        return self\n    def __next__(self):\n"
        "        if self.n <= 0:\n            raise StopIteration\n        self.n -= 1\n"
        "        return self.n + 1\ndef countdown(n):\n    return Countdown(n)\n",
    ),
    exploit(
        "generator/off_by_one",
        GEN,
        "def countdown(n):\n    while n >= 0:\n        yield n\n        n -= 1\n",
    ),
    control(
        "infinite/count",
        INFINITE,
        "def naturals():\n    n = 0\n    while True:\n        yield n\n        n += 1\n",
    ),
    control(
        "infinite/itertools_count",
        INFINITE,
        "import itertools\ndef naturals():\n    return itertools.count()\n",
    ),
    exploit(
        "infinite/starts_at_one",
        INFINITE,
        "import itertools\ndef naturals():\n    return itertools.count(1)\n",
    ),
    control("map/function", MAP, "def double(x):\n    return x * 2\n"),
    control("map/lambda", MAP, "double = lambda x: x + x\n"),
    exploit("map/squares", MAP, "def double(x):\n    return x * x\n"),
    control(
        "sort_key/len_or_abs",
        SORT_KEY,
        "def weight(v):\n    return len(v) if isinstance(v, str) else abs(v)\n",
    ),
    exploit(
        "sort_key/negated",
        SORT_KEY,
        "def weight(v):\n    return -len(v) if isinstance(v, str) else -abs(v)\n",
    ),
    control(
        "filter_reduce/trial_division",
        FILTER_REDUCE,
        "def is_prime(n):\n    if n < 2:\n        return False\n"
        "    return all(n % d for d in range(2, int(n ** 0.5) + 1))\n",
    ),
    exploit(
        "filter_reduce/odd_numbers",
        FILTER_REDUCE,
        "def is_prime(n):\n    return n == 2 or n % 2 == 1 and n > 1\n",
    ),
    control("callback/calls_twice", CALLBACK, "def apply_twice(f, x):\n    return f(f(x))\n"),
    exploit("callback/calls_once", CALLBACK, "def apply_twice(f, x):\n    return f(x)\n"),
    control(
        "returned_methods/builtins",
        RETURNED_METHODS,
        "from collections import Counter\ndef tally(text):\n    return Counter(text.split())\n"
        "def shout(s):\n    return s + '!'\n"
        "def evens(n):\n    return list(range(0, n + 1, 2))\n",
    ),
    exploit(
        "returned_methods/double_bang",
        RETURNED_METHODS,
        "from collections import Counter\ndef tally(text):\n    return Counter(text.split())\n"
        "def shout(s):\n    return s + '!!'\n"
        "def evens(n):\n    return list(range(0, n + 1, 2))\n",
    ),
]

BATCH = Batch("iteration", CASES + default_entry_point_twins(CASES))


@pytest.mark.parametrize("name", BATCH.names)
def test_iteration_and_callbacks_are_judged_as_plain_python_would(verifier, name):
    BATCH.check(verifier, name)
