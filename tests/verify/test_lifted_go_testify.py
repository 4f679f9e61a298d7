"""HumanEval-X's Go tests decided on the host (``reward_api.verify.lifted_go_testify``): which
tests it takes, and, checked against Go and testify in the Go runtime root, that every
comparison it decides comes out as testify's ``assert.Equal`` says, on values the real
recorder wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reward_api.data.converters import humaneval_x
from reward_api.verify import languages, lifted, lifted_go_testify
from tests.languages.test_runtimes import _in_cell

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "fixtures"


def _test(*lines: str) -> str:
    body = "".join(f"    {line}\n" for line in lines)
    return f"func TestF(t *testing.T) {{\n    assert := assert.New(t)\n{body}}}\n"


def test_humaneval_x_go_fixtures_are_lifted():
    for line in (FIXTURES / "humaneval_x.jsonl").read_text().splitlines():
        rec = json.loads(line)
        if not rec["task_id"].startswith("Go/"):
            continue
        problem = humaneval_x.humaneval_x_problem(rec)
        code = problem.tests[0].code
        plan = lifted_go_testify.plan(code)
        assert plan is not None and len(plan.calls) == 3, rec["task_id"]
        unit = languages._lifted_one(problem, problem.reference or "", code)
        assert unit is not None and unit.lift is not None and unit.lift[1] == plan
        assert unit.recipe == "go-test"  # built as beside the test: go vet's checks too


@pytest.mark.parametrize(
    "line",
    [
        "assert.Equal(5, F(1))", "assert.Equal(F(1), 5)", "assert.NotEqual(5, F(1))",
        "assert.True(F(1))", "assert.False(F(1), \"message\")", "assert.Equal([]int{}, F(nil))",
        "assert.Equal(true, math.Abs(F(1)-2.0/3.0) < 1e-6)",
        "assert.True(math.Abs(2.0/3 - F(1)) <= 1e-6)",
        'assert.Equal(map[string][]int{"a": {1}}, F([]string{"a"}, 3))',
        "assert.Equal(nil, F(map[interface{}]interface{}{}))",
    ],
)  # fmt: skip
def test_shapes_that_are_lifted(line):
    assert lifted_go_testify.plan(_test(line)) is not None


@pytest.mark.parametrize(
    "test",
    [
        _test("assert.Equal(5, F(x))"),  # a name in the arguments
        _test("assert.Equal(5, F(1)+1)"),  # an expression of the call
        _test("assert.Equal(F(1), F(2))"),  # two calls
        _test("assert.Equal(math.MaxInt64, F(1))"),  # a named expected value
        _test("assert.Equal(5, F(1))", "x := 1"),  # another statement
        _test("assert.InDelta(5, F(1), 0.1)"),  # another assertion
        _test("assert.Equal(5, F(1), 7)"),  # a message that is not a string
        _test("assert.Equal(float32(1.5), F(1))"),  # not evaluated here
        _test("assert.Equal([]int{1.5}, F(1))"),  # does not compile
        _test("assert.Equal(10000000000000000000, F(1))"),  # overflows int
        _test('assert.Equal(map[string]int{"a": 1, "a": 2}, F(1))'),  # a duplicate key
        _test("assert.Equal(true, math.Abs(F(1)-1+2) < 1e-6)"),  # (F(1) - 1) + 2
        _test("assert.Equal(5, len(F(1)))"),
        "func TestF(t *testing.T) {\n    assert.Equal(5, F(1))\n}\n",  # no t: not testify's
        "func helper() {}\n" + _test("assert.Equal(5, F(1))"),
        "func TestF(t *testing.T) {\n    assert := assert.New(t)\n    assert.Equal([]int{1, 2\n    }, F(1))\n}\n",  # a semicolon inserted
        # (red team) a parameter that is a word of the test's: Go reads the parameter
        "func TestF(true *testing.T) {\n    assert := assert.New(true)\n    assert.Equal(true, F(1))\n}\n",
        "func TestF(F *testing.T) {\n    assert := assert.New(F)\n    assert.Equal(5, F(1))\n}\n",
        "func TestF(math *testing.T) {\n    assert := assert.New(math)\n    assert.True(math.Abs(F(1)-1) < 1e-6)\n}\n",
        "func TestF(int *testing.T) {\n    assert := assert.New(int)\n    assert.Equal(5, F(1))\n}\n",
        # (red team) nested deeper than the recorder writes: Go compares it whole
        _test("assert.NotEqual(" + "[]interface{}{" * 33 + "1" + "}" * 33 + ", F(1))"),
        _test("assert.Equal(" + "[]" * 65 + "int" + "{" * 65 + "1" + "}" * 65 + ", F(1))"),
        # (red team) constants go/constant does not keep exact (0 in Go), or refuses
        _test("assert.Equal((1 + 1e-1300 - 1) * 1e300 * 1e300 * 1e300 * 1e300 * 1e200, F(1))"),
        _test(f"assert.Equal({10**100} * {10**100} / {10**100} / {10**99}, F(1))"),
        # (red team) zero elements that are arrays are counted whole (a million values here)
        _test("assert.Equal([1000][1000]int{}, F(1))"),
        _test("assert.Equal([100000][100000]int{}, F(1))"),
    ],
)  # fmt: skip
def test_other_shapes_stay_beside_the_program(test):
    assert lifted_go_testify.plan(test) is None


def test_a_constant_s_exponent_is_read_before_its_value_is_built():
    # Fraction("1e-999999999") builds a billion-digit integer: minutes of the host's CPU
    import time

    start = time.monotonic()
    for e in ("1e-999999999", "1E-999999999", "0.5e-999999999", "1e+999999999"):
        assert lifted_go_testify.plan(_test(f"assert.Equal({e}, F(1))")) is None
        assert lifted_go_testify.plan(_test(f"assert.True(math.Abs(F(1)-{e}) < 1)")) is None
    assert time.monotonic() - start < 5


def test_a_call_that_assert_true_takes_whole_may_have_more_results():
    # Go hands `assert.True(F(x))` every result of F, the rest as the message; with a
    # message, or in the package function's form, F must have one result
    plan = lifted_go_testify.plan(_test("assert.True(F(1))", 'assert.False(F(2), "m")'))
    assert plan is not None and [c.sink for c in plan.host] == ["boolv", "bool"]
    fn = "func TestF(t *testing.T) {\n    assert.True(t, F(1))\n}\n"
    plan = lifted_go_testify.plan(fn)
    assert plan is not None and [c.sink for c in plan.host] == ["bool"]


def test_keys_that_hash_alike_cost_the_host_linear_time():
    # Python hashes -1 and -2 alike, and so every tuple of them: a map[[17]int]bool of
    # 2**17 such keys (16 MB, the pass channel's cap) made decoding it quadratic
    import itertools
    import time

    plan = lifted_go_testify.plan(_test("assert.Equal(5, F(1))"))
    assert plan is not None
    n, name = 60_000, b"map[[17]int]bool"
    keys = itertools.islice(itertools.product((-1, -2), repeat=17), n)
    body = b"".join(b"A17:" + b"".join(b"i%d;" % x for x in k) + b"T" for k in keys)
    line = "v" + (b"I%d:%s" % (len(name), name) + b"M%d:" % n + body).hex() + "\n"
    start = time.monotonic()
    judged = lifted_go_testify.decide(plan.host, lifted.Recorded([], line))
    assert judged.outcome == "failed" and time.monotonic() - start < 10


def test_entry_points_name_what_the_test_may_call():
    test = _test("assert.Equal(5, F(1))")
    assert lifted_go_testify.plan(test, ["F"]) is not None
    assert lifted_go_testify.plan(test, ["G"]) is None


def test_a_program_go_test_would_run_more_of_is_not_lifted():
    test = _test("assert.Equal(5, F(1))")
    base = "package main\n\nfunc F(x int) int { return x + 4 }\n"
    problem = humaneval_x.humaneval_x_problem(
        {"task_id": "Go/1", "prompt": "func F(x int) int {\n", "test": test}
    )
    assert languages._lifted_one(problem, base, test) is not None
    for extra in ("func TestOwn(t *testing.T) {}\n", "func ExampleF() {}\n", "func Test() {}\n",
                  "func BenchmarkF() {}\n", "func FuzzF() {}\n"):  # fmt: skip
        assert languages._lifted_one(problem, base + extra, test) is None, extra
    # another package: `go test` builds it alike, and so does the recorder
    assert languages._lifted_one(problem, base.replace("main", "other", 1), test) is not None
    # a function whose name only starts so is one go test never runs
    assert languages._lifted_one(problem, base + "func Testify() {}\n", test) is not None


# ------------------------------------------------------------------ against Go and testify
RETURNS = [
    ("int", "5"), ("int", "0"), ("int", "-1"), ("int64", "5"), ("int32", "5"), ("uint8", "5"),
    ("uint", "5"), ("int8", "-5"), ("uintptr", "5"), ("int32", "'a'"), ("uint8", "'a'"),
    ("float64", "5"), ("float64", "5.5"), ("float64", "math.Copysign(0, -1)"),
    ("float64", "math.NaN()"), ("float64", "2.0 / 3.0"), ("float64", "1000"), ("float32", "5"),
    ("float32", "2.5"), ("string", '"abc"'), ("string", '""'), ("string", '"x\\n"'),
    ("string", '"\\xff"'), ("string", '"é"'), ("bool", "true"), ("bool", "false"),
    ("[]int", "nil"), ("[]int", "[]int{}"), ("[]int", "[]int{1, 2}"), ("[]int64", "[]int64{1, 2}"),
    ("[]string", '[]string{"a", "b"}'), ("[]string", "nil"), ("[]string", "[]string{}"),
    ("[2]int", "[2]int{0, 1}"), ("[3]int", "[3]int{1}"), ("[0]int", "[0]int{}"),
    ("[][]int", "[][]int{{1}, {}}"), ("[][]int", "[][]int{{1}, nil}"),
    ("map[string]int", 'map[string]int{"a": 1, "b": 2}'), ("map[string]int", "nil"),
    ("map[string]int", "map[string]int{}"), ("map[int]string", 'map[int]string{1: "x"}'),
    ("map[string][]int", 'map[string][]int{"a": {1}, "b": nil}'),
    ("map[float64]bool", "map[float64]bool{math.NaN(): true, 1: false}"),
    ("interface{}", "nil"), ("interface{}", "5"), ("interface{}", '"5"'),
    ("interface{}", "2.5"), ("interface{}", "[]int{1}"), ("interface{}", "myInt(5)"),
    ("[]interface{}", '[]interface{}{1, "a", 2.5, \'c\', nil, []int{1}}'),
    ("[]interface{}", "[]interface{}{}"), ("[]interface{}", "nil"), ("error", "nil"),
    ("myInt", "5"), ("intList", "intList{1, 2}"), ("myString", '"abc"'),
    ("struct{ A int }", "struct{ A int }{1}"), ("*int", "nil"), ("[]byte", '[]byte("ab")'),
    ("[]byte", "nil"), ("[]byte", "[]byte{}"), ("[]rune", '[]rune("ab")'),
    ("map[string]interface{}", 'map[string]interface{}{"a": 1, "b": nil}'),
    ("complex128", "1"), ("func()", "nil"), ("[]*int", "[]*int{nil}"),
    ("[][]string", '[][]string{{"a"}, {"b", "c"}}'),
    ("[]float64", "[]float64{1, 2.5, -0.0}"), ("[]float64", "[]float64{math.NaN()}"),
]  # fmt: skip

EXPECTED = [
    "5", "-1", "0", "int64(5)", "int32(5)", "uint8(5)", "uint(5)", "int8(-5)", "uintptr(5)",
    "5.0", "5.5", "float64(5)", "0.0", "-0.0", "2.0/3.0", "2/3", "2.0/3", "1e3", "0x10", "'a'",
    "byte('a')", "rune(97)", "97", '"abc"', '""', '"x\\n"', "`x\\n`", '"\\xff"', '"é"',
    '"\\u00e9"', "true", "false", "nil", "[]int{}", "[]int{1, 2}", "[]int{1.0, 2}",
    "[]int64{1, 2}", '[]string{"a", "b"}', "[]string{}", "[2]int{0, 1}", "[2]int{}",
    "[3]int{1}", "[3]int{1, 0, 0}", "[0]int{}", "[][]int{{1}, {}}", "[][]int{{1}, nil}",
    "[][]int{[]int{1}, []int{}}", 'map[string]int{"a": 1, "b": 2}',
    'map[string]int{"b": 2, "a": 1}', "map[string]int{}", 'map[int]string{1: "x"}',
    'map[string][]int{"a": {1}, "b": nil}', 'map[string][]int{"a": {1}, "b": {}}',
    'map[float64]bool{1: false}', '[]interface{}{1, "a", 2.5, \'c\', nil, []int{1}}',
    '[]interface{}{1, "a", 2.5, 99, nil, []int{1}}', "[]interface{}{}", "[]any{}",
    "[]byte{97, 98}", "[]byte{}", "[]uint8{97, 98}", "[]rune{97, 98}", "[]int32{'a', 'b'}",
    'map[string]interface{}{"a": 1, "b": nil}', 'map[string]any{"a": 1.0, "b": nil}',
    '[][]string{{"a"}, {"b", "c"}}', "[]float64{1, 2.5, 0}", "[]float64{1, 2.5, -0.0}",
    "(5)", "-(-5)", "2*3-1", "1000.0", "1e-3*1e6",
]  # fmt: skip

NEAR = [("2.0/3.0", "1e-6", "<"), ("0.6666", "1e-3", "<"), ("0.6666", "1e-5", "<"),
        ("5", "0", "<="), ("5", "0", "<"), ("-5", "10", "<"), ("1000", "1e-9", "<")]  # fmt: skip

HEAD = ('package main\n\nimport (\n\t"fmt"\n\t"math"\n\n\t"github.com/stretchr/testify/assert"\n)\n\n'
        "type myInt int\ntype intList []int\ntype myString string\n\n"
        "type nopT struct{}\n\nfunc (nopT) Errorf(string, ...interface{}) {}\n\n"
        "var _ = fmt.Sprint\nvar _ = math.Abs\nvar _ = assert.Equal\n\n")  # fmt: skip


def _returns() -> str:
    return "".join(f"func R{k}() {t} {{ return {v} }}\n" for k, (t, v) in enumerate(RETURNS))


def _go(script: str, program: str) -> list[str]:
    env = "export GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE=/tmp/.gocache CGO_ENABLED=0"
    p = _in_cell("go", ["/bin/sh", "-c", f"cd /tmp && cat > main.go && {env} && {script}"],
                 program, timeout_s=600)  # fmt: skip
    assert p.returncode == 0, p.stderr[-3000:]
    return p.stdout.splitlines()


@pytest.fixture(scope="module")
def recorded() -> list[str]:
    """Each of ``RETURNS`` as the real recorder wrote it: its line."""
    test = _test(*(f"assert.Equal(nil, R{k}())" for k in range(len(RETURNS))))
    plan = lifted_go_testify.plan(test)
    assert plan is not None
    tag = "t0"
    own = "; ".join(f'__cr_{n}_{tag} "{p}"' for n, p in lifted_go_testify.RECORDER_IMPORTS)
    head = HEAD.replace("import (", f"import ({own}\n", 1)
    program = head + _returns() + lifted_go_testify.recorder(tag, plan, "")
    lines = _go("mv main.go main_test.go && go test -c -o p main_test.go && ./p 3>&1 >/dev/null",
                program)  # fmt: skip
    assert len(lines) == len(RETURNS) and all(x.startswith("v") for x in lines)
    rec = lifted.Recorded([], "".join(x + "\n" for x in lines))
    assert lifted_go_testify.read(rec.channel, len(RETURNS)) is not None
    values = [lifted_go_testify.decode(bytes.fromhex(x[1:])) for x in lines]
    assert values[0] == ("int", 5) and values[RETURNS.index(("interface{}", "nil"))] is None
    return [x + "\n" for x in lines]


def test_assert_equal_as_testify_decides_it(recorded):
    wants = []
    for e in EXPECTED:
        plan = lifted_go_testify.plan(_test(f"assert.Equal({e}, F(1))"))
        assert plan is not None, e  # each of these is decided here
        wants.append(plan.host[0].want)
    body = "".join(
        f"\tfmt.Println(assert.Equal(nopT{{}}, {e}, R{k}()), assert.NotEqual(nopT{{}}, {e}, R{k}()))\n"
        for e in EXPECTED for k in range(len(RETURNS))
    )  # fmt: skip
    lines = _go("go build -o p main.go && ./p", HEAD + _returns() + f"func main() {{\n{body}}}\n")
    assert len(lines) == len(EXPECTED) * len(RETURNS)
    at = iter(lines)
    wrong, equal = [], 0
    for e, want in zip(EXPECTED, wants, strict=True):
        for k, line in enumerate(recorded):
            go_eq, go_ne = next(at).split()
            check = lifted_go_testify.Check("eq", "any", want)
            ours = lifted_go_testify.decide((check,), lifted.Recorded([], line)).outcome == "passed"
            not_ours = (
                lifted_go_testify.decide(
                    (lifted_go_testify.Check("ne", "any", want),), lifted.Recorded([], line)
                ).outcome
                == "passed"
            )
            equal += ours
            if (go_eq == "true") != ours or (go_ne == "true") != not_ours:
                wrong.append((e, RETURNS[k], go_eq, go_ne))
    assert not wrong, wrong[:20]
    assert equal >= 60  # the pairs are not all unequal


def test_the_tolerance_form_as_go_computes_it(recorded):
    floats = [k for k, (t, _v) in enumerate(RETURNS) if t == "float64"]
    cases = [(e, eps, op, k, order) for e, eps, op in NEAR for k in floats for order in (0, 1)]
    body = "".join(
        f"\tfmt.Println(math.Abs(R{k}() - {e}) {op} {eps})\n" if order == 0
        else f"\tfmt.Println(math.Abs({e} - R{k}()) {op} {eps})\n"
        for e, eps, op, k, order in cases
    )  # fmt: skip
    lines = _go("go build -o p main.go && ./p", HEAD + _returns() + f"func main() {{\n{body}}}\n")
    trues = 0
    for (e, eps, op, k, order), go in zip(cases, lines, strict=True):
        inner = f"R{k}() - {e}" if order == 0 else f"{e} - R{k}()"
        plan = lifted_go_testify.plan(_test(f"assert.True(math.Abs({inner}) {op} {eps})"))
        assert plan is not None, inner
        rec = lifted.Recorded([], recorded[k])
        ours = lifted_go_testify.decide(plan.host, rec).outcome == "passed"
        trues += ours
        assert ours == (go == "true"), (inner, op, eps, go)
    assert 0 < trues < len(cases)


def test_lines_the_recorder_would_not_write_fail_the_test():
    plan = lifted_go_testify.plan(_test("assert.Equal(5, F(1))", "assert.Equal(6, F(2))"))
    assert plan is not None
    five = (b"I3:inti5;").hex()
    for channel, outcome in [
        (f"v{five}\nv{five}\n", "failed"),
        (f"v{five}\n", "ran_out"),
        (f"v{five}\nv{(b'I3:inti6;').hex()}\n", "passed"),
        (f"v{five}\nv{(b'I3:inti6;;').hex()}\n", "failed"),  # bytes after the value
        (f"v{five}\nv{(b'I9:inti6;').hex()}\n", "failed"),  # a cut type name
        (f"v{five}\nv{(b'L99999999999:').hex()}\n", "failed"),
    ]:
        rec = lifted_go_testify.read(channel, 2)
        assert rec is not None
        assert lifted_go_testify.decide(plan.host, rec).outcome == outcome, channel
    for bare in (b"T", b"X", b"Z", b"i5;", b"f0;", b"L1:I3:inti5;", b""):  # (red team)
        # a line of the program's own that is not the interface the recorder writes
        channel = f"v{five}\nv{bare.hex()}\n"
        rec = lifted_go_testify.read(channel, 2)
        assert rec is not None
        near = lifted_go_testify.plan(
            _test("assert.True(math.Abs(F(1)-1) < 1e-6)", "assert.True(F(2))")
        )
        assert near is not None
        for host in (plan.host, near.host):
            assert lifted_go_testify.decide(host, rec).outcome == "failed", bare
    assert lifted_go_testify.read(f"v{five}\nv{five}\nv{five}\n", 2) is None  # one too many
    assert lifted_go_testify.read("x\n", 2) is None


@pytest.mark.parametrize(
    ("program", "kept"),
    [
        # the dataset's setup: blanked, the group left (an empty group is Go)
        ('package main\nimport (\n    "testing"\n    "github.com/stretchr/testify/assert"\n)\n',
         False),
        # a lone import declaration goes whole, its keyword too
        ('package main\nimport "github.com/stretchr/testify/assert"\nfunc F() {}\n', False),
        # a name of its own that nothing else names; require too
        ('package main\nimport (a "github.com/stretchr/testify/assert"; '
         '"github.com/stretchr/testify/require")\n', False),
        # named elsewhere: a call, a declaration, the name given to another spec
        ('package main\nimport "github.com/stretchr/testify/assert"\n'
         "func F() bool { return assert.ObjectsAreEqual(1, 1) }\n", True),
        ('package main\nimport "github.com/stretchr/testify/assert"\nvar assert = 1\n', True),
        ('package main\nimport (a "github.com/stretchr/testify/assert")\nvar _ = a.Equal\n', True),
        # blank and dot imports bind no name of testify's: kept as written
        ('package main\nimport _ "github.com/stretchr/testify/assert"\n', True),
        ('package main\nimport . "github.com/stretchr/testify/assert"\n', True),
        # with the ``;`` written after the spec (a red team's: a ``;`` left alone does
        # not parse)
        ('package main\nimport "github.com/stretchr/testify/assert"; import "math"\n', False),
        ('package main\nimport ("github.com/stretchr/testify/assert"; "math"; "testing")\n',
         False),
        # another package's path, and a path that only ends like testify's
        ('package main\nimport assert "example.com/assert"\n', True),
    ],
)  # fmt: skip
def test_testify_imports_the_program_names_nowhere_else_are_blanked(program: str, kept: bool):
    out, _unnamed = languages._go_without_testify(program)
    assert len(out) == len(program) and out.count("\n") == program.count("\n")
    assert out == program if kept else "stretchr" not in out
    if not kept and "import (" not in program:
        assert "import" not in out.replace('import "math"', "")  # nor a keyword alone
    if not kept:
        assert ";" not in out.split("\n")[1].split('"')[0]  # nor a ``;`` before what stays
