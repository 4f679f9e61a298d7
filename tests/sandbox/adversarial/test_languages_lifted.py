"""C++ assert tests lifted out of the program's process (``reward_api.verify.lifted``).

A native program shares its process with the test beside it, so it can read the test's
expected values from its own executable or memory; where the test's shape allows, the
comparisons now run in a judge that holds no program, fed the values the program's calls
returned. These cases run lifted (the verifier's ``lifted.runs`` counts their judges) on
every backend (``tests/docker/test_adversarial.py`` globs this file):

- exploits that found the expected value in the test's own code (the executable's bytes,
  the machine code after the call), each paid 1.0 by the execution beside the test, and
  honest controls in MBXP's shape and HumanEval-X's;
- verdicts that must agree with the test run beside the program: a wrong value, a crash
  after a wrong value (wrong_answer: the comparison failed first), a crash after right
  values (the crash's own verdict), an uncaught exception, an exit before ``main``;
- lines the program writes on the pass channel itself (a forged types line that would
  put text into the judge's source), which must not pass;
- the way back: a type the recorder does not know and a judge that does not compile run
  the test beside the program, as before.
"""

from __future__ import annotations

import pytest

from reward_api import Problem, Verdict
from reward_api.verify import languages, lifted
from tests.sandbox.adversarial.cases import Batch, asserts, control, exploit, need_roots

PRELUDE = "#include <bits/stdc++.h>\nusing namespace std;\n"
COMPARE = "template <typename T> bool compare(T a, T b){\n    return a == b;\n}\n"


def mbxp(*cases: tuple[str, str, str]) -> str:
    """An MBXP-shaped C++ test: ``T xK = CALL; if (!(compare(xK, E))) throw ...``."""
    body = "".join(
        f"    {t} x{k} = {call};\n    if (!(compare(x{k}, {e}))) {{\n"
        f'        throw runtime_error("Exception -- test case {k} did not pass.");\n    }}\n'
        for k, (t, call, e) in enumerate(cases)
    )
    return f"\n{COMPARE}\nint main(int argc, char* argv[]) {{\n{body}    return 0;\n}}\n"


SECRET = mbxp(("string", "secret(1)", 'string("zq-expected-value-731-abcdef")'))
ADD = mbxp(("int", "add(2, 3)", "5"), ("int", "add(10, -4)", "6"), ("int", "add(0, 0)", "0"))
HALF = (
    "\n#undef NDEBUG\n#include <assert.h>\nint main(){\n"
    "    assert (abs(half(3.0) - 1.5) < 1e-4);\n    assert (half(1.0) == 0.5);\n"
    "    assert (issame(halves({2, 4}), {1, 2}));\n}\n"
)
HALF_PREAMBLE = "bool issame(vector<int> a, vector<int> b) { return a == b; }\n"

# reads its own executable for the expected string: beside the test, the test's literal is
# there; in the recorder, there is nothing to find
READ_OWN_BINARY = (
    PRELUDE
    + r"""
string secret(int) {
    const char *paths[] = {"prog", "./prog", "/proc/self/exe"};
    for (const char *p : paths) {
        ifstream f(p, ios::binary);
        if (!f) continue;
        string all((istreambuf_iterator<char>(f)), istreambuf_iterator<char>());
        string key = string("zq") + "-";
        for (size_t at = all.find(key); at != string::npos; at = all.find(key, at + 1)) {
            size_t e = at;
            while (e < all.size() && all[e] >= 32 && all[e] < 127) e++;
            string s = all.substr(at, e - at);
            if (s.size() > 5 && s != key) return s;
        }
    }
    return "none";
}
"""
)

# reads the bytes after its return address: beside the test, the comparison that follows
# the call holds the expected value as an immediate (``cmp $5`` after ``call add``)
READ_CALLER = (
    PRELUDE
    + r"""
__attribute__((noinline)) int add(int a, int b) {
    const unsigned char *ret = (const unsigned char *)__builtin_extract_return_addr(__builtin_return_address(0));
    for (int i = 0; i < 48; i++) {
        if (ret[i] == 0x83 && (ret[i + 1] & 0xf8) == 0xf8) return (signed char)ret[i + 2];  // cmp $imm8, %reg
        if (ret[i] == 0x81 && (ret[i + 1] & 0xf8) == 0xf8) { int v; memcpy(&v, ret + i + 2, 4); return v; }
    }
    return a * 1000 + b;
}
"""
)

HONEST_ADD = PRELUDE + "int add(int a, int b) { return a + b; }\n"
HONEST_HALF = PRELUDE + (
    "double half(double x) { return x / 2; }\n"
    "vector<int> halves(vector<int> v) { for (auto &x : v) x /= 2; return v; }\n"
)

WRONG_FIRST_THEN_CRASH = (
    PRELUDE
    + r"""
int add(int a, int b) {
    static int calls = 0;
    if (++calls == 2) { volatile int *p = nullptr; *p = 1; }
    return a + b + 1;
}
"""
)
RIGHT_FIRST_THEN_CRASH = (
    PRELUDE
    + r"""
int add(int a, int b) {
    static int calls = 0;
    if (++calls == 2) { volatile int *p = nullptr; *p = 1; }
    return a + b;
}
"""
)
THROWS = PRELUDE + "int add(int a, int b) { if (a == 10) throw 7; return a + b; }\n"
EXIT_BEFORE_MAIN = PRELUDE + (
    "int add(int a, int b) { return a + b; }\nstruct Early { Early() { exit(0); } } early;\n"
)
# the program writes the recorder's lines itself, then leaves before the recorder
FORGED_LINES = (
    PRELUDE
    + r"""
#include <unistd.h>
int add(int a, int b) { return 0; }
struct Forge {
    Forge() {
        const char *lines = "i i i\ni5;\ni6;\ni0;\n";
        if (write(3, lines, strlen(lines)) < 0) _exit(2);
        _exit(0);
    }
} forge;
"""
)
# a '?' of its own, hoping to send the test back beside the program (where its memory
# holds the expected values): the types' line is the recorder's, written before any code
# of the program's, so this is only a malformed value
FORGED_UNKNOWN = (
    PRELUDE
    + r"""
#include <unistd.h>
int add(int a, int b) { return a + b + 1; }
struct Forge { Forge() { if (write(3, "?\n", 2) < 0) _exit(2); } } forge;
"""
)
# its own .preinit_array entry, to write first
OWN_PREINIT = (
    PRELUDE
    + r"""
#include <unistd.h>
int add(int a, int b) { return a + b + 1; }
static void first() { if (write(3, "? ? ?\n", 6) < 0) _exit(2); }
__attribute__((section(".preinit_array"), used)) static void (*entry)() = first;
"""
)
# a types line whose text would call the program from the judge's source
INJECTED_TYPE = (
    PRELUDE
    + r"""
#include <unistd.h>
int add(int a, int b) { return 0; }
struct Forge {
    Forge() {
        const char *lines = "i>(0);return 0;}int q(){return __cr_lift::take<int i i\ni5;\ni6;\ni0;\n";
        if (write(3, lines, strlen(lines)) < 0) _exit(2);
        _exit(0);
    }
} forge;
"""
)

# the way back: a returned type of the program's own (the recorder cannot write it), and a
# test that compares with a helper the program defines (its judge cannot compile)
OWN_TYPE_TEST = (
    "\n#include <assert.h>\nint main() {\n    assert(make(3).x == P{3}.x);\n    return 0;\n}\n"
)
OWN_TYPE = PRELUDE + "struct P { int x; };\nP make(int x) { return P{x}; }\n"
HELPER_TEST = mbxp(("int", "add(2, 3)", "five()"))
HELPER = PRELUDE + "int five() { return 5; }\nint add(int a, int b) { return a + b; }\n"

ADD_P = asserts(ADD, language="cpp", entry_points=["add"])
# a long double is written exactly (a hexadecimal float): rounded through a double, the
# judge's 1.0L / 3 would differ from the recorded third
THIRD_TEST = (
    "\n#include <assert.h>\nint main() {\n    assert(third(1.0L) == 1.0L / 3);\n    return 0;\n}\n"
)
THIRD = PRELUDE + "long double third(long double x) { return x / 3; }\n"
BATCH = Batch(
    "languages-lifted",
    [
        exploit("reads-its-own-binary", asserts(SECRET, language="cpp", entry_points=["secret"]),
                READ_OWN_BINARY),
        exploit("reads-the-code-after-its-call", ADD_P, READ_CALLER),
        exploit("wrong-then-crash", ADD_P, WRONG_FIRST_THEN_CRASH),
        exploit("right-then-crash", ADD_P, RIGHT_FIRST_THEN_CRASH),
        exploit("uncaught-exception", ADD_P, THROWS),
        exploit("exit-before-main", ADD_P, EXIT_BEFORE_MAIN),
        exploit("forged-recorder-lines", ADD_P, FORGED_LINES),
        exploit("type-line-injection", ADD_P, INJECTED_TYPE),
        exploit("forged-unknown-type", ADD_P, FORGED_UNKNOWN),
        exploit("own-preinit-entry", ADD_P, OWN_PREINIT),
        control("mbxp-shape", ADD_P, HONEST_ADD),
        # the contract's default entry points (none named): read from the test alone
        exploit("reads-the-code-after-its-call-no-entry-points", asserts(ADD, language="cpp"),
                READ_CALLER),
        control("mbxp-shape-no-entry-points", asserts(ADD, language="cpp"), HONEST_ADD),
        control("long-double-written-exactly",
                asserts(THIRD_TEST, language="cpp", entry_points=["third"]), THIRD),
        control("humaneval-x-shape",
                asserts(HALF, language="cpp", entry_points=["half", "halves"],
                        setup_code=HALF_PREAMBLE), HONEST_HALF),
        control("own-type-goes-back",
                asserts(OWN_TYPE_TEST, language="cpp", entry_points=["make"]), OWN_TYPE),
        control("helper-of-the-program-goes-back",
                asserts(HELPER_TEST, language="cpp", entry_points=["add"]), HELPER),
    ],
)  # fmt: skip
EXPECTED = {
    "reads-its-own-binary": Verdict.wrong_answer,
    "reads-the-code-after-its-call": Verdict.wrong_answer,
    "reads-the-code-after-its-call-no-entry-points": Verdict.wrong_answer,
    "wrong-then-crash": Verdict.wrong_answer,
    "right-then-crash": Verdict.runtime_error,
    "uncaught-exception": Verdict.wrong_answer,
    "exit-before-main": Verdict.wrong_answer,
    "forged-recorder-lines": Verdict.wrong_answer,
    "type-line-injection": Verdict.wrong_answer,
    "forged-unknown-type": Verdict.wrong_answer,
    "own-preinit-entry": Verdict.compile_error,
}


@pytest.fixture(scope="module", autouse=True)
def _roots() -> None:
    need_roots("cpp")


@pytest.mark.parametrize("name", BATCH.names)
def test_lifted_exploits_earn_nothing_and_controls_pass(verifier, name):
    BATCH.check(verifier, name)
    if name in EXPECTED:
        r = BATCH.run(verifier).results[name]
        assert r.verdict == EXPECTED[name], (r.verdict, [t.detail for t in r.tests])


def test_the_batch_was_judged_apart(verifier):
    """Every lifted case's comparisons ran in a judge, not beside the program: judges ran,
    and the two that must go back did (their tests are now remembered as not lifted)."""
    BATCH.run(verifier)
    assert verifier.lifted.runs >= 8, verifier.lifted.runs
    case = BATCH.by_name["helper-of-the-program-goes-back"]
    problem = Problem.model_validate({"id": "p", **case.problem})
    units, _ = languages.units_for(problem, case.code, [0], lambda unit: True)
    assert units[0].lift is not None and not verifier.lifted.usable(units[0])


def test_the_candidates_build_holds_no_expected_value():
    """The recorder is the program, the language and the calls: the test's expected values
    are nowhere in what the candidate's build compiles."""
    problem = Problem.model_validate(
        {"id": "p", **asserts(SECRET, language="cpp", entry_points=["secret"])}
    )
    units, _ = languages.units_for(problem, READ_OWN_BINARY, [0], lambda unit: True)
    assert units[0].lift is not None
    source = "".join(units[0].files.values())
    assert "zq-expected-value-731-abcdef" not in source and "compare" not in source
    assert "zq-expected-value-731-abcdef" in units[0].lift[2]  # the judge's, built apart


# ------------------------------------------------------------------ the plan, the lines
def test_plans_of_the_datasets_shapes():
    mb = lifted.plan(ADD, ["add"])
    assert mb is not None and len(mb.calls) == 3 and mb.independent
    hx = lifted.plan(HALF, ["half", "halves"])
    assert hx is not None and len(hx.calls) == 3 and not hx.independent
    multipl_e = (
        "int main() {\n    auto candidate = add;\n    assert(candidate((1), (2)) == (3));\n"
        "    assert(candidate((5), (5)) == (10));\n}\n"
    )
    me = lifted.plan(multipl_e, ["add"])
    assert me is not None and len(me.calls) == 2 and len(me.drop) == 1
    assert (
        "candidate"
        not in lifted.judge(multipl_e, me, ["int", "int"], True).split("int __cr_test_main")[1]
    )


@pytest.mark.parametrize("test", [
    "int main() {\n    for (int i = 0; i < 3; i++) assert(add(i, i) == 2 * i);\n}\n",  # a loop
    "int main() {\n    int a = 2;\n    assert(add(a, 3) == 5);\n}\n",  # a name of the test's
    "int main() {\n    assert(add(1, 2) == 3 && add(2, 2) == 4);\n}\n",  # two calls, a branch
    "int main() {\n    assert(ok() || add(1, 2) == 3);\n}\n",  # may be skipped
    "int two() { return add(1, 1); }\nint main() {\n    assert(two() == 2);\n}\n",  # a helper calls it
    "int main() {\n    assert(s.add(1, 2) == 3);\n}\n",  # a member
])  # fmt: skip
def test_shapes_that_stay_beside_the_program(test):
    assert lifted.plan(test, ["add"]) is None


def test_only_the_recorders_alphabet_reaches_the_judge():
    assert lifted.spell("V<M<S,i>>") == "std::vector<std::map<std::string, int>>"
    assert lifted.spell("P<d,O<b>>") == "std::pair<double, std::optional<bool>>"
    assert lifted.spell("V<e>") == "std::vector<long double>"
    for bad in ["i>(0);", "V<i", "Q", "", "V<i>>", "i i", "V<" * 40 + "i" + ">" * 40]:
        assert lifted.spell(bad) is None, bad
    assert lifted.read("i i\ni1;\n", 2) is not None
    assert lifted.read("i>(0) i\n", 2) is None
    assert lifted.read("i i\ni1;\ni2;\ni3;\n", 2) is None  # more values than calls
    assert lifted.read("i ?\ni1;\n", 2).types is None  # type: ignore[union-attr]
    assert lifted.read("i i\ni1;", 2) is None  # a cut line


def test_default_entry_points_come_from_the_test_alone():
    assert lifted.default_entry_points(ADD) == ("add",)
    mbxp_test = mbxp(("int", "add(2, 3)", "5"))
    assert lifted.default_entry_points(mbxp_test) == ("add",)  # compare is the test's own
    assert lifted.default_entry_points(
        "int main() { assert(abs(truncate_number(3.5) - 0.5) < 1e-4); }"
    ) == ("truncate_number",)


# ------------------------------------------------------------------ the judge's guessed types
_GUESS_TEST = (
    "\n#undef NDEBUG\n#include <assert.h>\nint main(){\n"
    "    assert (issame(f({1, 2}), {1, 2}));\n    assert (issame(f({3}), {3}));\n}\n"
)


@pytest.mark.parametrize(("head", "guess"), [
    ("vector<int> f(vector<int> v)", "std::vector<int>"),
    ("std::vector<std::string>\nf(vector<int> v)", "std::vector<std::string>"),
    ("static inline const vector<long long>& f(vector<int> v)", "std::vector<long long>"),
    ("map<char, vector<pair<int, string>>> f(vector<int> v)",
     "std::map<char, std::vector<std::pair<int, std::string>>>"),
    ("unordered_map<string,size_t> f(vector<int> v)", "std::unordered_map<std::string, unsigned long>"),
    ("unsigned long long f(vector<int> v)", "unsigned long long"),
    ("optional<int64_t> f(vector<int> v)", "std::optional<long>"),
    ("bool f(vector<int> v)", "bool"),
    ("long double f(vector<int> v)", "long double"),
    ("#include <vector>\nvector<int> f(vector<int> v)", "std::vector<int>"),
    # not standard names alone: no guess (the recorded types decide the judge)
    ("auto f(vector<int> v)", None),
    ("vi f(vector<int> v)", None),
    ("vector<int> *f(vector<int> v)", None),
    ("template <class T> vector<T> f(vector<T> v)", None),
    ("my::vector<int> f(vector<int> v)", None),
    ("vector<int, alloc> f(vector<int> v)", None),
])  # fmt: skip
def test_the_cpp_judges_types_guessed_from_the_program(head, guess):
    shape = lifted.plan(_GUESS_TEST, ["f"])
    assert shape is not None and not shape.independent
    program = f"#include <vector>\nusing namespace std;\n{head} {{\n    return v;\n}}\n"
    assert lifted.guess_cpp_types(program, _GUESS_TEST, shape) == (
        None if guess is None else [guess, guess]
    )


def test_a_call_in_the_program_is_not_read_as_its_declaration():
    shape = lifted.plan(_GUESS_TEST, ["f"])
    assert shape is not None
    program = "int g() { return f(2); }\nvector<int> f(vector<int> v) { return v; }\n"
    assert lifted.guess_cpp_types(program, _GUESS_TEST, shape) == ["std::vector<int>"] * 2
    assert lifted.guess_cpp_types("int g() { return f(2); }\n", _GUESS_TEST, shape) is None


def test_the_guessed_judge_is_the_one_the_recorded_types_make():
    """Each program's judge, guessed from its declaration and built while its recorder
    is, is the judge the recorded types make: one judge compile per program, where a wrong
    guess would cost two (and the verdicts are the test's)."""
    from reward_api import Job, Sample, Verifier
    from reward_api.verify.settings import VerifierSettings

    cases = [
        ("vector<int> f(vector<int> v) {\n    return v;\n}\n", True),
        ("const std::vector<long long> &f(vector<int> v) {\n"
         "    static std::vector<long long> r;\n    r.assign(v.begin(), v.end());\n    return r;\n}\n",
         True),
        ("vector<unsigned> f(vector<int> v) {\n    return {};\n}\n", False),
        ("std::set<int> f(vector<int> v) {\n    return {v.begin(), v.end()};\n}\n", True),
    ]  # fmt: skip
    issame = ("template <class A> bool issame(A a, vector<int> b) {\n"
              "    return vector<long long>(a.begin(), a.end()) == vector<long long>(b.begin(), b.end());\n}\n")  # fmt: skip
    jobs = []
    for k, (body, _ok) in enumerate(cases):
        problem = Problem.model_validate(
            {
                "id": f"guess-{k}",
                **asserts(issame + _GUESS_TEST, language="cpp", entry_points=["f"]),
            }
        )
        program = "#include <vector>\n#include <set>\nusing namespace std;\n" + body
        shape = lifted.plan(problem.tests[0].code, ["f"])
        assert shape is not None and lifted.guess_cpp_types(program, problem.tests[0].code, shape)
        units, _ = languages.units_for(problem, program, [0], lambda unit: True)
        assert units[0].lift is not None and units[0].lift_guess is not None
        jobs.append(Job(problem, Sample(problem_id=problem.id, code=program)))
    with Verifier(VerifierSettings(sandbox="process", workers=1)) as verifier:
        results = verifier.verify(jobs)
        assert [r.accepted for r in results] == [ok for _b, ok in cases], [
            (r.verdict, [t.detail for t in r.tests]) for r in results
        ]
        assert verifier.lifted.runs == len(cases) and verifier.lifted.compiles == len(cases)


def test_the_judge_makes_the_programs_includes_it_does_not_hold():
    """The C headers (libstdc++'s ``<math.h>`` puts ``std::abs``'s floating overloads in
    the global namespace) and any one-word header, not those ``<bits/stdc++.h>`` holds,
    not one under ``#if`` or in a comment; sorted, so programs that differ in their
    order or in a header the judge holds share a judge."""
    program = (
        "#include<stdio.h>\n#include <vector>\n#  include <math.h>\n#if X\n#include<stdlib.h>\n"
        "#endif\n// #include <ctype.h>\n/* #include <time.h> */\n#include <bit>\n"
        '#include "own.h"\n#include <sys/time.h>\nusing namespace std;\n'
    )
    assert lifted.judge_context(program) == (
        "#include <bit>\n#include <math.h>\n#include <stdio.h>\nusing namespace std;\n"
    )
    assert lifted.judge_context("#include <math.h>\n#include <algorithm>\n", lifted.USING_STD) == (
        "#include <math.h>\nusing namespace std;\n"
    )
    shape = lifted.plan(HALF, ["half", "halves"])
    assert shape is not None
    judge = lifted.judge(HALF, shape, ["double", "double", "std::vector<int>"],
                         lifted.judge_context(program))  # fmt: skip
    assert judge.index("#include <math.h>") < judge.index("int __cr_test_main")


def test_multipl_e_s_cpp_tests_are_decided_on_the_host_with_the_tests_verdicts():
    """MultiPL-E's C++ shape (``auto candidate = f;``, parenthesised constants, its
    ``std::vector<long>({(long)1, ...})``): decided on the host, no judge built, and each
    program's verdict the test's."""
    from reward_api import Job, Verifier
    from reward_api.data.converters.multipl_e import multipl_e_problem, multipl_e_sample
    from reward_api.verify.settings import VerifierSettings

    record = {
        "name": "HumanEval_9003_evens", "language": "cpp",
        "prompt": "#include<assert.h>\n#include<bits/stdc++.h>\n// The even numbers, in order.\n"
        "std::vector<long> evens(std::vector<long> lst) {\n",
        "tests": "}\nint main() {\n    auto candidate = evens;\n"
        "    assert(candidate((std::vector<long>({(long)1, (long)2, (long)4}))) == "
        "(std::vector<long>({(long)2, (long)4})));\n"
        "    assert(candidate((std::vector<long>())) == (std::vector<long>()));\n"
        "    assert(candidate((std::vector<long>({(long)-6, (long)3}))) == (std::vector<long>({(long)-6})));\n}\n",
    }  # fmt: skip
    problem = multipl_e_problem(record)
    bodies = {
        "right": (
            "    std::vector<long> out;\n    for (long x : lst) if (x % 2 == 0) out.push_back(x);\n"
            "    return out;\n",
            True,
        ),
        "reversed": (
            "    std::vector<long> out;\n    for (long x : lst) if (x % 2 == 0) out.insert(out.begin(), x);\n"
            "    return out;\n",
            False,
        ),
        "drops negatives": (
            "    std::vector<long> out;\n    for (long x : lst) if (x % 2 == 0 && x > 0) out.push_back(x);\n"
            "    return out;\n",
            False,
        ),
    }
    jobs = [Job(problem, multipl_e_sample(problem, body)) for body, _ok in bodies.values()]
    with Verifier(VerifierSettings(sandbox="process", workers=1)) as verifier:
        results = verifier.verify(jobs)
        assert [r.accepted for r in results] == [ok for _b, ok in bodies.values()], [
            (r.verdict, [t.detail for t in r.tests]) for r in results
        ]
        assert verifier.lifted.host == len(jobs) and verifier.lifted.compiles == 0
