"""C++ programs compile against a precompiled header of their own first includes
(``reward_api.verify.headers``), built in a checker cell, read-only in the cells that run
programs, and with the same verdicts as without it.

Needs root, bwrap and the C++ root (``make runtimes``); skips without them outside CI.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from reward_api.schemas import Problem, Sample, Verdict
from reward_api.verify import headers, languages
from reward_api.verify.pipeline import Job, Verifier, VerifierSettings

PREFIX = "/*\nA doc comment, as HumanEval-X's prompts have.\n*/\n#include<stdio.h>\n#include<vector>\n#include<string>\nusing namespace std;\n"
ASSERT_TESTS = [
    '#undef NDEBUG\n#include<assert.h>\nint main(){\n    assert (count_upper("aBCdE") == 3);\n    assert (count_upper({"A"}) == 1);\n}\n',
    '#undef NDEBUG\n#include<assert.h>\nbool issame(vector<int> a, vector<int> b){ return a == b; }\nint main(){\n    assert (issame(upper_positions("aBCdE"), {1, 2, 4}));\n}\n',
    # a loop: beside the program (not lifted), a build with options of its own
    "#undef NDEBUG\n#include<assert.h>\nint main(){\n    for (int i = 0; i < 3; i++) assert (count_upper(string(i, 'Q')) == i);\n}\n",
]
PROGRAMS = {
    "right": (
        "int count_upper(string s){ int n = 0; for (char c : s) n += c >= 'A' && c <= 'Z'; return n; }\n"
        "vector<int> upper_positions(string s){ vector<int> out; for (int i = 0; i < (int)s.size(); i++) if (s[i] >= 'A' && s[i] <= 'Z') out.push_back(i); return out; }\n",
        Verdict.accepted,
    ),
    "wrong": (
        "int count_upper(string s){ return (int)s.size() / 2; }\n"
        "vector<int> upper_positions(string s){ return {1, 2}; }\n",
        Verdict.wrong_answer,
    ),
    "does not compile": (
        "\n\nint count_upper(string s){ return undeclared_name; }\n"
        "vector<int> upper_positions(string s){ return {}; }\n",
        Verdict.compile_error,
    ),
}


def _needs() -> None:
    if not (languages.default_root("cpp") / ".codereward-runtime").exists():
        pytest.skip(f"no cpp runtime at {languages.default_root('cpp')}: make runtimes")


@pytest.fixture(scope="module")
def both() -> Iterator[tuple[Verifier, Verifier]]:
    _needs()
    on = Verifier(VerifierSettings(sandbox="process", workers=1))
    off = Verifier(VerifierSettings(sandbox="process", workers=1, precompiled_headers=False))
    with on, off:
        yield on, off


def _problem() -> Problem:
    tests = [{"type": "assert", "code": t} for t in ASSERT_TESTS]
    return Problem.model_validate({"id": "upper", "language": "cpp", "tests": tests})


def _stdio() -> Problem:
    tests = [{"type": "stdio", "input": f"{i} {i + 1}\n", "output": f"{2 * i + 1}\n"}
             for i in range(3)]  # fmt: skip
    return Problem.model_validate({"id": "sum", "language": "cpp", "tests": tests})


def _judged_alike(
    both: tuple[Verifier, Verifier], problem: Problem, code: str, verdict: Verdict, line: int
) -> None:
    """The sample judged with headers and without: ``verdict`` both, test by test the same,
    and a compiler message at the same ``line`` (the unit keeps the program's lines where
    they were)."""
    on, off = both
    sample = Sample(problem_id=problem.id, code=code)
    with_header = on.verify([Job(problem, sample)])[0]
    without = off.verify([Job(problem, sample)])[0]
    assert with_header.verdict == without.verdict == verdict, (code[-40:], with_header)
    assert [t.verdict for t in with_header.tests] == [t.verdict for t in without.tests]
    if verdict == Verdict.compile_error:
        assert f":{line}:" in (with_header.tests[0].detail or ""), with_header.tests[0].detail
        assert f":{line}:" in (without.tests[0].detail or "")


def _ready(v: Verifier, count: int) -> None:
    """Wait (bounded, for a loaded 2-core host) until ``count`` headers were built."""
    assert v.headers is not None
    deadline = time.monotonic() + 180
    while v.headers.built + v.headers.failed < count and time.monotonic() < deadline:
        time.sleep(0.2)
    assert v.headers.built == count, (v.headers.built, v.headers.failed)


def test_the_second_sample_of_a_header_compiles_against_it_with_the_same_verdicts(
    both: tuple[Verifier, Verifier],
) -> None:
    on, off = both
    assert on.headers is not None and off.headers is None
    problem = _problem()
    for k in range(2):  # a header is built the second time a build asks for it
        code = f"{PREFIX}{PROGRAMS['right'][0]}// first {k}\n"
        first = on.verify([Job(problem, Sample(problem_id="upper", code=code))])
        assert first[0].verdict == Verdict.accepted, first[0]
    _ready(on, 2)  # the recorder's (lifted) and the unit's beside the test (other options)
    used, compiled = on.headers.used, on.builds_compiled
    for round_ in range(2):  # distinct programs each round: no artifact or result is reused
        for body, verdict in PROGRAMS.values():
            _judged_alike(both, problem, f"{PREFIX}{body}// round {round_}\n", verdict, 10)
    # every build compiled against its header: each program's recorders, its build beside
    # the loop's test, and (the program that does not compile) its builds beside the tests
    # the recorders could not build
    assert on.headers.used - used == on.builds_compiled - compiled >= 2 * len(PROGRAMS) * 3


def test_a_stdio_program_compiles_against_its_header(both: tuple[Verifier, Verifier]) -> None:
    on, _off = both
    assert on.headers is not None
    code = PREFIX.replace("<string>", "<iostream>") + (
        "int main(){ long long a, b; cin >> a >> b; cout << a + b << endl; }\n"
    )
    problem = _stdio()
    built = on.headers.built
    for k in range(2):
        sample = Sample(problem_id="sum", code=f"{code}// {k}\n")
        assert on.verify([Job(problem, sample)])[0].accepted
    _ready(on, built + 1)
    used = on.headers.used
    result = on.verify([Job(problem, Sample(problem_id="sum", code=code + "// again\n"))])[0]
    assert result.accepted and on.headers.used == used + 1


def test_a_header_that_does_not_build_is_the_programs_compile_error_once(
    both: tuple[Verifier, Verifier],
) -> None:
    on, _off = both
    assert on.headers is not None
    code = "#include <no_such_header_anywhere>\nint main(){ return 0; }\n"
    failed = on.headers.failed
    for k in range(3):
        result = on.verify([Job(_stdio(), Sample(problem_id="sum", code=f"{code}// {k}\n"))])[0]
        assert result.verdict == Verdict.compile_error
        assert "no_such_header_anywhere" in (result.tests[0].detail or "")
        if k == 1:  # the second build that asks for it: built (and failed) in the background
            deadline = time.monotonic() + 180
            while on.headers.failed == failed and time.monotonic() < deadline:
                time.sleep(0.2)
    assert on.headers.failed == failed + 1  # tried once, not again


def test_a_program_cannot_write_or_replace_a_precompiled_header(
    both: tuple[Verifier, Verifier],
) -> None:
    """The cells that run programs bind the headers' folder read-only: a program that
    would plant its own ``.gch`` for a later program's compile cannot."""
    on, _off = both
    assert on.headers is not None
    header = "#include<stdio.h>\n#include<vector>\n#include<string>\nusing namespace std;\n"
    name = headers.key(header, languages.header_flags(), on.runtime)
    # its two lifted builds ask for the header twice: built
    on.verify([Job(_problem(), Sample(problem_id="upper", code=PREFIX + PROGRAMS["right"][0]))])
    deadline = time.monotonic() + 180
    while not (on.headers._folder() / f"{name}.h.gch").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert (on.headers._folder() / f"{name}.h.gch").exists()
    gch = f"/opt/codereward/pch/{name}.h.gch"
    code = (
        "#include <cstdio>\n#include <cstdlib>\n#include <unistd.h>\n"
        "int main(){\n"
        f'  FILE* f = fopen("{gch}", "r+"); int open_rw = f != nullptr;\n'
        '  FILE* g = fopen("/opt/codereward/pch/mine.h.gch", "w"); int create = g != nullptr;\n'
        f'  int gone = unlink("{gch}") == 0;\n'
        '  FILE* t = fopen("/tmp/x.gch", "w"); if (t) fclose(t);\n'
        f'  int moved = rename("/tmp/x.gch", "{gch}") == 0;\n'
        f'  FILE* r = fopen("{gch}", "r"); int readable = r != nullptr;\n'
        '  printf("%d %d %d %d %d\\n", open_rw, create, gone, moved, readable);\n}\n'
    )
    problem = Problem.model_validate({"id": "w", "language": "cpp", "tests": [
        {"type": "stdio", "input": "", "output": "0 0 0 0 1\n"}]})  # fmt: skip
    result = on.verify([Job(problem, Sample(problem_id="w", code=code))])[0]
    assert result.accepted, result.tests[0]
    assert (on.headers._folder() / f"{name}.h.gch").exists()


def test_humaneval_x_shaped_programs_agree_with_plain_execution_against_warm_headers(
    both: tuple[Verifier, Verifier],
) -> None:
    """The bench's C++ programs in HumanEval-X's shape (``bench.languages``, ``cpp-hx``) and
    a mutant of each, judged with their headers built (asserts lifted, loops beside the
    program), against a plain ``g++`` compile and run of the same program and test."""
    import os

    from reward_api.bench import languages as bench
    from reward_api.bench.mutants import mutants

    if os.geteuid() != 0:
        pytest.skip("plain execution runs under chroot, which needs root")
    on, _off = both
    assert on.headers is not None
    pairs = bench.load("cpp-hx")
    pairs += [(p, s.model_copy(update={"code": m, "sample_id": f"{s.sample_id}-m"}))
              for p, s in pairs for m in mutants(s.code, "cpp", 1)]  # fmt: skip
    for tag in ("a", "b"):  # each header asked for twice, then built
        on.verify([Job(p, s) for p, s in bench._variants(pairs, tag)])
    on.headers.settle()
    used = on.headers.used
    results = on.verify([Job(p, s) for p, s in pairs])
    assert on.headers.used - used >= len(pairs)
    tc = bench.toolchains()
    job = {"recipe": "cpp-nopch", "timeout_s": bench.PLAIN_TIMEOUT_S,
           "programs": [{"source": s.code + "\n" + p.tests[0].code, "inputs": [""]} for p, s in pairs]}  # fmt: skip
    plain = tc.run_chrooted(str(languages.default_root("cpp")), tc.with_server_source(job))
    plain_ok = [bench.plain_passed("cpp", r) for r in plain["programs"]]
    assert [r.accepted for r in results] == plain_ok, [
        (s.sample_id, r.verdict.value) for (p, s), r in zip(pairs, results, strict=True)
    ]
    assert any(plain_ok) and not all(plain_ok)


def test_a_header_never_seen_compiles_against_a_seed_with_the_same_verdicts(
    both: tuple[Verifier, Verifier],
) -> None:
    """A program whose leading includes were never asked for compiles with the largest
    seed they hold (``headers.SEEDS``, built once per build options), its text as written:
    the verdicts, and a compiler message's line, are the same as without any header."""
    on, _off = both
    assert on.headers is not None
    on.verify([Job(_stdio(), Sample(problem_id="sum", code="#include <vector>\nint main(){}\n"))])
    on.headers.settle()  # the seeds the first build asked for
    assert on.headers.seeded >= len(headers.SEEDS)
    problem = _problem()
    # includes in an order and a set no other test uses: no header of its own is built
    prefix = "#include <string>\n#include <climits>\n#include <vector>\n\nusing namespace std;\n"
    for name, (body, verdict) in PROGRAMS.items():
        seeded = on.headers.used_seed
        _judged_alike(both, problem, f"{prefix}{body}// never seen\n", verdict, 8)
        if name == "right":  # the first program of these includes: its builds read a seed
            assert on.headers.used_seed > seeded, name  # (a later one may read its own)
    # a test beside the program (a loop), whose build has options of its own: it reads the
    # seed of the program's own options, with the same verdicts
    loop = Problem.model_validate(
        {"id": "loop", "language": "cpp", "tests": [{"type": "assert", "code": ASSERT_TESTS[2]}]}
    )
    prefix = "#include <vector>\n#include <cfloat>\n#include <string>\nusing namespace std;\n"
    for name, (body, verdict) in PROGRAMS.items():
        seeded = on.headers.used_seed
        _judged_alike(both, loop, f"{prefix}{body}// beside, never seen\n", verdict, 7)
        assert on.headers.used_seed == seeded + 1, name
    # <bits/stdc++.h> after another header: the root's own precompiled one
    code = "#include <assert.h>\n#include <bits/stdc++.h>\nusing namespace std;\n" + (
        "int main(){ long long a, b; cin >> a >> b; cout << a + b << endl; }\n"
    )
    seeded = on.headers.used_seed
    assert on.verify([Job(_stdio(), Sample(problem_id="sum", code=code))])[0].accepted
    assert on.headers.used_seed == seeded + 1
