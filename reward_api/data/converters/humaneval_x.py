"""HumanEval-X (HumanEval in C++, Java, JavaScript, Go and Rust, from CodeGeeX) to problems.

Records: ``task_id`` (``CPP/0``, ``Java/0``, ``JavaScript/0``, ``Go/0``, ``Rust/0``;
``Python/0`` is HumanEval itself: use the ``humaneval`` format), ``prompt`` (includes or
imports, a doc comment and the signature), ``declaration`` (the same without the doc),
``canonical_solution`` (the body, closing brace included), ``test`` and ``example_test``
(the tests, and the prompt's examples as tests). The test is already the contract's
shape (CONTRACT.md, "Other languages"): a ``main`` with ``assert``s in C++, a ``public
class Main`` in Java, ``console.assert`` calls in JavaScript, ``func TestX(t *testing.T)``
with testify's ``assert`` in Go, ``#[cfg(test)] mod tests`` in Rust. One assert test per
problem, the record's ``test``; the reference is ``prompt + canonical_solution`` and a
sample is ``prompt + completion`` (``humaneval_x_sample``; Go: see below).
A helper the prompt defines and the test calls (``poly`` of /32, the encoders of /38 and
/50) is given to the test as its own copy, in ``setup_code``
(``prompt_helpers.trusted_helpers``): a program that redefines it changes only its own.
Where a port lost a check of the Python test (``ERRATA``: Java/32 and JavaScript/32), the
test has it back.

Per language: Go's prompt has no package clause and does not import what the test uses,
so the problem's prompt starts with the record's ``test_setup`` when it has one, else
``package main`` and the imports of ``testing`` and testify's ``assert`` (the header
CodeGeeX's harness adds); its programs (reference and samples, ``program``) are built as
that harness builds them: the setup, an import of each package the completion uses, then
the prompt without its own import block, which would leave a package unused or import it
twice. Rust's prompt in CodeGeeX's data is the doc comment alone: the
declaration holds the ``use`` lines (canonical solutions rely on them) and the signature,
and the harness builds ``declaration + prompt + completion``, so the problem's prompt is
the declaration then the prompt (a prompt that has its signature gets only the
declaration's ``use`` lines in front); crate ``use`` lines naming crates the verifier's
rustc does not have (``rand``, ``regex``, ``md5``) are dropped and counted, so a solution
that needs one fails to compile, as it would without the crate; a record whose test needs
one (Rust/38, /50, /53), or has no test function outside a comment (Rust/32), is skipped
with the reason (``rust_test_unjudgeable``).
"""

from __future__ import annotations

import re
from typing import Any

from reward_api.data.converters.conversion import Conversion
from reward_api.data.converters.prompt_helpers import trusted_helpers
from reward_api.schemas import AssertTest, Problem, Sample
from reward_api.verify.compiled_eq import rust_blank

LANGUAGES = {"CPP": "cpp", "C++": "cpp", "Java": "java", "JavaScript": "javascript",
             "JS": "javascript", "Go": "go", "Rust": "rust"}  # fmt: skip
"""task_id prefix -> the contract's language."""
GO_HEADER = (
    'package main\n\nimport (\n    "testing"\n\n    "github.com/stretchr/testify/assert"\n)\n'
)
"""What CodeGeeX's harness puts before a Go program: the test's package and imports."""
GO_PACKAGES = ("math", "strings", "fmt", "strconv", "time", "bytes", "regexp", "sort",
               "math/rand", "crypto/md5")  # fmt: skip
"""The packages CodeGeeX's harness imports for a Go completion that uses them."""
_GO_IMPORT = re.compile(r'^import[ \t]*(?:\([^)]*\)|"[^"\n]*")[ \t]*\n?', re.M)
_CPP_FUNCTION = re.compile(r"(\w+)\s*\([^;{}()]*\)\s*\{")
"""A C++ function definition's name; the prompt's last is the entry point, the function
the test calls (CPP/23's is ``strlen``: the library's name, the test's own function)."""
_RUST_FN = re.compile(r"^[ \t]*(pub[ \t]+)?fn[ \t]+\w+", re.M)
_MISSING_CRATES = ("rand", "regex", "md5")
"""Crates CodeGeeX's Rust harness links that the verifier's rustc does not have."""
_RUST_CRATE_USE = re.compile(
    rf"^[ \t]*use[ \t]+({'|'.join(_MISSING_CRATES)})\b[^;]*;[ \t]*\n?", re.M
)


ERRATA: dict[str, tuple[tuple[str, str], ...]] = {
    # HumanEval/32 hands find_zero a deep copy of the coefficients and checks poly's value
    # at its answer with ``< 1e-4``. The Java and JavaScript ports pass the test's own
    # list (a program that emptied it made any answer a root of the empty polynomial), and
    # Java's throws on ``> 1e-4``, which a NaN answer never is.
    "Java/32": (
        ("s.findZero(coeffs)", "s.findZero(new ArrayList<>(coeffs))"),
        ("if (Math.abs(s.poly(coeffs, solution)) > 1e-4) {",
         "if (!(Math.abs(s.poly(coeffs, solution)) < 1e-4)) {"),
    ),
    "JavaScript/32": (("let solution = findZero(coeffs);", "let solution = findZero([...coeffs]);"),),
}  # fmt: skip
"""Checks of HumanEval's Python tests that a port lost, restored in its test: ``(text,
replacement)`` pairs, each applied where the record's test holds the text."""


def errata(task_id: str, test: str) -> str:
    """The test of a record with its ``ERRATA`` restored."""
    for old, new in ERRATA.get(task_id, ()):
        test = test.replace(old, new)
    return test


def problem_id(task_id: str) -> str:
    return f"humaneval-x/{task_id}"


def language_of(task_id: str) -> str | None:
    """The language of a task id; None for Python and unknown prefixes."""
    return LANGUAGES.get(task_id.split("/", 1)[0])


def problem_prompt(language: str, rec: dict[str, Any]) -> tuple[str, int]:
    """The prompt a program starts with, and how many crate ``use`` lines were dropped."""
    prompt = str(rec["prompt"])
    if language == "go" and not re.search(r"^\s*package\s+\w+", prompt, re.M):
        prompt = (rec.get("test_setup") or GO_HEADER).rstrip("\n") + "\n\n" + prompt.lstrip("\n")
    dropped = 0
    if language == "rust":
        declaration = str(rec.get("declaration") or "")
        if not _RUST_FN.search(prompt) and _RUST_FN.search(declaration):
            # CodeGeeX's published prompt is the doc comment only; the declaration holds
            # the uses and the signature, and its harness builds declaration + prompt + code
            prompt = declaration + prompt
        elif not re.search(r"^\s*use\s", prompt, re.M):  # the uses are in the declaration only
            uses = re.findall(r"^[ \t]*use[ \t][^;]*;", declaration, re.M)
            prompt = "".join(u.strip() + "\n" for u in uses) + prompt
        prompt, dropped = _RUST_CRATE_USE.subn("", prompt)
    return prompt, dropped


def humaneval_x_problem(rec: dict[str, Any]) -> Problem:
    """The problem of one HumanEval-X record."""
    language = language_of(str(rec["task_id"]))
    if language is None:
        raise ValueError(f"{rec['task_id']}: not a HumanEval-X language we judge")
    prompt, _ = problem_prompt(language, rec)
    canonical = rec.get("canonical_solution")
    metadata: dict[str, Any] = {"task_id": rec["task_id"]}
    entry = [m.group(1) for m in _CPP_FUNCTION.finditer(prompt)][-1:] if language == "cpp" else []
    if language == "go":  # also with no import block (Go/17's completion uses strings)
        metadata["go_setup"] = str(rec.get("test_setup") or GO_HEADER)
        own = str(rec.get("import") or "")
        go_prompt = str(rec["prompt"]).replace(own, "") if own else str(rec["prompt"])
        metadata["go_prompt"] = _GO_IMPORT.sub("", go_prompt)  # a block the field misses
    # the prompt's helpers the test calls (HumanEval/32's poly) are the test's own copies
    setup, test = trusted_helpers(
        language, prompt, errata(str(rec["task_id"]), str(rec["test"])), entry
    )
    problem = Problem(
        id=problem_id(rec["task_id"]),
        language=language,
        prompt=prompt,
        tests=[AssertTest(code=test)],
        setup_code=setup or None,
        entry_points=entry or None,
        source="humaneval-x",
        metadata=metadata,
    )
    if canonical:
        problem.reference = program(problem, canonical)
    return problem


def program(problem: Problem, completion: str) -> str:
    """The whole program of a completion: ``prompt + completion``; Go as CodeGeeX's harness
    builds it: the test's setup, an import of each of ``GO_PACKAGES`` the completion uses
    (``pkg.``) that the setup does not import, then the prompt without its own import
    block (Go rejects an import left unused, and one the setup repeats)."""
    md = problem.metadata or {}
    if problem.language != "go" or "go_prompt" not in md:
        return (problem.prompt or "") + completion
    setup = md["go_setup"]
    used = [f'"{pkg}"' for pkg in GO_PACKAGES
            if f'"{pkg}"' not in setup and pkg.split("/")[-1] + "." in completion]  # fmt: skip
    imports = "import (\n" + "".join(f"    {u}\n" for u in used) + ")\n" if used else ""
    return setup + "\n" + imports + "\n" + md["go_prompt"] + completion


def humaneval_x_sample(problem: Problem, completion: str, sample_id: str | None = None) -> Sample:
    """A model's completion (the body after the prompt) as a sample of the whole program."""
    return Sample(problem_id=problem.id, sample_id=sample_id, code=program(problem, completion))


_RUST_TEST_ATTR = re.compile(r"#\s*\[\s*test\s*\]")
_RUST_CRATE_PATH = re.compile(rf"(?<![\w:])({'|'.join(_MISSING_CRATES)})\s*::")


def rust_test_unjudgeable(test: str) -> str | None:
    """Why a Rust record's test can judge no program, if it cannot: it has no ``#[test]``
    function outside its comments (Rust/32's is one comment: it would pass any program
    that compiles), or its code calls a crate the verifier's rustc does not have (Rust/38,
    /50 and /53 draw inputs with ``rand``: no program compiles against it)."""
    code = rust_blank(test)  # comments (nested too) and literals, as rustc lexes them
    if not _RUST_TEST_ATTR.search(code):
        return "no_tests: the record's test has no #[test] function outside its comments"
    crates = sorted(set(_RUST_CRATE_PATH.findall(code)))
    if crates:
        return f"test_needs_crate: the test uses {', '.join(crates)}, which the verifier's rustc does not have"
    return None


def convert_humaneval_x(records: list[dict[str, Any]], conv: Conversion) -> None:
    """Every record of a judged language; the canonical solution is the reference and
    the one sample."""
    for rec in records:
        task_id = str(rec.get("task_id"))
        language = language_of(task_id)
        if language is None:
            reason = (
                "python_use_humaneval" if task_id.startswith("Python/") else "unsupported_language"
            )
            conv.report.skip(task_id, reason)
            continue
        unjudgeable = (
            rust_test_unjudgeable(str(rec.get("test") or "")) if language == "rust" else None
        )
        if unjudgeable:
            conv.report.skip(task_id, unjudgeable)
            continue
        _, dropped = problem_prompt(language, rec)
        if dropped:
            conv.report.count("rust_crate_uses_dropped", dropped)
        conv.report.count(f"language:{language}")
        p = humaneval_x_problem(rec)
        conv.add(p, [p.reference] if p.reference else [])
