"""Round 20 of the red team (2026-12-08): shapes round 19 left out (MultiPL-E's Java and
JavaScript, call tests, stdio), and round 19's fixes.

Java (``compiled_eq.java_without_package``), honest programs refused: a program with a
package clause (``package a.b;``, as some models write it) failed every kind of test.
``java`` was told to run the simple name of a class that now lived in ``a.b`` (stdio), and
the call harness's and the test's ``Solution`` named no class. The clause is blanked now:
the program is built in the unnamed package, as its test and the harnesses are. A
program that names its own package (``a.b.Util.f()``) is the one thing it changes.

The round's other findings are cases elsewhere: the C++ operators that rewrote a prompt
helper's copy (``test_languages_prompt_helpers.py``) and HumanEval-X's Rust records that
can judge no program (``tests/data/test_prompt_helpers.py``).
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, asserts, control, exploit, need_roots

_SUM_STDIO = {
    "language": "java",
    "tests": [
        {"type": "stdio", "input": "3\n1 2 3\n", "output": "6\n"},
        {"type": "stdio", "input": "2\n10 -4\n", "output": "6\n"},
    ],
}
_SUM_MAIN = (
    "import java.util.*;\n{cls} Main {{ public static void main(String[] args) {{\n"
    "  Scanner sc = new Scanner(System.in); int n = sc.nextInt(); long s = 0;\n"
    "  for (int i = 0; i < n; i++) s += sc.nextLong(); System.out.println({out}); }} }}\n"
)
_REV_CALLS = {
    "language": "java",
    "tests": [
        {"type": "call", "fn_name": "rev", "args": ["abc"], "output": "cba", "class_name": "Solution"},
        {"type": "call", "fn_name": "rev", "args": [""], "output": "", "class_name": "Solution"},
    ],
}  # fmt: skip
_REV = "class Solution {{ public String rev(String s) {{ return {body}; }} }}\n"
_REV_ASSERT = asserts(
    "public class Main {\n  public static void main(String[] args) {\n"
    '    Solution s = new Solution();\n    if (!s.rev("abc").equals("cba")) throw new AssertionError();\n'
    '    if (!s.rev("").equals("")) throw new AssertionError();\n  }\n}\n',
    language="java",
)
_GOOD_REV = "new StringBuilder(s).reverse().toString()"

CASES = [
    control("java-package-stdio", _SUM_STDIO, "package a.b;\n" + _SUM_MAIN.format(cls="class", out="s")),
    control("java-package-stdio-public", _SUM_STDIO,
            "// a comment first\npackage a.b;\n" + _SUM_MAIN.format(cls="public class", out="s")),
    exploit("java-package-stdio-wrong", _SUM_STDIO,
            "package a.b;\n" + _SUM_MAIN.format(cls="public class", out="s + 1")),
    control("java-package-call", _REV_CALLS, "package leetcode;\n" + _REV.format(body=_GOOD_REV)),
    exploit("java-package-call-wrong", _REV_CALLS, "package leetcode;\n" + _REV.format(body="s")),
    control("java-package-assert", _REV_ASSERT,
            "package humaneval;\nimport java.util.*;\n\n" + _REV.format(body=_GOOD_REV)),
    exploit("java-package-assert-wrong", _REV_ASSERT,
            "package humaneval;\nimport java.util.*;\n\n" + _REV.format(body="s")),
]  # fmt: skip

BATCH = Batch("round20", CASES, timeout_s=600.0)


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("java")


@pytest.mark.parametrize("name", BATCH.names)
def test_round20(verifier, name):
    BATCH.check(verifier, name)
