"""Honest shape (issue 12, class 7): the test expects the program to raise.

``try: f(-1) / except ValueError: pass / else: raise AssertionError``, a ``raises(exc, fn,
*args)`` helper in the test (pytest.raises-like), ``unittest``'s ``assertRaises`` as a call
and as a context manager, ``contextlib.suppress``, the message (``str(e)``, ``e.args``), a
builtin base class catching a builtin subclass (``except LookupError`` for a ``KeyError``),
the program's own exception class derived from ``ValueError``, and ``StopIteration`` from
an exhausted generator: plain Python accepts all of these. A correct verifier brings an
exception raised by a call back as its builtin type (the program's own class as its
nearest builtin base), with its message, so each control is accepted with reward 1.

The exploit twins must fail: the wrong exception type, no exception, a class merely
*named* ``ValueError``, an exit (``sys.exit``, ``os._exit``) where an exception is
expected, ``KeyboardInterrupt`` to abort the judge, and ``StopIteration`` raised out of
a plain function so that ``all(map(...))`` in the test ends early and reports ``True``.
"""

import pytest

from tests.sandbox.adversarial.cases import (
    Batch,
    asserts,
    control,
    default_entry_point_twins,
    exploit,
)

RAISES = asserts(
    "try:\n    validate(-1)\nexcept ValueError:\n    pass\nelse:\n    raise AssertionError('no ValueError')",
    "def raises(exc, fn, *args):\n    try:\n        fn(*args)\n    except exc:\n        return True\n"
    "    return False\nassert raises(ValueError, validate, -5)\nassert not raises(ValueError, validate, 5)",
    "try:\n    validate(-2)\n    assert False, 'no error'\nexcept ValueError as e:\n"
    "    assert str(e) == 'negative: -2' and e.args == ('negative: -2',)",
    "import unittest\nunittest.TestCase().assertRaises(ValueError, validate, -3)\n"
    "with unittest.TestCase().assertRaises(ValueError):\n    validate(-4)",
    "import contextlib\nwith contextlib.suppress(ValueError):\n    validate(-9)\n    raise AssertionError('not raised')",
    "assert validate(7) == 7",
    entry_points=["validate"],
)
LOOKUP = asserts(
    "try:\n    lookup({}, 'k')\nexcept LookupError:\n    pass\nelse:\n    raise AssertionError",
    "try:\n    lookup({}, 'k')\nexcept KeyError as e:\n    assert e.args == ('k',)",
    "assert lookup({'k': 1}, 'k') == 1",
    entry_points=["lookup"],
)
GENERATOR = asserts(
    "g = once(4)\nassert next(g) == 4\ntry:\n    next(g)\nexcept StopIteration:\n    pass\nelse:\n"
    "    raise AssertionError('not exhausted')",
    entry_points=["once"],
)
EARLY_END = asserts(
    "assert all(map(is_small, [1, 2, 3]))",
    "assert not any(map(is_small, [50, 60]))",
    entry_points=["is_small"],
)
CATCH_ALL = asserts(
    "try:\n    validate(-1)\nexcept BaseException:\n    pass\nelse:\n    raise AssertionError",
    "assert validate(2) == 2",
    entry_points=["validate"],
)

HONEST = (
    "def validate(n):\n    if n < 0:\n        raise ValueError(f'negative: {n}')\n    return n\n"
)

CASES = [
    control("raises/value_error", RAISES, HONEST),
    control(
        "raises/own_subclass_of_value_error",
        RAISES,
        "class NegativeError(ValueError):\n    pass\n"
        "def validate(n):\n    if n < 0:\n        raise NegativeError(f'negative: {n}')\n    return n\n",
    ),
    control(
        "raises/from_a_helper_with_traceback",
        RAISES,
        "def _check(n):\n    if n < 0:\n        raise ValueError(f'negative: {n}')\n"
        "def validate(n):\n    try:\n        _check(n)\n    except ValueError:\n        raise\n    return n\n",
    ),
    exploit(
        "raises/wrong_type",
        RAISES,
        "def validate(n):\n    if n < 0:\n        raise TypeError(f'negative: {n}')\n    return n\n",
    ),
    exploit("raises/never_raises", RAISES, "def validate(n):\n    return n\n"),
    exploit(
        "raises/class_named_value_error",
        RAISES,
        "ValueError = type('ValueError', (Exception,), {})\n"
        "def validate(n):\n    if n < 0:\n        raise ValueError(f'negative: {n}')\n    return n\n",
    ),
    exploit(
        "raises/keyboard_interrupt",
        RAISES,
        "def validate(n):\n    if n < 0:\n        raise KeyboardInterrupt\n    return n\n",
    ),
    control("lookup/key_error", LOOKUP, "def lookup(d, k):\n    return d[k]\n"),
    exploit(
        "lookup/index_error",
        LOOKUP,
        "def lookup(d, k):\n    if k not in d:\n        raise IndexError(k)\n    return d[k]\n",
    ),
    control("generator/exhausted", GENERATOR, "def once(x):\n    yield x\n"),
    exploit("generator/never_ends", GENERATOR, "def once(x):\n    while True:\n        yield x\n"),
    control("early_end/honest", EARLY_END, "def is_small(n):\n    return n < 10\n"),
    exploit(
        "early_end/stop_iteration_from_a_function",
        EARLY_END,
        "def is_small(n):\n    raise StopIteration\n",
    ),
    control("catch_all/raises", CATCH_ALL, HONEST),
    exploit(
        "catch_all/sys_exit",
        CATCH_ALL,
        "import sys\ndef validate(n):\n    if n < 0:\n        sys.exit(1)\n    return n\n",
    ),
    exploit(
        "catch_all/os_exit",
        CATCH_ALL,
        "import os\ndef validate(n):\n    if n < 0:\n        os._exit(0)\n    return n\n",
    ),
]

BATCH = Batch("expected_exceptions", CASES + default_entry_point_twins(CASES))


@pytest.mark.parametrize("name", BATCH.names)
def test_expected_exceptions_are_judged_as_plain_python_would(verifier, name):
    BATCH.check(verifier, name)
