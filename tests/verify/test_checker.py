"""A problem's checker decides its stdio tests (reward_api.verify.checkers), in real sandboxes.

The checker runs as ``checker INPUT OUTPUT ANSWER`` in a checker cell of its own language;
its verdicts follow testlib's exit codes, a checker failure is attributed by a control run
on the test's own answer, and a broken checker is the problem's ``sandbox_error``.

Needs root, bwrap and the runtimes (``make runtime runtimes``), like tests/languages.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from reward_api.schemas import Problem, Sample, Verdict
from reward_api.verify import languages
from reward_api.verify.keys import problem_digest
from reward_api.verify.pipeline import Job, Verifier
from tests.conftest import run

# a + b: any two non-negative numbers with the right sum are an answer
SUM_CHECKER = """
import sys
a, b = map(int, open(sys.argv[1]).read().split())
out = open(sys.argv[2], encoding="utf-8", errors="replace").read().split()
if len(out) != 2 or not all(t.isdigit() and len(t) < 20 for t in out):
    sys.exit(2)
sys.exit(0 if int(out[0]) + int(out[1]) == a + b else 1)
"""
SUM_TESTLIB = r"""
#include "testlib.h"
int main(int argc, char* argv[]) {
  registerTestlibCmd(argc, argv);
  long long a = inf.readLong(), b = inf.readLong();
  long long x = ouf.readLong(0, 4000000000LL, "x"), y = ouf.readLong(0, 4000000000LL, "y");
  if (x + y != a + b) quitf(_wa, "the sum is %lld", x + y);
  quitf(_ok, "ok");
}
"""
TESTS = [{"type": "stdio", "input": "3 4\n", "output": "3 4\n"},
         {"type": "stdio", "input": "10 0\n", "output": "10 0\n"}]  # fmt: skip
SWAPPED = "a, b = map(int, input().split())\nprint(b, a)"
ALL_IN_FIRST = "a, b = map(int, input().split())\nprint(a + b, 0)"
OFF_BY_ONE = "a, b = map(int, input().split())\nprint(a + b + 1, 0)"


def _problem(checker: str, language: str = "python", **extra: object) -> dict:
    return {"tests": TESTS, "checker": {"language": language, "code": checker}, **extra}


def _has(language: str) -> bool:
    return (languages.default_root(language) / ".codereward-runtime").exists()


def _needs(language: str) -> None:
    if not _has(language):
        pytest.skip(f"no {language} runtime at {languages.default_root(language)}: make runtimes")


def _verdicts(verifier: Verifier, problem: dict, codes: list[str]) -> list[Verdict]:
    p = Problem.model_validate({"id": "c", **problem})
    jobs = [Job(p, Sample(problem_id="c", code=c)) for c in codes]
    return [r.verdict for r in verifier.verify(jobs)]


# ------------------------------------------------------------------ the schema
def test_an_unknown_checker_language_is_refused() -> None:
    with pytest.raises(ValidationError, match="unsupported checker language 'cobol'"):
        Problem.model_validate({"id": "x", "tests": TESTS,
                                "checker": {"language": "cobol", "code": "x"}})  # fmt: skip


def test_a_python_checker_that_does_not_parse_is_refused_at_once() -> None:
    with pytest.raises(ValidationError, match=r"python checker does not compile \(line 1\)"):
        Problem.model_validate(
            {"id": "x", "tests": TESTS, "checker": {"language": "python", "code": "def ("}}
        )


def test_a_checker_needs_code_and_a_known_shape() -> None:
    with pytest.raises(ValidationError, match="code"):
        Problem.model_validate({"id": "x", "tests": TESTS, "checker": {"language": "cpp"}})
    with pytest.raises(ValidationError, match="extra"):
        Problem.model_validate({"id": "x", "tests": TESTS,
                                "checker": {"language": "cpp", "code": "x", "args": []}})  # fmt: skip


def test_checker_language_names_are_normalised() -> None:
    p = Problem.model_validate(_problem(SUM_TESTLIB, "C++", id="x"))
    assert p.checker is not None and p.checker.language == "cpp"


def test_the_checker_is_part_of_the_result_key() -> None:
    a = Problem.model_validate(_problem(SUM_CHECKER, id="x"))
    b = Problem.model_validate(_problem(SUM_CHECKER + "\n# another checker\n", id="x"))
    plain = Problem.model_validate({"id": "x", "tests": TESTS})
    assert len({problem_digest(a), problem_digest(b), problem_digest(plain)}) == 3


# ------------------------------------------------------------------ verdicts
def test_a_python_checker_accepts_every_valid_answer_and_rejects_the_rest(
    verifier: Verifier,
) -> None:
    verdicts = _verdicts(verifier, _problem(SUM_CHECKER),
                         [SWAPPED, ALL_IN_FIRST, OFF_BY_ONE, "print('seven')"])  # fmt: skip
    assert verdicts == [Verdict.accepted, Verdict.accepted, Verdict.wrong_answer,
                        Verdict.wrong_answer]  # fmt: skip
    # without the checker, the comparator accepts only the one printed answer
    plain = _verdicts(verifier, {"tests": TESTS}, [SWAPPED, ALL_IN_FIRST])
    assert plain == [Verdict.wrong_answer, Verdict.wrong_answer]


def test_a_rejection_names_testlibs_verdict_and_not_the_answer(verifier: Verifier) -> None:
    r = run(verifier, _problem(SUM_CHECKER), OFF_BY_ONE)
    assert r.tests[0].verdict == Verdict.wrong_answer
    assert r.tests[0].detail == "the checker rejected the output (wrong answer)"
    pe = run(verifier, _problem(SUM_CHECKER), "print('x y z')")
    assert pe.tests[0].detail == "the checker rejected the output (presentation error)"


def test_a_cpp_testlib_checker_decides(verifier: Verifier) -> None:
    _needs("cpp")
    verdicts = _verdicts(verifier, _problem(SUM_TESTLIB, "cpp"),
                         [SWAPPED, ALL_IN_FIRST, OFF_BY_ONE, "print(7)", "print(-1, 8)"])  # fmt: skip
    # unexpected end of file (8) and a range on the output (1) are wrong answers too
    assert verdicts == [Verdict.accepted, Verdict.accepted] + [Verdict.wrong_answer] * 3


def test_a_compiled_candidate_is_checked_too(verifier: Verifier) -> None:
    _needs("cpp")
    cpp = (
        '#include <cstdio>\nint main() { long long a, b; scanf("%lld %lld", &a, &b);'
        ' printf("%lld 0\\n", a + b); }\n'
    )
    wrong = cpp.replace("a + b", "a + b + 1")
    problem = {**_problem(SUM_CHECKER), "language": "cpp"}
    assert _verdicts(verifier, problem, [cpp, wrong]) == [Verdict.accepted, Verdict.wrong_answer]


def test_a_program_that_fails_is_not_checked(verifier: Verifier) -> None:
    checks = verifier.checkers.checks_run
    problem = _problem(SUM_CHECKER, limits={"time_s": 1})
    assert run(verifier, problem, "import sys; print(3, 4); sys.exit(3)").verdict == (
        Verdict.runtime_error
    )
    assert run(verifier, problem, "print(3, 4)\nwhile True: pass").verdict == Verdict.timeout
    assert verifier.checkers.checks_run == checks


def test_a_sample_is_checked_in_one_request_and_the_checker_compiled_once(
    verifier: Verifier,
) -> None:
    _needs("cpp")
    tests = [{"type": "stdio", "input": f"{i} {i}\n", "output": f"{i} {i}\n"} for i in range(20)]
    problem = {"tests": tests, "checker": {"language": "cpp",
                                           "code": SUM_TESTLIB + "// twenty tests\n"}}  # fmt: skip
    before = (verifier.checkers.requests, verifier.checkers.compiles)
    assert _verdicts(verifier, problem, [ALL_IN_FIRST, SWAPPED]) == [Verdict.accepted] * 2
    requests, compiles = verifier.checkers.requests, verifier.checkers.compiles
    assert (requests - before[0], compiles - before[1]) == (2, 1)


def test_stop_on_first_failure_skips_the_checks_after_a_rejection(verifier: Verifier) -> None:
    problem = {"tests": [TESTS[0], TESTS[1], {"type": "stdio", "input": "9 9\n", "output": "9 9"}],
               "checker": {"language": "python", "code": SUM_CHECKER}}  # fmt: skip
    wrong_first = "a, b = map(int, input().split())\nprint(a + b + (a == 3), 0)"
    r = run(verifier, problem, wrong_first, stop_on_first_failure=True)
    assert [t.verdict for t in r.tests] == [Verdict.wrong_answer, Verdict.skipped, Verdict.skipped]


# ------------------------------------------------------------------ checker failures
# fails on outputs that hold "boom", in the way named by the problem's metadata
FRAGILE = """
import os, signal, sys, time
out = open(sys.argv[2], "rb").read()
if b"boom" in out:
    how = "{how}"
    if how == "segv":
        os.kill(os.getpid(), signal.SIGSEGV)
    if how == "hang":
        while True:
            pass
    if how == "raise":
        raise KeyError("boom")
    if how == "exit3":
        sys.exit(3)
    if how == "spam":
        while True:
            sys.stdout.write("x" * 65536)
sys.exit(0 if out.split() == open(sys.argv[3], "rb").read().split() else 1)
"""


@pytest.mark.parametrize("how", ["segv", "raise", "exit3", "spam", "hang"])
def test_a_checker_that_fails_on_a_candidates_output_is_a_wrong_answer(
    verifier: Verifier, how: str
) -> None:
    problem = {"tests": TESTS, "checker": {"language": "python", "code": FRAGILE.format(how=how)}}
    honest = "print(input())"
    r, ok = verifier.verify([
        Job(Problem.model_validate({"id": "f", **problem}), Sample(problem_id="f", code=c))
        for c in ("print('boom')", honest)
    ])  # fmt: skip
    assert r.verdict == Verdict.wrong_answer and r.reward == 0.0
    assert r.tests[0].detail is not None
    assert r.tests[0].detail.startswith("the checker failed on this output")
    assert ok.verdict == Verdict.accepted  # the same checker, an honest neighbour


@pytest.mark.parametrize("how", ["segv", "exit3"])
def test_a_checker_that_fails_on_its_own_answer_is_the_problems_fault(
    verifier: Verifier, how: str
) -> None:
    tests = [{"type": "stdio", "input": "1 1\n", "output": "boom"}]
    problem = {"tests": tests, "checker": {"language": "python", "code": FRAGILE.format(how=how)}}
    r = run(verifier, problem, "print('boom')")
    assert r.verdict == Verdict.sandbox_error and r.reward is None
    assert r.error is not None and "fails on the answer of test 0" in r.error


def test_a_checker_that_does_not_compile_is_reported_with_the_compiler_message(
    verifier: Verifier,
) -> None:
    _needs("cpp")
    problem = _problem('#include "testlib.h"\nint main( {\n', "cpp")
    first = run(verifier, problem, SWAPPED)
    assert first.verdict == Verdict.sandbox_error and first.reward is None
    assert first.error is not None
    assert "checker does not compile" in first.error and "main.cpp:2" in first.error
    compiles = verifier.checkers.compiles
    again = run(verifier, problem, ALL_IN_FIRST)  # remembered: not compiled again
    assert again.verdict == Verdict.sandbox_error and verifier.checkers.compiles == compiles


# ------------------------------------------------------------------ hostile outputs, trust
EXACT_BYTES = """
import sys
want = {"1": b"a\\x00b\\xff\\n", "2": b"\\x00" * 1000}[open(sys.argv[1]).read().strip()]
got = open(sys.argv[2], "rb").read()
sys.exit(0 if got == want else 1)
"""


def test_nul_bytes_reach_the_checker_intact(verifier: Verifier) -> None:
    problem = {"tests": [{"type": "stdio", "input": "2\n", "output": ""}],
               "checker": {"language": "python", "code": EXACT_BYTES}}  # fmt: skip
    nul = "import sys; sys.stdout.buffer.write(b'\\x00' * 1000)"
    assert _verdicts(verifier, problem, [nul]) == [Verdict.accepted]


def test_invalid_utf8_reaches_the_checker_as_the_replacement_character(
    verifier: Verifier,
) -> None:
    problem = {"tests": [{"type": "stdio", "input": "1\n", "output": ""}],
               "checker": {"language": "python", "code": EXACT_BYTES}}  # fmt: skip
    raw = "import sys; sys.stdout.buffer.write(b'a\\x00b\\xff\\n')"
    # the candidate's stdout is read as UTF-8 with replacement (as for the comparator)
    assert _verdicts(verifier, problem, [raw]) == [Verdict.wrong_answer]


@pytest.mark.parametrize(
    "code",
    [
        "import sys; sys.stdout.buffer.write(bytes(range(256)) * 4096)",  # binary, 1 MiB
        "print('9' * (8 << 20))",  # one huge token
        "print('\\n'.join(['1'] * 2_000_000))",  # millions of lines
        "import sys; sys.stdout.buffer.write(b'\\x00' * (6 << 20))",  # NUL bytes, 6 MiB
    ],
)
def test_a_hostile_output_is_a_wrong_answer_and_spoils_no_neighbour(
    verifier: Verifier, code: str
) -> None:
    for language in ("python", "cpp") if _has("cpp") else ("python",):
        checker = SUM_CHECKER if language == "python" else SUM_TESTLIB
        p = Problem.model_validate({"id": "h", **_problem(checker, language)})
        bad, good = verifier.verify([Job(p, Sample(problem_id="h", code=c))
                                     for c in (code, SWAPPED)])  # fmt: skip
        assert bad.verdict == Verdict.wrong_answer, (language, bad)
        assert good.verdict == Verdict.accepted, language


# the checker accepts only when nothing of the candidate's is in its cell
ISOLATED = """
import os, sys
mark = "".join(["pl", "anted"])  # not the literal word: this file is in the checker's folder
found = []
for top in ("/tmp", os.getcwd(), "/dev/shm"):
    for folder, _dirs, files in os.walk(top):
        found += [os.path.join(folder, f) for f in files]
left = [f for f in found if mark in f or mark.encode() in open(f, "rb").read()]
mine = sorted(os.path.basename(f) for f in os.listdir("."))
ok = not left and "input.txt" in mine and "answer.txt" in mine and "output.txt" in mine
sys.exit(0 if ok and open(sys.argv[2]).read().split() == ["ok"] else 1)
"""
PLANTER = """
import os
for d in ("/tmp", "/dev/shm", os.getcwd()):
    try:
        with open(os.path.join(d, "planted"), "w") as f:
            f.write("planted")
        with open(os.path.join(d, "output.txt"), "w") as f:
            f.write("planted")
    except OSError:
        pass
print("ok")
"""


def test_the_checker_runs_in_a_cell_that_holds_nothing_of_the_candidate(
    verifier: Verifier,
) -> None:
    problem = {"tests": [{"type": "stdio", "input": "", "output": "ok"}] * 3,
               "checker": {"language": "python", "code": ISOLATED}}  # fmt: skip
    assert _verdicts(verifier, problem, [PLANTER, PLANTER + "\n# again"]) == [Verdict.accepted] * 2
    assert verifier.checker_pool("python") is not verifier.pool
    assert verifier.checker_pool("python") is not verifier.judges


def test_a_checker_in_a_compiled_language_gets_its_own_pool(verifier: Verifier) -> None:
    _needs("cpp")
    assert verifier.checker_pool("cpp") is not verifier.language_pool("cpp")


# the a + b checker in every other language a checker may be written in
SUM_IN = {
    "c": r"""
#include <stdio.h>
int main(int argc, char **argv) {
  FILE *in = fopen(argv[1], "r"), *out = fopen(argv[2], "r");
  long long a, b, x, y; char more[2];
  if (!in || !out || fscanf(in, "%lld %lld", &a, &b) != 2) return 3;
  if (fscanf(out, "%lld %lld", &x, &y) != 2 || fscanf(out, "%1s", more) == 1) return 2;
  return x >= 0 && y >= 0 && x + y == a + b ? 0 : 1;
}
""",
    "java": """
import java.nio.file.*;
public class Check {
  public static void main(String[] args) throws Exception {
    String[] in = new String(Files.readAllBytes(Paths.get(args[0]))).trim().split("\\\\s+");
    String[] out = new String(Files.readAllBytes(Paths.get(args[1]))).trim().split("\\\\s+");
    if (out.length != 2) System.exit(2);
    long x, y;
    try { x = Long.parseLong(out[0]); y = Long.parseLong(out[1]); }
    catch (NumberFormatException e) { System.exit(2); return; }
    long want = Long.parseLong(in[0]) + Long.parseLong(in[1]);
    System.exit(x >= 0 && y >= 0 && x + y == want ? 0 : 1);
  }
}
""",
    "javascript": """
const fs = require("fs");
const [i, o] = process.argv.slice(2, 4).map((p) => fs.readFileSync(p, "utf8").trim().split(/\\s+/));
if (o.length !== 2 || !o.every((t) => /^\\d{1,15}$/.test(t))) process.exit(2);
process.exit(Number(o[0]) + Number(o[1]) === Number(i[0]) + Number(i[1]) ? 0 : 1);
""",
    "typescript": """
import * as fs from "fs";
const read = (p: string): string[] => fs.readFileSync(p, "utf8").trim().split(/\\s+/);
const i: string[] = read(process.argv[2]);
const o: string[] = read(process.argv[3]);
if (o.length !== 2 || !o.every((t: string) => /^\\d{1,15}$/.test(t))) process.exit(2);
process.exit(Number(o[0]) + Number(o[1]) === Number(i[0]) + Number(i[1]) ? 0 : 1);
""",
    "go": """
package main

import (
	"os"
	"strconv"
	"strings"
)

func main() {
	in, _ := os.ReadFile(os.Args[1])
	out, _ := os.ReadFile(os.Args[2])
	a, o := strings.Fields(string(in)), strings.Fields(string(out))
	if len(o) != 2 {
		os.Exit(2)
	}
	x, e1 := strconv.ParseInt(o[0], 10, 64)
	y, e2 := strconv.ParseInt(o[1], 10, 64)
	if e1 != nil || e2 != nil || x < 0 || y < 0 {
		os.Exit(2)
	}
	p, _ := strconv.ParseInt(a[0], 10, 64)
	q, _ := strconv.ParseInt(a[1], 10, 64)
	if x+y == p+q {
		os.Exit(0)
	}
	os.Exit(1)
}
""",
    "rust": """
use std::process::exit;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let input = std::fs::read_to_string(&args[1]).unwrap();
    let output = String::from_utf8_lossy(&std::fs::read(&args[2]).unwrap()).to_string();
    let i: Vec<i64> = input.split_whitespace().map(|t| t.parse().unwrap()).collect();
    let o: Vec<&str> = output.split_whitespace().collect();
    if o.len() != 2 { exit(2) }
    let x: i64 = match o[0].parse() { Ok(v) => v, Err(_) => exit(2) };
    let y: i64 = match o[1].parse() { Ok(v) => v, Err(_) => exit(2) };
    exit(if x >= 0 && y >= 0 && x + y == i[0] + i[1] { 0 } else { 1 })
}
""",
}


@pytest.mark.parametrize("language", sorted(SUM_IN))
def test_a_checker_in_any_compiled_language_decides(verifier: Verifier, language: str) -> None:
    _needs(language)
    verdicts = _verdicts(verifier, _problem(SUM_IN[language], language),
                         [SWAPPED, ALL_IN_FIRST, OFF_BY_ONE, "print('seven eight')"])  # fmt: skip
    assert verdicts == [Verdict.accepted, Verdict.accepted, Verdict.wrong_answer,
                        Verdict.wrong_answer]  # fmt: skip


def test_a_candidate_that_submits_the_checkers_source_never_shares_its_artifact(
    verifier: Verifier,
) -> None:
    _needs("cpp")
    source = SUM_TESTLIB + "// a candidate's copy\n"
    as_candidate = {"language": "cpp", "tests": TESTS}
    run(verifier, as_candidate, source)  # compiled in a candidate cell, artifact cached
    compiles = verifier.checkers.compiles
    assert run(verifier, _problem(source, "cpp"), SWAPPED).verdict == Verdict.accepted
    assert verifier.checkers.compiles == compiles + 1  # built again, in a checker cell
