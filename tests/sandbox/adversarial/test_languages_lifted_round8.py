"""Red team round eight on lifted assert tests (C++, Go, Rust): the recorder in the
candidate's build, the judge or the host apart.

- **the judge's headers are not the program's** (``lifted.judge``, ``lifted.uses_std``):
  beside the program, HumanEval-X's ``abs(f(x) - E) < 1e-4`` sees the program's
  ``#include <math.h>`` (libstdc++'s wrapper puts ``std::abs(double)`` and
  ``std::abs(float)`` into the global namespace). The judge holds ``<bits/stdc++.h>``
  and the program's ``using`` lines only: for a program without ``using namespace std``,
  the test's ``abs`` there is the C library's ``int abs(int)``, so any answer within 1 of
  the expected one passes (``abs(0.17)`` is ``abs(0)``). Plainly the assert fails.
- **the recorder's call returns a reference to a dead temporary** (``lifted._recorder``'s
  ``[&]() -> decltype(auto) { return CALL; }``, ``harness/lifted.hpp``'s ``record``: ``const
  auto& v = f();``): a program whose function returns a reference to one of its
  parameters (``const vector<int>& longest(const vector<int>& a, const vector<int>& b)``,
  ``std::max``'s shape) is handed the test's literal arguments as temporaries made
  inside the lambda's ``return`` statement, which die when the lambda returns; the
  recorder then reads (and copies) freed memory. Beside the test the temporaries live
  to the end of the ``assert``'s full expression, and the honest program passes.
- **Go: a testify import blanked up to its ``;``** (``languages._go_without_testify``):
  the import spec of testify the program names nowhere else is replaced by spaces, but
  a ``;`` written after it on the same line stays: ``import "github.com/stretchr/
  testify/assert"; import "math"`` becomes ``   ...   ; import "math"``, and in a group
  ``("github.com/stretchr/testify/assert"; "math")`` becomes ``(   ...   ; "math")``: a
  syntax error (``expected declaration, found ';'``) in the recorder alone. ``go test``
  of the same program and test passes; the honest program is ``compile_error``.

Fixed: the judge makes the program's one-word includes after its ``<bits/stdc++.h>``
(``lifted.includes_cpp``, those it does not already hold, sorted: ``judge_context``); the
recorder's lambda returns a copy of a known type the call returned by reference
(``held`` in ``harness/lifted.hpp``); and a blanked testify spec takes the ``;`` written
after it.
"""

from __future__ import annotations

import pytest

from tests.sandbox.adversarial.cases import Batch, asserts, control, exploit, need_roots

# HumanEval-X CPP/2's test, verbatim
TRUNCATE_TEST = (
    "#undef NDEBUG\n#include<assert.h>\nint main(){\n assert (truncate_number(3.5) == 0.5); \n"
    " assert (abs(truncate_number(1.33) - 0.33) < 1e-4);\n"
    "  assert (abs(truncate_number(123.456) - 0.456) < 1e-4);\n}"
)
TRUNCATE = asserts(TRUNCATE_TEST, language="cpp", entry_points=["truncate_number"])
HONEST_TRUNCATE = (
    "#include<stdio.h>\n#include<math.h>\nusing namespace std;\n"
    "float truncate_number(float number){\n    return number-int(number);\n}\n"
)
# the prompt's includes without ``using namespace std``, and a constant answer: beside the
# test ``abs`` is <math.h>'s float overload (0.17 > 1e-4: the assert fails); in the judge
# it is ``::abs(int)``, abs(0) < 1e-4
TRUNCATE_CONSTANT = (
    "#include<stdio.h>\n#include<math.h>\n"
    "float truncate_number(float number){\n    return 0.5;\n}\n"
)

# HumanEval-X CPP/20's test, verbatim: ``issame`` compares floats with ``abs(a[i]-b[i])``
CLOSEST_TEST = (
    "#undef NDEBUG\n#include<assert.h>\nbool issame(vector<float> a,vector<float>b){\n"
    "    if (a.size()!=b.size()) return false;\n    for (int i=0;i<a.size();i++)\n    {\n"
    "        if (abs(a[i]-b[i])>1e-4) return false;\n    }\n    return true;\n}\n"
    "int main(){\n"
    "    assert (issame(find_closest_elements({1.0, 2.0, 3.9, 4.0, 5.0, 2.2}) , {3.9, 4.0}));\n"
    "    assert (issame(find_closest_elements({1.0, 2.0, 5.9, 4.0, 5.0}) , {5.0, 5.9} ));\n"
    "    assert (issame(find_closest_elements({1.0, 2.0, 3.0, 4.0, 5.0, 2.2}) ,{2.0, 2.2}));\n"
    "     assert (issame(find_closest_elements({1.0, 2.0, 3.0, 4.0, 5.0, 2.0}) ,{2.0, 2.0}));\n"
    "      assert (issame(find_closest_elements({1.1, 2.2, 3.1, 4.1, 5.1}) , {2.2, 3.1}));\n}\n"
)
CLOSEST = asserts(CLOSEST_TEST, language="cpp", entry_points=["find_closest_elements"])
CLOSEST_BODY = (
    "    vector<float> out={};\n    for (int i=0;i<numbers.size();i++)\n"
    "    for (int j=i+1;j<numbers.size();j++)\n"
    "        if (out.size()==0 or abs(numbers[i]-numbers[j])<abs(out[0]-out[1]))\n"
    "            out={numbers[i],numbers[j]};\n    if (out[0]>out[1])\n"
    "        out={out[1],out[0]};\n"
)
HONEST_CLOSEST = (
    "#include<stdio.h>\n#include<math.h>\n#include<vector>\nusing namespace std;\n"
    "vector<float> find_closest_elements(vector<float> numbers){\n"
    f"{CLOSEST_BODY}    return out;\n}}\n"
)
# ``using std::vector;`` in place of ``using namespace std;`` (the judge copies it, so the
# test's ``vector<float>`` compiles there and nothing else of std is visible), and the
# right pair truncated to whole numbers: {3, 4} for {3.9, 4.0}
CLOSEST_TRUNCATED = (
    "#include<stdio.h>\n#include<math.h>\n#include<vector>\nusing std::vector;\n"
    "vector<float> find_closest_elements(vector<float> numbers){\n"
    f"{CLOSEST_BODY}    return {{(float)(int)out[0], (float)(int)out[1]}};\n}}\n"
)

# a function that returns a reference to one of its parameters (the larger of two), honest:
# plain g++ -O2 with each test below passes; the recorder writes garbage for each call
REF_PROGRAM = (
    "#include<stdio.h>\n#include<vector>\n#include<string>\nusing namespace std;\n"
    "const vector<int>& longest(const vector<int>& a, const vector<int>& b){\n"
    "    return a.size() >= b.size() ? a : b;\n}\n"
    "const string& longer(const string& a, const string& b){\n"
    "    return a.size() >= b.size() ? a : b;\n}\n"
    "const int& larger(const int& a, const int& b){ return a > b ? a : b; }\n"
)
REF_HEAD = (
    "#undef NDEBUG\n#include<assert.h>\n"
    "bool issame(vector<int> a,vector<int>b){ return a==b; }\nint main(){\n"
)
REF_ENTRIES = ["longest", "longer", "larger"]
LONGEST = asserts(
    REF_HEAD + "    assert (issame(longest({1,2,3,4,5,6,7,8}, {4}), {1,2,3,4,5,6,7,8}));\n}\n",
    language="cpp",
    entry_points=REF_ENTRIES,
)
LONGER = asserts(
    REF_HEAD + '    assert (longer("a fairly long string beyond sso", "b") == '
    '"a fairly long string beyond sso");\n}\n',
    language="cpp",
    entry_points=REF_ENTRIES,
)
LARGER = asserts(
    REF_HEAD + "    assert (larger(3, 5) == 5);\n}\n", language="cpp", entry_points=REF_ENTRIES
)

# HumanEval-X Go/2's test, verbatim
TRUNCATE_GO_TEST = (
    "func TestTruncateNumber(t *testing.T) {\n    assert := assert.New(t)\n"
    "    assert.Equal(0.5, TruncateNumber(3.5))\n"
    "    assert.Equal(true, math.Abs(TruncateNumber(1.33)-0.33) < 1e-6)\n"
    "    assert.Equal(true, math.Abs(TruncateNumber(123.456)-0.456) < 1e-6)\n}\n"
)
TRUNCATE_GO = asserts(TRUNCATE_GO_TEST, language="go")
GO_TRUNCATE_BODY = (
    "\n\nfunc TruncateNumber(number float64) float64 {\n    return math.Mod(number,1)\n}\n"
)
HONEST_GO_TRUNCATE = (
    'package main\n\nimport (\n    "math"\n    "testing"\n'
    '    "github.com/stretchr/testify/assert"\n)' + GO_TRUNCATE_BODY
)
# the same imports on one line, separated by ``;`` (valid Go: ``go test`` passes)
GO_IMPORTS_ON_ONE_LINE = (
    'package main\n\nimport "github.com/stretchr/testify/assert"; import "math"; '
    'import "testing"' + GO_TRUNCATE_BODY
)
GO_GROUP_ON_ONE_LINE = (
    'package main\n\nimport ("github.com/stretchr/testify/assert"; "math"; "testing")'
    + GO_TRUNCATE_BODY
)

BATCH = Batch(
    "languages-lifted-round8",
    [
        exploit("cpp-judge-abs-is-int-abs", TRUNCATE, TRUNCATE_CONSTANT),
        control("cpp-truncate-honest", TRUNCATE, HONEST_TRUNCATE),
        exploit("cpp-judge-issame-abs-is-int-abs", CLOSEST, CLOSEST_TRUNCATED),
        control("cpp-closest-honest", CLOSEST, HONEST_CLOSEST),
        control("cpp-returns-a-reference-to-its-vector-parameter", LONGEST, REF_PROGRAM),
        control("cpp-returns-a-reference-to-its-string-parameter", LONGER, REF_PROGRAM),
        control("cpp-returns-a-reference-to-its-int-parameter", LARGER, REF_PROGRAM),
        control("go-truncate-honest", TRUNCATE_GO, HONEST_GO_TRUNCATE),
        control("go-testify-import-then-semicolon", TRUNCATE_GO, GO_IMPORTS_ON_ONE_LINE),
        control("go-testify-import-in-a-one-line-group", TRUNCATE_GO, GO_GROUP_ON_ONE_LINE),
    ],
)  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("cpp", "go")


@pytest.mark.parametrize("name", BATCH.names)
def test_lifted_round8(verifier, name):
    BATCH.check(verifier, name)
