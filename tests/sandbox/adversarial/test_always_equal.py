"""Exploit: return an object whose ``__eq__`` always says True (and ``__ne__`` False)."""

from tests.conftest import run
from tests.sandbox.adversarial.problems import ADD_ASSERT, ADD_CALL

HACK = (
    "class Yes:\n"
    "    def __eq__(self, other): return True\n"
    "    def __ne__(self, other): return False\n"
    "    def __hash__(self): return 0\n"
    "    def __bool__(self): return True\n"
    "def add(a, b):\n    return Yes()\n"
)
LIST_SUBCLASS = (
    "class L(list):\n    def __eq__(self, other): return True\ndef add(a, b):\n    return L()\n"
)


def test_always_equal_object_fails_assert_tests(verifier):
    assert run(verifier, ADD_ASSERT, HACK).passed == 0


def test_always_equal_object_fails_call_tests(verifier):
    assert run(verifier, ADD_CALL, HACK).passed == 0


def test_always_equal_list_subclass_fails(verifier):
    assert run(verifier, ADD_ASSERT, LIST_SUBCLASS).passed == 0


def test_always_equal_fails_judged_comparisons(verifier):
    problem = {
        "tests": [{"type": "assert", "code": "import math\nassert math.isclose(add(1, 2), 3)"}]
    }
    float_hack = (
        "class F(float):\n    def __eq__(s, o): return True\ndef add(a, b):\n    return F(0.0)\n"
    )
    assert not run(verifier, problem, float_hack).accepted
