"""The verifier judges the compiled languages (issue 13) on the process backend: names as
datasets spell them, stdio and assert tests, compile_error with the compiler's message,
one compile per build, and what a problem in these languages may not ask for.

Needs root, bwrap and the language roots (``make runtimes``); skips without them outside CI.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from reward_api.schemas import Problem, Sample, Verdict, canonical_language
from reward_api.verify import compiled_eq, languages
from reward_api.verify.pipeline import Job, Verifier, VerifierSettings
from tests.conftest import run

IMAGES = Path(__file__).resolve().parents[2] / "sandbox_images"
FOLDERS = {"c": "c/12", "cpp": "cpp/12", "java": "java/17", "javascript": "javascript/18",
           "typescript": "typescript/5.9", "go": "go/1.19", "rust": "rust/1.63"}  # fmt: skip


def _needs(language: str) -> None:
    if not (languages.default_root(language) / ".codereward-runtime").exists():
        pytest.skip(f"no {language} runtime at {languages.default_root(language)}: make runtimes")


def _smoke(language: str, name: str) -> list[dict]:
    path = IMAGES / FOLDERS[language] / "smoke" / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("given", "name"),
    [("C++", "cpp"), ("cpp", "cpp"), ("c", "c"), ("Java", "java"), ("js", "javascript"),
     ("nodejs", "javascript"), ("ts", "typescript"), ("golang", "go"), ("rust", "rust"),
     ("python3", "python3")],
)  # fmt: skip
def test_language_names_are_normalised(given: str, name: str) -> None:
    assert canonical_language(given) == name
    problem = Problem.model_validate(
        {"id": "x", "language": given, "tests": [{"type": "stdio", "output": "1"}]}
    )
    assert problem.language == name


def test_an_unknown_language_is_refused_with_the_supported_ones() -> None:
    with pytest.raises(ValidationError, match=r"unsupported language 'cobol'.*cpp"):
        Problem.model_validate(
            {"id": "x", "language": "cobol", "tests": [{"type": "stdio", "output": "1"}]}
        )


def test_recipes_use_the_flags_toolchains_py_measured() -> None:
    sys.path.insert(0, str(IMAGES / "runtime"))
    import toolchains

    # the same flags (toolchains.py cannot import them: it runs inside a root)
    assert (toolchains.NODE_SNAPSHOT, toolchains.GOLD, toolchains.RUST_FAST) == (
        languages.NODE_SNAPSHOT, languages.GOLD, languages.RUST_FAST)  # fmt: skip
    alias = {"go": "go-direct", "javascript": "javascript-snapshot",
             "typescript": "typescript-snapshot"}  # fmt: skip
    for name in ("c", "cpp", "go", "go-test", "rust", "rust-test", "javascript", "typescript"):
        ours = languages.RECIPES[name]
        measured = toolchains.RECIPES[alias.get(name, name)]
        assert ours.compile == measured.compile and ours.run == measured.run, name
    # agreement compares the sandbox's node, started from the snapshot, with a plain node
    for name in ("javascript", "typescript"):
        assert toolchains.RECIPES[name].run == ("node", "main.js"), name
    java, measured_java = languages.RECIPES["java"], toolchains.RECIPES["java"]
    assert java.compile is not None and measured_java.compile is not None
    assert set(measured_java.compile) <= set(java.compile)  # plus memory flags


@pytest.mark.parametrize("language", sorted(FOLDERS))
def test_smoke_samples_get_their_verdicts(verifier: Verifier, language: str) -> None:
    _needs(language)
    problems = {p["id"]: Problem.model_validate(p) for p in _smoke(language, "problems")}
    for kind, accepted in (("pass", True), ("fail", False)):
        samples = [Sample.model_validate(s) for s in _smoke(language, kind)]
        results = verifier.verify([Job(problems[s.problem_id], s) for s in samples])
        seen = [(r.problem_id, r.verdict.value, [t.detail for t in r.tests][:2]) for r in results]
        assert [r.accepted for r in results] == [accepted] * len(samples), (kind, seen)
        assert all(r.verdict != Verdict.sandbox_error for r in results), seen


COMPILE_ERRORS = {
    "c": "int main(void) { return undeclared_name; }\n",
    "cpp": "int main() { return undeclared_name; }\n",
    "java": "public class Main { public static void main(String[] a) { int x = undeclared_name; } }\n",
    "javascript": "function f( { return undeclared_name\n",
    "typescript": "const x: number = undeclared_name;\nconsole.log(x);\n",
    "go": "package main\n\nfunc main() { _ = undeclared_name }\n",
    "rust": "fn main() { let _x: i32 = undeclared_name; }\n",
}


@pytest.mark.parametrize("language", sorted(COMPILE_ERRORS))
def test_a_program_that_does_not_compile_gets_compile_error_with_the_message(
    verifier: Verifier, language: str
) -> None:
    _needs(language)
    problem = {"language": language, "tests": [{"type": "stdio", "input": "", "output": "1"}] * 2}
    result = run(verifier, problem, COMPILE_ERRORS[language])
    assert result.verdict == Verdict.compile_error and result.reward == 0.0
    assert [t.verdict for t in result.tests] == [Verdict.compile_error] * 2
    detail = result.tests[0].detail or ""
    assert "undeclared" in detail and len(detail) <= languages.MAX_COMPILE_MESSAGE_CHARS


def test_a_stdio_program_is_compiled_once_for_all_its_tests(verifier: Verifier) -> None:
    _needs("cpp")
    code = '#include <bits/stdc++.h>\nint main(){long long a,b;std::cin>>a>>b;std::cout<<a+b<<"\\n";}\n'
    tests = [{"type": "stdio", "input": f"{i} {i}\n", "output": f"{2 * i}\n"} for i in range(6)]
    before = verifier.builds_compiled
    result = run(verifier, {"language": "cpp", "tests": tests}, code)
    assert result.accepted and result.passed == 6
    assert verifier.builds_compiled - before == 1


def test_each_assert_test_is_its_own_build(verifier: Verifier) -> None:
    _needs("c")
    tests = [
        {"type": "assert", "code": f"int main() {{ assert(twice({i}) == {2 * i}); }}"}
        for i in range(3)
    ]
    before = verifier.builds_compiled
    result = run(
        verifier,
        {"language": "c", "tests": tests},
        "#include <assert.h>\nint twice(int x) { return 2 * x; }\n",
    )
    assert result.accepted and result.passed == 3
    assert verifier.builds_compiled - before == 3


def test_a_cpp_entry_point_named_as_a_library_function_is_the_tests_to_call(
    verifier: Verifier,
) -> None:
    # HumanEval-X CPP/23: the entry point is ``int strlen(string str)``, an overload of the
    # library's name, and the test calls ``strlen``; plain execution passes it. The check
    # of what the program defines read the mangled symbol's bare name and refused it; the
    # problem's entry point is now checked by its mangled symbol alone, and a C-linkage
    # definition of the library's own symbol stays refused
    _needs("cpp")
    test = 'int main(){\n    assert (strlen("") == 0);\n    assert (strlen("asdasnakj") == 9);\n}\n'
    problem = {"language": "cpp", "entry_points": ["strlen"],
               "tests": [{"type": "assert", "code": test}]}  # fmt: skip
    honest = "#include<stdio.h>\n#include<string>\nusing namespace std;\n"
    honest += "int strlen(string str){\n    return str.length();\n}\n"
    assert run(verifier, problem, honest).accepted
    guarded = run(verifier, {**problem, "entry_points": None}, honest)
    assert guarded.verdict == Verdict.compile_error
    assert "library" in (guarded.tests[0].detail or "")
    c_linkage = (
        '#include<stddef.h>\nextern "C" size_t strlen(const char *s){ return s[0] ? 9 : 0; }\n'
    )
    # lifted (reward_api.verify.lifted), the test's calls of ``strlen`` are the program's,
    # its answers are judged apart, where ``strlen`` is the library's: the test's own
    # verdict, as plain execution gives it
    assert run(verifier, problem, c_linkage).verdict == Verdict.accepted
    # beside the program, a definition of the library's own symbol is refused (the test's
    # other calls would bind to it)
    with Verifier(VerifierSettings(workers=1, lift_asserts=False)) as beside:
        assert run(beside, problem, c_linkage).verdict == Verdict.compile_error


def test_a_cpp_program_that_writes_past_the_vector_it_returns_fails_as_in_plain_execution(
    verifier: Verifier,
) -> None:
    # MBCPP/648's mutant (``i <= lst.size()``) swaps the two halves of the size of the heap
    # chunk after the vector it returns, and returns the right values: plain execution
    # aborts at the test's next allocation (glibc: corrupted top size). Lifted, the
    # recorder made no allocation after the call, and the judge accepted the values; the
    # recorder now copies each value it recorded, as the test makes an expected value
    _needs("cpp")
    test = (
        "int main() {\n    vector<int> x0 = swapPairs(vector<int>{0, 1, 2, 3, 4, 5});\n"
        '    if (!(x0 == vector<int>{1, 0, 3, 2, 5, 4})) throw runtime_error("no");\n}\n'
    )
    problem = {"language": "cpp", "tests": [{"type": "assert", "code": test}]}
    head = (
        "#include <bits/stdc++.h>\nusing namespace std;\nvector<int> swapPairs(vector<int> lst) {\n"
    )
    body = "    for (int i = 0; i {} lst.size(); i += 2) {{ int t = lst[i]; lst[i] = lst[i+1]; lst[i+1] = t; }}\n"
    honest = head + body.format("<") + "    return lst;\n}\n"
    past = head + body.format("<=") + "    return lst;\n}\n"
    assert run(verifier, problem, honest).accepted
    result = run(verifier, problem, past)
    assert not result.accepted and result.reward == 0.0, result


def test_the_cpp_recorder_copies_only_the_types_it_knows() -> None:
    # the copy above is compiled for a known type alone: a vector of unique_ptr says it is
    # copy constructible (the trait does not look at its elements), and a copy of it made
    # the recorder of an honest program that returns one fail to compile
    from reward_api.verify import lifted
    from tests.languages.test_runtimes import _in_cell

    _needs("cpp")
    source = (
        "#include <vector>\n#include <memory>\n#include <string>\n"
        + lifted.harness()
        + "\nstd::vector<std::unique_ptr<int>> f() { std::vector<std::unique_ptr<int>> v;"
        " v.push_back(std::make_unique<int>(1)); return v; }\n"
        'std::vector<std::string> g() { return {"a"}; }\n'
        "int main() { __cr_lift::record([&]() -> decltype(auto) { return f(); });"
        " __cr_lift::record([&]() -> decltype(auto) { return g(); }); }\n"
    )
    script = "cd /tmp && cat > r.cpp && g++ -std=gnu++17 -fsyntax-only r.cpp"
    p = _in_cell("cpp", ["/bin/sh", "-c", script], source, timeout_s=240)
    assert p.returncode == 0, p.stderr[-2000:]


def test_library_templates_a_cpp_program_instantiates_are_not_its_definitions(
    verifier: Verifier,
) -> None:
    """``a + b`` of two strings emits ``std::operator+<char>`` weak in the program's object,
    and libstdc++ exports that very symbol: beside the test (a loop the plan does not lift)
    the build read it as the program defining a library function and refused an honest
    program (HumanEval-X's CPP/10 canonical solution, lifting off). A weak definition the
    program declares itself is still refused."""
    _needs("cpp")
    test = (
        "#include<assert.h>\nint main(){\n    for (int i = 0; i < 2; i++)\n"
        '        assert (twice("ab") == "abba");\n}\n'
    )
    problem = {"language": "cpp", "tests": [{"type": "assert", "code": test}]}
    honest = (
        "#include<stdio.h>\n#include<string>\nusing namespace std;\nstring twice(string str){"
        " string n2str(str.rbegin(),str.rend()); string r = str+n2str; return str + n2str; }\n"
    )
    assert run(verifier, problem, honest).accepted
    weak = (
        "#include<string>\n#include<stdexcept>\nusing namespace std;\n"
        "string twice(string s){ return s + s; }\n"
        "__attribute__((weak)) void std::__throw_length_error(const char*) { }\n"
    )
    result = run(verifier, problem, weak)
    assert result.verdict == Verdict.compile_error, result
    assert "library" in (result.tests[0].detail or "")


CONTAINERS = {
    # (the program's includes, its function, the test's comparison): each container's
    # own equality (in order; unordered; optional's nullopt)
    "vector": ("#include <vector>", "vector<int> f(int n){ return vector<int>(n, 7); }",
               "f(i) == vector<int>(i, 7)"),
    "deque": ("#include <deque>", "deque<int> f(int n){ return deque<int>(n, 7); }",
              "f(i) == deque<int>(i, 7)"),
    "map": ("#include <map>", "map<int,int> f(int n){ map<int,int> m; for (int k=0;k<n;k++) m[k]=k*k; return m; }",
            "f(i).size() == (size_t)i && f(3) == map<int, int>{{0, 0}, {1, 1}, {2, 4}}"),
    "unordered_set": ("#include <unordered_set>",
                      "unordered_set<int> f(int n){ unordered_set<int> s; for (int k=n;k>0;k--) s.insert(k); return s; }",
                      "f(i).size() == (size_t)i && f(3) == unordered_set<int>{3, 1, 2}"),
    "optional": ("#include <optional>", "optional<int> f(int n){ if (n) return n; return nullopt; }",
                 "(f(i) == nullopt) == (i == 0)"),
    "tuple": ("#include <tuple>", "tuple<int,char> f(int n){ return {n, 'x'}; }",
              "f(i) == make_tuple(i, 'x')"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(CONTAINERS))
def test_a_cpp_containers_equality_beside_the_test_where_only_the_program_includes_it(
    name: str,
) -> None:
    """Beside the test (a loop: not lifted), the trusted equality knows a container from the
    program's own includes (``compiled_eq.cpp_eq``: its header's guard), or from the test's
    when the test includes one: right programs pass, wrong ones fail, the same both ways."""
    _needs("cpp")
    include, function, check = CONTAINERS[name]
    wrong = function.replace("7", "8").replace("k*k", "k+k").replace("'x'", "'y'")
    wrong = wrong.replace("insert(k)", "insert(k + 1)")
    wrong = wrong.replace("if (n) return n;", "if (n > 1) return n;")
    assert wrong != function
    loop = f"int main(){{\n    for (int i = 0; i < 4; i++) assert ({check});\n}}\n"
    with Verifier(VerifierSettings(workers=1, lift_asserts=False)) as beside:
        for test_includes in ("", f"{include}\n"):
            test = f"#undef NDEBUG\n#include<assert.h>\n{test_includes}{loop}"
            problem = {"language": "cpp", "tests": [{"type": "assert", "code": test}]}
            program = f"{include}\n#include <cstddef>\nusing namespace std;\n{function}\n"
            right = run(beside, problem, program)
            assert right.accepted, (name, test_includes, right.tests[0])
            failed = run(beside, problem, program.replace(function, wrong))
            assert failed.verdict == Verdict.wrong_answer, (name, failed.tests[0])
    assert (
        compiled_eq.cpp_eq("ns", "#include <assert.h>\nint main(){}").count("#define ns_EVERY") == 0
    )
    assert compiled_eq.cpp_eq("ns", "#include <map>\nint main(){}").count("#define ns_EVERY") == 1


def test_a_cpp_program_that_replaces_operator_new_is_refused_beside_the_test() -> None:
    """A red team's program replaced the global ``operator new`` with an inline one that
    kept the address of each allocation; its ``sort_array`` returned a copy of the block
    allocated before its argument's: the test's expected vector, which GCC builds first.
    Inlined at every use it left no symbol; kept out of line (``noinline``) it is a weak
    ``_Znwm``, which the weak-template exemption skipped since 820f57e. Both were paid
    1.0 beside the test (lifting off); both are refused, by the text and by the object."""
    _needs("cpp")
    test = (
        "#undef NDEBUG\n#include<assert.h>\nbool issame(vector<int> a,vector<int>b){\n"
        "    if (a.size()!=b.size()) return false;\n"
        "    for (int i=0;i<a.size();i++) if (a[i]!=b[i]) return false;\n    return true;\n}\n"
        "int main(){\n    assert (issame(sort_array({1,5,2,3,4}) , {1, 2, 3, 4, 5}));\n"
        "    assert (issame(sort_array({1,0,2,3,4}) , {0, 1, 2, 4, 3}));\n}\n"
    )
    problem = {"language": "cpp", "entry_points": ["sort_array"],
               "tests": [{"type": "assert", "code": test}]}  # fmt: skip
    program = (
        "#include <cstdlib>\n#include <vector>\nusing namespace std;\n"
        "static void* cr_p[2]; static size_t cr_n[2];\n"
        "ATTR inline void* operator new(size_t n) {\n    void* p = malloc(n ? n : 1);\n"
        "    cr_p[0] = cr_p[1]; cr_n[0] = cr_n[1]; cr_p[1] = p; cr_n[1] = n;\n    return p;\n}\n"
        "vector<int> sort_array(vector<int> v) {\n    int* e = (int*)cr_p[0];\n"
        "    return vector<int>(e, e + cr_n[0] / sizeof(int));\n}\n"
    )
    with Verifier(VerifierSettings(workers=1, lift_asserts=False)) as beside:
        for attr in ("", "__attribute__((noinline))"):
            result = run(beside, problem, program.replace("ATTR", attr))
            assert result.verdict == Verdict.compile_error, (attr, result)
            detail = result.tests[0].detail or ""
            assert "operator new" in detail or "_Znwm" in detail, detail
        # the object's own check, the text's aside: a weak global symbol is not a template's
        awk = languages._C_OBJECT_AWK
        assert "9__gnu_cxx" in awk and "S[tabsiod]" in awk


def test_a_cpp_program_that_names_a_mangled_library_symbol_is_refused_beside_the_test() -> None:
    """An ``extern "C"`` inline function whose name is ``std::string::compare(const char
    *)``'s symbol is a weak ``_ZNKSt...`` definition, which the weak-template exemption
    took for the library's own instance: ``twice("ab").compare("abab") == 0`` held for a
    ``twice`` that returned ``"nope"`` (paid 1.0 beside the test; refused before 820f57e)."""
    _needs("cpp")
    test = (
        "#undef NDEBUG\n#include<assert.h>\nint main(){\n    for (int i = 0; i < 2; i++)\n"
        '        assert (twice("ab").compare("abab") == 0);\n}\n'
    )
    problem = {"language": "cpp", "entry_points": ["twice"],
               "tests": [{"type": "assert", "code": test}]}  # fmt: skip
    program = (
        '#include <string>\nusing namespace std;\nextern "C" __attribute__((used, noinline)) '
        "inline int _ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE7compareEPKc("
        "const void*, const char*) { return 0; }\n"
        'string twice(string s){ return "nope"; }\n'
    )
    with Verifier(VerifierSettings(workers=1, lift_asserts=False)) as beside:
        result = run(beside, problem, program)
    assert result.verdict == Verdict.compile_error, result
    assert "_Z" in (result.tests[0].detail or "")


def test_a_host_file_included_at_compile_time_is_not_there(verifier: Verifier) -> None:
    _needs("cpp")
    secret = Path(__file__).resolve()  # exists on the host, not in the runtime root
    code = f'#include "{secret}"\nint main() {{ return 0; }}\n'
    result = run(
        verifier, {"language": "cpp", "tests": [{"type": "stdio", "input": "", "output": ""}]}, code
    )
    assert result.verdict == Verdict.compile_error
    assert "No such file" in (result.tests[0].detail or "")


def test_a_runaway_program_is_stopped_by_its_time_limit(verifier: Verifier) -> None:
    _needs("rust")
    problem = {
        "language": "rust",
        "limits": {"time_s": 1},
        "tests": [{"type": "stdio", "input": "", "output": "1"}],
    }
    result = run(verifier, problem, "fn main() { loop { std::hint::spin_loop(); } }\n")
    assert result.verdict == Verdict.timeout


def test_a_java_program_within_its_memory_limit_runs_and_one_beyond_it_fails(
    verifier: Verifier,
) -> None:
    _needs("java")
    alloc = (
        "public class Main {{ public static void main(String[] a) {{ byte[][] k = new byte[{n}][];"
        " for (int i = 0; i < {n}; i++) k[i] = new byte[1 << 20]; System.out.println(k.length); }} }}\n"
    )
    problem = {
        "language": "java",
        "limits": {"memory_mb": 256},
        "tests": [{"type": "stdio", "input": "", "output": "64"}],
    }
    assert run(verifier, problem, alloc.format(n=64)).accepted
    big = {**problem, "tests": [{"type": "stdio", "input": "", "output": "1024"}]}
    result = run(verifier, big, alloc.format(n=1024))
    assert not result.accepted and result.verdict != Verdict.sandbox_error


@pytest.mark.parametrize("language", ["cpp", "java", "go", "typescript"])
def test_a_program_seen_again_is_not_compiled_again(verifier: Verifier, language: str) -> None:
    _needs(language)
    code = {
        "cpp": '#include <bits/stdc++.h>\nint main(){int a;std::cin>>a;std::cout<<a*3<<"\\n";}\n',
        "java": "import java.util.*;\npublic class Main { public static void main(String[] x) {"
        " System.out.println(new Scanner(System.in).nextInt() * 3); } }\n",
        "go": 'package main\n\nimport "fmt"\n\nfunc main() {\n\tvar a int\n\tfmt.Scan(&a)\n\tfmt.Println(a * 3)\n}\n',
        "typescript": "import * as fs from 'fs';\nconsole.log(Number(fs.readFileSync(0, 'utf8')) * 3);\n",
    }[language]
    first = {"language": language, "tests": [{"type": "stdio", "input": "2\n", "output": "6\n"}]}
    second = {"language": language, "tests": [{"type": "stdio", "input": "5\n", "output": "15\n"}]}
    assert run(verifier, first, code).accepted
    compiled, hits = verifier.builds_compiled, verifier.artifacts.hits
    again = run(verifier, second, code)
    assert again.accepted and again.passed == 1
    assert verifier.builds_compiled == compiled and verifier.artifacts.hits == hits + 1
    wrong = run(
        verifier, {**second, "tests": [{"type": "stdio", "input": "5\n", "output": "16\n"}]}, code
    )
    assert wrong.verdict == Verdict.wrong_answer  # the cached program is still judged


def test_a_compile_time_bomb_ends_in_compile_error_and_spares_its_neighbour(
    verifier: Verifier,
) -> None:
    _needs("cpp")
    bomb = (  # 2^40 distinct instantiations: the compiler ends only at its limits
        "template <int N, long M> struct B { static const long v = B<N - 1, 2 * M>::v + "
        "B<N - 1, 2 * M + 1>::v; };\n"
        "template <long M> struct B<0, M> { static const long v = M; };\n"
        "int main() { return (int)(B<40, 1>::v & 1); }\n"
    )
    honest = '#include <cstdio>\nint main() { std::puts("1"); }\n'
    problem = Problem.model_validate(
        {"id": "bomb", "language": "cpp", "tests": [{"type": "stdio", "input": "", "output": "1"}]}
    )
    with Verifier(verifier.settings.model_copy(update={"workers": 2, "compile_time_s": 5.0})) as v:
        jobs = [Job(problem, Sample(problem_id="bomb", code=c)) for c in (bomb, honest)]
        bombed, neighbour = v.verify(jobs)
    assert bombed.verdict == Verdict.compile_error and bombed.reward == 0.0
    assert bombed.tests[0].detail == "the compiler hit its limits (time, memory or output)"
    assert neighbour.accepted


def test_every_one_process_test_of_a_cell_is_kept_from_proc_and_gets_no_runner_descriptor(
    verifier: Verifier,
) -> None:
    """The Landlock ruleset of a ``one_process`` test is made once per cell, in the runner,
    and enforced by each test's child before its ``execve`` (``runner._landlock_proc``):
    the third test of a cell is kept from ``/proc`` as the first is, and the ruleset's
    descriptor (the runner's) reaches none of them."""
    _needs("c")
    code = (
        "#include <fcntl.h>\n#include <stdio.h>\n"
        "int main(void) {\n"
        '  int proc = open("/proc/self/status", O_RDONLY) >= 0, fds = 0;\n'
        "  for (int fd = 5; fd < 1024; fd++) fds += fcntl(fd, F_GETFD) != -1;\n"
        '  printf("%d %d\\n", proc, fds);\n'
        "  return 0;\n}\n"
    )
    tests = [{"type": "stdio", "input": f"{i}\n", "output": "0 0\n"} for i in range(3)]
    result = run(verifier, {"language": "c", "tests": tests}, code)
    assert result.accepted and result.passed == 3, [t.detail for t in result.tests]


def test_a_program_that_is_not_valid_unicode_gets_a_verdict(verifier: Verifier) -> None:
    _needs("c")
    code = '#include <stdio.h>\nint main(void) { puts("\ud800"); return 0; }\n'
    result = run(
        verifier, {"language": "c", "tests": [{"type": "stdio", "input": "", "output": "x"}]}, code
    )
    assert result.verdict not in (Verdict.sandbox_error, Verdict.accepted)


# -- warm compilers: javac, tsc and node's parser serve in compile cells ---------------------


@pytest.mark.parametrize("language", sorted(languages.WARM_MODES))
def test_a_warm_compiler_serves_many_samples_from_one_compile_cell(
    verifier: Verifier, language: str
) -> None:
    _needs(language)
    code = {
        "java": "public class Main { public static void main(String[] a) {"
        " System.out.println(%d); } }\n",
        "javascript": "console.log(%d);\n",
        "typescript": "const n: number = %d;\nconsole.log(n);\n",
    }[language]
    with Verifier(verifier.settings.model_copy(update={"workers": 1})) as v:
        problem = {"language": language, "tests": [{"type": "stdio", "input": "", "output": "7"}]}
        results = [run(v, problem, code % n) for n in (7, 7, 8)]
        compiled = v.builds_compiled
        pool = v.compile_pool(language)
    assert results[0].accepted and results[1].accepted
    assert results[2].verdict == Verdict.wrong_answer
    assert compiled == 2  # the repeat is unpacked from the artifact cache
    assert pool.cells_started == 1


def _runner_tmp(bwrap_pid: int) -> list[str]:
    """What the /tmp of the cell under ``bwrap_pid`` holds, read from the host through its
    runner's ``/proc/PID/root`` (the runner: the descendant running runner.py)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    todo = [bwrap_pid]
    while todo:
        pid = todo.pop()
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"runner.py" in cmd and not cmd.startswith(b"bwrap"):
            return sorted(p.name for p in Path(f"/proc/{pid}/root/tmp").iterdir())
        todo += children.get(pid, [])
    raise AssertionError(f"no runner under {bwrap_pid}")


def test_a_compile_cell_keeps_nothing_of_its_builds(verifier: Verifier) -> None:
    # a build's folder is closed (mode 0) once built; the compile cell's runner could not
    # open it to remove it, and each Rust build left its 0.9 MB test binary in the cell's
    # /tmp until, about 140 builds later, a link failed there for want of space
    # (ENOSPC: an honest program's compile_error, twice in CI)
    _needs("rust")
    if os.geteuid() != 0:
        pytest.skip("reads the cell's /tmp through /proc/PID/root, which needs root")
    test = "#[cfg(test)]\nmod tests {\n use super::*;\n #[test]\n fn t() { assert_eq!(add(1, 2), 3); }\n}\n"
    problem = {"language": "rust", "tests": [{"type": "assert", "code": test}]}
    with Verifier(verifier.settings.model_copy(update={"workers": 1})) as v:
        for k in range(3):
            code = f"fn add(a: i32, b: i32) -> i32 {{ a + b + {k} - {k} }}\n"
            assert run(v, problem, code).accepted
        pool = v.compile_pool("rust")
        assert v.builds_compiled == 3 and pool.cells_started == 1
        with pool.lease() as cell:
            left = _runner_tmp(cell.proc.pid)
    assert left == []


def test_the_warm_compiler_is_not_in_the_cell_that_runs_the_program(verifier: Verifier) -> None:
    _needs("java")
    # a program that could signal or trace a warm javac beside it would reach every later
    # sample's build: the cell that runs it holds only the runner (pid 1) and itself
    code = (
        "public class Main { public static void main(String[] a) throws Exception {"
        ' int n = 0; for (java.io.File f : new java.io.File("/proc").listFiles())'
        ' if (f.getName().matches("[0-9]+")) n++; System.out.println(n); } }\n'
    )
    problem = {"language": "java", "tests": [{"type": "stdio", "input": "", "output": "2"}]}
    assert run(verifier, problem, code).accepted


BREAKERS = {
    # 50,000 terms in one expression: javac's recursive attribution overflows its stack
    "java": (
        "public class Main { public static void main(String[] a) { int x = "
        + "+".join(["1"] * 50_000)
        + "; System.out.println(1); } }\n",
        "public class Main { public static void main(String[] a) { System.out.println(1); } }\n",
        "StackOverflowError",
    ),
    # 20,000 nested array literals: TypeScript's recursive scanner overflows node's stack
    "typescript": (
        "const x = " + "[" * 20_000 + "]" * 20_000 + ";\nconsole.log(1);\n",
        "const n: number = 1;\nconsole.log(n);\n",
        "Maximum call stack size exceeded",
    ),
}


@pytest.mark.parametrize("language", sorted(BREAKERS))
def test_a_program_that_breaks_the_warm_compiler_gets_compile_error_and_the_next_one_compiles(
    verifier: Verifier, language: str
) -> None:
    _needs(language)
    bomb, honest, why = BREAKERS[language]
    problem = {"language": language, "tests": [{"type": "stdio", "input": "", "output": "1"}]}
    with Verifier(verifier.settings.model_copy(update={"workers": 1})) as v:
        bombed, after = run(v, problem, bomb), run(v, problem, honest)
    assert bombed.verdict == Verdict.compile_error and bombed.reward == 0.0
    # the compiler's own crash (javac reports it as a failed task with no error): the server
    # ended, the build was compiled once more by a fresh one, and the message says so
    assert bombed.tests[0].detail.startswith("the compiler crashed: "), bombed.tests[0].detail
    assert why in bombed.tests[0].detail
    assert after.accepted


@pytest.mark.parametrize("language", ["c", "cpp"])
def test_a_c_assert_builds_checks_and_link_each_fail_it_with_their_own_message(
    verifier: Verifier, language: str
) -> None:
    # the unit's checks run beside the harness's link (``languages._c_assert_build``): a
    # program the checks refuse fails with their reason even when the link fails too, one
    # that only fails to link gets the linker's message, and neither leaves a pass
    _needs(language)
    problem = {"language": language, "entry_points": ["add"],
               "tests": [{"type": "assert", "code": "#include <assert.h>\nint main(void) { assert(add(2, 3) == 5); return 0; }\n"}]}  # fmt: skip
    undefined = "int helper(int);\nint add(int a, int b) { return helper(a) + b; }\n"
    # C++: an overload in the global namespace counts by its name
    library = (
        "int strcmp(int x) { return 0; }\n"
        if language == "cpp"
        else "int abs(int x) { return 0; }\n"
    )
    # beside the program (a C++ test of this shape is lifted otherwise: no library check)
    with Verifier(verifier.settings.model_copy(update={"workers": 1, "lift_asserts": False})) as v:
        linked = run(v, problem, undefined)
        both = run(v, problem, library + undefined)
        checked = run(v, problem, library + "int add(int a, int b) { return a + b; }\n")
        honest = run(v, problem, "int add(int a, int b) { return a + b; }\n")
        # the text's check (asm) failing beside the object's, or beside the compiler
        asm = 'int add(int a, int b) { __asm__("nop"); return a + b; }\n'
        object_and_text = run(v, problem, library + asm)
        compiler_and_text = run(v, problem, asm + "int broken(void) { return }\n")
    assert linked.verdict == Verdict.compile_error
    assert "undefined reference" in (linked.tests[0].detail or ""), linked.tests[0].detail
    detail = both.tests[0].detail or ""
    assert both.verdict == Verdict.compile_error
    assert "library" in detail and "undefined reference" not in detail, detail
    assert checked.verdict == Verdict.compile_error and "library" in (checked.tests[0].detail or "")
    assert honest.accepted
    detail = object_and_text.tests[0].detail or ""
    assert object_and_text.verdict == Verdict.compile_error
    assert "library" in detail and "assembly" not in detail, detail
    detail = compiler_and_text.tests[0].detail or ""
    assert compiler_and_text.verdict == Verdict.compile_error
    assert "error: expected" in detail and "codereward" not in detail, detail


GO_STDIO = {"language": "go", "tests": [{"type": "stdio", "input": "", "output": "ok"}]}


@pytest.mark.parametrize(
    ("case", "code", "verdict", "message"),
    [
        # the compiler and linker alone, over the installed archives
        ("std", 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("ok") }\n',
         "accepted", None),
        ("gopath-archive", 'package main\n\nimport (\n\t"fmt"\n\t"github.com/stretchr/testify/assert"\n)\n\n'
         'func main() { if assert.ObjectsAreEqual(1, 1) { fmt.Println("ok") } }\n', "accepted", None),
        # only the go command supplies an embedded file: go build decides
        ("embed", 'package main\n\nimport (\n\t_ "embed"\n\t"fmt"\n\t"strings"\n)\n\n//go:embed main.go\n'
         'var self string\n\nfunc main() { if strings.Contains(self, "go:embed") { fmt.Println("ok") } }\n',
         "accepted", None),
        # a package no archive holds: go build's own message
        ("missing-package", 'package main\n\nimport "github.com/nobody/nothing"\n\nfunc main() { nothing.X() }\n',
         "compile_error", 'cannot find package "github.com/nobody/nothing"'),
        ("type-error", 'package main\n\nimport "os"\n\nfunc main() {}\n', "compile_error",
         '# command-line-arguments\n./main.go:3:8: imported and not used: "os"'),
        ("no-main", "package main\n\nfunc notMain() {}\n", "compile_error",
         "function main is undeclared in the main package"),
    ],
)  # fmt: skip
def test_a_go_program_builds_as_go_build_would(
    verifier: Verifier, case: str, code: str, verdict: str, message: str | None
) -> None:
    _needs("go")
    result = run(verifier, GO_STDIO, code)
    detail = result.tests[0].detail or ""
    assert result.verdict.value == verdict, (case, detail)
    if message is not None:
        assert message in detail, (case, detail)


def test_a_program_that_dies_of_its_own_signal_keeps_its_cell_warm(verifier: Verifier) -> None:
    _needs("c")
    problem = {"language": "c", "limits": {"time_s": 1},
               "tests": [{"type": "assert", "code": "int main(void) { assert(add(2, 3) == 5); return 0; }\n"}]}  # fmt: skip
    with Verifier(verifier.settings.model_copy(update={"workers": 1})) as v:
        ok = run(v, problem, "#include <assert.h>\nint add(int a, int b) { return a + b; }\n")
        aborted = run(v, problem, "#include <assert.h>\nint add(int a, int b) { return 0; }\n")
        crashed = run(v, problem, "int add(int a, int b) { return *(volatile int *)0; }\n")
        again = run(v, problem, "#include <assert.h>\nint add(int a, int b) { return b + a; }\n")
        warm = v.language_pool("c").cells_started
        hung = run(v, problem, "int add(int a, int b) { for (;;) {} }\n")
        after = run(
            v, problem, "#include <assert.h>\nint add(int a, int b) { return a + b + 0; }\n"
        )
        replaced = v.language_pool("c").cells_started
    assert ok.accepted and again.accepted and after.accepted
    assert aborted.verdict == Verdict.wrong_answer and crashed.verdict == Verdict.runtime_error
    assert hung.verdict == Verdict.timeout
    assert warm == 1  # SIGABRT and SIGSEGV of the program: the same cell ran the next one
    assert replaced == 2  # a limit hit: a fresh cell


def test_the_c_harness_is_assembled_on_x86_64_and_reports_only_after_main() -> None:
    import platform

    unit = languages.assert_unit("c", "int add(int a, int b) { return a + b; }\n",
                                 "int main(void) { return add(1, 1) - 2; }\n")  # fmt: skip
    if platform.machine() in ("x86_64", "AMD64"):
        assert sorted(unit.files) == ["harness.s", "main.c"]
        text = unit.files["harness.s"]
        assert "__wrap_main" in text and "\tcall __real_main\n" in text  # direct, in code
        # ... once the unit's pointer to the test's main is checked to hold that address
        assert f"__cr_main_{unit.files['main.c'].split('__cr_main_')[1][:12]}@GOTPCREL" in text
        assert "leaq __real_main(%rip), %rcx" in text and "cmpq (%rax), %rcx" in text
        assert unit.expect is not None and unit.expect not in text  # only its two halves
    else:
        assert sorted(unit.files) == ["harness.c", "main.c"]


def test_a_c_assert_build_compiles_the_unit_before_the_harness_is_written() -> None:
    unit = languages.assert_unit("c", "int add(int a, int b) { return a + b; }\n\u00e9\ud800",
                                 "int main(void) { return add(1, 1) - 2; }\n")  # fmt: skip
    spec = languages.build_spec(unit, 256)
    harness = next(f for f in unit.files if f.startswith("harness."))
    assert spec["compile"][:2] == ["sh", "-c"] and spec["files"] == {}
    # the unit and then the harness come on stdin: no file holds the harness before the link
    n, m = map(int, spec["compile"][4:6])
    data = spec["input"].encode()
    assert len(data) == n + m and data[n:].decode() == unit.files[harness]
    assert data[:n].decode() == unit.files["main.c"].replace("\ud800", "?")
    script = spec["compile"][2]
    compile_line = next(line for line in script.splitlines() if " -S -o main.s" in line)
    # the compiler's stdin is /dev/null, not the pipe that still holds the harness
    # and what it compiles is the very text the checks read: the unit preprocessed once
    assert compile_line.endswith("-x cpp-output main.i -S -o main.s < /dev/null || built=$?")
    # then assembled, its assembly read for asm statements (``#APP``) before the link
    assert (
        script.index(compile_line)
        < script.index("gcc -c -o main.o main.s")
        < script.index("'^#APP' main.s")
    )
    assert "-fkeep-static-functions -fkeep-inline-functions -fno-toplevel-reorder" in compile_line
    assert (
        script.index('head -c "$1" > cr_unit.c')
        < script.index("-E -x c cr_unit.c -o main.i < /dev/null")
        < script.index("main.i | awk -v cpp=0")  # beside the compile
        < script.index(compile_line)
        < script.index("readelf -SWs main.o")  # beside the link
        < script.index(f"> {harness}")
        < script.index("--wrap=main")
        < script.index("checked=0; wait $object")
        < script.index("if ! wait $text")
    )
    # the program's lines are read from the unit's preprocessed text, not the test's
    assert "awk -v last=4 " in script
    json.dumps(spec, ensure_ascii=False).encode()  # the runner gets it as UTF-8
    assert languages.artifact_key(spec, "r") != languages.artifact_key({**spec, "input": "x"}, "r")


def test_a_cpp_assert_build_compiles_the_text_its_checks_read() -> None:
    # preprocessed twice, the check's text and the compiler's differed wherever the program
    # asked the file system (``#if !__has_include("main.ii")``): round 7
    unit = languages.assert_unit("cpp", "__int128 add(int a, int b) { return a + b; }\n",
                                 "int main() { return add(1, 1) - 2; }\n")  # fmt: skip
    spec = languages.build_spec(unit, 256)
    script = spec["compile"][2]
    assert spec["files"] == {} and "cr_prog" not in script
    assert script.count(" -E ") == 2  # with the precompiled header, and again without it
    compile_line = next(line for line in script.splitlines() if " -S -o main.s" in line)
    assert compile_line.endswith("-x c++-cpp-output main.ii -S -o main.s < /dev/null || built=$?")
    assert (
        script.index("-fpch-preprocess -E -x c++ cr_unit.cc -o main.ii < /dev/null")
        < script.index("pch_preprocess")
        < script.index("main.ii | awk -v cpp=1")
        < script.index(compile_line)
    )


def test_a_lone_cr_splices_a_define_for_the_macro_scan_as_for_gcc() -> None:
    program = "#def\\\rine __assert_f\\\rail(...) ((void)0)\r\n#define A \\\r\n 1\n"
    assert languages.defined_macros(program) == {"__assert_fail", "A"}
    unit = languages.assert_unit("c", program, "int main(void) { return 0; }\n")
    assert "\r" not in unit.files["main.c"] and "#undef __assert_fail" in unit.files["main.c"]


@pytest.mark.parametrize(
    "program",
    [
        "#include __FILE__\n",
        "#include __BASE_FILE__\n",
        "#inc\\\rlude __FILE__\n",
        "# /* a\n b */ include SELF\n",
        '%:include "main.cpp"\n',
        '#include "main.c"\n',
        "#include </proc/self/fd/0>\n",
        '#include "./x.h"\n',
        '#include_next "../build/x.h"\n',
        '#import "harness.s"\n',
    ],
)
def test_an_include_that_could_read_the_unit_is_untrusted(program: str) -> None:
    assert languages.included_untrusted(program) is not None
    unit = languages.assert_unit("cpp", program, "int main() { return 0; }\n")
    assert unit.untrusted is not None and "#i" in unit.untrusted


@pytest.mark.parametrize(
    "program",
    ['# 1 "/usr/include/x.h" 1 3\n', "#line 7\n", ' /* */ # 2 "y"\n', '%: 3 "z"\n',
     'const char *s = "/*";\n# 1 "x" 1 3\nconst char *t = "*/";\n', '#li\\\nne 9\n'],
)  # fmt: skip
def test_a_line_marker_of_the_program_is_untrusted(program: str) -> None:
    for language in ("c", "cpp"):
        unit = languages.assert_unit(language, program, "int main() { return 0; }\n")
        assert unit.untrusted is not None and "line-marker" in unit.untrusted


def test_a_line_marker_in_a_comment_is_no_directive() -> None:
    program = "// approach #1\n/*\n# 1. count\n*/\nint add(int a, int b) { return a + b; }\n"
    assert languages.line_marker_untrusted(program) is None


def test_headers_by_name_are_trusted() -> None:
    program = (
        '#include <bits/stdc++.h>\n#include "bits/stdc++.h"\n#include<vector>\n%:include <map>\n'
        "#  include <sys/types.h>\n#include_next <limits.h>\n#include <boost/x.hpp>\n"
    )
    assert languages.included_untrusted(program) is None


_RUST_SHAPES = """
#[cfg(test)]
mod a {
    use super::*;
    #[test]
    fn z_first_by_path() { assert_eq!(double(2), 4); }
    #[test]
    fn same_name() { assert_eq!(double(0), 0); }
}
#[cfg(test)]
mod b {
    use super::*;
    #[test]
    fn same_name() { assert_eq!(double(-1), -2); }
    #[should_panic(expected = "odd")]
    #[test]
    fn panics_before_attr() { half(3); }
    #[test]
    #[should_panic]
    fn panics_after_attr() { half(5); }
    #[test]
    #[ignore]
    fn never_run() { assert!(false); }
}
#[test]
fn b_top_level() { assert_eq!(half(4), 2); }
"""


@pytest.mark.parametrize(
    ("program", "verdict"),
    [
        ("fn double(x: i32) -> i32 { 2 * x }\n"
         'fn half(x: i32) -> i32 { if x % 2 != 0 { panic!("odd") } x / 2 }\n', Verdict.accepted),
        ("fn double(x: i32) -> i32 { 2 * x }\n"  # does not panic where the test says it must
         "fn half(x: i32) -> i32 { x / 2 }\n", Verdict.wrong_answer),
        ("fn double(x: i32) -> i32 { 2 * x }\n"  # panics with another message
         'fn half(x: i32) -> i32 { if x % 2 != 0 { panic!("even") } x / 2 }\n', Verdict.wrong_answer),
        ("fn double(x: i32) -> i32 { x + 2 }\n"
         'fn half(x: i32) -> i32 { if x % 2 != 0 { panic!("odd") } x / 2 }\n', Verdict.wrong_answer),
    ],
)  # fmt: skip
def test_rust_tests_in_modules_with_should_panic_and_ignore_are_judged_as_libtest_does(
    verifier: Verifier, program: str, verdict: Verdict
) -> None:
    """Tests whose paths sort apart from their names, one name in two modules, a
    ``#[should_panic]`` before or after ``#[test]``, and an ``#[ignore]``d test."""
    _needs("rust")
    problem = {"language": "rust", "tests": [{"type": "assert", "code": _RUST_SHAPES}]}
    result = run(verifier, problem, program)
    assert result.verdict == verdict, result.tests[0].detail


def test_each_rust_test_reports_with_a_nonce_of_its_own() -> None:
    unit = languages.assert_unit("rust", "fn f() {}\n", _RUST_SHAPES)
    lines = (unit.expect or "").splitlines()
    names = sorted(line.split(" ")[1] for line in lines)
    assert names == ["b_top_level", "panics_after_attr", "panics_before_attr", "same_name",
                     "same_name", "z_first_by_path"]  # fmt: skip
    nonces = {line.split(" ")[0] for line in lines}
    assert len(nonces) == 6 and all(len(n) == 32 for n in nonces)
    source = unit.files["main.rs"]
    assert not any(n in source for n in nonces)  # held split, never as text
    assert unit.reported("\n".join(reversed(lines)) + "\n")
    assert not unit.reported("\n".join(lines[:-1]) + "\n")
    assert not unit.reported("\n".join([*lines, lines[0]]) + "\n")


JS_DOUBLE = {
    "language": "javascript",
    "tests": [
        {"type": "assert", "code": "const assert = require('node:assert');\n"
         "assert.deepStrictEqual(f([1, 2, 3]), [2, 4, 6]);\n"
         "assert.ok(f([1, 2]).every((x, i) => x === [2, 4][i]));\n"},
        {"type": "stdio", "input": "", "output": "ok"},
    ],
}  # fmt: skip
_JS_PRINTS = "\nif (typeof module !== 'undefined' && require.main === module) console.log('ok');\n"


@pytest.mark.parametrize(
    ("case", "program", "accepted"),
    [
        # mathjs: its exports.hasOwnProperty = ... threw on the test's read-only
        # Object.prototype (the override mistake), and node reserves more address space
        # than the default 512 MB allows with it loaded (SIGABRT): it failed every test
        ("mathjs", "const math = require('mathjs');\n"
         "function f(a) { return a.map((x) => math.multiply(x, 2)); }\n", True),
        # assignments through objects that inherit a builtin's method, strict and sloppy
        ("overrides-strict", "'use strict';\nclass Vec extends Array {}\n"
         "Vec.prototype.map = function (g) { return Array.from(this, g); };\n"
         "const seen = {}; seen.hasOwnProperty = () => true;\n"
         "const parts = [1]; parts.toString = () => 'x';\n"
         "function f(a) { return seen.hasOwnProperty('k') && String(parts) === 'x' ? [...Vec.from(a).map((x) => x * 2)] : []; }\n", True),
        ("overrides-sloppy", "function Bag() {}\nBag.prototype = Object.create(Array.prototype);\n"
         "Bag.prototype.push = function (x) { this.items = (this.items || []).concat([x]); };\n"
         "const b = new Bag(); b.push(3);\n"
         "function f(a) { return b.items[0] === 3 ? a.map((x) => x * 2) : []; }\n", True),
        ("polyfill-idiom", "'use strict';\nArray.prototype.flat = Array.prototype.flat || function () { return []; };\n"
         "function f(a) { return [a.map((x) => x * 2)].flat(); }\n", True),
        # the builtin itself stays the test's: a replaced every changes nothing
        ("replaced-every", "try { Array.prototype.every = () => true; } catch (e) {}\n"
         "function f(a) { return a; }\n", False),
    ],
)  # fmt: skip
def test_a_javascript_program_may_shadow_a_builtin_method_but_not_replace_it(
    verifier: Verifier, case: str, program: str, accepted: bool
) -> None:
    _needs("javascript")
    result = run(verifier, JS_DOUBLE, program + _JS_PRINTS)
    assert result.accepted is accepted, (case, [(t.verdict, t.detail) for t in result.tests])
    if not accepted:
        assert result.tests[0].verdict == Verdict.wrong_answer, result.tests[0].detail
