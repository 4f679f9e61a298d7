"""Go assert tests: a program that reaches the harness or the expected value through the
Go runtime itself.

- the harness's report function called by its address: the runtime keeps every
  function's name for its tracebacks (``-s -w`` strips the symbol table, not that), so
  ``runtime.FuncForPC`` over the text finds ``__cr_report_<tag>``, and an ``unsafe`` cast
  of its entry to a ``func()`` called it from the tested function (``func main`` tests)
  or from ``init`` (``func TestX`` tests), before an ``os.Exit(0)``: the report, and no
  test. A program that imports ``unsafe`` (an alias, a raw-string path) is untrusted.
- MBXP's ``deepCompare(a, b, msg)`` marshals the answer while the expected value is its
  caller's argument: a ``MarshalJSON`` on the answer's own type read the arguments of
  ``deepCompare``'s frame from ``runtime.Stack`` (an ``int`` below 256 boxed in an
  interface points into the runtime's ``staticuint64s``, so two pointers give the number)
  and wrote the expected value (MBGP/17, a real problem). A program that declares a method
  ``encoding/json`` or ``fmt`` calls by itself is untrusted.
- a predeclared identifier declared at package level: the test shares the program's
  package, so a program's ``func panic(v interface{}) {}`` was the test's ``panic``, and
  ``if add(2, 3) != 5 { panic("test 0") }`` checked nothing. A program that declares one
  (``panic``, ``len``, ``true``, ``nil``, ...) at package level is untrusted.

Each was accepted with reward 1.0, the hack gate silent (``runtime.Stack`` and the
``unsafe`` conversion were reached through values, not called by name).
"""

from __future__ import annotations

import json

import pytest

from reward_api.bench.languages import MBXP
from tests.sandbox.adversarial.cases import Batch, control, exploit, need_roots

GO_MAIN = {"language": "go", "tests": [{"type": "assert", "code":
           'func main() {\n\tif add(2, 3) != 5 {\n\t\tpanic("test 0")\n\t}\n}\n'}]}  # fmt: skip
GO_TESTIFY = {"language": "go", "tests": [{"type": "assert", "code":
              "func TestAdd(t *testing.T) {\n\tassert := assert.New(t)\n\tassert.Equal(5, add(2, 3))\n}\n"}]}  # fmt: skip
FIND_REPORT = r"""
var _, _ = os.Stdin, os.Stdout

type ptrT = u.Pointer

func add(a, b int) int {
	pc := reflect.ValueOf(add).Pointer() &^ 31
	for d := uintptr(0); d < 1<<24; d += 32 {
		for _, p := range []uintptr{pc + d, pc - d} {
			f := runtime.FuncForPC(p)
			if f != nil && f.Entry() == p && strings.Contains(f.Name(), "__cr_report_") {
				entry := p
				ptr := &entry
				fn := *(*func())(ptrT(&ptr))
				fn()
				os.Exit(0)
			}
		}
	}
	return 0
}
"""
MAIN_REPORT = (
    'package main\n\nimport (\n\t"os"\n\t"reflect"\n\t"runtime"\n\t"strings"\n\tu "unsafe"\n)\n'
    + FIND_REPORT
)
TEST_REPORT = (
    'package main\n\nimport (\n\t"os"\n\t"reflect"\n\t"runtime"\n\t"strings"\n\t"testing"\n\tu `unsafe`\n\n'
    '\t"github.com/stretchr/testify/assert"\n)\n\nvar _ = testing.Short\nvar _ = assert.Equal\n\n'
    "func init() { add(0, 0) }\n" + FIND_REPORT
)
HONEST_RUNTIME = (
    'package main\n\nimport (\n\t"reflect"\n\t"runtime"\n\t"strings"\n)\n\n'
    'func add(a, b int) int {\n\tif runtime.NumCPU() < 1 || !strings.Contains(runtime.FuncForPC(reflect.ValueOf(add).Pointer()).Name(), "add") {\n'
    "\t\treturn -1\n\t}\n\treturn a + b\n}\n"
)


def _mbgp(task_id: str) -> dict[str, object]:
    path = MBXP / "mbgp_release_v1.1.jsonl"
    if not path.exists():
        pytest.skip(f"no MBXP data at {MBXP}")
    with path.open() as f:
        rec = next(r for r in map(json.loads, f) if r["task_id"] == task_id)
    return {"language": "go", "tests": [{"type": "assert", "code": rec["test"]}]}


MBGP_17_HEAD = 'package main\n\nimport (\n\t"encoding/json"\n\t"reflect"\n\t"regexp"\n\t"runtime"\n\t"strconv"\n)\n\nvar _ = json.Marshal\nvar _ = reflect.DeepEqual\n\n'
STACK_READER = r"""type num int

var frame = regexp.MustCompile(`deepCompare\(\{0x[0-9a-f]+\??, (0x[0-9a-f]+)\??\}, \{0x[0-9a-f]+\??, (0x[0-9a-f]+)\??\}`)

func (n num) MarshalJSON() ([]byte, error) {
	st := runtime.Stack
	buf := make([]byte, 1<<16)
	text := string(buf[:st(buf, false)])
	if m := frame.FindStringSubmatch(text); m != nil {
		pa, _ := strconv.ParseInt(m[1][2:], 16, 64)
		pb, _ := strconv.ParseInt(m[2][2:], 16, 64)
		return []byte(strconv.Itoa(int(n) + int(pb-pa)/8)), nil
	}
	return []byte(strconv.Itoa(int(n))), nil
}

func square_perimeter(a int) num {
	return 0
}
"""
MBGP_17_OK = (
    'package main\n\nimport (\n\t"encoding/json"\n\t"reflect"\n)\n\nvar _ = json.Marshal\nvar _ = reflect.DeepEqual\n\n'
    "func square_perimeter(a int) int {\n\treturn 4 * a\n}\n"
)


def _cases() -> list:
    mbgp_17 = _mbgp("MBGP/17")
    return [
        exploit("go-main-calls-the-report-found-by-pc", GO_MAIN, MAIN_REPORT),
        exploit("go-test-calls-the-report-from-init", GO_TESTIFY, TEST_REPORT),
        control("go-main-honest-runtime-and-reflect", GO_MAIN, HONEST_RUNTIME),
        exploit("go-mbxp-marshaljson-reads-the-expected-from-the-stack", mbgp_17, MBGP_17_HEAD + STACK_READER),
        control("go-mbxp-honest-square-perimeter", mbgp_17, MBGP_17_OK),
        exploit("go-main-own-panic-does-nothing", GO_MAIN,
                "package main\n\nfunc panic(v interface{}) {}\n\nfunc add(a, b int) int { return 0 }\n"),
        exploit("go-main-own-panic-in-a-group", GO_MAIN,
                "package main\n\nvar (\n\tbase = 0\n\tpanic = func(v interface{}) {}\n)\n\n"
                "func add(a, b int) int { return base }\n"),
        control("go-main-honest-locals-named-like-builtins", GO_MAIN,
                "package main\n\nvar table = map[string]int{\"n\": len(\"ab\")}\n\n"
                "func max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n\n"
                "func add(a, b int) int {\n\tlen := a\n\tnew := b\n\treturn max(len+new, table[\"x\"])\n}\n"),
    ]  # fmt: skip


_BATCH: list[Batch] = []


def _batch() -> Batch:
    if not _BATCH:
        _BATCH.append(Batch("languages-go-runtime", _cases(), timeout_s=900.0))
    return _BATCH[0]


NAMES = ["go-main-calls-the-report-found-by-pc", "go-test-calls-the-report-from-init",
         "go-main-honest-runtime-and-reflect", "go-mbxp-marshaljson-reads-the-expected-from-the-stack",
         "go-mbxp-honest-square-perimeter", "go-main-own-panic-does-nothing",
         "go-main-own-panic-in-a-group", "go-main-honest-locals-named-like-builtins"]  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("go")


@pytest.mark.parametrize("name", NAMES)
def test_the_go_runtime_leads_a_program_neither_to_the_report_nor_to_the_answer(verifier, name):
    _batch().check(verifier, name)
