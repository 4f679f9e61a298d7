"""HumanEval-X's Go tests lifted out of the program's process
(``reward_api.verify.lifted_go_testify``).

HumanEval-X's ``func TestX(t *testing.T)`` with testify's ``assert.Equal(E, CALL)`` shares
the program's package, so the program can read the expected values from its own
executable or memory; lifted, the program's build (the recorder) writes each call's
value with its Go type, and the host compares it as testify's ``ObjectsAreEqual`` would.
These cases run lifted (the verifier's ``lifted.host`` counts them) on every backend
(``tests/docker/test_adversarial.py`` globs this file):

- an exploit that finds the expected value in its own executable, paid beside the test
  (``test_the_binary_reader_is_paid_beside_the_test``), and one that calls the test's
  own function (a stub in the recorder: it does not compile);
- types and values as testify sees them: a named type for ``int``, a nil slice for an
  empty one, an ``int64`` for an ``int``, are no pass; a program's ``String`` or
  ``GoString`` never runs;
- verdicts that must be the same as the test run beside the program
  (``test_verdicts_agree_with_the_test_beside_the_program``): a wrong value then a panic
  or a hang (testify goes on after a failed comparison, so the panic or the hang is the
  verdict, as ``go test``'s), a right value then a panic or a hang, an ``os.Exit(0)`` in
  ``init`` or in a call, lines the program writes on the pass channel itself;
- honest controls: the dataset's shape, a program with its own ``main``, ``interface{}``
  results (``nil``, mixed elements), the tolerance form, maps, a ``bool`` for
  ``assert.True``;
- the way back: a program that declares a function ``go test`` would run beside the test
  is not lifted (beside it, that function runs).
"""

from __future__ import annotations

import secrets

import pytest

from reward_api import Problem, Verdict, Verifier
from reward_api.verify import languages
from tests.sandbox.adversarial.cases import Batch, asserts, control, exploit, judge, need_roots

HEAD = 'package main\n\nimport (\n    "testing"\n\n    "github.com/stretchr/testify/assert"\n)\n'


def go_test(name: str, *lines: str) -> str:
    body = "".join(f"    {line}\n" for line in lines)
    return f"func Test{name}(t *testing.T) {{\n    assert := assert.New(t)\n{body}}}\n"


ADD = go_test("Add", "assert.Equal(5, Add(2, 3))", "assert.Equal(6, Add(10, -4))",
              "assert.Equal(0, Add(0, 0))")  # fmt: skip
SECRET = go_test("Secret", 'assert.Equal("zq-expected-value-731-abcdef-qz", Secret(1))')
MIXED = go_test(
    "Mixed",
    "assert.Equal(nil, Pick(0))",
    'assert.Equal("6", Pick(1))',
    "assert.Equal(2.5, Pick(2))",
    'assert.Equal([]interface{}{1, "a", nil}, Pick(3))',
    'assert.Equal(map[string][]int{"a": {1}, "b": nil}, Pick(4))',
    "assert.True(math.Abs(Third(2)-2.0/3.0) < 1e-6)",
    "assert.Equal(true, math.Abs(1.0/3 - Third(1)) < 1e-6)",
    "assert.True(IsEven(4))",
    "assert.False(IsEven(3))",
    "assert.NotEqual([]int{}, Words(0))",
    "assert.Equal([]string{}, Words(0))",
)

HONEST_ADD = HEAD + "\nfunc Add(a int, b int) int {\n\treturn a + b\n}\n"
OWN_MAIN = (
    HONEST_ADD + '\nfunc main() {\n\tprintln("main", Add(1, 2))\n\tmain2()\n}\n\nfunc main2() {}\n'
)
HONEST_MIXED = (
    HEAD
    + """
import "math"

func Pick(k int) interface{} {
\tswitch k {
\tcase 1:
\t\treturn "6"
\tcase 2:
\t\treturn 2.5
\tcase 3:
\t\treturn []interface{}{1, "a", nil}
\tcase 4:
\t\treturn map[string][]int{"b": nil, "a": {1}}
\t}
\treturn nil
}

func Third(n int) float64 {
\treturn float64(n) / 3 + math.Abs(0)
}

func IsEven(n int) bool {
\treturn n%2 == 0
}

func Words(n int) []string {
\treturn make([]string, n)
}
"""
)

READ_OWN_BINARY = (
    HEAD
    + """
import (
\t"os"
\t"strings"
)

func Secret(n int) string {
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
# a test function of the package is the program's to call: beside the test the gate ends
# the process; lifted, the name is a stub of the recorder's and the call does not compile
CALLS_THE_TEST = (
    HEAD
    + """
func Add(a int, b int) int {
\tTestAdd(&testing.T{})
\treturn a + b
}
"""
)
NAMED_INT = HEAD + "\ntype num int\n\nfunc Add(a int, b int) num {\n\treturn num(a + b)\n}\n"
INT64 = HEAD + "\nfunc Add(a int, b int) int64 {\n\treturn int64(a + b)\n}\n"
# a String method that says the expected text: testify's DeepEqual never calls it
STRINGER = (
    HEAD
    + """
type text struct{}

func (text) String() string { return "zq-expected-value-731-abcdef-qz" }
func (text) GoString() string { return `"zq-expected-value-731-abcdef-qz"` }

func Secret(n int) interface{} {
\treturn text{}
}
"""
)
NIL_FOR_EMPTY = HEAD + "\nfunc Words(n int) []string {\n\tvar out []string\n\treturn out\n}\n"
EMPTY = go_test("Empty", "assert.Equal([]string{}, Words(0))")
CALLS = "\nvar calls int\n"


def _add(body: str) -> str:
    return f"{HEAD}{CALLS}\nfunc Add(a int, b int) int {{\n\tcalls++\n{body}}}\n"


PANIC = "\t\tvar m map[int]int\n\t\tm[0] = 1\n"
WRONG_THEN_PANIC = _add(f"\tif calls == 2 {{\n{PANIC}\t}}\n\treturn a + b + 1\n")
RIGHT_THEN_PANIC = _add(f"\tif calls == 2 {{\n{PANIC}\t}}\n\treturn a + b\n")
WRONG_THEN_HANG = _add("\tfor calls == 2 {\n\t}\n\treturn a + b + 1\n")
RIGHT_THEN_HANG = _add("\tfor calls == 2 {\n\t}\n\treturn a + b\n")
EXIT_IN_CALL = (
    HEAD.replace('"testing"', '"os"\n    "testing"')
    + CALLS
    + (
        "\nfunc Add(a int, b int) int {\n\tcalls++\n\tif calls == 3 {\n\t\tos.Exit(0)\n\t}\n"
        "\treturn a + b\n}\n"
    )
)
EXIT_IN_INIT = HEAD.replace('"testing"', '"os"\n    "testing"') + (
    "\nfunc init() {\n\tos.Exit(0)\n}\n\nfunc Add(a int, b int) int {\n\treturn a + b\n}\n"
)
FIVE = (b"I3:inti5;").hex()
# lines of its own on the pass channel: one too many, or every line and then an exit
FORGED_EXTRA_LINE = HEAD.replace('"testing"', '"os"\n    "testing"') + (
    f'\nfunc init() {{\n\tos.NewFile(3, "pass").WriteString("v{FIVE}\\n")\n}}\n\n'
    "func Add(a int, b int) int {\n\treturn a + b\n}\n"
)
FORGED_ALL = HEAD.replace('"testing"', '"os"\n    "testing"') + (
    f'\nfunc init() {{\n\tos.NewFile(3, "pass").WriteString("v{FIVE}\\nv{FIVE}\\nv{FIVE}\\n")\n'
    "\tos.Exit(0)\n}\n\nfunc Add(a int, b int) int {\n\treturn a + b\n}\n"
)
# a program `go vet`'s checks of `go test` refuse (a Printf verb of the wrong type): beside
# the test its build fails, and so does the recorder's
VET_ERROR = HEAD.replace('"testing"', '"fmt"\n    "testing"') + (
    '\nfunc Add(a int, b int) int {\n\tfmt.Printf("%d\\n", "x")\n\treturn a + b\n}\n'
)
# honest programs whose build the recorder once broke (red team, when it renamed the
# program's main): a field and a method named `main` beside the program's own `func main`,
# and a call of two results that `assert.True` takes whole, the second as its message (a
# `func(bool)` sink: `too many arguments`); both compile and pass beside the test
MAIN_FIELD = HONEST_ADD + (
    "\ntype box struct {\n\tmain int\n}\n\nfunc (b box) main2() int { return b.main }\n\n"
    "type runner struct{}\n\nfunc (runner) main() {}\n\n"
    "func main() {\n\tb := box{main: 1}\n\t_ = b.main + b.main2()\n\trunner{}.main()\n}\n"
)
TRUE_OF_TWO = go_test("Even", "assert.True(IsEven(4))", "assert.False(IsEven(3))")
TWO_RESULTS = HEAD + '\nfunc IsEven(n int) (bool, string) {\n\treturn n%2 == 0, "why"\n}\n'
# a large answer that is not the expected one: the recorder once wrote all of it, more than
# the pass channel holds (output_limit lifted, accepted beside the test; red team)
LARGE = go_test("Range", "assert.NotEqual([]int{}, Range(2000000))")
LARGE_ANSWER = HEAD + (
    "\nfunc Range(n int) []int {\n\tout := make([]int, n)\n\tfor i := range out {\n"
    "\t\tout[i] = 1000000 + i\n\t}\n\treturn out\n}\n"
)
# a line of its own that is a bare value, not the interface the recorder writes: the host
# indexed it (a TypeError out of the verifier; red team)
FORGED_BARE = HEAD.replace('"testing"', '"os"\n    "testing"') + (
    '\nfunc Add(a int, b int) int {\n\tf := os.NewFile(3, "pass")\n'
    '\tf.WriteString("v54\\nv54\\nv54\\n")\n\tos.Exit(0)\n\treturn 0\n}\n'
)
# the recorder builds without testify where the program names it nowhere else (its link
# was most of the build): a program's own `assert` still meets the import, as under `go
# test` ("assert redeclared"), and one that calls testify itself keeps it and passes
OWN_ASSERT = HONEST_ADD + "\nfunc assert(ok bool) bool {\n\treturn ok\n}\n"
USES_TESTIFY = HEAD + (
    "\nfunc Add(a int, b int) int {\n\tif !assert.ObjectsAreEqual(a, a) {\n\t\treturn 0\n\t}\n"
    "\treturn a + b\n}\n"
)
# its own test function, which fails: `go test` runs it beside the test, so the program is
# not lifted, and fails there
OWN_FAILING_TEST = HONEST_ADD + '\nfunc TestOwn(t *testing.T) {\n\tt.Error("no")\n}\n'

ADD_P = asserts(ADD, language="go")
TIMED = asserts(ADD, language="go", limits={"time_s": 2})
BATCH = Batch(
    "languages-lifted-go-testify",
    [
        exploit("reads-its-own-binary", asserts(SECRET, language="go"), READ_OWN_BINARY),
        exploit("calls-the-test-function", ADD_P, CALLS_THE_TEST),
        exploit("named-int", ADD_P, NAMED_INT),
        exploit("int64-for-int", ADD_P, INT64),
        exploit("stringer-says-the-answer", asserts(SECRET, language="go"), STRINGER),
        exploit("nil-for-empty", asserts(EMPTY, language="go"), NIL_FOR_EMPTY),
        exploit("wrong-then-panic", ADD_P, WRONG_THEN_PANIC),
        exploit("right-then-panic", ADD_P, RIGHT_THEN_PANIC),
        exploit("wrong-then-hang", TIMED, WRONG_THEN_HANG),
        exploit("right-then-hang", TIMED, RIGHT_THEN_HANG),
        exploit("exit-in-a-call", ADD_P, EXIT_IN_CALL),
        exploit("exit-in-init", ADD_P, EXIT_IN_INIT),
        exploit("forged-extra-line", ADD_P, FORGED_EXTRA_LINE),
        exploit("forged-every-line", ADD_P, FORGED_ALL),
        exploit("own-failing-test", ADD_P, OWN_FAILING_TEST),
        exploit("vet-error", ADD_P, VET_ERROR),
        control("humaneval-x-shape", ADD_P, HONEST_ADD),
        control("own-main", ADD_P, OWN_MAIN),
        control("mixed-results", asserts(MIXED, language="go"), HONEST_MIXED),
        control("entry-points-named", asserts(ADD, language="go", entry_points=["Add"]),
                HONEST_ADD),
        control("fields-and-methods-named-main", ADD_P, MAIN_FIELD),
        control("large-answer-not-equal", asserts(LARGE, language="go"), LARGE_ANSWER),
        exploit("forged-bare-value", ADD_P, FORGED_BARE),
        control("true-of-two-results", asserts(TRUE_OF_TWO, language="go"), TWO_RESULTS),
        exploit("own-func-assert", ADD_P, OWN_ASSERT),
        control("calls-testify-itself", ADD_P, USES_TESTIFY),
    ],
)  # fmt: skip
EXPECTED = {
    "reads-its-own-binary": Verdict.wrong_answer,
    "calls-the-test-function": Verdict.compile_error,
    "named-int": Verdict.wrong_answer,
    "int64-for-int": Verdict.wrong_answer,
    "stringer-says-the-answer": Verdict.wrong_answer,
    "nil-for-empty": Verdict.wrong_answer,
    "wrong-then-hang": Verdict.timeout,  # testify goes on after the failed comparison
    "right-then-hang": Verdict.timeout,
    "exit-in-a-call": Verdict.wrong_answer,
    "exit-in-init": Verdict.wrong_answer,
    "forged-extra-line": Verdict.wrong_answer,
    "forged-every-line": Verdict.wrong_answer,
    "vet-error": Verdict.compile_error,
    "forged-bare-value": Verdict.wrong_answer,
    "own-func-assert": Verdict.compile_error,
}
SAME_BESIDE = ["named-int", "int64-for-int", "nil-for-empty", "wrong-then-panic",
               "right-then-panic", "wrong-then-hang", "right-then-hang", "exit-in-a-call",
               "exit-in-init", "humaneval-x-shape", "own-main", "mixed-results", "vet-error",
               "fields-and-methods-named-main", "true-of-two-results",
               "large-answer-not-equal", "own-func-assert",
               "calls-testify-itself"]  # fmt: skip
"""Cases whose verdict beside the program (lifting off) must be the lifted one (a call of
the test's own function fails both ways, by another verdict: the gate's exit beside the
test, a stub's compile error lifted)."""


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("go")


@pytest.mark.parametrize("name", BATCH.names)
def test_lifted_testify_exploits_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)
    if name in EXPECTED:
        r = BATCH.run(verifier).results[name]
        assert r.verdict == EXPECTED[name], (r.verdict, [t.detail for t in r.tests])


def test_the_batch_is_lifted_and_decided_on_the_host(verifier):
    """Every case but the one with a test function of its own is lifted; samples that
    record every value are decided on the host (no judge is built for this shape)."""
    for c in BATCH.cases:
        problem = Problem.model_validate({"id": "p", **c.problem})
        units, _ = languages.units_for(problem, c.code, [0], lambda unit: True)
        assert (units[0].lift is None) == (c.name == "own-failing-test"), c.name
    fresh = secrets.token_hex(4)  # programs no cache has seen
    batch = Batch("decided-" + fresh, [
        control("add", ADD_P, HONEST_ADD + f"// {fresh}\n"),
        exploit("named", ADD_P, NAMED_INT + f"// {fresh}\n"),
    ])  # fmt: skip
    host, runs = verifier.lifted.host, verifier.lifted.runs
    run = batch.run(verifier)
    assert run.results["add"].accepted and not run.results["named"].accepted
    assert verifier.lifted.host - host == 2 and verifier.lifted.runs - runs == 2


def test_the_candidates_build_holds_no_expected_value():
    problem = Problem.model_validate({"id": "p", **asserts(SECRET, language="go")})
    units, _ = languages.units_for(problem, READ_OWN_BINARY, [0], lambda unit: True)
    assert units[0].lift is not None
    source = "".join(units[0].files.values())
    assert "zq-expected-value-731-abcdef-qz" not in source
    assert "assert.Equal(" not in source and "func TestSecret" not in source


def test_the_recorder_links_testify_only_where_the_program_names_it():
    def source(code: str) -> str:
        problem = Problem.model_validate({"id": "p", **ADD_P})
        units, _ = languages.units_for(problem, code, [0], lambda unit: True)
        assert units[0].lift is not None
        return "".join(units[0].files.values())

    plain = source(HONEST_ADD)
    assert "stretchr" not in plain
    # the import blanked in place: the program's lines keep their numbers
    spec = '"github.com/stretchr/testify/assert"'
    assert HONEST_ADD.split("\n", 1)[1].replace(spec, " " * len(spec)) in plain
    assert "github.com/stretchr/testify/assert" in source(OWN_ASSERT)
    assert "github.com/stretchr/testify/assert" in source(USES_TESTIFY)


def _beside(verifier: Verifier) -> Verifier:
    """A verifier of the same backend with lifting off (a function, not a fixture: the
    docker suite collects this file's test functions alone)."""
    return Verifier(verifier.settings.model_copy(update={"lift_asserts": False, "workers": 1}))


def test_the_binary_reader_is_paid_beside_the_test(verifier):
    """The exploit is real: run beside the test (lifting off, same backend), the program
    finds the expected value in its own executable and the execution accepts it."""
    case = BATCH.by_name["reads-its-own-binary"]
    with _beside(verifier) as beside:
        r = Batch("beside", [case]).run(beside).results[case.name]
    assert r.verdict == Verdict.accepted, (r.verdict, [t.detail for t in r.tests])


def test_verdicts_agree_with_the_test_beside_the_program(verifier):
    cases = [BATCH.by_name[n] for n in SAME_BESIDE]
    with _beside(verifier) as beside:
        there = Batch("testify-beside", cases).run(beside)
    assert there.error is None, there.error
    here = BATCH.run(verifier).results
    differ = {
        n: (here[n].verdict, there.results[n].verdict)
        for n in SAME_BESIDE
        if here[n].verdict != there.results[n].verdict
    }
    assert not differ, differ


def test_earlier_rounds_testify_cases_still_hold_beside_the_test(verifier):
    """The earlier rounds' cases of this shape now run lifted; beside the test (lifting
    off, where a test that is not lifted runs) their defences still hold."""
    from tests.sandbox.adversarial import test_languages, test_languages_self_run

    names = {"go-testify-honest", "go-testify-shadow", "go-testify-self-run-oracle",
             "go-testify-honest-goroutines"}  # fmt: skip
    cases = [c for batch in (test_languages.BATCH, test_languages_self_run.BATCH)
             for c in batch.cases if c.name in names]  # fmt: skip
    assert len(cases) == len(names)
    with _beside(verifier) as beside:
        run = Batch("earlier-beside", cases).run(beside)
    assert run.error is None, run.error
    for c in cases:
        judge(c, run.results[c.name])
