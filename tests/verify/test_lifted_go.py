"""The plan, the two builds' sources and the recorded lines of lifted Go assert tests
(``reward_api.verify.lifted_go``); the builds themselves run in
tests/sandbox/adversarial/test_languages_lifted_go.py."""

from __future__ import annotations

import pytest

from reward_api import Problem
from reward_api.verify import languages, lifted_go
from tests.sandbox.adversarial.test_languages_lifted_go import (
    ADD,
    DEEP_COMPARE,
    HEAD,
    HONEST_ADD,
    mbgp,
)


def _main(body: str, before: str = "") -> str:
    return f"{DEEP_COMPARE}{before}\nfunc main() {{\n{body}}}\n"


def test_the_mbgp_shape_is_lifted_in_order():
    plan = lifted_go.plan(ADD, ["add"])
    assert plan is not None
    assert plan.args == ("add(2, 3)", "add(10, -4)", "add(0, 0)")
    assert [ADD[a:b] for a, b in plan.calls] == list(plan.args)
    assert plan.names == ("deepCompare",)


def test_a_composite_argument_across_lines_is_one_call():
    test = _main(
        '\tactual_1 := add([]int{\n\t\t1,\n\t\t2,\n\t}, map[string]float64{"a": 1.5})\n'
        '\texpected_1 := 5\n\tdeepCompare(actual_1, expected_1, "x")\n'
    )
    plan = lifted_go.plan(test, ["add"])
    assert plan is not None and len(plan.calls) == 1


@pytest.mark.parametrize("body", [
    # a loop, a branch: not exactly once
    '\tfor i := 0; i < 2; i++ {\n\t\tdeepCompare(add(i, i), 2*i, "x")\n\t}\n',
    '\tif true {\n\t\tactual_1 := add(1, 2)\n\t\tdeepCompare(actual_1, 3, "x")\n\t}\n',
    # the call inside the comparison, or two in one statement
    '\tdeepCompare(add(1, 2), 3, "x")\n',
    '\tactual_1 := add(add(1, 1), 2)\n\tdeepCompare(actual_1, 4, "x")\n',
    # an argument of the test's own making
    '\tn := 2\n\tactual_1 := add(n, 3)\n\tdeepCompare(actual_1, 5, "x")\n',
    '\tactual_1 := add(len("ab"), 3)\n\tdeepCompare(actual_1, 5, "x")\n',
    # the value used other than through json.Marshal
    '\tactual_1 := add(1, 2)\n\tif actual_1 != 3 {\n\t\tpanic("x")\n\t}\n',
    '\tactual_1 := add(1, 2)\n\tdeepCompare([]interface{}{actual_1}, []int{3}, "x")\n',
    # the value compared after the next call (which could change it)
    '\tactual_1 := add(1, 2)\n\tactual_2 := add(2, 2)\n'
    '\tdeepCompare(actual_1, 3, "x")\n\tdeepCompare(actual_2, 4, "y")\n',
    # what could skip a call or swallow a panic
    '\tactual_1 := add(1, 2)\n\tdeepCompare(actual_1, 3, "x")\n\treturn\n',
    '\tdefer func() { recover() }()\n\tactual_1 := add(1, 2)\n\tdeepCompare(actual_1, 3, "x")\n',
    '\tactual_1 := add(1, 2)\n\tdeepCompare(actual_1, 3, "x")\n\tos.Exit(0)\n',
    # an alias of the entry point
    '\tf := add\n\tactual_1 := f(1, 2)\n\tdeepCompare(actual_1, 3, "x")\n',
])  # fmt: skip
def test_shapes_that_stay_beside_the_program(body):
    assert lifted_go.plan(_main(body), ["add"]) is None


def test_a_helper_of_the_test_that_calls_the_program_stays_beside():
    helper = "\nfunc three() int {\n\treturn add(1, 2)\n}\n"
    body = '\tactual_1 := add(1, 2)\n\tdeepCompare(actual_1, three(), "x")\n'
    assert lifted_go.plan(_main(body, helper), ["add"]) is None


def test_an_init_of_the_test_stays_beside():
    body = '\tactual_1 := add(1, 2)\n\tdeepCompare(actual_1, 3, "x")\n'
    assert lifted_go.plan(_main(body, "\nfunc init() {\n}\n"), ["add"]) is None


def test_a_comparison_that_reads_the_value_itself_is_no_sink():
    reads = (
        "\n\nfunc deepCompare(a interface{}, b interface{}, msg string) bool {\n"
        "\tif a != b {\n\t\tpanic(msg)\n\t}\n\treturn true\n}\n"
        '\nfunc main() {\n\tactual_1 := add(1, 2)\n\tdeepCompare(actual_1, 3, "x")\n}\n'
    )
    assert lifted_go.plan(reads, ["add"]) is None


def _problem(test: str, entry: str = "add") -> Problem:
    return Problem.model_validate({"id": "p", "language": "go", "entry_points": [entry],
                                   "tests": [{"type": "assert", "code": test}]})  # fmt: skip


def test_the_recorder_keeps_the_tests_names_and_packages():
    """Beside the test, a program's own ``deepCompare`` does not compile and the test keeps
    the program's ``reflect`` import used: the recorder stubs the one and uses the other."""
    units, _ = languages.units_for(_problem(ADD), HONEST_ADD, [0], lambda unit: True)
    source = units[0].files["main.go"]
    assert "var deepCompare struct{}" in source
    assert "var _ = reflect.DeepEqual" in source and "var _ = json.Marshal" in source
    assert "expected_" not in source


def test_a_program_that_shadows_a_predeclared_name_stays_beside():
    # MBGP's test says ``panic``: the program's would be the test's
    program = HONEST_ADD + "\nfunc panic(v interface{}) {}\n"
    assert "panic" in ADD
    units, _ = languages.units_for(_problem(ADD), program, [0], lambda unit: True)
    assert units[0].lift is None and units[0].untrusted


def test_a_predeclared_name_that_neither_the_test_nor_the_harness_says_is_the_programs():
    # ``delete``, ``print``: none of the test's words, nor of its recorder's or the harness's
    # code, so shadowing them changes nothing of theirs (the recorder says ``len``)
    for name, decl in [("delete", "func delete(xs []int, x int) []int {\n\treturn xs\n}"),
                       ("print", "func print(xs []int) string {\n\treturn \"\"\n}")]:  # fmt: skip
        assert name not in ADD
        program = HONEST_ADD + "\n" + decl + "\n"
        lifted_units, _ = languages.units_for(_problem(ADD), program, [0], lambda unit: True)
        assert lifted_units[0].lift is not None, name
        beside, _ = languages.units_for(_problem(ADD), program, [0], None)
        assert beside[0].lift is None and not beside[0].untrusted, name


def test_a_program_that_imports_a_package_as_json_stays_beside():
    program = HEAD.replace('"encoding/json"', 'json "strings"') + HONEST_ADD[len(HEAD) :]
    units, _ = languages.units_for(_problem(ADD), program, [0], lambda unit: True)
    assert units[0].lift is None


def test_the_judge_does_not_depend_on_the_program():
    a, _ = languages.units_for(_problem(ADD), HONEST_ADD, [0], lambda unit: True)
    b, _ = languages.units_for(_problem(ADD), HONEST_ADD + "\n// another\n", [0],
                               lambda unit: True)  # fmt: skip
    assert a[0].lift is not None and b[0].lift is not None
    assert a[0].lift[2] == b[0].lift[2]
    assert a[0].files != b[0].files


def test_only_the_recorders_lines_reach_the_judge():
    assert lifted_go.read("", 3) is not None  # nothing recorded: the judge runs out at once
    assert lifted_go.read("h35\ne\nh5b5d\n", 3) is not None
    for bad in ["h35", "h3\n", "h35\nh36\nh30\nh31\n", "x\n", "h35\n)\n", "hAB\n", None, "é\n"]:
        assert lifted_go.read(bad, 3) is None, bad


def test_a_second_call_shape_keeps_the_dataset_order():
    test = mbgp(("add(1, 2)", "3"), ("add(3, 4)", "7"))
    plan = lifted_go.plan(test, ["add"])
    assert plan is not None and plan.args == ("add(1, 2)", "add(3, 4)")
