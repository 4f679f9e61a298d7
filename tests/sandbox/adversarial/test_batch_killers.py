"""Exploit class 3 (issue 12): one sample's output crashes grading for everyone.

Grading decodes and compares what a program produced on the host. Values that raise
there took down the whole ``verify`` call (the CLI died with no results, HTTP answered
500, an async job stayed ``running``): a stdout line ``sNaN`` (a signaling NaN makes
``Decimal`` comparison raise), a returned ``Decimal('sNaN')``, a ``Fraction`` whose
denominator was set to 0, a lone surrogate in a returned string or an exception's class
name (the result no longer serialises to JSON), self-referential lists and dicts (the
host's conversion recurses forever), NaN in sets and dict keys, huge and deeply nested
values, and records forged on the results descriptor with payloads no honest value
encodes to (``["frac", "1", "0"]``, ``["dec", "sNaN"]``, a 5,000-digit ``["i", ...]``, an
unknown tag, a dangling reference, an unhashable key).

A correct verifier turns any exception while decoding, comparing or serialising one
sample's output into that sample's verdict: the killer gets a failing verdict with reward
0.0 (never ``sandbox_error``, never ``None``), and every other sample of the batch gets its
right result. Each killer is verified beside an honest sample (so a crash is attributed
to it), and all of them together with honest samples in one batch, which must answer
every honest sample with reward 1.
"""

import pytest

from tests.sandbox.adversarial.cases import Batch, asserts, control, exploit

STDIO = {"tests": [{"type": "stdio", "input": "1 2\n", "output": "3\n"}]}
CALL = {"tests": [{"type": "call", "fn_name": "add", "args": [1, 2], "output": 3}]}
ASSERT = asserts("assert add(1, 2) == 3", "x = 3\nassert add(1, 2) == x")
ASSERT_NAMED = asserts(
    "assert add(1, 2) == 3", "x = 3\nassert add(1, 2) == x", entry_points=["add"]
)
SHAPES = {"stdio": STDIO, "call": CALL, "assert": ASSERT}


def returning(expr: str, imports: str = "") -> str:
    return f"{imports}def add(a, b):\n    return {expr}\n"


def forging(record: str) -> str:
    """A program that writes ``record`` then a done record on every inherited descriptor."""
    return (
        "import os\nfor fd in range(3, 64):\n    try:\n"
        f"        os.write(fd, {record!r}.encode() + b'\\n' + b'{{\"done\": true}}\\n')\n"
        "    except OSError:\n        pass\nos._exit(0)\n"
    )


NESTED = "    v = []\n    for _ in range({n}):\n        v = [v]\n    return v\n"
FRACTION_ZERO = (
    "from fractions import Fraction\ndef add(a, b):\n    f = Fraction(1, 2)\n"
    "    f._denominator = 0\n    return f\n"
)

KILLERS = {
    "stdio": {
        "snan": "print('sNaN')\n",
        "negative_snan_with_payload": "print('-sNaN123')\n",
        "snan_lowercase_padded": "print('  snan  ')\n",
        "nan": "print(float('nan'))\n",
        "huge_exponent": "print('1e999999999999999999999')\n",
        "five_thousand_digits": "print('9' * 5000)\n",
        "invalid_utf8_and_nul": "import sys\nsys.stdout.buffer.write(b'\\xff\\xfe\\x00\\n')\n",
        "surrogate_bytes": "import sys\n"
        "sys.stdout.buffer.write('\\ud800'.encode('utf-8', 'surrogatepass') + b'\\n')\n",
    },
    "call": {
        "decimal_snan": returning("Decimal('sNaN')", "from decimal import Decimal\n"),
        "decimal_nan": returning("Decimal('NaN')", "from decimal import Decimal\n"),
        "decimal_huge_exponent": returning("Decimal('1e999999')", "from decimal import Decimal\n"),
        "fraction_zero_denominator": FRACTION_ZERO,
        "lone_surrogate_string": returning("'\\ud800'"),
        "lone_surrogate_exception_name": "def add(a, b):\n"
        "    raise type('\\ud800', (Exception,), {})('\\udfff')\n",
        "self_referential_list": "def add(a, b):\n    v = [a]\n    v.append(v)\n    return v\n",
        "self_referential_dict": "def add(a, b):\n    d = {'a': a}\n    d['self'] = d\n    return d\n",
        "nan_in_a_set": returning("{float('nan'), float('nan'), 3}"),
        "nan_dict_keys": returning("{float('nan'): 1, float('nan'): 2}"),
        "complex_nan": returning("complex('nan+nanj')"),
        "hundred_thousand_digit_int": returning("10 ** 100000"),
        "nested_990_deep": "def add(a, b):\n" + NESTED.format(n=990),
        "nested_100000_deep": "def add(a, b):\n" + NESTED.format(n=100000),
        "shared_sublists_100000": returning("[v] * 100000", "v = [1, 2]\n"),
        "forged_fraction_zero": forging('{"value": ["frac", "1", "0"]}'),
        "forged_decimal_snan": forging('{"value": ["dec", "sNaN"]}'),
        "forged_5000_digit_int": forging('{"value": ["i", "' + "9" * 5000 + '"]}'),
        "forged_unknown_tag": forging('{"value": ["zz", 1]}'),
        "forged_dangling_ref": forging('{"value": ["l", [["ref", 99]]]}'),
        "forged_unhashable_key": forging('{"value": ["d", [[["l", []], 1]]]}'),
        "forged_surrogate_error": forging('{"error": "\\ud800", "detail": "\\udfff"}'),
        "forged_self_ref": forging('{"value": ["l", [["ref", 0]]]}'),
    },
    "assert": {
        "decimal_snan": returning("Decimal('sNaN')", "from decimal import Decimal\n"),
        "fraction_zero_denominator": FRACTION_ZERO,
        "self_referential_list": "def add(a, b):\n    v = [a]\n    v.append(v)\n    return v\n",
        "forged_decimal_snan_slots": forging(
            '{"slot": 0, "values": [["dec", "sNaN"]]}\n{"slot": 1, "values": [["dec", "sNaN"], 3]}'
        ),
        "forged_fraction_zero_slots": forging(
            '{"slot": 0, "values": [["frac", "3", "0"]]}\n{"slot": 1, "values": [["frac", "3", "0"], 3]}'
        ),
    },
}
HONEST = {
    "stdio": "a, b = map(int, input().split())\nprint(a + b)\n",
    "call": "def add(a, b):\n    return a + b\n",
    "assert": "def add(a, b):\n    return b + a\n",
}
MORE_HONEST = [
    control(
        "honest/stdio_sys_stdin",
        STDIO,
        "import sys\nprint(sum(map(int, sys.stdin.read().split())))\n",
    ),
    control(
        "honest/stdio_float_formatting",
        STDIO,
        "a, b = map(float, input().split())\nprint(f'{a + b:.0f}')\n",
    ),
    control("honest/call_sum", CALL, "def add(a, b):\n    return sum((a, b))\n"),
    control("honest/call_operator", CALL, "import operator\nadd = operator.add\n"),
    control(
        "honest/assert_named_entry_points", ASSERT_NAMED, "def add(a, b):\n    return a - -b\n"
    ),
    control("honest/assert_lambda", ASSERT, "add = lambda a, b: a + b\n"),
]

# Honest values of the same kinds as the killers: exact fractions and decimals, NaN and
# infinity where the test asks for them, unusual text, deep but finite nesting, shared rows,
# big lists: a verifier that refuses the killers' types wholesale rejects these.
LOOK_ALIKES = [
    control(
        "look_alike/fraction",
        asserts("from fractions import Fraction\nassert half(3) == Fraction(3, 2)"),
        "from fractions import Fraction\ndef half(n):\n    return Fraction(n, 2)\n",
    ),
    control(
        "look_alike/decimal",
        asserts("from decimal import Decimal\nassert price(3) == Decimal('3.30')"),
        "from decimal import Decimal\ndef price(n):\n    return Decimal(n) * Decimal('1.10')\n",
    ),
    control(
        "look_alike/nan_and_inf",
        asserts(
            "import math\nassert math.isnan(safe_div(0.0, 0.0))",
            "assert safe_div(1.0, 0.0) == float('inf') and safe_div(-1.0, 0.0) == -float('inf')",
        ),
        "import math\ndef safe_div(a, b):\n    if b == 0:\n"
        "        return math.nan if a == 0 else math.copysign(math.inf, a)\n    return a / b\n",
    ),
    control(
        "look_alike/unicode_and_nul",
        {
            "tests": [
                {
                    "type": "call",
                    "fn_name": "echo",
                    "args": ["h\u00e9llo \U0001f600\x00"],
                    "output": "h\u00e9llo \U0001f600\x00",
                }
            ]
        },
        "def echo(s):\n    return ''.join(list(s))\n",
    ),
    control(
        "look_alike/nested_500_deep",
        asserts("assert depth(nest(500)) == 500"),
        "def nest(n):\n    v = []\n    for _ in range(n - 1):\n        v = [v]\n    return v\n"
        "def depth(v):\n    d = 0\n    while isinstance(v, list):\n        d += 1\n"
        "        v = v[0] if v else None\n    return d\n",
    ),
    control(
        "look_alike/shared_rows",
        {
            "tests": [
                {
                    "type": "call",
                    "fn_name": "grid",
                    "args": [2, 3],
                    "output": [[0, 0, 0], [0, 0, 0]],
                }
            ]
        },
        "def grid(r, c):\n    return [[0] * c] * r\n",
    ),
    control(
        "look_alike/tuple_keys_and_bytes",
        asserts("assert index_pairs([1, 1]) == {(0, 1): True}", "assert to_bytes('ab') == b'ab'"),
        "def index_pairs(xs):\n    return {(i, j): True for i in range(len(xs))\n"
        "            for j in range(i + 1, len(xs)) if xs[i] == xs[j]}\n"
        "def to_bytes(s):\n    return s.encode()\n",
    ),
    control(
        "look_alike/complex",
        asserts("assert root2(-4) == 2j"),
        "import cmath\ndef root2(x):\n    return cmath.sqrt(x)\n",
    ),
    control(
        "look_alike/hundred_thousand_ints",
        {
            "tests": [
                {"type": "call", "fn_name": "upto", "args": [100000], "output": list(range(100000))}
            ]
        },
        "def upto(n):\n    return list(range(n))\n",
    ),
    control(
        "look_alike/stdio_nan",
        {"tests": [{"type": "stdio", "input": "0 0\n", "output": "nan\n"}]},
        "a, b = map(float, input().split())\nprint(a / b if b else float('nan'))\n",
    ),
    control(
        "look_alike/stdio_exponent_and_negative_zero",
        {"tests": [{"type": "stdio", "input": "9\n", "output": "0.000000001 0\n"}]},
        "n = int(input())\nprint(10.0 ** -n, -0.0)\n",
    ),
]

PAIRS = {
    f"{shape}/{name}": Batch(
        f"killer_{shape}_{name}",
        [
            exploit(f"killer/{shape}/{name}", SHAPES[shape], code),
            control(f"beside/{shape}/{name}", SHAPES[shape], HONEST[shape] + f"# beside {name}\n"),
        ],
    )
    for shape, killers in KILLERS.items()
    for name, code in killers.items()
}
MIXED = Batch(
    "killers_mixed",
    [
        case
        for shape, killers in KILLERS.items()
        for name, code in killers.items()
        for case in (
            exploit(f"killer/{shape}/{name}", SHAPES[shape], code),
            control(f"honest/{shape}/after_{name}", SHAPES[shape], HONEST[shape] + f"# {name}\n"),
        )
    ]
    + MORE_HONEST
    + LOOK_ALIKES,
)


@pytest.mark.parametrize("killer", list(PAIRS))
def test_a_killer_gets_a_verdict_and_its_neighbour_its_result(verifier, killer):
    batch = PAIRS[killer]
    for name in batch.names:
        batch.check(verifier, name)


@pytest.mark.parametrize("name", MIXED.names)
def test_a_batch_of_killers_still_answers_every_sample(verifier, name):
    MIXED.check(verifier, name)
