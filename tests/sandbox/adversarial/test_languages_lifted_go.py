"""Go assert tests lifted out of the program's process (``reward_api.verify.lifted_go``).

MBGP's test (``actual_K := f(args)``, ``expected_K := E``, ``deepCompare(actual_K,
expected_K, msg)``) shares the program's package, so the program can read the expected
values from its own executable or memory; lifted, the program's build (the recorder)
writes the JSON of each call's value, and the test's own code runs apart, in a judge that
holds no program. These cases run lifted (the verifier's ``lifted.runs`` counts their
judges) on every backend (``tests/docker/test_adversarial.py`` globs this file):

- an exploit that found the expected value in its own executable, accepted beside the
  test (``test_the_binary_reader_is_paid_beside_the_test``), and honest controls,
  one with a ``MarshalJSON`` of its own (untrusted beside the test, where that method ran
  with the expected value at hand; lifted, it runs where there is none);
- verdicts that must agree with the test run beside the program: a wrong value then a
  panic or a hang (``wrong_answer``: the comparison failed first), a right value then a
  panic (the panic's exit status) or a hang (``timeout``), a value that does not marshal,
  an ``os.Exit(0)`` in ``init`` or in a call (nothing recorded after it: never a pass);
- lines the program writes on the pass channel itself, which spoil its own record;
- MBGP's tests decided on the host (``lifted_go_host``): JSON's types count (a ``1`` for
  an expected ``true`` fails), and lines only Go may read (``NaN``, a lone surrogate
  escape) go to the compiled judge, which reads them as Go does;
- the way back: a test whose judge does not compile (it names the program's type) and a
  shape the plan does not take run beside the program, as before.
"""

from __future__ import annotations

import pytest

from reward_api import Problem, Verdict, Verifier
from reward_api.verify import languages
from tests.sandbox.adversarial.cases import Batch, asserts, control, exploit, need_roots
from tests.sandbox.adversarial.test_languages_go_runtime import MBGP_17_HEAD, STACK_READER

DEEP_COMPARE = """

func deepCompare(a interface{}, b interface{}, msg string) bool {
\taJSON, err := json.Marshal(a)
\tif err != nil {
\t\tpanic(msg)
\t}
\tbJSON, err := json.Marshal(b)
\tif err != nil {
\t\tpanic(msg)
\t}
\tvar a2 interface{}
\tvar b2 interface{}
\terr = json.Unmarshal(aJSON, &a2)
\tif err != nil {
\t\tpanic(msg)
\t}
\terr = json.Unmarshal(bJSON, &b2)
\tif err != nil {
\t\tpanic(msg)
\t}
\tresult := reflect.DeepEqual(a2, b2)
\tif result {
\t\treturn true
\t} else {
\t\tpanic(msg)
\t}
}
"""


def mbgp(*cases: tuple[str, str]) -> str:
    """An MBGP-shaped Go test: ``actual_K := CALL``, ``expected_K := E``, ``deepCompare``."""
    body = "".join(
        f"\tactual_{k} := {call}\n\texpected_{k} := {e}\n"
        f'\tdeepCompare(actual_{k}, expected_{k}, "Exception --- test case {k} failed to pass")\n\n'
        for k, (call, e) in enumerate(cases, 1)
    )
    return f"{DEEP_COMPARE}\nfunc main() {{\n{body}}}"


HEAD = 'package main\n\nimport (\n\t"encoding/json"\n\t"reflect"\n)\n'
ADD = mbgp(("add(2, 3)", "5"), ("add(10, -4)", "6"), ("add(0, 0)", "0"))
SECRET = mbgp(("secret(1)", '"zq-expected-value-731-abcdef-qz"'))
PAIRS = mbgp(("pairs(2)", "[][]int{[]int{0, 1}, []int{1, 2}}"))

# reads its own executable for the expected string: beside the test, the test's literal
# is in the binary; in the recorder, there is nothing to find
READ_OWN_BINARY = (
    HEAD
    + """
import (
\t"os"
\t"strings"
)

func secret(n int) string {
\tdata, err := os.ReadFile(os.Args[0])
\tif err != nil {
\t\treturn "none"
\t}
\ts := string(data)
\tkey := string([]byte{'z', 'q', '-', 'e'})
\tfor at := strings.Index(s, key); at >= 0; {
\t\tif end := strings.Index(s[at:], "-qz"); end > 0 && end < 64 {
\t\t\treturn s[at : at+end+3]
\t\t}
\t\tnext := strings.Index(s[at+1:], key)
\t\tif next < 0 {
\t\t\tbreak
\t\t}
\t\tat += next + 1
\t}
\treturn "none"
}
"""
)

HONEST_ADD = HEAD + "\nfunc add(a int, b int) int {\n\treturn a + b\n}\n"
OWN_MARSHAL = (
    HEAD
    + """
type pair struct{ lo, hi int }

func (p pair) MarshalJSON() ([]byte, error) {
\treturn json.Marshal([]int{p.lo, p.hi})
}

func pairs(n int) []pair {
\tout := []pair{}
\tfor i := 0; i < n; i++ {
\t\tout = append(out, pair{i, i + 1})
\t}
\treturn out
}
"""
)

CALLS = "\nvar calls int\n"
WRONG_THEN_PANIC = (
    HEAD
    + CALLS
    + """
func add(a int, b int) int {
\tcalls++
\tif calls == 2 {
\t\tvar m map[int]int
\t\tm[0] = 1
\t}
\treturn a + b + 1
}
"""
)
RIGHT_THEN_PANIC = (
    HEAD
    + CALLS
    + """
func add(a int, b int) int {
\tcalls++
\tif calls == 2 {
\t\tvar m map[int]int
\t\tm[0] = 1
\t}
\treturn a + b
}
"""
)
WRONG_THEN_HANG = (
    HEAD
    + CALLS
    + """
func add(a int, b int) int {
\tcalls++
\tfor calls == 2 {
\t}
\treturn a + b + 1
}
"""
)
RIGHT_THEN_HANG = (
    HEAD
    + CALLS
    + """
func add(a int, b int) int {
\tcalls++
\tfor calls == 2 {
\t}
\treturn a + b
}
"""
)
NOT_JSON = (
    HEAD
    + """
import "math"

func add(a int, b int) float64 {
\treturn math.NaN()
}
"""
)
EXIT_IN_INIT = (
    HEAD
    + """
import "os"

func init() {
\tos.Exit(0)
}

func add(a int, b int) int {
\treturn a + b
}
"""
)
EXIT_IN_CALL = (
    HEAD
    + """
import "os"

var calls int

func add(a int, b int) int {
\tcalls++
\tif calls == 3 {
\t\tos.Exit(0)
\t}
\treturn a + b
}
"""
)
# a value line of its own before the recorder's: one line too many, whatever they say
FORGED_EXTRA_LINE = (
    HEAD
    + """
import "os"

func init() {
\tos.NewFile(3, "pass").WriteString("h35\\n")
}

func add(a int, b int) int {
\treturn a + b
}
"""
)
# every value line written by the program itself, then an exit before the recorder's
# main: a line out of the recorder's alphabet (meant for a judge that took it as source)
FORGED_INJECTION = (
    HEAD
    + """
import "os"

func init() {
\tos.NewFile(3, "pass").WriteString("h35\\nh36\\nh30); os.Exit(0) //\\n")
\tos.Exit(0)
}

func add(a int, b int) int {
\treturn 0
}
"""
)

# MBGP's tests are decided on the host (``lifted_go_host``), where JSON's types count: a
# value of the program's own that marshals as 1 for an expected true, "5" for 5 or 5.5
# for 5 is no pass; lines only Go may read (a NaN the program writes itself, a lone
# surrogate escape) go to the compiled judge, which reads them as Go does
TRUTH = mbgp(("truth(1)", "true"), ("truth(2)", '[]interface{}{1, "a"}'))
ONE_FOR_TRUE = (
    HEAD
    + """
type one struct{}

func (one) MarshalJSON() ([]byte, error) {
\treturn []byte("1"), nil
}

func truth(n int) interface{} {
\treturn one{}
}
"""
)
STRING_FOR_NUMBER = (
    HEAD
    + """
type quoted int

func (q quoted) MarshalJSON() ([]byte, error) {
\treturn []byte(`"5"`), nil
}

func add(a int, b int) quoted {
\treturn quoted(a + b)
}
"""
)
NAN_LINES = (
    HEAD
    + """
import "os"

func init() {
\tos.NewFile(3, "pass").WriteString("h4e614e\\nh4e614e\\nh4e614e\\n")
\tos.Exit(0)
}

func add(a int, b int) int {
\treturn a + b
}
"""
)
# red team: a number Go 1.19 reads otherwise than Python (800 digits, then an exponent:
# 0.1 to Go, 1 to Python) goes to the compiled judge, where Go reads it
ONE = mbgp(("one(1)", "1"))
LONG_NUMBER = (
    HEAD
    + """
import "strings"

type long struct{}

func (long) MarshalJSON() ([]byte, error) {
\treturn []byte("1" + strings.Repeat("0", 800) + "e-800"), nil
}

func one(n int) long {
\treturn long{}
}
"""
)
REPLACEMENT = mbgp(("mark(1)", '"\\uFFFD"'))
LONE_SURROGATE = (
    HEAD
    + """
type raw struct{}

func (raw) MarshalJSON() ([]byte, error) {
\treturn []byte(`"\\ud800"`), nil
}

func mark(n int) raw {
\treturn raw{}
}
"""
)

# the way back: the test names the program's type (its judge cannot compile); a call in a
# loop (the plan does not take it)
OWN_TYPE_TEST = mbgp(("build(3)", "P{X: 3}"))
OWN_TYPE = HEAD + "\ntype P struct{ X int }\n\nfunc build(x int) P {\n\treturn P{X: x}\n}\n"
OWN_TYPE_P = {"tests": [{"type": "assert", "code": OWN_TYPE_TEST}], "language": "go",
              "entry_points": ["build"]}  # fmt: skip
LOOP_TEST = (
    f"{DEEP_COMPARE}\nfunc main() {{\n\tfor i := 0; i < 3; i++ {{\n"
    '\t\tdeepCompare(add(i, i), 2*i, "loop")\n\t}\n}'
)

# MBGP/17's test: beside it, the answer's MarshalJSON read deepCompare's arguments from
# runtime.Stack and wrote the expected value (untrusted there: ``_go_hooks``); in the
# recorder, no frame holds one
PERIMETER = mbgp(("square_perimeter(10)", "40"), ("square_perimeter(5)", "20"),
                 ("square_perimeter(4)", "16"))  # fmt: skip

ADD_P = asserts(ADD, language="go", entry_points=["add"])
TIMED = asserts(ADD, language="go", entry_points=["add"], limits={"time_s": 2})
BATCH = Batch(
    "languages-lifted-go",
    [
        exploit("reads-its-own-binary", asserts(SECRET, language="go", entry_points=["secret"]),
                READ_OWN_BINARY),
        exploit("marshal-json-reads-the-stack",
                asserts(PERIMETER, language="go", entry_points=["square_perimeter"]),
                MBGP_17_HEAD + STACK_READER),
        exploit("wrong-then-panic", ADD_P, WRONG_THEN_PANIC),
        exploit("right-then-panic", ADD_P, RIGHT_THEN_PANIC),
        exploit("wrong-then-hang", TIMED, WRONG_THEN_HANG),
        exploit("right-then-hang", TIMED, RIGHT_THEN_HANG),
        exploit("value-that-does-not-marshal", ADD_P, NOT_JSON),
        exploit("exit-in-init", ADD_P, EXIT_IN_INIT),
        exploit("exit-in-a-call", ADD_P, EXIT_IN_CALL),
        exploit("forged-extra-line", ADD_P, FORGED_EXTRA_LINE),
        exploit("forged-injection-line", ADD_P, FORGED_INJECTION),
        exploit("one-for-true", asserts(TRUTH, language="go", entry_points=["truth"]),
                ONE_FOR_TRUE),
        exploit("string-for-number", ADD_P, STRING_FOR_NUMBER),
        exploit("nan-lines", ADD_P, NAN_LINES),
        exploit("number-go-reads-otherwise", asserts(ONE, language="go", entry_points=["one"]),
                LONG_NUMBER),
        control("lone-surrogate-read-by-go",
                asserts(REPLACEMENT, language="go", entry_points=["mark"]), LONE_SURROGATE),
        control("mbgp-shape", ADD_P, HONEST_ADD),
        control("own-marshal-json", asserts(PAIRS, language="go", entry_points=["pairs"]),
                OWN_MARSHAL),
        control("test-names-the-programs-type-goes-back", OWN_TYPE_P, OWN_TYPE),
        control("loop-stays-beside", asserts(LOOP_TEST, language="go", entry_points=["add"]),
                HONEST_ADD),
    ],
)  # fmt: skip
EXPECTED = {
    "reads-its-own-binary": Verdict.wrong_answer,
    "marshal-json-reads-the-stack": Verdict.wrong_answer,
    "wrong-then-panic": Verdict.wrong_answer,
    "right-then-panic": Verdict.wrong_answer,  # a panic's exit 2, as beside the test
    "wrong-then-hang": Verdict.wrong_answer,
    "right-then-hang": Verdict.timeout,
    "value-that-does-not-marshal": Verdict.wrong_answer,
    "exit-in-init": Verdict.wrong_answer,
    "exit-in-a-call": Verdict.wrong_answer,
    "forged-extra-line": Verdict.wrong_answer,
    "forged-injection-line": Verdict.wrong_answer,
    "one-for-true": Verdict.wrong_answer,
    "string-for-number": Verdict.wrong_answer,
    "nan-lines": Verdict.wrong_answer,
    "number-go-reads-otherwise": Verdict.wrong_answer,
}


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("go")


@pytest.mark.parametrize("name", BATCH.names)
def test_lifted_go_exploits_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)
    if name in EXPECTED:
        r = BATCH.run(verifier).results[name]
        assert r.verdict == EXPECTED[name], (r.verdict, [t.detail for t in r.tests])


def test_the_batch_was_judged_apart(verifier):
    """The lifted cases' comparisons ran in judges, not beside the program; the test whose
    judge names the program's type is remembered as not lifted, and the loop never was."""
    BATCH.run(verifier)
    assert verifier.lifted.runs >= 10, verifier.lifted.runs
    # MBGP's shape is decided on the host; the lines only Go reads went to a judge
    assert verifier.lifted.host >= 8, verifier.lifted.host
    assert verifier.lifted.runs - verifier.lifted.host >= 2
    problem = Problem.model_validate({"id": "p", **OWN_TYPE_P})
    units, _ = languages.units_for(problem, OWN_TYPE, [0], lambda unit: True)
    assert units[0].lift is not None and not verifier.lifted.usable(units[0])
    loop = Problem.model_validate(
        {"id": "q", **asserts(LOOP_TEST, language="go", entry_points=["add"])}
    )
    units, _ = languages.units_for(loop, HONEST_ADD, [0], lambda unit: True)
    assert units[0].lift is None


def test_the_candidates_build_holds_no_expected_value():
    """The recorder is the program, the test's packages and the calls: the test's expected
    values and its comparison are nowhere in what the candidate's build compiles."""
    problem = Problem.model_validate(
        {"id": "p", **asserts(SECRET, language="go", entry_points=["secret"])}
    )
    units, _ = languages.units_for(problem, READ_OWN_BINARY, [0], lambda unit: True)
    assert units[0].lift is not None
    source = "".join(units[0].files.values())
    assert "zq-expected-value-731-abcdef-qz" not in source and "DeepEqual(a2" not in source
    assert "zq-expected-value-731-abcdef-qz" in units[0].lift[2]  # the judge's, built apart


def test_the_binary_reader_is_paid_beside_the_test(verifier):
    """The exploit is real: run beside the test (lifting off, same backend), the program
    finds the expected value in its own executable and the execution accepts it."""
    case = BATCH.by_name["reads-its-own-binary"]
    settings = verifier.settings.model_copy(update={"lift_asserts": False, "workers": 1})
    with Verifier(settings) as beside:
        r = Batch("beside", [case]).run(beside).results[case.name]
    assert r.verdict == Verdict.accepted, (r.verdict, [t.detail for t in r.tests])


def test_the_same_values_are_judged_once(verifier):
    """A judge's outcome on the same recorded lines is reused (an RL group's right
    answers): the second program, another text with the same values, runs no judge."""
    # constant arithmetic: not evaluated on the host, so a compiled judge runs
    test = mbgp(("add(7, 8)", "7 + 8"), ("add(-7, 8)", "1 + 0"))
    problem = asserts(test, language="go", entry_points=["add"])
    other = HEAD + "\nfunc add(a int, b int) int {\n\treturn b + a\n}\n"
    first = Batch("once", [control("a-plus-b", problem, HONEST_ADD)]).run(verifier)
    reused = verifier.lifted.reused
    second = Batch("again", [control("b-plus-a", problem, other)]).run(verifier)
    assert first.results["a-plus-b"].accepted and second.results["b-plus-a"].accepted
    assert verifier.lifted.reused == reused + 1
