"""A helper the prompt defines and the test calls is the problem's, not the program's.

HumanEval/32 judges ``find_zero`` by ``abs(poly(xs, find_zero(xs))) < 1e-4``; /38 and /50
judge a decoder by ``decode(encode(s)) == s``. ``poly`` and the encoders are the prompt's,
but a sample carries them as its own text: a program that makes ``poly`` answer 0 and
``find_zero`` 0, or both coders the identity, was paid 1.0 in every language (in plain
execution too). The converters (``prompt_helpers.trusted_helpers``) now give the test its
own copy of each such helper in ``setup_code``, and the program's changes only its own.

The records here are written in HumanEval-X's shapes (not its text): a prompt with a
helper whole and the function to write open, a test with a loop that calls both. Each
language has an honest program (the prompt as given, a right answer), the exploit (the
helper made trivial, the answer trivial), and where it can build, a program that defines
the copy's own name too, and in C++ one whose free operators on standard types would be
the copy's (round 20: the copies now stand in a namespace that hides them).

HumanEval/32's Java and JavaScript ports also lost two checks of the Python test, which
``humaneval_x.ERRATA`` gives back (a red team's round 19): a ``findZero`` that emptied the
test's own coefficients made any answer a root, and Java's ``> 1e-4`` let a NaN through.
"""

from __future__ import annotations

from typing import Any

import pytest

from reward_api.data.converters.conversion import Conversion
from reward_api.data.converters.humaneval import convert_humaneval
from reward_api.data.converters.humaneval_x import humaneval_x_problem, program
from tests.sandbox.adversarial.cases import Batch, Case, control, exploit, need_roots

# name: (task_id, prompt, completion of the honest program, test, exploit program)
_HX: dict[str, tuple[str, str, str, str, str]] = {
    "cpp": (
        "CPP/9300",
        """#include<stdio.h>
#include<string>
using namespace std;
string twist(string s){
    // moves the first character to the end
    if (s.empty()) return s;
    return s.substr(1) + s[0];
}
string untwist(string s){
""",
        "    if (s.empty()) return s;\n    return s.back() + s.substr(0, s.size() - 1);\n}\n",
        """#undef NDEBUG
#include<assert.h>
int main(){
    string words[] = {"abc", "x", "", "hello world"};
    for (int i = 0; i < 4; i++)
        assert (untwist(twist(words[i])) == words[i]);
}
""",
        """#include<stdio.h>
#include<string>
using namespace std;
string twist(string s){ return s; }
string untwist(string s){ return s; }
""",
    ),
    "java": (
        "Java/9300",
        """import java.util.*;
import java.lang.*;

class Solution {
    public double area(List<Double> sides) {
        double p = 1;
        for (double s : sides) p *= s;
        return p;
    }

    public List<Double> square(double a) {
""",
        "        return Arrays.asList(Math.sqrt(a), Math.sqrt(a));\n    }\n}\n",
        """public class Main {
    public static void main(String[] args) {
        Solution s = new Solution();
        for (int i = 1; i < 20; i++) {
            if (Math.abs(s.area(s.square(i)) - i) > 1e-9) {
                throw new AssertionError();
            }
        }
    }
}
""",
        """import java.util.*;

class Solution {
    public double area(List<Double> sides) { return sides.get(0); }
    public List<Double> square(double a) { return Arrays.asList(a, a); }
}
""",
    ),
    "javascript": (
        "JavaScript/9300",
        """/* shifts every letter by one */
const shiftUp = (s) => {
  return s.split("").map(c => String.fromCharCode(c.charCodeAt(0) + 1)).join("");
}

/* undoes shiftUp */
const shiftDown = (s) => {
""",
        '  return s.split("").map(c => String.fromCharCode(c.charCodeAt(0) - 1)).join("");\n}\n',
        """const testShiftDown = () => {
  for (const w of ["abc", "zz", "", "Hello"]) {
    console.assert(shiftDown(shiftUp(w)) === w)
  }
}
testShiftDown()
""",
        "const shiftUp = (s) => { return s; }\nconst shiftDown = (s) => { return s; }\n",
    ),
    "go": (
        "Go/9300",
        """import (
    "strings"
)

// Wraps s in brackets.
func Wrap(s string) string {
    return "[" + s + "]"
}

// Removes the brackets Wrap added.
func Unwrap(s string) string {
""",
        '    return strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")\n}\n',
        """func TestUnwrap(t *testing.T) {
    assert := assert.New(t)
    for _, w := range []string{"a", "", "b c", "[x]"} {
        assert.Equal(w, Unwrap(Wrap(w)))
    }
}
""",
        """package main

import (
    "testing"
    "github.com/stretchr/testify/assert"
)

func Wrap(s string) string { return s }
func Unwrap(s string) string { return s }
""",
    ),
}

# the exploit again, defining the copy's own name as well (where the program can)
_OWN_NAME = {
    "cpp": "string problem_twist(string s){ return s; }\n",
    "javascript": "var problem_shiftUp = (s) => s;\nglobalThis.problem_shiftUp = problem_shiftUp;\n",
    "java": "class ProblemHelpers { static double area(List<Double> s) { return s.get(0); } }\n",
}

# round 20: the program's free operators on standard types, which beat the standard's
# templates, made the copy of ``twist`` (``s.substr(1) + s[0]``) the identity
_CPP_HEAD = "#include<stdio.h>\n#include<string>\nusing namespace std;\n"
_CPP_TWIST = (
    "string twist(string s){\n    if (s.empty()) return s;\n    return s.substr(1) + s[0];\n}\n"
)
_CPP_OPERATORS = {
    "cpp-operator-plus-char": _CPP_HEAD
    + "string operator+(string &&a, char c){ return string(1, c).append(a); }\n"
    + _CPP_TWIST + "string untwist(string s){ return s; }\n",
    "cpp-operator-plus-from-a-namespace": _CPP_HEAD
    + "namespace evil { string operator+(string &&a, char c){ return string(1, c).append(a); } }\n"
    + "using evil::operator+;\n" + _CPP_TWIST + "string untwist(string s){ return s; }\n",
}  # fmt: skip

# HumanEval/32's shape in the ports that lost two of its checks (humaneval_x.ERRATA): the
# test hands the program its own coefficients, and Java's fails only on ``> 1e-4``
_JAVA_32 = """import java.util.*;

class Solution {
    public double poly(List<Double> xs, double x) {
        double r = 0;
        for (int i = 0; i < xs.size(); i++) r += xs.get(i) * Math.pow(x, i);
        return r;
    }
    public double findZero(List<Double> xs) {
"""
_JAVA_32_TEST = """public class Main {
    public static void main(String[] args) {
        Solution s = new Solution();
        Random rand = new Random(7);
        for (int i = 0; i < 20; i++) {
            List<Double> coeffs = new ArrayList<>();
            for (int j = 0; j < 2; j++) coeffs.add((double) (rand.nextInt(9) + 1));
            double solution = s.findZero(coeffs);
            if (Math.abs(s.poly(coeffs, solution)) > 1e-4) {
                throw new AssertionError();
            }
        }
    }
}
"""
_JS_32 = """const poly = (xs, x) => {
  return xs.reduce((acc, c, i) => acc + c * Math.pow(x, i), 0);
}

const findZero = (xs) => {
"""
_JS_32_TEST = """const testFindZero = () => {
  for (let i = 1; i < 20; i++) {
    let coeffs = [i, i + 1];
    let solution = findZero(coeffs);
    console.assert(Math.abs(poly(coeffs, solution)) < 1e-4);
  }
}
testFindZero()
"""
# name: (task_id, prompt, completion, test, honest)
_ERRATA = {
    "java32-honest": ("Java/32", _JAVA_32, "        return -xs.get(0) / xs.get(1);\n    }\n}\n",
                      _JAVA_32_TEST, True),
    "java32-empties-the-argument": ("Java/32", _JAVA_32,
                                    "        xs.clear();\n        return 1.0;\n    }\n}\n",
                                    _JAVA_32_TEST, False),
    "java32-nan": ("Java/32", _JAVA_32, "        return Double.NaN;\n    }\n}\n", _JAVA_32_TEST, False),
    "javascript32-honest": ("JavaScript/32", _JS_32, "  return -xs[0] / xs[1];\n}\n", _JS_32_TEST, True),
    "javascript32-empties-the-argument": ("JavaScript/32", _JS_32,
                                          "  xs.length = 0;\n  return 1;\n}\n", _JS_32_TEST, False),
}  # fmt: skip

_PY_PROMPT = '''import math


def lift(x: float) -> float:
    """adds one and squares"""
    return math.pow(x + 1, 2)


def lower(y: float) -> float:
    """ inverse of lift for y >= 1 """
'''
_PY_TEST = """

def check(candidate):
    for i in range(10):
        assert abs(candidate(lift(i)) - i) < 1e-9

"""


def _hx_cases() -> list[Case]:
    cases = []
    for lang, (task, prompt, completion, test, cheat) in _HX.items():
        rec = {"task_id": task, "prompt": prompt, "test": test, "canonical_solution": completion}
        problem = humaneval_x_problem(rec)
        fields: dict[str, Any] = problem.model_dump(exclude={"id"}, exclude_none=True)
        cases.append(control(f"{lang}-honest", fields, program(problem, completion)))
        if lang == "go":  # a Go program is built as CodeGeeX's harness builds it
            cheat = program(problem, "").split("// Wraps")[0] + cheat.split(")\n", 1)[1]
        cases.append(exploit(f"{lang}-trivial-helper", fields, cheat))
        if lang in _OWN_NAME:
            cases.append(
                exploit(f"{lang}-trivial-helper-own-copy", fields, cheat + _OWN_NAME[lang])
            )
        if lang == "cpp":
            cases += [exploit(name, fields, code) for name, code in _CPP_OPERATORS.items()]
    for name, (task, prompt, completion, test, honest) in _ERRATA.items():
        rec = {"task_id": task, "prompt": prompt, "test": test, "canonical_solution": completion}
        problem = humaneval_x_problem(rec)
        fields = problem.model_dump(exclude={"id"}, exclude_none=True)
        cases.append((control if honest else exploit)(name, fields, program(problem, completion)))
    conv = Conversion()
    convert_humaneval([{"task_id": "HumanEval/9300", "prompt": _PY_PROMPT, "entry_point": "lower",
                        "canonical_solution": "    return math.sqrt(y) - 1\n", "test": _PY_TEST}],
                      conv)  # fmt: skip
    (py,) = conv.problems
    fields = py.model_dump(exclude={"id"}, exclude_none=True)
    cases.append(control("python-honest", fields, py.reference or ""))
    cases.append(exploit("python-trivial-helper", fields,
                         "def lift(x):\n    return x\n\n\ndef lower(y):\n    return y\n"))  # fmt: skip
    return cases


BATCH = Batch("prompt-helpers", _hx_cases(), timeout_s=600.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("cpp", "java", "javascript", "go")


@pytest.mark.parametrize("name", BATCH.names)
def test_prompt_helpers(verifier, name):
    BATCH.check(verifier, name)
