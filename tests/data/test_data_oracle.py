"""The EvalPlus oracle: expected outputs from a trusted reference, and what it refuses to guess."""

from __future__ import annotations

from collections import Counter

from reward_api.data.converters.oracle import (
    MAX_OUTPUT_NODES,
    call_shapes,
    call_tests,
    run_reference,
    shapes_needed,
)
from reward_api.schemas import AssertTest, CallTest

CODE = """
import os
def f(x):
    if x == -1:
        os._exit(3)          # the process dies on this input
    if x == -2:
        return {1, 2}        # a set: only a Python literal represents it
    if x == -3:
        return object()      # nothing represents it
    if x == -4:
        return [0] * (MAX + 1)
    if x == -5:
        raise ValueError(x)
    return x * 2
""".replace("MAX", str(MAX_OUTPUT_NODES))


def test_outputs_statuses_and_resume_after_the_process_dies():
    outs = run_reference(CODE, "f", [[1], [-1], [2], [-2], [-3], [-4], [-5], [3]])
    assert [o.status for o in outs] == [
        "ok", "missing", "ok", "ok", "unjsonable", "too_large", "error", "ok",
    ]  # fmt: skip
    assert [outs[i].value for i in (0, 2, 7)] == [2, 4, 6]


def test_call_tests_choose_call_literal_or_tolerance_and_count_the_rest():
    inputs = [[1], [-2], [-3], [0.5]]
    outs = run_reference(CODE, "f", inputs)
    counts: Counter[str] = Counter()
    tests = call_tests("f", inputs, outs, counts=counts)
    assert isinstance(tests[0], CallTest) and tests[0].output == 2
    assert isinstance(tests[1], AssertTest) and tests[1].code == "assert f(-2) == {1, 2}"
    assert isinstance(tests[2], AssertTest) and tests[2].code == "assert abs(f(0.5) - 1.0) <= 1e-06"
    assert counts == Counter(
        {"inputs_dropped:unjsonable": 1, "literal_asserts": 1, "float_tolerance_asserts": 1}
    )


def test_non_finite_float_arguments_are_written_as_float_calls():
    inputs = [[float("inf")]]
    outs = run_reference("def g(x):\n    return 0.5\n", "g", inputs)
    (test,) = call_tests("g", inputs, outs)
    assert test.code == "assert abs(g(float('inf')) - 0.5) <= 1e-06"


def test_shapes_come_from_the_assertion_and_apply_only_where_needed():
    plain = call_shapes("assert f([1, 2], 3) == 3", "f")
    assert not shapes_needed(plain, [[[1, 2], 3]])
    assert shapes_needed(plain, [[[1, 2], "(1+2j)"]])  # JSON kept a complex number as a string
    shapes = call_shapes("assert f((1, 2), [(3, 4)], {5}, 1j, (1, (2, 3))) == 0", "f")
    assert [s and s["t"] for s in shapes] == ["tuple", "list", "set", "complex", "deep_tuple"]


def test_shaped_arguments_reach_the_reference_as_tuples_sets_and_numbers():
    code = "def f(t, s, n, d):\n    return (type(t).__name__, type(s).__name__, n * 2, d)\n"
    shapes = call_shapes("assert f((1, 2), {3}, 4, (1, (2, (3,)))) == 0", "f")
    (out,) = run_reference(code, "f", [[[1, 2], [3], "(1+1j)", [1, [2, [3]]]]], shapes=shapes)
    assert out.literal == "('tuple', 'set', (2+2j), (1, (2, (3,))))"
    assert out.args_literal == "((1, 2), {3}, (1+1j), (1, (2, (3,))))"


def test_counters_infinities_and_truth_values():
    code = (
        "import re\nfrom collections import Counter\n"
        "def f(x):\n"
        "    if x == 0: return Counter([1, 1, 2])\n"
        "    if x == 1: return float('inf')\n"
        "    return re.match('a', 'ab' if x == 2 else 'b')\n"
    )
    inputs = [[0], [1], [2], [3]]
    outs = run_reference(code, "f", inputs)
    tests = call_tests("f", inputs, outs, truthiness=True)
    assert [t.code for t in tests] == [
        "assert f(0) == {1: 2, 2: 1}",  # int keys: not JSON, written as the dict it equals
        "assert f(1) == float('inf')",
        "assert bool(f(2))",
        "assert not bool(f(3))",
    ]
    # without the source's say-so the Match is dropped and None is an ordinary output
    assert [t.type for t in call_tests("f", inputs[2:], outs[2:])] == ["call"]
