"""Test plans: which tests the host checks, which the judge runs, and the entry points."""

from __future__ import annotations

from reward_api import Problem
from reward_api.verify.plans import entry_points, plan_tests


def _problem(*codes: str, **fields: object) -> Problem:
    return Problem.model_validate(
        {"id": "p", "tests": [{"type": "assert", "code": c} for c in codes], **fields}
    )


def _kinds(problem: Problem) -> list[str]:
    return [p.kind for p in plan_tests(problem, list(range(len(problem.tests))))]


def test_literal_asserts_of_an_entry_point_are_checked_by_the_host() -> None:
    problem = _problem(
        "assert f(1, [2, 3]) == (4, 5)",
        "assert (None) is f(x=-1)",
        "assert not f(0)",
        "assert f(1) != 2\nassert f(2) == 3",
    )
    assert _kinds(problem) == ["checked"] * 4


def test_every_other_shape_goes_to_the_judge() -> None:
    problem = _problem(
        "for x in range(3):\n    assert f(x) == x",
        "assert all(f(x) for x in [1, 2])",
        "ok = f(1) == 2\nassert ok",
        "import math\nassert math.isclose(f(1), 2.0)",
        "assert f(1) == g(2)",
        "assert f(1) is 5",
        "assert f(*[1]) == 1",
    )
    assert _kinds(problem) == ["judge"] * 7


def test_a_setup_that_defines_classes_sends_asserts_to_the_judge() -> None:
    """The host cannot rebuild objects of the problem's classes; the judge can."""
    setup = "class ListNode:\n    def __init__(self, v):\n        self.val = v\n"
    assert _kinds(_problem("assert f(1) == 1", setup_code=setup)) == ["judge"]


def test_entry_points_are_the_free_names_builtins_and_modules_excluded() -> None:
    problem = _problem("x = 3\ndef h(y):\n    return g(y)\nassert f(x) == h(len([1])) + math.pi")
    assert entry_points(problem, problem.tests[0].code) == ("f", "g")


def test_setup_names_stay_the_tests() -> None:
    problem = _problem("assert poly([1], f(2)) == 0", setup_code="def poly(xs, x):\n    return 0\n")
    assert entry_points(problem, problem.tests[0].code) == ("f",)


def test_a_name_only_a_parameter_binds_is_free_where_the_module_uses_it() -> None:
    """HumanEval-X's Python tests: ``def check(find_zero): ...`` then ``check(find_zero)``,
    whose module-level ``find_zero`` is the program's (it was refused with a NameError)."""
    code = "def check(inc):\n    assert inc(1) == 2\n\n\ncheck(inc)\n"
    assert entry_points(_problem(code), code) == ("inc",)
    # a parameter of a function or a lambda the module never names at its level stays bound
    code = "def check(candidate):\n    assert candidate(1) == 2\nk = lambda inc: inc\ncheck(f)\n"
    assert entry_points(_problem(code), code) == ("f",)
    # what the module evaluates of a def (decorators, defaults) is at its level
    code = "@wrap\ndef t(a=dflt, *, b=kw):\n    return a(b)\nassert t() == 1\n"
    assert entry_points(_problem(code), code) == ("dflt", "kw", "wrap")


def test_the_references_top_level_names_include_shadowed_builtins() -> None:
    problem = _problem("assert sum(1, 2) == 3", reference="def sum(a, b):\n    return a + b\n")
    assert entry_points(problem, problem.tests[0].code) == ("sum",)


def test_explicit_entry_points_win() -> None:
    problem = _problem("assert f(1) == g(1)", entry_points=["f"])
    assert entry_points(problem, problem.tests[0].code) == ("f",)
    assert _kinds(problem) == ["judge"]


def test_a_test_that_does_not_parse_has_no_entry_points() -> None:
    problem = _problem("assert f(1) ==")
    assert entry_points(problem, problem.tests[0].code) == ()
    assert _kinds(problem) == ["judge"]
