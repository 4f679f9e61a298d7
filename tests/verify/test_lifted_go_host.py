"""MBGP's ``deepCompare`` decided on the host (``reward_api.verify.lifted_go_host``): which
tests it takes, the expected values it evaluates and the recorded lines it reads, checked
against Go itself (``go run`` in the Go runtime root), and its outcomes."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest

from reward_api.verify import lifted, lifted_go, lifted_go_host
from tests.languages.test_runtimes import _in_cell
from tests.sandbox.adversarial.test_languages_lifted_go import DEEP_COMPARE, mbgp
from tests.verify.test_lifted_go import _main

MBGP = Path(__file__).resolve().parents[3] / "shared/data/mbxp/mbgp_release_v1.1.jsonl"


def _expected(expr: str) -> Any:
    """The host's value of ``expected_1 := expr`` (None where it refuses)."""
    values = lifted_go_host.expected(mbgp(("f(1)", expr)), {"f"})
    return values[0] if values is not None else None


def _refused(expr: str) -> bool:
    return lifted_go_host.expected(mbgp(("f(1)", expr)), {"f"}) is None


def _mbgp_expressions() -> list[str]:
    if not MBGP.exists():
        pytest.skip(f"no {MBGP}")
    out = []
    for line in MBGP.read_text().splitlines():
        test = json.loads(line)["test"]
        for row in test.splitlines():
            row = row.strip()
            if row.startswith("expected_") and " := " in row:
                out.append(row.split(" := ", 1)[1])
    return out


def test_mbgps_tests_are_decided_on_the_host():
    """All of MBGP's tests are lifted and all but 14 decided here; those 14 hold what Go
    would not compile (an integer beyond ``int``, an untyped ``nil``, a NUL character in
    MBGP/217's text) or would panic on (a map keyed by a slice), which their compiled
    judge meets as before."""
    if not MBGP.exists():
        pytest.skip(f"no {MBGP}")
    taken = refused = 0
    for line in MBGP.read_text().splitlines():
        record = json.loads(line)
        plan = lifted_go.plan(record["test"], [record["entry_point"]])
        assert plan is not None, record["task_id"]
        if plan.host is None:
            refused += 1
        else:
            taken += 1
            assert len(plan.host) == len(plan.calls)
    assert (taken, refused) == (925, 14)


@pytest.mark.parametrize("expr", [
    "nil", "[]byte{1}", "[]uint8{1}", "float32(0.1)", "[]float32{0.1}", "1 + 2", "x",
    "len(\"a\")", "struct{}{}", "P{X: 3}", "[]int{0: 1}", 'map[string]int{"a": 1, "a": 2}',
    "[]int{2.5}", "[]int{2.0}", "int8(300)", "uint(-1)", "9223372036854775808",
    "[]string{'a'}", '[]int{"a"}', "0x1p-2", "1i", "1_000", "08", "map[bool]int{true: 1}",
    "map[float64]int{1: 2}", '"\\xff"', '"\\ud800"', "'ab'", "[2]int{1, 2, 3}",
    "[]interface{}{{1}}", "-\"a\"", "&[]int{1}", "[]int(nil)", "[]int{1}[0]",
    "map[interface{}]int{1: 2}", "1e400", '"a\x00"', "'\x00'", '"\ufeff"',
])  # fmt: skip
def test_what_the_host_does_not_evaluate_goes_to_the_compiled_judge(expr):
    assert _refused(expr)


def test_values_in_json_s_decoded_form():
    assert _expected("8") == 8.0 and type(_expected("8")) is float
    assert _expected("true") is True
    assert _expected("'a'") == 97.0
    assert _expected("017") == 15.0 and _expected("0o17") == 15.0 and _expected("0b101") == 5.0
    assert _expected('"a\\tb\\u00e9\\x41\\101"') == "a\tbéAA"
    assert _expected("`a\\n`") == "a\\n"
    assert _expected("[3]int{1}") == [1.0, 0.0, 0.0]
    assert _expected("[][]int{{1}, {}, nil}") == [[1.0], [], None]
    assert _expected('map[int]string{-1: "x"}') == {"-1": "x"}
    assert _expected('[]interface{}{1, "a", true, nil}') == [1.0, "a", True, None]


# the Go side: each value as deepCompare sees it after json.Unmarshal, in a form both
# languages write the same (floats by their bits, strings and keys by their UTF-8 in hex)
_CANON_GO = """
func canon(v interface{}) string {
\tswitch x := v.(type) {
\tcase nil:
\t\treturn "Z"
\tcase bool:
\t\tif x {
\t\t\treturn "T"
\t\t}
\t\treturn "F"
\tcase float64:
\t\treturn "N" + strconv.FormatUint(math.Float64bits(x), 16)
\tcase string:
\t\treturn "S" + hex.EncodeToString([]byte(x))
\tcase []interface{}:
\t\tparts := []string{}
\t\tfor _, e := range x {
\t\t\tparts = append(parts, canon(e))
\t\t}
\t\treturn "[" + strings.Join(parts, ",") + "]"
\tcase map[string]interface{}:
\t\tkeys := []string{}
\t\tfor k := range x {
\t\t\tkeys = append(keys, k)
\t\t}
\t\tsort.Strings(keys)
\t\tparts := []string{}
\t\tfor _, k := range keys {
\t\t\tparts = append(parts, hex.EncodeToString([]byte(k))+":"+canon(x[k]))
\t\t}
\t\treturn "{" + strings.Join(parts, ",") + "}"
\t}
\treturn "?"
}

func show(v interface{}) {
\tb, err := json.Marshal(v)
\tif err != nil {
\t\tfmt.Println("E")
\t\treturn
\t}
\tvar back interface{}
\tif err := json.Unmarshal(b, &back); err != nil {
\t\tfmt.Println("U")
\t\treturn
\t}
\tfmt.Println(canon(back))
}
"""
_IMPORTS = ('package main\n\nimport (\n\t"encoding/hex"\n\t"encoding/json"\n\t"fmt"\n'
            '\t"math"\n\t"sort"\n\t"strconv"\n\t"strings"\n)\n')  # fmt: skip


def _canon(v: Any) -> str:
    if v is None:
        return "Z"
    if isinstance(v, bool):
        return "T" if v else "F"
    if isinstance(v, float):
        return "N" + format(struct.unpack("<Q", struct.pack("<d", v))[0], "x")
    if isinstance(v, str):
        return "S" + v.encode("utf-8").hex()
    if isinstance(v, list):
        return "[" + ",".join(_canon(e) for e in v) + "]"
    return "{" + ",".join(f"{k.encode().hex()}:{_canon(v[k])}" for k in sorted(v)) + "}"


def _go_run(program: str) -> list[str]:
    script = ("cd /tmp && cat > main.go && export GO111MODULE=off GOCACHE=/tmp/.gocache "
              "CGO_ENABLED=0 && go build -o p main.go && ./p")  # fmt: skip
    p = _in_cell("go", ["/bin/sh", "-c", script], program, timeout_s=300)
    assert p.returncode == 0, p.stderr[-3000:]
    return p.stdout.splitlines()


HANDPICKED = [
    "8", "-5", "0x1F", "017", "0o17", "0b101", "'a'", "'\\n'", "'\\x41'", "'\\u00e9'",
    "'\\''", "2.083333333333333", "8.0", "-0.0", "1e3", ".5", "5.", "0.1", "1e-310",
    "9223372036854775807", "-9223372036854775808", "9007199254740993", '"abc"', "`raw\\n`",
    '"\\u00e9\\t\\x41\\101\\"\\\\"', '"é😀"', '"<&>"', "true", "false", "[]int{}",
    "[]int{1, -2, 3}", "[]float64{1, 2.5, -0.0}", "[][]int{{1}, {}, nil}",
    "[][]int{[]int{1}, nil}", "[3]int{1}", '[2][2]string{{"a"}}',
    'map[string]int{"b": 2, "a": 1}', 'map[int]string{-1: "x", 10: "y"}',
    'map[string][]interface{}{"k": []interface{}{6.2, 70}}',
    '[]interface{}{1, "a", true, nil, 2.5, []interface{}{}, map[string]int{}}',
    '[]map[string]interface{}{map[string]interface{}{"make": "Nokia", "model": 216}}',
    "float64(3)", "int64(-7)", "[]rune{'a', 98}", "[]uint{1, 2}", "map[rune]int{'a': 1}",
    '[]string{"a\\"b", `c`}', "int32(2147483647)", "map[uint16]bool{65535: true}",
    "[]any{1, 2}", "map[string]any{}", "[]map[string]int{nil, {}}",
]  # fmt: skip


def test_expected_values_are_what_go_marshals():
    """Every expected value the host evaluates, MBGP's and the hand-picked, is the value
    ``json.Unmarshal`` gives back after ``json.Marshal`` in Go itself, bit for bit."""
    exprs = [e for e in dict.fromkeys(HANDPICKED + _mbgp_expressions()) if not _refused(e)]
    assert len(exprs) > 1000 and not [e for e in HANDPICKED if _refused(e)]
    body = "".join(f"\t{{\n\t\te := {e}\n\t\tshow(e)\n\t}}\n" for e in exprs)
    got = _go_run(f"{_IMPORTS}{_CANON_GO}\nfunc main() {{\n{body}}}\n")
    assert len(got) == len(exprs)
    wrong = [(e, g, _canon(_expected(e))) for e, g in zip(exprs, got, strict=True)
             if g != _canon(_expected(e))]  # fmt: skip
    assert not wrong, wrong[:5]


LINES = [
    "1", "-0", "0.1", "1e308", "1E+2", "-1.5e-3", "5e-324", "2.4703282292062328e-324",
    "123456789012345678901234567890", "9007199254740993", '"\\u00e9"', '"\\ud83d\\ude00"',
    '"\\/\\b\\f"', '"<>&"', "[1,[2,{\"a\":null}]]", '{"a":1,"a":2}', '{"a":{"x":1},"a":[]}',
    "{}", "[]", "true", "null", " [ 1 , 2 ] ", '"é"', '{"é":1,"e":2}', '"\\u2028"',
    # refused: Go reads these otherwise, or not at all
    "NaN", "Infinity", "1e400", "-1e309", '"\\ud800"', '["\\udc00"]', "[1,]", "01", '"\x01"',
    "{\"a\" 1}", "[" * 2000 + "]" * 2000,
]  # fmt: skip


def test_recorded_lines_are_read_as_go_reads_them():
    """Each line the host reads it reads as Go's ``json.Unmarshal`` does; a line it
    refuses goes to the compiled judge. The recorder's own lines (``json.Marshal`` of
    ordinary values) are never refused."""
    raw = [s.encode("utf-8") for s in LINES] + [b'"\xff"', b'"\xe2\x82"', b"\xef\xbb\xbf1"]
    read = """
func main() {
\tfor _, line := range strings.Fields(recorded) {
\t\tb, _ := hex.DecodeString(line)
\t\tif !json.Valid(b) {
\t\t\tfmt.Println("V")
\t\t\tcontinue
\t\t}
\t\tvar back interface{}
\t\tif err := json.Unmarshal(b, &back); err != nil {
\t\t\tfmt.Println("U")
\t\t\tcontinue
\t\t}
\t\tfmt.Println(canon(back))
\t}
}
"""
    recorded = f'\nconst recorded = "{" ".join(b.hex() for b in raw)}"\n'
    got = _go_run(f"{_IMPORTS}{_CANON_GO}{recorded}{read}")
    assert len(got) == len(raw)
    taken = 0
    for b, g in zip(raw, got, strict=True):
        try:
            mine = lifted_go_host._decode(b.hex())
        except lifted_go_host._Refuse:
            continue
        taken += 1
        assert _canon(mine) == g, (b, g)
    assert taken == LINES.index("NaN")


def _plan_of(test: str, entry: str = "f") -> lifted_go.Plan:
    plan = lifted_go.plan(test, [entry])
    assert plan is not None
    return plan


def _line(value: Any) -> str:
    return "h" + json.dumps(value).encode().hex() + "\n"


def test_the_outcomes_are_the_compiled_judges():
    values = _plan_of(mbgp(("f(1)", "[]int{1, 2}"), ("f(2)", "true"), ("f(3)", '"x"'))).host
    assert values is not None
    ok = _line([1, 2]) + _line(True) + _line("x")
    assert lifted_go_host.decide(values, ok) == lifted.Judged("passed")
    # the first mismatch decides, whatever follows
    bad = _line([1, 2]) + _line(1) + "zz\n"
    assert lifted_go_host.decide(values, bad).outcome == "failed"  # true is not 1
    assert lifted_go_host.decide(values, _line([1.0, 2.0]) + _line(True)).outcome == "ran_out"
    assert lifted_go_host.decide(values, "e\n").outcome == "failed"
    assert lifted_go_host.decide(values, _line([1, 2, 3])).outcome == "failed"
    # a line only Go may read: the compiled judge decides the sample
    assert lifted_go_host.decide(values, _line([1, 2]) + "h" + b"NaN".hex() + "\n") is None
    assert lifted_go_host.decide(values, "h" + b'"\xff"'.hex() + "\n") is None


@pytest.mark.parametrize("body", [
    # a name of Go's own, redeclared: later statements would read it otherwise
    '\tint := f(1)\n\texpected_1 := 2\n\tdeepCompare(int, expected_1, "x")\n',
    # a name declared twice, a comparison of one name with itself, an extra statement
    '\tactual_1 := f(1)\n\tactual_1 := 2\n\tdeepCompare(actual_1, actual_1, "x")\n',
    '\tactual_1 := f(1)\n\texpected_1 := 2\n\tdeepCompare(actual_1, actual_1, "x")\n',
    '\tactual_1 := f(1)\n\texpected_1 := 2\n\tdeepCompare(actual_1, expected_1, "x")\n'
    '\tprintln("done")\n',
    # the expected value from another name
    '\tactual_1 := f(1)\n\texpected_1 := actual_1\n\tdeepCompare(actual_1, expected_1, "x")\n',
])  # fmt: skip
def test_other_main_bodies_go_to_the_compiled_judge(body):
    plan = lifted_go.plan(_main(body), ["f"])
    assert plan is None or plan.host is None


def test_a_deep_compare_of_its_own_goes_to_the_compiled_judge():
    """Only MBGP's own ``deepCompare`` is known here: one that compares otherwise (here:
    never panics) is the compiled judge's to run."""
    body = '\tactual_1 := f(1)\n\texpected_1 := 2\n\tdeepCompare(actual_1, expected_1, "x")\n'
    assert _plan_of(_main(body)).host == (2.0,)
    lenient = _main(body).replace("\t\tpanic(msg)\n\t}\n}", "\t\treturn false\n\t}\n}")
    assert lenient != _main(body)
    assert _plan_of(lenient).host is None
    assert DEEP_COMPARE.strip() in _main(body)
    swapped = body.replace("(actual_1, expected_1", "(expected_1, actual_1")
    assert _plan_of(_main(swapped)).host == (2.0,)


def test_a_long_number_goes_to_go():
    """Red team: Go 1.19 reads ``1`` then 800 zeros then ``e-800`` as 0.1 (its decimal
    fallback keeps 800 digits), Python as 1.0; a program's ``MarshalJSON`` may write it.
    A number longer than any ``json.Marshal`` writes is Go's to read."""
    values = lifted_go_host.expected(mbgp(("f(1)", "1")), {"f"})
    assert values == (1.0,)
    for text in ("1" + "0" * 800 + "e-800", "0." + "0" * 99999 + "1e100000", "1" * 65):
        line = "h" + text.encode().hex() + "\n"
        assert lifted_go.read(line, 1) is not None
        assert lifted_go_host.decide(values, line) is None
    assert lifted_go_host.decide(values, "h" + b"1.000000000000000000000".hex() + "\n") == (
        lifted.Judged("passed")
    )


@pytest.mark.parametrize("test", [
    # red team: texts Go does not compile, which the host must not decide
    _main('\tvar := f(1)\n\tE := 1\n\tdeepCompare(var, E, "m")\n'),
    _main('\tx\u00bd := f(1)\n\tE := 1\n\tdeepCompare(x\u00bd, E, "m")\n'),
    _main('\tA := f(1)\f\n\tE := 1\n\tdeepCompare(A, E, "m")\n'),
    mbgp(("f(1)", "1")).replace("return true", "return\n\t\ttrue"),
    _main('\tA := f(1)\n\tE := [\u0663]int{1}\n\tdeepCompare(A, E, "m")\n'),
    _main('\tA := f(1)\n\tE := []int{1\n\t}\n\tdeepCompare(A, E, "m")\n'),
    _main('\tA := f(1)\n\tE := 1\n\tdeepCompare(A, E, "m"\n\t)\n'),
])  # fmt: skip
def test_texts_go_would_not_compile_go_to_the_compiled_judge(test):
    plan = lifted_go.plan(test, ["f"])
    assert plan is None or plan.host is None


def test_a_composite_literal_across_lines_is_decided():
    test = _main('\tA := f(1)\n\tE := []int{\n\t\t1,\n\t\t2,\n\t}\n\tdeepCompare(A, E, "m")\n')
    assert _plan_of(test).host == ([1.0, 2.0],)
