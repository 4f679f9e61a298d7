"""Red-team cases of C assert tests lifted out of the program's process
(``reward_api.verify.lifted``, its C half; ``test_languages_lifted_c.py`` has the rest).

- a ``_Bool`` whose byte is 2 (a program's type punning, or a line it writes on fd 3
  itself): the judge, unoptimised, read it as true and its negation (``b ^ 1``) as true
  too, so one constant passed both ``assert(f(x))`` and ``assert(!f(y))``; beside the
  test (``-O2``) the second assert fails. The judge now refuses such a byte (malformed).
- a call in an unevaluated operand (``sizeof(f())``): beside the test it never runs, where
  the recorder ran it and the program's state moved on; such a test is not lifted.
"""

from __future__ import annotations

import pytest

from reward_api import Verdict
from reward_api.verify import lifted
from tests.sandbox.adversarial.cases import Batch, asserts, control, exploit, need_roots

PRIME_TEST = (
    "#include <assert.h>\n#include <stdbool.h>\nint main(void) {\n    assert(is_prime(7));\n"
    "    assert(!is_prime(8));\n    assert(is_prime(13));\n    assert(!is_prime(1));\n"
    "    return 0;\n}\n"
)
PRIME = asserts(PRIME_TEST, language="c", entry_points=["is_prime"])
PRIME_DECLARED_TEST = (
    "#include <assert.h>\n#include <stdbool.h>\nint main(void) {\n    bool a = is_prime(7);\n"
    "    assert(a);\n    bool b = is_prime(8);\n    assert(!b);\n    return 0;\n}\n"
)
PRIME_DECLARED = asserts(PRIME_DECLARED_TEST, language="c", entry_points=["is_prime"])
HONEST_PRIME = (
    "#include <stdbool.h>\nbool is_prime(int n) {\n    if (n < 2) return false;\n"
    "    for (int d = 2; d * d <= n; d++) if (n % d == 0) return false;\n    return true;\n}\n"
)
# a constant _Bool of byte 2, by type punning: the recorder stores the returned byte as is
BOOL_TWO = r"""
#include <stdbool.h>
#include <string.h>
bool is_prime(int n) {
    bool b;
    unsigned char c = 2;
    memcpy(&b, &c, 1);
    __asm__("" : "+m"(b));
    return b;
}
"""
# the same byte written on fd 3 by the program, the recorder's own lines sent to /dev/null
BOOL_TWO_ON_FD3 = r"""
#include <fcntl.h>
#include <stdbool.h>
#include <unistd.h>
static int saved = -1;
bool is_prime(int n) {
    if (saved < 0) {
        saved = dup(3);
        dup2(open("/dev/null", O_WRONLY), 3);
    }
    if (write(saved, "r02\n", 4) < 0) _exit(1);
    return false;
}
"""

# beside the test, ``sizeof(next_id())`` does not call ``next_id``
SIZEOF_TEST = (
    "#include <assert.h>\nint main(void) {\n    assert(sizeof(next_id()) == sizeof(int));\n"
    "    assert(next_id() == 1);\n    assert(next_id() == 2);\n    return 0;\n}\n"
)
NEXT_ID = "int next_id(void) { static int n = 0; return ++n; }\n"

BATCH = Batch(
    "languages-lifted-c-redteam",
    [
        exploit("bool-byte-two", PRIME, BOOL_TWO),
        exploit("bool-byte-two-declared", PRIME_DECLARED, BOOL_TWO),
        exploit("bool-byte-two-on-fd3", PRIME, BOOL_TWO_ON_FD3),
        control("honest-bool", PRIME, HONEST_PRIME),
        control("honest-bool-declared", PRIME_DECLARED, HONEST_PRIME),
        control("sizeof-does-not-call",
                asserts(SIZEOF_TEST, language="c", entry_points=["next_id"]), NEXT_ID),
    ],
)  # fmt: skip
EXPECTED = {
    "bool-byte-two": Verdict.wrong_answer,
    "bool-byte-two-declared": Verdict.wrong_answer,
    "bool-byte-two-on-fd3": Verdict.wrong_answer,
}


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("c")


@pytest.mark.parametrize("name", BATCH.names)
def test_lifted_c_redteam(verifier, name):
    BATCH.check(verifier, name)
    if name in EXPECTED:
        r = BATCH.run(verifier).results[name]
        assert r.verdict == EXPECTED[name], (r.verdict, [t.detail for t in r.tests])


def test_the_bool_cases_are_lifted():
    shape = lifted.plan(PRIME_TEST, ["is_prime"], "c")
    assert shape is not None and len(shape.calls) == 4
    judge = lifted.judge_c(PRIME_TEST, shape, ["_Bool"] * 4)
    assert "__cr_lift_truth(__cr_lift_take(0, sizeof(_Bool)), _Generic((_Bool)0" in judge


@pytest.mark.parametrize("test", [
    SIZEOF_TEST,
    "int main(void) {\n    int k = _Generic(f(1), int: 1, default: 0);\n    return !k;\n}\n",
    "int main(void) {\n    __typeof__(f(1)) v = 3;\n    return v != 3;\n}\n",
    "int main(void) {\n    assert(sizeof f(1) == 4);\n}\n",
])  # fmt: skip
def test_a_call_in_an_unevaluated_operand_is_not_lifted(test):
    assert lifted.plan(test, ["f", "next_id"], "c") is None


def test_sizeof_in_a_calls_arguments_stays_lifted():
    test = "int main(void) {\n    assert(f(sizeof(int)) == 4);\n}\n"
    assert lifted.plan(test, ["f"], "c") is not None
