"""Red team round ten on lifted assert tests (C++, C, Go): the recorder in the candidate's
build, the judge or the host apart.

- **the judge sees the program's standard names only by ``<...>`` and ``using namespace
  std``** (``lifted.includes_cpp``, ``lifted.uses_std``, ``lifted.judge_context``): the
  round-eight fix copies a program's ``#include <math.h>`` and its ``using namespace std;``
  into the judge, so that HumanEval-X's ``abs(f(x) - E) < 1e-4`` means ``std::abs(double)``
  there as it does beside the program. The same declarations reach the test beside the
  program by other spellings the judge does not copy: ``#include "math.h"`` (a quoted
  include finds libstdc++'s ``<math.h>`` wrapper), the digraph ``%:include <math.h>``, and
  ``using namespace ::std;``. In the judge the test's ``abs`` is then the C library's
  ``int abs(int)``: a constant answer within 1 of every expected value is paid, where
  ``g++ -O2`` of program and test aborts at the second ``assert``. A program's own
  ``template <class T> T abs(T)`` or ``#define abs(x) ...`` is the test's ``abs`` beside
  it and nothing in the judge, the same way (the template's reward is zeroed by the hack
  gate alone; its verdict is ``accepted``).
- **the recorder's own headers meet the program's declarations** (``harness/lifted.hpp``
  includes ``<cstdlib>`` after the program): a program that declares ``double
  abs(double)`` at the top level (and includes no ``<cstdlib>`` of its own) compiles and
  passes beside HumanEval-X's test, while the recorder fails to compile (``std::abs(double)``
  of ``<bits/std_abs.h>`` conflicts with it through ``using ::abs``): ``compile_error``
  for the honest program (its entry points named, so it is not sent back).
- **C: the judge is built by tcc without the program's declarations** (``lifted.judge_c``,
  ``languages.C_JUDGE_BUILD``, ``lifted.includes_c``): a test that calls ``fabs`` with
  no ``<math.h>`` in the test, or with the program's ``#include "math.h"`` (quoted, which
  ``includes_c`` does not copy), is compiled by gcc with the builtin's own type (a warning),
  and by tcc as an implicit ``int fabs()``, whose value is what ``%eax`` holds (1):
  ``fabs(half(3.0) - 1.5) < 1e-12`` fails in the judge; gcc -O2 of program and test exits 0.

Fixed: every C++ judge makes ``using std::abs;`` at global scope (``lifted.JUDGE_ABS``: the
overload of the argument's type, at least as strict as any ``abs`` the program gives the
test beside it); the recorder no longer includes ``<cstdlib>`` (the judge alone reads
numbers with it); and a C judge that tcc builds with any warning (an undeclared ``fabs``)
is built by gcc (``languages.C_JUDGE_BUILD``).
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
CONSTANT_BODY = "float truncate_number(float number){\n    return 0.5;\n}\n"
HONEST_BODY = "float truncate_number(float number){\n    return number-int(number);\n}\n"
# plain g++ -O2 of each constant program with the test: the second assert aborts
QUOTED_MATH = '#include<stdio.h>\n#include "math.h"\n'
DIGRAPH_MATH = "#include<stdio.h>\n%:include <math.h>\n"
GLOBAL_STD = "#include<stdio.h>\n#include<cmath>\nusing namespace ::std;\n"
# the program's own ``abs`` for doubles: beside the test it is the test's ``abs``
OWN_ABS = "#include<stdio.h>\ndouble abs(double x){ return x < 0 ? -x : x; }\n"
OWN_ABS_TEMPLATE = "#include<stdio.h>\ntemplate <class T> T abs(T x){ return x < 0 ? -x : x; }\n"
OWN_ABS_MACRO = "#include<stdio.h>\n#define abs(x) ((x) < 0 ? -(x) : (x))\n"

# a C test that calls <math.h>'s ``fabs`` without including it: gcc (plain) takes the
# builtin's own type (a warning), tcc (the judge) an implicit ``int fabs()``, whose value is
# whatever %eax holds (1: the count of vector registers tcc passes)
FABS_TEST = (
    "#include <assert.h>\nint main(void){\n    assert(fabs(half(3.0) - 1.5) < 1e-12);\n"
    "    assert(fabs(half(1.0) - 0.5) < 1e-12);\n    return 0;\n}\n"
)
FABS = asserts(FABS_TEST, language="c", entry_points=["half"])
HALF = "double half(double x){ return x / 2; }\n"

BATCH = Batch(
    "languages-lifted-round10",
    [
        exploit("cpp-judge-quoted-math-include", TRUNCATE, QUOTED_MATH + CONSTANT_BODY),
        control("cpp-quoted-math-include-honest", TRUNCATE, QUOTED_MATH + HONEST_BODY),
        exploit("cpp-judge-digraph-math-include", TRUNCATE, DIGRAPH_MATH + CONSTANT_BODY),
        control("cpp-digraph-math-include-honest", TRUNCATE, DIGRAPH_MATH + HONEST_BODY),
        exploit("cpp-judge-using-namespace-global-std", TRUNCATE, GLOBAL_STD + CONSTANT_BODY),
        control("cpp-using-namespace-global-std-honest", TRUNCATE, GLOBAL_STD + HONEST_BODY),
        exploit("cpp-judge-program-abs-template", TRUNCATE, OWN_ABS_TEMPLATE + CONSTANT_BODY),
        exploit("cpp-judge-program-abs-macro", TRUNCATE, OWN_ABS_MACRO + CONSTANT_BODY),
        control("cpp-program-abs-macro-honest", TRUNCATE, OWN_ABS_MACRO + HONEST_BODY),
        control("c-judge-fabs-undeclared-honest", FABS, HALF),
        control("c-judge-fabs-quoted-math-include-honest", FABS, '#include "math.h"\n' + HALF),
        control("c-judge-fabs-math-include-honest", FABS, "#include <math.h>\n" + HALF),
    ],
)  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("cpp", "c", "go")


@pytest.mark.parametrize("name", BATCH.names)
def test_lifted_round10(verifier, name):
    BATCH.check(verifier, name)


def test_a_program_with_its_own_abs_overload_compiles_and_passes(verifier):
    """The recorder no longer includes ``<cstdlib>`` (the judge alone does): the honest
    program with its own ``double abs(double)`` compiles and passes, as beside the test.
    Its reward is the hack gate's to zero (a program's own ``abs`` may capture a test's
    comparisons beside it), so the execution's verdict is what is asserted."""
    from reward_api import Job, Problem, Sample

    problem = Problem.model_validate({"id": "own-abs", **TRUNCATE})
    result = verifier.verify(
        [Job(problem, Sample(problem_id="own-abs", code=OWN_ABS + HONEST_BODY))]
    )[0]
    assert result.verdict == "accepted" and result.passed == result.total == 1, result.tests
