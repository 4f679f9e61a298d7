"""Honest shape (issue 12, class 7): integers over 4,300 digits.

CPython 3.11 refuses ``int``/``str`` conversions over 4,300 decimal digits
(``sys.set_int_max_str_digits``), so a verifier that moves integers as decimal text
rejects ``pow2(20000) == 2 ** 20000``, ``math.factorial(2000)`` or a 10,000-digit
``call`` answer that plain Python compares without any conversion. A correct verifier
moves integers of any size (as bytes, hex, or with the limit lifted on its side) and
accepts each control with reward 1; a stdio program that lifts the limit itself and
prints a 6,000-digit answer must be accepted too (the comparator parses numbers of any
length).

The exploit twins are off by one, or in the wrong sign, at the same sizes: they must fail,
so "every huge integer equals every other" does not pass here.
"""

import math
from decimal import Decimal

import pytest

from tests.sandbox.adversarial.cases import (
    Batch,
    asserts,
    control,
    default_entry_point_twins,
    exploit,
)

BIG = 2**20000  # its decimal text is written with Decimal: this process keeps the 4,300 limit
ASSERTS = asserts(
    "assert pow2(20000) == 2 ** 20000",
    "import math\nassert fact(2000) == math.factorial(2000)",
    "assert pow2(20000) % 1000 == 376 and pow2(20000) > 10 ** 6000",
    "assert [pow2(15000), -pow2(15000)] == [2 ** 15000, -(2 ** 15000)]",
    "assert {pow2(14300): 'x'} == {2 ** 14300: 'x'}",
    "assert pow2(14284) > 10 ** 4299 and pow2(14284) < 10 ** 4300",
    entry_points=["pow2", "fact"],
)
CALL = {
    "tests": [
        {"type": "call", "fn_name": "pow2", "args": [20000], "output": BIG},
        {"type": "call", "fn_name": "pow2", "args": [33220], "output": 2**33220},
        {"type": "call", "fn_name": "neg_pow2", "args": [16000], "output": -(2**16000)},
    ]
}
STDIO = {
    "tests": [
        {"type": "stdio", "input": "20000\n", "output": f"{Decimal(BIG)}\n"},
        {"type": "stdio", "input": "2000\n", "output": f"{Decimal(math.factorial(2000))}\n"},
    ]
}
HONEST = (
    "import math\ndef pow2(n):\n    return 2 ** n\ndef neg_pow2(n):\n    return -(1 << n)\n"
    "def fact(n):\n    return math.factorial(n)\n"
)
SHIFT = (
    "def pow2(n):\n    return 1 << n\ndef neg_pow2(n):\n    return -pow2(n)\n"
    "def fact(n):\n    r = 1\n    for i in range(2, n + 1):\n        r *= i\n    return r\n"
)
OFF_BY_ONE = (
    "import math\ndef pow2(n):\n    return 2 ** n + 1\ndef neg_pow2(n):\n    return -(1 << n) + 1\n"
    "def fact(n):\n    return math.factorial(n) - 1\n"
)
WRONG_SIGN = (
    "import math\ndef pow2(n):\n    return 2 ** n\ndef neg_pow2(n):\n    return 1 << n\n"
    "def fact(n):\n    return -math.factorial(n)\n"
)
STDIO_HONEST = (
    "import math, sys\nsys.set_int_max_str_digits(0)\nn = int(input())\n"
    "print(2 ** n if n > 5000 else math.factorial(n))\n"
)
STDIO_OFF = STDIO_HONEST.replace("math.factorial(n))", "math.factorial(n)) + 10")

CASES = [
    control("asserts/pow", ASSERTS, HONEST),
    control("asserts/shift_and_loop", ASSERTS, SHIFT),
    exploit("asserts/off_by_one", ASSERTS, OFF_BY_ONE),
    exploit("asserts/wrong_sign", ASSERTS, WRONG_SIGN),
    control("call/pow", CALL, HONEST),
    control("call/shift", CALL, SHIFT),
    exploit("call/off_by_one", CALL, OFF_BY_ONE),
    exploit("call/wrong_sign", CALL, WRONG_SIGN),
    control("stdio/lifts_the_limit", STDIO, STDIO_HONEST),
    exploit("stdio/off_by_ten", STDIO, STDIO_OFF),
]

BATCH = Batch("big_ints", CASES + default_entry_point_twins(CASES))


@pytest.mark.parametrize("name", BATCH.names)
def test_integers_of_any_size_are_judged_as_plain_python_would(verifier, name):
    BATCH.check(verifier, name)
