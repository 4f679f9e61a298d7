"""Wire schemas shared by the CLI, the gateway, the workers and the trainer.

This module owns the formats of ``shared/CONTRACT.md``: problems and their tests,
samples, results and verdicts. It imports nothing heavier than pydantic, so any
process may import it cheaply (a test checks that neither torch nor docker loads).
"""

from __future__ import annotations

import enum
import sys
import threading
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

DEFAULT_TIME_S = 6.0
DEFAULT_MEMORY_MB = 512
# CPython 3.11's AST constructor keeps a recursion-depth counter that concurrent parses can
# corrupt ("SystemError: AST constructor recursion depth mismatch"); host-side parsing and
# compiling of programs, tests and checkers goes through this lock.
PARSE_LOCK = threading.Lock()
MAX_INT_DIGITS = 100_000
"""Decimal digits an integer in a problem or result may have (CPython 3.11 refuses 4,300)."""


def allow_big_ints() -> None:
    """Let this process read and write integers of up to ``MAX_INT_DIGITS`` digits.

    Test data holds integers past CPython's default limit of 4,300 digits (``2 ** 20000``);
    program values cross the sandbox in hex, which no limit applies to. The bound stays
    finite because str <-> int conversion is quadratic: 100,000 digits cost about 0.5 s.
    """
    if 0 < sys.get_int_max_str_digits() < MAX_INT_DIGITS:
        sys.set_int_max_str_digits(MAX_INT_DIGITS)


class Verdict(str, enum.Enum):
    """Outcome of one test or, for a result, of its first failing test."""

    accepted = "accepted"
    wrong_answer = "wrong_answer"
    runtime_error = "runtime_error"
    timeout = "timeout"
    memory_limit = "memory_limit"
    output_limit = "output_limit"
    syntax_error = "syntax_error"
    compile_error = "compile_error"
    """The program (with its test code, for an assert test) did not compile; languages
    other than Python only. Paid like every other failure."""
    no_code = "no_code"
    sandbox_error = "sandbox_error"
    skipped = "skipped"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class StdioTest(_Model):
    """The program reads ``input`` on stdin; it passes when stdout matches ``output``."""

    type: Literal["stdio"] = "stdio"
    input: str = Field("", description="Text fed to the program's standard input.")
    output: str = Field(
        description="Expected standard output, compared by the problem's comparator."
    )


class CallTest(_Model):
    """Call ``fn_name(*args)`` (or ``class_name().fn_name(*args)``) and compare the return value."""

    type: Literal["call"] = "call"
    fn_name: str = Field(description="Function (or method) the program must define.")
    args: list[Any] = Field(
        default_factory=list, description="Positional arguments, as JSON values."
    )
    output: Any = Field(description="Expected return value as plain JSON; tuples compare as lists.")
    class_name: str | None = Field(
        None,
        description="LeetCode style: instantiate this class with no arguments and call the method.",
    )


class AssertTest(_Model):
    """Python code run after the program in the same module namespace; passes when it completes."""

    type: Literal["assert"] = "assert"
    code: str = Field(
        description="Assertion code, e.g. MBPP's assert lines or HumanEval's check()."
    )


Test = Annotated[StdioTest | CallTest | AssertTest, Field(discriminator="type")]


class Limits(_Model):
    """Per-test resource limits."""

    time_s: float = Field(DEFAULT_TIME_S, gt=0, le=300, description="Wall-clock seconds per test.")
    memory_mb: int = Field(
        DEFAULT_MEMORY_MB, ge=16, le=16384, description="Address-space limit per test, MiB."
    )


COMPARATORS_DOC = "'lcb' (default, LiveCodeBench's rules), 'exact', 'tokens' or 'float:<tol>'."


class Checker(_Model):
    """A problem's special judge (testlib's convention): it decides every stdio test.

    Run as ``checker INPUT OUTPUT ANSWER`` (the test's input, the candidate's stdout, the
    test's ``output``) in a cell of its own language that never holds candidate code; exit
    status 0 accepts. ``reward_api.verify.checkers`` documents the verdict of every status."""

    language: str = Field(
        description="Language of the checker: any language a problem may name (python, c, "
        "cpp with testlib.h, java, javascript, typescript, go, rust)."
    )
    code: str = Field(min_length=1, description="The checker's whole program.")

    @field_validator("language")
    @classmethod
    def _known_language(cls, v: str) -> str:
        name = canonical_language(v)
        if name is None:
            raise ValueError(
                f"unsupported checker language {v!r}; supported: {sorted(SUPPORTED_LANGUAGES)}"
            )
        return name

    @model_validator(mode="after")
    def _python_compiles(self) -> Checker:
        # a Python checker that does not parse is refused as bad input at once; a compiled
        # one is built in its sandbox at first use (a build error is then the problem's)
        if self.language in ("python", "python3"):
            try:
                with PARSE_LOCK:
                    compile(self.code, "checker.py", "exec", dont_inherit=True)
            except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError) as exc:
                line = getattr(exc, "lineno", None)
                where = f" (line {line})" if line else ""
                raise ValueError(f"the python checker does not compile{where}: {exc}") from None
        return self


class Problem(BaseModel):
    """A problem: tests, optional prompt and reference, limits. Unknown fields are kept."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1, description="Unique within a problem set.")
    language: str = Field("python", description="Language the candidate program is written in.")
    prompt: str | None = Field(None, description="The task statement given to the model.")
    tests: list[Test] = Field(
        min_length=1, description="Unit tests; see the contract for the three types."
    )
    reference: str | None = Field(None, description="A known-correct full program.")
    limits: Limits = Field(default_factory=Limits, description="Per-test time and memory limits.")
    compare: str = Field("lcb", description="Stdout comparator: " + COMPARATORS_DOC)
    setup_code: str | None = Field(
        None,
        description="Trusted code the test may use (imports, helpers such as HumanEval's poly, "
        "classes such as ListNode); it is the problem's, never the program's.",
    )
    checker: Checker | None = Field(
        None,
        description="A special judge for the stdio tests (many valid answers): "
        '{"language": ..., "code": ...}, run as `checker INPUT OUTPUT ANSWER` outside the '
        "candidate's cell; exit 0 accepts. With a checker, `compare` is not used.",
    )
    entry_points: list[str] | None = Field(
        None,
        description="The names a test may take from the program (HumanEval's entry_point, "
        "LeetCode's Solution). When absent: the names the test uses without defining or "
        "importing them, builtins excluded, and the top-level names of the reference.",
    )
    difficulty: str | None = Field(None, description="Free-form difficulty label, carried through.")
    source: str | None = Field(None, description="Where the problem comes from, carried through.")
    metadata: dict[str, Any] | None = Field(None, description="Free-form, carried through.")

    @field_validator("language")
    @classmethod
    def _known_language(cls, v: str) -> str:
        name = canonical_language(v)
        if name is None:
            raise ValueError(
                f"unsupported language {v!r}; supported: {sorted(SUPPORTED_LANGUAGES)} "
                f"(or one of their other names: {sorted(set(LANGUAGE_ALIASES) - SUPPORTED_LANGUAGES)})"
            )
        return name

    @field_validator("compare")
    @classmethod
    def _known_comparator(cls, v: str) -> str:
        if v in ("lcb", "exact", "tokens"):
            return v
        if v.startswith("float:"):
            try:
                tol = float(v.split(":", 1)[1])
            except ValueError:
                raise ValueError(f"bad float tolerance in {v!r}") from None
            if not tol >= 0:
                raise ValueError(f"float tolerance must be >= 0 in {v!r}")
            return v
        raise ValueError(f"unknown comparator {v!r}; use {COMPARATORS_DOC}")


SUPPORTED_LANGUAGES = frozenset(
    {"python", "python3", "c", "cpp", "java", "javascript", "typescript", "go", "rust"}
)
"""The languages a problem may name, as the contract spells them."""
LANGUAGE_ALIASES = {
    **{name: name for name in SUPPORTED_LANGUAGES},
    # as datasets and SandboxFusion spell them (verl sends "cpp", "nodejs", "go", ...)
    "c++": "cpp",
    "cxx": "cpp",
    "js": "javascript",
    "node": "javascript",
    "nodejs": "javascript",
    "ts": "typescript",
    "golang": "go",
    "rs": "rust",
}


def canonical_language(name: str) -> str | None:
    """The contract's name of a language (``C++`` -> ``cpp``, ``nodejs`` -> ``javascript``);
    None when it is not one we judge."""
    return LANGUAGE_ALIASES.get(name.strip().lower()) if isinstance(name, str) else None


class Sample(_Model):
    """One candidate program for one problem."""

    model_config = ConfigDict(extra="ignore")

    problem_id: str = Field(min_length=1, description="Id of the problem this sample answers.")
    sample_id: str | None = Field(None, description="Optional id, copied to the result.")
    completion: str | None = Field(
        None,
        description="Model output; the program is its last fenced code block, else the whole text.",
    )
    code: str | None = Field(None, description="The program, taken verbatim.")

    @model_validator(mode="after")
    def _one_program(self) -> Sample:
        if self.completion is None and self.code is None:
            raise ValueError("a sample needs 'completion' or 'code'")
        return self


class TestResult(_Model):
    """Outcome of one test."""

    verdict: Verdict = Field(description="This test's verdict.")
    time_s: float = Field(0.0, description="Wall seconds the test ran in the sandbox.")
    detail: str | None = Field(
        None, description="Short reason (exception type, limit hit), never expected output."
    )


class Finding(_Model):
    rule_id: str = Field(description="Semgrep rule id.")
    category: str = Field(description="reward_hacking, security or quality.")
    severity: str = Field(description="ERROR, WARNING or INFO.")
    line: int = Field(description="1-based line in the extracted program.")
    message: str = Field(description="What the rule found.")


class StaticReport(_Model):
    findings: list[Finding] = Field(default_factory=list, description="Static-analysis findings.")
    score: float = Field(
        1.0,
        ge=0,
        le=1,
        description="Static score in [0, 1]; formula in reward_api.verify.static_analysis.",
    )


class Result(_Model):
    """The verdict and reward of one sample, in the order of the samples."""

    problem_id: str = Field(description="Copied from the sample.")
    sample_id: str | None = Field(None, description="Copied from the sample.")
    reward: float | None = Field(
        description="Reward; null when verdict is sandbox_error (drop the sample)."
    )
    accepted: bool = Field(description="Every test passed.")
    passed: int = Field(description="Tests passed.")
    total: int = Field(description="Tests run or skipped.")
    verdict: Verdict = Field(description="'accepted' or the first failing test's verdict.")
    tests: list[TestResult] = Field(default_factory=list, description="Per-test verdict and time.")
    static: StaticReport | None = Field(
        None, description="Static-analysis findings and score, when enabled."
    )
    reward_parts: dict[str, float] | None = Field(None, description="How the reward was composed.")
    cached: bool = Field(False, description="Served from the result cache.")
    error: str | None = Field(
        None, description="For sandbox_error: what failed in the infrastructure."
    )


PROBLEM_FAULT = "problem fault: "
"""How the ``error`` of a ``sandbox_error`` opens when the problem itself is broken (its
checker does not compile, or fails on a test's own answer): no retry can help, so the
drop-in endpoints answer 422 for it instead of asking to retry."""


def is_problem_fault(result: Result) -> bool:
    """Whether a result is a broken problem's ``sandbox_error`` (``PROBLEM_FAULT``)."""
    return result.verdict is Verdict.sandbox_error and (result.error or "").startswith(
        PROBLEM_FAULT
    )


def sandbox_error_result(
    problem_id: str, sample_id: str | None, error: str, total: int = 0
) -> Result:
    """An infrastructure failure reported for a sample: no reward, never a 0."""
    return Result(
        problem_id=problem_id,
        sample_id=sample_id,
        reward=None,
        accepted=False,
        passed=0,
        total=total,
        verdict=Verdict.sandbox_error,
        error=error[:500],
    )


class RewardSettings(_Model):
    """How a result's reward is composed; named presets live in ``reward_api.verify.scoring``.

    Any field left unset takes the preset's value.
    """

    preset: str = Field("default", description="Named preset: 'default', 'easy' or 'hard'.")
    mode: Literal["all_or_nothing", "fraction"] | None = Field(
        None, description="Execution reward: 1 only when all tests pass, or the pass rate."
    )
    max_tests: int | None = Field(
        None, ge=1, description="Run at most this many tests, longest inputs first (DeepCoder)."
    )
    stop_on_first_failure: bool | None = Field(
        None, description="Skip the remaining tests after a failure."
    )
    static_weight: float | None = Field(
        None, ge=0, le=1, description="Weight of the static-analysis score."
    )
    similarity_weight: float | None = Field(
        None, ge=0, le=1, description="Weight of similarity to the reference."
    )
    hack_gate: bool | None = Field(None, description="Reward 0 when a reward_hacking rule fires.")
    static: bool | None = Field(None, description="Run static analysis and report findings.")
