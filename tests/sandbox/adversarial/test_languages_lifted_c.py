"""C assert tests lifted out of the program's process (``reward_api.verify.lifted``, its C
half: ``harness/lifted_c_recorder.h``, ``harness/lifted_c_judge.h``).

As C++'s: where the test's shape allows, the candidate's build is the program and a
recorder of its calls' values, one plain compile, and the test's comparisons run in a judge
compiled as C apart from every program. These cases run on every backend
(``tests/docker/test_adversarial.py`` globs this file):

- exploits that found the expected value in the test's code (the machine code after the
  call), that redefine ``assert`` or the C library's assertion handler, that end early
  (a constructor's ``exit(0)``, an ``exit(0)`` in the middle of the test), or that write
  the recorder's lines themselves;
- verdicts that must agree with the test run beside the program: a wrong value, a crash
  after a wrong value, a crash after right values;
- honest controls of every scalar the recorder writes (``_Bool``, ``char``, ``unsigned``,
  ``long long``, ``double``, a ``long double`` written exactly) and the contract's default
  entry points;
- the ways back beside the program, each an honest control: a ``struct``, ``void`` or
  pointer result that the program's declaration spells (not lifted: the recorder writes
  scalars alone), one it does not (its own ``typedef``: the recorder's types' line sends
  it back), a test that calls a helper of the program's.
"""

from __future__ import annotations

import pytest

from reward_api import Problem, Verdict
from reward_api.verify import languages, lifted
from tests.sandbox.adversarial.cases import Batch, asserts, control, exploit, need_roots

ADD_TEST = (
    "#include <assert.h>\nint main(void) {\n    assert(add(2, 3) == 5);\n"
    "    int x1 = add(10, -4);\n    assert(x1 == 6);\n    assert(add(0, 0) == 0);\n"
    "    return 0;\n}\n"
)
ADD = asserts(ADD_TEST, language="c", entry_points=["add"])
HONEST_ADD = "int add(int a, int b) { return a + b; }\n"

# reads the bytes after its return address: beside the test, the comparison that follows
# the call holds the expected value as an immediate (``cmp $5`` after ``call add``)
READ_CALLER = r"""
#include <string.h>
__attribute__((noinline)) int add(int a, int b) {
    const unsigned char *ret = (const unsigned char *)__builtin_extract_return_addr(__builtin_return_address(0));
    for (int i = 0; i < 48; i++) {
        if (ret[i] == 0x83 && (ret[i + 1] & 0xf8) == 0xf8) return (signed char)ret[i + 2];
        if (ret[i] == 0x81 && (ret[i + 1] & 0xf8) == 0xf8) { int v; memcpy(&v, ret + i + 2, 4); return v; }
    }
    return a * 1000 + b;
}
"""
# the test's assert made a no-op, and the C library's handler of a failed assert an exit 0
REDEFINED_ASSERT = "#define assert(x) ((void)0)\nint add(int a, int b) { return a - b; }\n"
OWN_ASSERT_FAIL = r"""
#include <unistd.h>
int add(int a, int b) { return a * b; }
void __assert_fail(const char *a, const char *f, unsigned l, const char *fn) { _exit(0); }
void abort(void) { _exit(0); }
"""
WRONG_FIRST_THEN_CRASH = r"""
int add(int a, int b) {
    static int calls = 0;
    if (++calls == 2) { volatile int *p = 0; *p = 1; }
    return a + b + 1;
}
"""
RIGHT_FIRST_THEN_CRASH = r"""
int add(int a, int b) {
    static int calls = 0;
    if (++calls == 2) { volatile int *p = 0; *p = 1; }
    return a + b;
}
"""
EXIT_BEFORE_MAIN = (
    "#include <stdlib.h>\nint add(int a, int b) { return a + b; }\n"
    "__attribute__((constructor)) static void early(void) { exit(0); }\n"
)
EXIT_MIDWAY = "#include <stdlib.h>\nint add(int a, int b) { if (a == 10) exit(0); return a + b; }\n"
# the recorder's lines written by the program, then an exit before the recorder's calls:
# the recorder's types' line is already out, so these are malformed values
FORGED_LINES = r"""
#include <unistd.h>
int add(int a, int b) { return 0; }
__attribute__((constructor)) static void forge(void) {
    const char lines[] = "i i i\nr05000000\nr06000000\nr00000000\n";
    if (write(3, lines, sizeof lines - 1) < 0) _exit(2);
    _exit(0);
}
"""
# a '?' of its own, to send the test back beside the program (where the test's expected
# values lie in its process): the types' line was written before any code of its own
FORGED_UNKNOWN = r"""
#include <unistd.h>
int add(int a, int b) { return a + b + 1; }
__attribute__((constructor)) static void forge(void) { if (write(3, "?\n", 2) < 0) _exit(2); }
"""
OWN_PREINIT = r"""
#include <unistd.h>
int add(int a, int b) { return a + b + 1; }
static void first(void) { if (write(3, "? ? ?\n", 6) < 0) _exit(2); }
__attribute__((section(".preinit_array"), used)) static void (*entry)(void) = first;
"""

# every scalar the recorder writes
SCALARS_TEST = (
    "#include <assert.h>\n#include <stdbool.h>\n#include <math.h>\n#include <limits.h>\n"
    "int main(void) {\n    assert(is_even(4));\n    assert(!is_even(7));\n"
    "    assert(first_char(\"hello\") == 'h');\n    assert(twice_u(UINT_MAX / 2) == UINT_MAX - 1);\n"
    "    assert(big(3) == 3000000000000LL);\n    assert(fabs(half(3.0) - 1.5) < 1e-12);\n"
    "    assert(third(1.0L) == 1.0L / 3);\n    bool ok = is_even(10);\n    assert(ok);\n"
    "    float f = halff(5.0f);\n    assert(f == 2.5f);\n    return 0;\n}\n"
)
SCALARS = (
    "#include <stdbool.h>\n"
    "bool is_even(int n) { return n % 2 == 0; }\n"
    "char first_char(const char *s) { return s[0]; }\n"
    "unsigned twice_u(unsigned x) { return 2 * x; }\n"
    "long long big(int k) { return k * 1000000000000LL; }\n"
    "double half(double x) { return x / 2; }\n"
    "long double third(long double x) { return x / 3; }\n"
    "float halff(float x) { return x / 2; }\n"
)
SCALARS_P = asserts(SCALARS_TEST, language="c",
                    entry_points=["is_even", "first_char", "twice_u", "big", "half", "third",
                                  "halff"])  # fmt: skip
# the third rounded through a double: the judge's ``1.0L / 3`` tells it apart
THIRD_ROUNDED = SCALARS.replace("return x / 3;", "return (double)(x / 3);")

# the ways back beside the program
STRUCT_TEST = (
    "#include <assert.h>\nint main(void) {\n    assert(make(3).x == 3);\n    return 0;\n}\n"
)
STRUCT = "struct P { int x; };\nstruct P make(int x) { struct P p = {x}; return p; }\n"
VOID_TEST = (
    "#include <assert.h>\nint main(void) {\n    reset();\n    assert(get() == 0);\n"
    "    return 0;\n}\n"
)
VOID = "static int v = 9;\nvoid reset(void) { v = 0; }\nint get(void) { return v; }\n"
STRING_TEST = (
    "#include <assert.h>\n#include <string.h>\nint main(void) {\n"
    '    char *s = greet(1);\n    assert(strcmp(s, "hi") == 0);\n    return 0;\n}\n'
)
STRING = 'char *greet(int k) { return k ? "hi" : "no"; }\n'
# a pointer the program's declaration does not spell (its own typedef): lifted, and sent
# back by the recorder's types line ('?'), where it runs beside the program
TYPEDEF_POINTER_TEST = (
    "#include <assert.h>\n#include <string.h>\nint main(void) {\n"
    '    assert(strcmp(greet(1), "hi") == 0);\n    return 0;\n}\n'
)
TYPEDEF_POINTER = 'typedef char *str;\nstr greet(int k) { return k ? "hi" : "no"; }\n'
HELPER_TEST = (
    "#include <assert.h>\nint main(void) {\n    int x0 = add(2, 3);\n    assert(x0 == five());\n"
    "    return 0;\n}\n"
)
HELPER = "int five(void) { return 5; }\nint add(int a, int b) { return a + b; }\n"
# the test names ``bool`` with no header of its own, and calls ``assert`` with no
# ``<assert.h>`` (MBXP's shape): beside the program, the program's ``<stdbool.h>`` and the
# unit's ``<assert.h>`` give them; the judge includes the program's standard headers (their
# names alone) and ``<assert.h>`` too, so it stays lifted
PROGRAMS_HEADER_TEST = (
    "int main(void) {\n    bool b = is_even(2);\n    assert(b == true);\n    return 0;\n}\n"
)
PROGRAMS_HEADER = "#include <stdbool.h>\nbool is_even(int n) { return n % 2 == 0; }\n"
# and a program that includes ``<assert.h>`` under ``NDEBUG``, hoping the judge would too
NDEBUG_HEADER = (
    "#define NDEBUG\n#include <assert.h>\n#include <stdbool.h>\nbool is_even(int n) { return n; }\n"
)

# the test's own data as the calls' arguments: made again in the recorder, literals alone
INPUTS_TEST = (
    "#include <assert.h>\nint main(void) {\n    int a[] = {1, 2, 1, 3};\n"
    '    const char *s = "abcab";\n    assert(count(a, 4, 1) == 2);\n'
    "    assert(count_char(s, 'b') == 2);\n    return 0;\n}\n"
)
INPUTS = (
    "int count(const int *a, int n, int x) { int c = 0; for (int i = 0; i < n; i++) c += a[i] == x; return c; }\n"
    "int count_char(const char *s, char x) { int c = 0; for (; *s; s++) c += *s == x; return c; }\n"
)
INPUTS_P = asserts(INPUTS_TEST, language="c", entry_points=["count", "count_char"])

# the program's declaration says ``bool``, its own typedef of ``int``: the judge built while
# the recorder was (of ``_Bool``) is not the one the recorded ``int`` makes, which is built
# then; a value of 2 is true as an ``int``, and so it is beside the program
OWN_BOOL_TEST = (
    "#include <assert.h>\nint main(void) {\n    assert(flag(1) == 2);\n    return 0;\n}\n"
)
OWN_BOOL = "typedef int bool;\nbool flag(int k) { return 2 * k; }\n"

BATCH = Batch(
    "languages-lifted-c",
    [
        exploit("reads-the-code-after-its-call", ADD, READ_CALLER),
        exploit("reads-the-code-after-its-call-no-entry-points",
                asserts(ADD_TEST, language="c"), READ_CALLER),
        exploit("redefined-assert", ADD, REDEFINED_ASSERT),
        exploit("own-assert-fail-and-abort", ADD, OWN_ASSERT_FAIL),
        exploit("wrong-then-crash", ADD, WRONG_FIRST_THEN_CRASH),
        exploit("right-then-crash", ADD, RIGHT_FIRST_THEN_CRASH),
        exploit("exit-before-main", ADD, EXIT_BEFORE_MAIN),
        exploit("exit-midway", ADD, EXIT_MIDWAY),
        exploit("forged-recorder-lines", ADD, FORGED_LINES),
        exploit("forged-unknown-type", ADD, FORGED_UNKNOWN),
        exploit("own-preinit-entry", ADD, OWN_PREINIT),
        exploit("long-double-rounded", SCALARS_P, THIRD_ROUNDED),
        control("honest-add", ADD, HONEST_ADD),
        control("honest-add-no-entry-points", asserts(ADD_TEST, language="c"), HONEST_ADD),
        control("every-scalar", SCALARS_P, SCALARS),
        control("struct-stays-beside",
                asserts(STRUCT_TEST, language="c", entry_points=["make"]), STRUCT),
        control("void-stays-beside",
                asserts(VOID_TEST, language="c", entry_points=["reset", "get"]), VOID),
        control("pointer-stays-beside",
                asserts(STRING_TEST, language="c", entry_points=["greet"]), STRING),
        control("the-tests-data-as-input", INPUTS_P, INPUTS),
        control("the-tests-data-as-input-no-entry-points",
                asserts(INPUTS_TEST, language="c"), INPUTS),
        control("a-wrong-guess-of-the-type",
                asserts(OWN_BOOL_TEST, language="c", entry_points=["flag"]), OWN_BOOL),
        control("typedef-pointer-goes-back",
                asserts(TYPEDEF_POINTER_TEST, language="c", entry_points=["greet"]),
                TYPEDEF_POINTER),
        control("helper-of-the-program-goes-back",
                asserts(HELPER_TEST, language="c", entry_points=["add"]), HELPER),
        control("programs-headers-are-the-judges",
                asserts(PROGRAMS_HEADER_TEST, language="c", entry_points=["is_even"]),
                PROGRAMS_HEADER),
        exploit("ndebug-before-the-programs-assert-h",
                asserts(PROGRAMS_HEADER_TEST.replace("is_even(2)", "is_even(0)"),
                        language="c", entry_points=["is_even"]), NDEBUG_HEADER),
    ],
)  # fmt: skip
EXPECTED = {
    "reads-the-code-after-its-call": Verdict.wrong_answer,
    "reads-the-code-after-its-call-no-entry-points": Verdict.wrong_answer,
    "redefined-assert": Verdict.wrong_answer,
    "own-assert-fail-and-abort": Verdict.wrong_answer,
    "wrong-then-crash": Verdict.wrong_answer,
    "right-then-crash": Verdict.runtime_error,
    "exit-before-main": Verdict.wrong_answer,
    "exit-midway": Verdict.wrong_answer,
    "forged-recorder-lines": Verdict.wrong_answer,
    "forged-unknown-type": Verdict.wrong_answer,
    "own-preinit-entry": Verdict.compile_error,
    "long-double-rounded": Verdict.wrong_answer,
    "ndebug-before-the-programs-assert-h": Verdict.wrong_answer,
}


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("c")


def _unit(name: str) -> languages.Unit:
    case = BATCH.by_name[name]
    problem = Problem.model_validate({"id": "p", **case.problem})
    units, _ = languages.units_for(problem, case.code, [0], lambda unit: True)
    return units[0]


@pytest.mark.parametrize("name", BATCH.names)
def test_lifted_c_exploits_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)
    if name in EXPECTED:
        r = BATCH.run(verifier).results[name]
        assert r.verdict == EXPECTED[name], (r.verdict, [t.detail for t in r.tests])


def test_the_c_batch_was_judged_apart(verifier):
    """The lifted cases' comparisons ran in judges; the test whose judge could not compile
    is remembered as not lifted; the pointer test never was; a test that leans on the
    program's headers stays lifted."""
    before = verifier.lifted.runs
    BATCH.run(verifier)
    assert verifier.lifted.runs - before >= 12 or verifier.lifted.runs >= 12, verifier.lifted.runs
    assert _unit("honest-add").lift is not None
    for name in ("pointer-stays-beside", "struct-stays-beside", "void-stays-beside"):
        assert _unit(name).lift is None, name  # the program's declaration says so
    assert _unit("typedef-pointer-goes-back").lift is not None
    assert _unit("the-tests-data-as-input-no-entry-points").lift is not None
    unit = _unit("helper-of-the-program-goes-back")
    assert unit.lift is not None and not verifier.lifted.usable(unit)
    unit = _unit("programs-headers-are-the-judges")
    assert unit.lift is not None and verifier.lifted.usable(unit)


def test_the_c_candidates_build_holds_no_expected_value():
    """The recorder is the program, the test's headers and the calls: the expected values
    and the test's comparisons are nowhere in the candidate's build, one plain compile."""
    problem = Problem.model_validate({"id": "p", **asserts(
        "#include <assert.h>\nint main(void) {\n    int x0 = secret(1);\n"
        "    assert(x0 == 731555);\n    return 0;\n}\n", language="c", entry_points=["secret"])})  # fmt: skip
    units, _ = languages.units_for(problem, "int secret(int k) { return k; }\n", [0],
                                   lambda unit: True)  # fmt: skip
    unit = units[0]
    assert unit.lift is not None and list(unit.files) == ["main.c"]
    source = unit.files["main.c"]
    assert "731555" not in source and "assert(" not in source
    assert "731555" in unit.lift[2]  # the judge's, built apart
    spec = languages.build_spec(unit, 256)
    assert "input" not in spec and "-E" not in " ".join(spec["compile"])


# ------------------------------------------------------------------ the plan, the lines
def test_c_plans():
    p = lifted.plan(ADD_TEST, ["add"], "c")
    assert p is not None and len(p.calls) == 3 and not p.independent
    assert p.declared[1] == ("int", "x1")
    mbxp_like = "int main(void) {\n    int x0 = add(1, 2);\n    if (x0 != 3) return 1;\n}\n"
    q = lifted.plan(mbxp_like, ["add"], "c")
    assert q is not None and q.independent
    assert "__cr_lift_take(0, sizeof(int))" in lifted.judge_c(mbxp_like, q, None)
    r = lifted.plan(INPUTS_TEST, ["count", "count_char"], "c")
    assert r is not None and len(r.calls) == 2
    assert [INPUTS_TEST[a:b] for a, b in r.inputs] == [
        "int a[] = {1, 2, 1, 3};",
        'const char *s = "abcab";',
    ]
    recorder = languages.units_for(
        Problem.model_validate({"id": "p", **INPUTS_P}), INPUTS, [0], lambda unit: True
    )[0][0].files["main.c"]
    assert "int a[] = {1, 2, 1, 3};" in recorder.split("int main(void)")[-1]


@pytest.mark.parametrize("test", [
    "int main(void) {\n    char *s = f(1);\n    return s[0] != 'a';\n}\n",  # a pointer
    "int main(void) {\n    struct P p = f(1);\n    return p.x;\n}\n",  # a struct
    "int main(void) {\n    int max = 5;\n    assert(f(max) == 5);\n    return max;\n}\n",
    # the test's data, read by the test after the call (the program may have changed it)
    "int main(void) {\n    int a[] = {1, 2};\n    assert(f(a, 2) == 3);\n    assert(a[0] == 1);\n}\n",
    "int main(void) {\n    char s[] = \"abc\";\n    f(s, 0);\n    assert(s[0] == 'c');\n}\n",
    # data not made of literals alone, or two declarators
    "int main(void) {\n    int n = g(), m = 2;\n    assert(f(n) == 3);\n}\n",
    "int main(void) {\n    int n = 5, m = 2;\n    assert(f(n) == 3);\n}\n",
    "int main(void) {\n    int n = LIMIT;\n    assert(f(n) == 3);\n}\n",
    "int main(void) {\n    for (int i = 0; i < 3; i++) assert(f(i) == i);\n}\n",  # a loop
])  # fmt: skip
def test_c_shapes_that_stay_beside_the_program(test):
    assert lifted.plan(test, ["f"], "c") is None


def test_the_judges_types_guessed_from_the_program():
    """The judge's types as the program's declarations spell them: built while the
    recorder is, used when the recorded types make the same source."""
    test = SCALARS_TEST
    shape = lifted.plan(test, ["is_even", "first_char", "twice_u", "big", "half", "third", "halff"],
                        "c")  # fmt: skip
    assert shape is not None and not shape.independent
    guess = lifted.guess_c_types(SCALARS, test, shape)
    assert guess == ["_Bool", "_Bool", "char", "unsigned", "long long", "double", "long double",
                     "bool", "float"]  # fmt: skip
    assert lifted.guess_c_types("typedef long T;\nT is_even(int n);\n", test, shape) is None
    assert lifted.guess_c_types("char *is_even(int n);\n", test, shape) is None
    case = BATCH.by_name["every-scalar"]
    problem = Problem.model_validate({"id": "p", **case.problem})
    units, _ = languages.units_for(problem, case.code, [0], lambda unit: True)
    recorded = ["_Bool", "_Bool", "char", "unsigned", "long long", "double", "long double",
                "_Bool", "float"]  # fmt: skip
    headers = lifted.includes_c(case.code)
    assert units[0].lift_guess == lifted.judge_c(test, shape, recorded, headers)


def test_only_cs_scalars_reach_the_judge():
    assert lifted.read_c("i d\nr05000000\n", 2).types == ["int", "double"]  # type: ignore[union-attr]
    assert lifted.read_c("e\nr00\n", 1).types == ["long double"]  # type: ignore[union-attr]
    for bad in ["S\n", "V<i>\n", "i>(0);\n", "int\n", "i i\n"]:
        assert lifted.read_c(bad, 1) is None, bad
    assert lifted.read_c("?\n", 1).types is None  # type: ignore[union-attr]


def test_default_entry_points_of_a_c_test():
    test = (
        "#include <assert.h>\n#include <string.h>\nint main(void) {\n"
        '    assert(strlen("ab") == 2);\n    assert(add(1, 2) == 3);\n'
        '    assert(memcmp("a", "a", 1) == 0 && strstr("ab", "b"));\n}\n'
    )
    assert lifted.default_entry_points_c(test) == ("add",)


@pytest.mark.parametrize(("program", "unwritten"), [
    ("char *greet(int k) { return 0; }", True),
    ("const char *\ngreet(int k) { return 0; }", True),
    ("struct P greet(int k) { }", True),
    ("void greet(void) {}", True),
    ("int greet(int k) { return 1; }", False),
    ("static inline long long greet(int k) { return 1; }", False),
    ("int f(int x) {\n  return a * greet(x);\n}", False),  # a call, not a declaration
    ("/* char *greet( */ int greet(int k);", False),
    ("typedef char *str; str greet(int k);", False),  # not spelled: the recorder decides
])  # fmt: skip
def test_what_the_programs_declaration_says_it_returns(program, unwritten):
    assert lifted.c_returns_unwritten(program, {"greet"}) is unwritten


def test_the_judge_takes_the_programs_headers_it_always_includes():
    program = (
        "#include <stdio.h>\n#if 0\n#include <tgmath.h>\n#endif\n#ifdef X\n#include <math.h>\n"
        '#endif\n%:include <string.h>\n/* #include <ctype.h> */\n#include "own.h"\n'
    )
    assert lifted.includes_c(program) == "#include <stdio.h>\n"
