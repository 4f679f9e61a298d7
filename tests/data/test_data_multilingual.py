"""MultiPL-E and HumanEval-X records become problems in their language with one assert test.

The fixtures (tests/data/fixtures/multipl_e.jsonl, humaneval_x.jsonl) are small records in
each source's real format, written for these tests: C++, Java, JavaScript, TypeScript, Go
and Rust, plus a record of a language we do not judge. Through the real verifier, every
HumanEval-X reference and a correct MultiPL-E completion per language pass, and a wrong
program fails every problem.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reward_api.data.converters import convert
from reward_api.data.converters.humaneval_x import (
    GO_HEADER,
    humaneval_x_problem,
    humaneval_x_sample,
)
from reward_api.data.converters.multipl_e import (
    COMPLETION_SUFFIX,
    multipl_e_problem,
    multipl_e_sample,
)
from reward_api.schemas import Problem, Sample
from reward_api.verify.pipeline import Job, Verifier

FIXTURES = Path(__file__).parent / "fixtures"

# a correct body for the MultiPL-E fixture's sum_squares, per language (no closing brace:
# MultiPL-E's completions stop before it)
SUM_SQUARES = {
    "cpp": "    long s = 0;\n    for (long x : lst) s += x * x;\n    return s;",
    "java": "        long s = 0;\n        for (long x : lst) s += x * x;\n        return s;",
    "javascript": "  return lst.reduce((a, x) => a + x * x, 0);",
    "typescript": "  return lst.reduce((a, x) => a + x * x, 0);",
    "go": "    s := 0\n    for _, x := range lst {\n        s += x * x\n    }\n    return s",
    "rust": "    lst.iter().map(|x| x * x).sum()",
}
# a wrong one: the plain sum (right on no fixture input but the empty list)
WRONG_SUM = {
    "cpp": "    long s = 0;\n    for (long x : lst) s += x;\n    return s;",
    "java": "        long s = 0;\n        for (long x : lst) s += x;\n        return s;",
    "javascript": "  return lst.reduce((a, x) => a + x, 0);",
    "typescript": "  return lst.reduce((a, x) => a + x, 0);",
    "go": "    s := 0\n    for _, x := range lst {\n        s += x\n    }\n    return s",
    "rust": "    lst.iter().sum()",
}
# a wrong whole program per HumanEval-X problem: the signature from the prompt, a
# constant body
WRONG_BODY = {"cpp": "    return {};\n}\n", "java": "        return null;\n    }\n}\n",
              "javascript": "  return 0;\n}\n", "go": "    var zero %s\n    return zero\n}\n",
              "rust": "    return Default::default();\n}\n"}  # fmt: skip


def _convert(fmt: str) -> tuple[dict[str, Problem], list[Sample], dict]:
    problems, samples, report = convert(fmt, FIXTURES / f"{fmt}.jsonl")
    return {p.id: p for p in problems}, samples, report


def test_humaneval_x_converts_every_judged_language_and_skips_python() -> None:
    problems, samples, report = _convert("humaneval_x")
    assert sorted({p.language for p in problems.values()}) == [
        "cpp", "go", "java", "javascript", "rust"
    ]  # fmt: skip
    assert report["problems"] == 10 and report["samples"] == 10
    assert report["skipped"] == [{"id": "Python/9001", "reason": "python_use_humaneval"}]
    assert report["counts"]["language:go"] == 2
    assert all(s.sample_id == "reference" for s in samples)


def test_humaneval_x_go_prompt_gets_the_test_package_and_imports() -> None:
    rec = {"task_id": "Go/1", "prompt": 'import (\n    "strings"\n)\n\nfunc F() int {\n',
           "canonical_solution": "    return len(strings.Fields(\"a\"))\n}\n",
           "test": "func TestF(t *testing.T) {\n    assert.Equal(t, 1, F())\n}\n"}  # fmt: skip
    p = humaneval_x_problem(rec)
    assert p.prompt is not None and p.prompt.startswith(GO_HEADER.rstrip("\n"))
    # the program imports what the completion uses, once (the prompt's block is dropped)
    assert (p.reference or "").startswith(GO_HEADER)
    assert (p.reference or "").endswith("func F() int {\n" + rec["canonical_solution"])
    assert (p.reference or "").count('"strings"') == 1
    assert p.tests[0].code == rec["test"]


def test_humaneval_x_cpp_entry_point_is_the_prompts_function() -> None:
    # the test calls it; CPP/23's is ``strlen``, a library name, which the verifier's
    # check of what the program defines lets through for the entry point only
    problems, _, _ = _convert("humaneval_x")
    assert problems["humaneval-x/CPP/9001"].entry_points == ["sum_squares"]
    assert problems["humaneval-x/CPP/9002"].entry_points == ["is_palindrome"]
    assert problems["humaneval-x/Rust/9001"].entry_points is None


def test_humaneval_x_go_program_imports_what_the_completion_uses_as_the_harness_does() -> None:
    # CodeGeeX's harness drops the prompt's import block and imports each package the
    # completion uses that the test's setup does not: Go rejects an unused import (Go/27:
    # "strings" imported, the canonical solution never uses it; the fixture's Go/9001
    # likewise) and a repeated one (Go/32: the setup imports "math" too)
    rec = {"task_id": "Go/32", "import": 'import (\n    "math"\n    "strings"\n)\n',
           "prompt": 'import (\n    "math"\n    "strings"\n)\n\nfunc F(x float64) float64 {\n',
           "test_setup": 'package main\n\nimport (\n    "testing"\n    "math"\n'
                         '    "github.com/stretchr/testify/assert"\n)\n',
           "canonical_solution": "    return math.Sqrt(x) + float64(len(fmt.Sprint(x)))\n}\n",
           "test": "func TestF(t *testing.T) {\n    assert.Equal(t, 2.0, F(4))\n}\n"}  # fmt: skip
    p = humaneval_x_problem(rec)
    assert p.prompt is not None and rec["prompt"] in p.prompt  # what the model is shown
    ref = p.reference or ""
    assert ref.startswith(rec["test_setup"]) and ref.endswith(rec["canonical_solution"])
    assert ref.count('"math"') == 1 and '"strings"' not in ref
    assert 'import (\n    "fmt"\n)\n' in ref
    assert humaneval_x_sample(p, rec["canonical_solution"]).code == ref
    # Go/17: no import block at all, and the canonical solution uses strings
    bare = {**rec, "import": "", "prompt": "func F(s string) int {\n",
            "canonical_solution": "    return len(strings.Fields(s))\n}\n"}  # fmt: skip
    ref = humaneval_x_problem(bare).reference or ""
    assert 'import (\n    "strings"\n)\n' in ref and ref.startswith(rec["test_setup"])


def test_humaneval_x_rust_prompt_gets_the_declaration_uses_without_missing_crates() -> None:
    problems, _, report = _convert("humaneval_x")
    prompt = problems["humaneval-x/Rust/9001"].prompt or ""
    assert "use std::{slice::Iter" in prompt and "HashMap" in prompt
    assert "rand" not in prompt and "regex" not in prompt and "md5" not in prompt
    assert report["counts"]["rust_crate_uses_dropped"] == 6


def test_humaneval_x_rust_prompt_of_the_published_shape_gets_the_declaration() -> None:
    # CodeGeeX's published Rust prompt is the doc comment alone (Rust/9002 in the
    # fixture): the signature is only in the declaration, and the harness builds
    # declaration + prompt + completion; a program without it never compiled
    problems, _, _ = _convert("humaneval_x")
    prompt = problems["humaneval-x/Rust/9002"].prompt or ""
    assert prompt.index("use std::{slice::Iter") < prompt.index("fn largest(v: Vec<i32>)")
    assert prompt.index("fn largest(v: Vec<i32>)") < prompt.index("Return the largest element")
    assert "use rand" not in prompt and "regex" not in prompt and "md5" not in prompt
    assert prompt.count("fn largest") == 1


def test_multipl_e_moves_the_closing_brace_from_the_test_to_the_program() -> None:
    rec = {"name": "HumanEval_1_f", "language": "cpp", "prompt": "long f(long x) {\n",
           "tests": "}\nint main() {\n    assert(f(1) == 2);\n}\n", "stop_tokens": ["\n}"]}  # fmt: skip
    p = multipl_e_problem(rec)
    assert p.id == "multipl-e/cpp/HumanEval_1_f" and p.reference is None
    assert p.tests[0].code == "int main() {\n    assert(f(1) == 2);\n}\n"
    s = multipl_e_sample(p, "    return 2 * x;", "0")
    assert s.code == "long f(long x) {\n    return 2 * x;" + COMPLETION_SUFFIX
    assert p.metadata is not None and p.metadata["completion_suffix"] == COMPLETION_SUFFIX


def test_multipl_e_java_gets_a_main_class_and_loses_the_javatuples_import() -> None:
    problems, _, report = _convert("multipl_e")
    p = problems["multipl-e/java/HumanEval_9001_sum_squares"]
    assert "org.javatuples" not in (p.prompt or "")
    assert "class Main {" in p.tests[0].code and "Problem.main(args);" in p.tests[0].code
    assert report["counts"]["javatuples_import_dropped"] == 1


def test_multipl_e_rust_main_becomes_a_test_function() -> None:
    problems, _, _ = _convert("multipl_e")
    code = problems["multipl-e/rust/HumanEval_9001_sum_squares"].tests[0].code
    assert "#[test]\nfn multipl_e_tests()" in code and "fn main" not in code


def test_multipl_e_reads_go_test_go_as_go_and_skips_unjudged_languages() -> None:
    problems, samples, report = _convert("multipl_e")
    assert "multipl-e/go/HumanEval_9001_sum_squares" in problems
    assert report["records"] == 8 and report["problems"] == 7 and samples == []
    assert report["skipped"] == [
        {"id": "HumanEval_9001_sum_squares", "reason": "unsupported_language"}
    ]


@pytest.fixture(scope="module")
def verdicts(verifier: Verifier) -> dict[tuple[str, str], tuple[bool, str]]:
    """(problem id, kind) -> (accepted, verdict) for every fixture problem: its reference
    or correct completion (``right``) and a wrong program (``wrong``)."""
    jobs: list[tuple[str, Job]] = []
    hx, references, _ = _convert("humaneval_x")
    for s in references:
        jobs.append(("right", Job(hx[s.problem_id], s)))
    for p in hx.values():
        body = WRONG_BODY[p.language]
        if p.language == "go":
            body = body % ("int" if "Hypotenuse" in (p.prompt or "") else "string")
        jobs.append(("wrong", Job(p, Sample(problem_id=p.id, code=(p.prompt or "") + body))))
    me, _, _ = _convert("multipl_e")
    for p in me.values():
        even = "is_even" in p.id
        right = "    return n % 2 == 0;" if even else SUM_SQUARES[p.language]
        wrong = "    return n % 2 == 1;" if even else WRONG_SUM[p.language]
        jobs.append(("right", Job(p, multipl_e_sample(p, right))))
        jobs.append(("wrong", Job(p, multipl_e_sample(p, wrong))))
    results = verifier.verify([job for _, job in jobs])
    return {
        (job.problem.id, kind): (r.accepted, r.verdict.value)
        for (kind, job), r in zip(jobs, results, strict=True)
    }


def test_every_humaneval_x_reference_passes_and_a_wrong_program_fails(verdicts) -> None:
    right = {
        pid: v for (pid, kind), v in verdicts.items() if kind == "right" and "humaneval-x" in pid
    }
    wrong = {
        pid: v for (pid, kind), v in verdicts.items() if kind == "wrong" and "humaneval-x" in pid
    }
    assert len(right) == len(wrong) == 10
    assert {pid: v for pid, v in right.items() if not v[0]} == {}
    assert {pid: v for pid, v in wrong.items() if v[0]} == {}


def test_every_multipl_e_problem_passes_a_right_completion_and_fails_a_wrong_one(verdicts) -> None:
    right = {
        pid: v for (pid, kind), v in verdicts.items() if kind == "right" and "multipl-e" in pid
    }
    wrong = {
        pid: v for (pid, kind), v in verdicts.items() if kind == "wrong" and "multipl-e" in pid
    }
    assert len(right) == len(wrong) == 7
    assert {pid: v for pid, v in right.items() if not v[0]} == {}
    assert {pid: v for pid, v in wrong.items() if v[0]} == {}
    # a wrong answer is a wrong answer, not a program that failed to build
    assert {v[1] for v in wrong.values()} == {"wrong_answer"}
