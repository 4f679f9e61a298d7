"""Assert lifting: expected values stay outside the sandbox code."""

import pytest

from reward_api.verify.lifting import NotLiftable, lift


def test_expected_literal_is_not_in_the_sandbox_code():
    lifted = lift("assert add(20, 22) == 987654")
    assert "987654" not in lifted.sandbox_code
    assert lifted.checks[0].has_literal and lifted.checks[0].literal == 987654


def test_helper_comparisons_go_to_the_judge_with_the_expected_side():
    lifted = lift("import math\nassert math.isclose(area(2), 12.56637, rel_tol=1e-3)")
    assert "12.56637" not in lifted.sandbox_code
    assert "12.56637" in lifted.checks[0].expr and not lifted.checks[0].has_literal


def test_check_function_asserts_are_lifted_and_required():
    lifted = lift("def check(candidate):\n    assert candidate(1) == 424242\ncheck(f)")
    assert "424242" not in lifted.sandbox_code and lifted.checks[0].required


def test_setup_helpers_stay_trusted_even_if_the_program_redefines_them():
    setup = "def is_same(a, b):\n    return a == b\n"
    lifted = lift("assert is_same(f(1), 99999)", setup, frozenset({"is_same"}))
    assert "99999" not in lifted.sandbox_code


def test_shadowed_builtins_belong_to_the_program():
    lifted = lift("assert sum(10, 15) == 6", None, frozenset({"sum"}))
    assert "sum(10, 15)" in lifted.sandbox_code and "6" not in lifted.sandbox_code.split(",")[-1]


def test_short_circuit_operands_are_guarded_and_expected_values_stay_out():
    lifted = lift("assert f(1) == 31337 or f(2) == 31338")
    assert "3133" not in lifted.sandbox_code and "__cr_try__" in lifted.sandbox_code


def test_comprehensions_over_program_values_are_not_lifted():
    with pytest.raises(NotLiftable):
        lift("assert all(f(x) == y for x, y in [(1, 2)])")


def test_asserts_under_if_are_not_required():
    lifted = lift("if True:\n    assert f(1) == 2")
    assert not lifted.checks[0].required
