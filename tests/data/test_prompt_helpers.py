"""The prompt's helpers a test calls become the test's own copies (prompt_helpers).

The records are written here in HumanEval-X's shapes (a prompt that defines a helper whole
and leaves the function to write open, a test that calls both); the sandboxed half, where
a program that redefines the helper is refused, is
tests/sandbox/adversarial/test_languages_prompt_helpers.py.
"""

from __future__ import annotations

import pytest

from reward_api.data.converters.conversion import Conversion
from reward_api.data.converters.humaneval import convert_humaneval
from reward_api.data.converters.humaneval_x import convert_humaneval_x, humaneval_x_problem
from reward_api.data.converters.prompt_helpers import CPP_NAMESPACE, JAVA_CLASS, trusted_helpers
from reward_api.schemas import AssertTest

CPP_PROMPT = """#include<stdio.h>
#include<string>
using namespace std;
string twist(string s){
    // the helper: "{" and "}" in a comment and a string do not count
    string out = "}";
    for (char c: s) out = c + out;
    return out.substr(0, out.size() - 1);
}
string untwist(string s){
    /* reverses twist */
"""
CPP_TEST = """#undef NDEBUG
#include<assert.h>
int main(){
    string s = "twist";
    assert (untwist(twist(s)) == s);
}
"""


def test_cpp_helper_is_copied_into_its_namespace_and_the_test_calls_the_copy():
    setup, test = trusted_helpers("cpp", CPP_PROMPT, CPP_TEST, ["untwist"])
    assert setup.startswith("#include <cmath>\n")  # the copies' own headers
    assert f"\nnamespace {CPP_NAMESPACE} {{\n" in setup
    assert "void operator+(cr_none, cr_none);" in setup  # lookup of + stops there
    assert "\nstring twist(string s){" in setup
    assert setup.rstrip().endswith("return out.substr(0, out.size() - 1);\n}\n}")
    assert f"untwist({CPP_NAMESPACE}::twist(s)) == s" in test
    assert 'string s = "twist";' in test  # a literal keeps its word


def test_c_helper_is_copied_renamed():
    prompt = "int twice(int x){\n    return 2 * x;\n}\nint half(int y){\n"
    setup, test = trusted_helpers("c", prompt, "int main(){ assert(half(twice(3)) == 3); }\n")
    assert setup == "int problem_twice(int x){\n    return 2 * x;\n}\n"
    assert test == "int main(){ assert(half(problem_twice(3)) == 3); }\n"


def test_the_function_to_write_and_unused_helpers_are_not_copied():
    # the entry point's body is open in the prompt; a helper the test never names stays
    assert trusted_helpers("cpp", CPP_PROMPT, "int main(){ assert(untwist(\"a\") == \"a\"); }\n") \
        == ("", "int main(){ assert(untwist(\"a\") == \"a\"); }\n")  # fmt: skip


def test_java_helper_becomes_a_static_method_of_the_tests_class():
    prompt = """import java.util.*;

class Solution {
    public int square(int x) {
        return x * x;
    }
    public int root(int y) {
"""
    test = """public class Main {
    public static void main(String[] args) {
        Solution s = new Solution();
        if (s.root(s.square(7)) != 7) throw new AssertionError();
    }
}
"""
    setup, new = trusted_helpers("java", prompt, test)
    assert setup.startswith(f"class {JAVA_CLASS} {{\n    public static int square(int x) {{")
    assert f"s.root({JAVA_CLASS}.square(7)) != 7" in new


def test_go_return_type_with_braces_is_not_a_body():
    # ``interface{}{``: the body's brace is the last of the line; the function is open
    prompt = "package main\n\nfunc Pick(xs []string) interface{}{\n"
    test = "func TestPick(t *testing.T) {\n    assert.Equal(t, nil, Pick(nil))\n}\n"
    assert trusted_helpers("go", prompt, test) == ("", test)


def test_go_and_javascript_helpers_are_renamed():
    go = "package main\n\nfunc Double(x int) int {\n    return 2 * x\n}\nfunc Half(x int) int {\n"
    setup, test = trusted_helpers("go", go, "func TestHalf(t *testing.T) { Half(Double(3)) }\n")
    assert setup == "func problem_Double(x int) int {\n    return 2 * x\n}\n"
    assert "Half(problem_Double(3))" in test
    js = "const inc = (x) => {\n  return x + 1;\n}\n\nconst dec = (x) => {\n"
    setup, test = trusted_helpers("javascript", js, "console.assert(dec(inc(4)) === 4)\n")
    assert setup == "const problem_inc = (x) => {\n  return x + 1;\n}\n"
    assert test == "console.assert(dec(problem_inc(4)) === 4)\n"


def test_humaneval_x_problem_carries_the_copies_in_setup_code():
    rec = {"task_id": "CPP/9100", "prompt": CPP_PROMPT, "test": CPP_TEST,
           "canonical_solution": "    return twist(s);\n}\n"}  # fmt: skip
    p = humaneval_x_problem(rec)
    assert p.setup_code is not None and "string twist(string s){" in p.setup_code
    assert isinstance(p.tests[0], AssertTest) and f"{CPP_NAMESPACE}::twist(s)" in p.tests[0].code
    assert p.reference is not None and "string twist(string s){" in p.reference  # the program's own


@pytest.mark.parametrize("entry", ["unwrap"])
def test_humaneval_python_helper_joins_setup(entry):
    prompt = (
        "import math\n\n\ndef wrap(x: float):\n    return math.floor(x) + 0.5\n\n\n"
        f'def {entry}(y: float):\n    """inverse of wrap on halves"""\n'
    )
    rec = {"task_id": "HumanEval/9100", "prompt": prompt, "entry_point": entry,
           "canonical_solution": "    return y - 0.5\n",
           "test": "def check(candidate):\n    for i in range(5):\n"
                   "        assert candidate(wrap(i)) == i\n"}  # fmt: skip
    conv = Conversion()
    convert_humaneval([rec], conv)
    (p,) = conv.problems
    assert p.setup_code is not None
    assert "import math" in p.setup_code and "def wrap(x: float):" in p.setup_code
    assert f"def {entry}" not in p.setup_code


def test_rust_records_that_can_judge_nothing_are_skipped_with_the_reason():
    """Round 20: HumanEval-X's Rust/32 test is one comment (it passed any program that
    compiled), and Rust/38, /50 and /53 draw inputs with ``rand``, which the verifier's
    rustc does not have (no program compiled, the canonical solution neither)."""
    body = "#[test]\n    fn t() { assert_eq!(add(1, 2), 3); }\n"
    records = [
        {"task_id": "Rust/9400", "prompt": "fn add(a: i32, b: i32) -> i32 {\n",
         "canonical_solution": "a + b\n}\n", "test": f"/*\nmod tests {{\n    {body}}}\n*/\n"},
        {"task_id": "Rust/9401", "prompt": "fn add(a: i32, b: i32) -> i32 {\n",
         "canonical_solution": "a + b\n}\n",
         "test": "mod tests {\n    use super::*;\n    #[test]\n    fn t() {\n"
                 "        let x: i32 = rand::random::<i32>() % 9;\n        assert_eq!(add(x, 1), x + 1);\n    }\n}\n"},
        {"task_id": "Rust/9402", "prompt": "fn add(a: i32, b: i32) -> i32 {\n",
         "canonical_solution": "a + b\n}\n",
         "test": f"mod tests {{\n    use super::*;\n    // rand::random is not used\n    {body}}}\n"},
    ]  # fmt: skip
    conv = Conversion()
    convert_humaneval_x(records, conv)
    assert [p.id for p in conv.problems] == ["humaneval-x/Rust/9402"]
    reasons = {s["id"]: s["reason"].split(":")[0] for s in conv.report.skipped}
    assert reasons == {"Rust/9400": "no_tests", "Rust/9401": "test_needs_crate"}
