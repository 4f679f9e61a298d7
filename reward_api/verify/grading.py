"""Grading: what goes into the sandbox for each test, and verdicts from what comes back.

Trust rule (CONTRACT.md): an expected output never enters the sandbox, and a test passes
only on evidence that trusted code checks after the test ran:

- ``stdio``: the sandbox gets the input; the host compares stdout with the expected output.
  A non-zero exit status or death by signal is a failure, whatever was printed.
- ``call``: the sandbox gets the function name and arguments; the runner encodes the
  return value (exact builtin types only); the host compares it with the expected JSON
  (tuples as lists). No ``done`` record (an early exit of any kind) is a failure.
- ``assert``: lifted by ``reward_api.verify.lifting``; each executed assertion sends its lift-point
  values out; the host (literal comparisons) or the judge cell (everything else) decides.
  Every assertion that an honest run must reach has to report at least once.
"""

from __future__ import annotations

import functools
import json
import signal
from dataclasses import dataclass, field
from typing import Any

from reward_api.sandbox.runner import make_decoder
from reward_api.schemas import AssertTest, CallTest, Problem, StdioTest, TestResult, Verdict
from reward_api.verify.comparators import comparator
from reward_api.verify.lifting import Check, LiftedTest, NotLiftable, lift, program_shadows

_decode_plain = make_decoder({})


@dataclass
class PreparedTest:
    """One test as the sandbox sees it (``spec``) plus what the host keeps back."""

    index: int
    spec: dict[str, Any]
    lifted: LiftedTest | None = None


@functools.lru_cache(maxsize=8192)
def _lift_cached(code: str, setup: str | None, shadowed: frozenset[str]) -> LiftedTest | None:
    try:
        return lift(code, setup, shadowed)
    except (NotLiftable, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def prepare_tests(problem: Problem, indices: list[int], program: str) -> list[PreparedTest]:
    """Sandbox specs for the chosen tests, expected values stripped."""
    prepared = []
    shadowed: frozenset[str] | None = None
    for i in indices:
        test = problem.tests[i]
        if isinstance(test, StdioTest):
            prepared.append(PreparedTest(i, {"kind": "stdio", "input": test.input}))
        elif isinstance(test, CallTest):
            spec = {
                "kind": "call",
                "fn_name": test.fn_name,
                "class_name": test.class_name,
                "args": json.dumps(test.args),
            }
            prepared.append(PreparedTest(i, spec))
        else:
            if shadowed is None:
                shadowed = program_shadows(program)
            lifted = _lift_cached(test.code, problem.setup_code, shadowed)
            if lifted is None:  # unusual shape: run as written (documented in lifting.py)
                prepared.append(PreparedTest(i, {"kind": "assert", "code": test.code}))
            else:
                spec = {"kind": "lifted", "code": lifted.sandbox_code}
                prepared.append(PreparedTest(i, spec, lifted))
    return prepared


@dataclass
class JudgeRequest:
    """Checks of one sample that need the judge: (prepared test position, check, values)."""

    items: list[tuple[int, Check, list[Any]]] = field(default_factory=list)


def _as_json_plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_as_json_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_json_plain(v) for k, v in value.items()}
    return value


_ITEM_TAGS = frozenset({"l", "t", "s", "fs", "dq"})
_PAIR_TAGS = frozenset({"d", "od", "dd", "ctr"})


def _contains_objects(encoded: Any) -> bool:
    """Whether an encoded value holds an object, array or deferred error (walks the tags)."""
    if not isinstance(encoded, list) or not encoded:
        return False
    tag = encoded[0]
    if not isinstance(tag, str):
        return False
    if tag in ("o", "nd", "err"):
        return True
    if tag in _ITEM_TAGS and len(encoded) > 1 and isinstance(encoded[1], list):
        return any(_contains_objects(x) for x in encoded[1])
    if tag in _PAIR_TAGS and len(encoded) > 1 and isinstance(encoded[1], list):
        return any(_contains_objects(k) or _contains_objects(v) for k, v in encoded[1])
    if tag == "c":
        return any(_contains_objects(x) for x in encoded[1:])
    if tag == "np" and len(encoded) > 2:
        return _contains_objects(encoded[2])
    return False


def _failure(report: dict[str, Any], oom: bool) -> tuple[Verdict, str] | None:
    """The verdict of a test that did not run to completion, or None."""
    limit = report.get("limit")
    if limit == "timeout":
        return Verdict.timeout, "wall time limit"
    if limit == "output_limit":
        return Verdict.output_limit, "output limit"
    errors = [r for r in report.get("records", []) if isinstance(r, dict) and "error" in r]
    if any(r.get("error") == "MemoryError" for r in errors):
        return Verdict.memory_limit, "MemoryError"
    sig = report.get("signal")
    if sig is not None:
        if sig == signal.SIGXCPU:
            return Verdict.timeout, "CPU time limit"
        if sig == signal.SIGKILL and oom:
            return Verdict.memory_limit, "killed by the memory ceiling"
        if sig == signal.SIGXFSZ:
            return Verdict.runtime_error, "file size limit"
        return Verdict.runtime_error, f"killed by signal {sig}"
    if errors:
        err = errors[0]
        if err.get("error") == "Unencodable":
            return Verdict.wrong_answer, str(err.get("detail", "unencodable value"))[:200]
        return Verdict.runtime_error, str(err.get("detail") or err.get("error"))[:200]
    return None


def grade_report(
    problem: Problem,
    test: PreparedTest,
    report: dict[str, Any],
    oom: bool,
    judge: JudgeRequest,
    position: int,
) -> TestResult:
    """Verdict of one test; lifted checks needing the judge are queued (verdict decided later)."""
    time_s = float(report.get("time_s", 0.0))
    original = problem.tests[test.index]
    failed = _failure(report, oom)
    if isinstance(original, StdioTest):
        if failed is not None:
            return TestResult(verdict=failed[0], time_s=time_s, detail=failed[1])
        if report.get("exit_code") != 0:
            return TestResult(
                verdict=Verdict.runtime_error,
                time_s=time_s,
                detail=f"exit status {report.get('exit_code')}",
            )
        ok = comparator(problem.compare)(str(report.get("stdout", "")), original.output)
        return TestResult(verdict=Verdict.accepted if ok else Verdict.wrong_answer, time_s=time_s)
    if failed is not None:
        return TestResult(verdict=failed[0], time_s=time_s, detail=failed[1])
    records = [r for r in report.get("records", []) if isinstance(r, dict)]
    if not any(r.get("done") is True for r in records) or report.get("exit_code") != 0:
        return TestResult(
            verdict=Verdict.runtime_error,
            time_s=time_s,
            detail="the test did not run to completion",
        )
    if isinstance(original, CallTest):
        values = [r["value"] for r in records if "value" in r]
        if len(values) != 1:
            return TestResult(verdict=Verdict.wrong_answer, time_s=time_s, detail="no return value")
        if _contains_objects(values[0]):
            return TestResult(
                verdict=Verdict.wrong_answer, time_s=time_s, detail="returned an object"
            )
        try:
            got = _as_json_plain(_decode_plain(values[0]))
        except (ValueError, TypeError, KeyError, IndexError, OverflowError):
            return TestResult(
                verdict=Verdict.wrong_answer, time_s=time_s, detail="undecodable value"
            )
        ok = _safe_equal(got, _as_json_plain(original.output))
        return TestResult(verdict=Verdict.accepted if ok else Verdict.wrong_answer, time_s=time_s)
    assert isinstance(original, AssertTest)
    if test.lifted is None:  # run as written; completion is the pass signal
        return TestResult(verdict=Verdict.accepted, time_s=time_s, detail="unlifted assert")
    return _grade_lifted(test.lifted, records, time_s, judge, position)


def _safe_equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except (ValueError, TypeError, RecursionError, RuntimeError):
        return False


def _grade_lifted(
    lifted: LiftedTest,
    records: list[dict[str, Any]],
    time_s: float,
    judge: JudgeRequest,
    position: int,
) -> TestResult:
    seen: set[int] = set()
    for rec in records:
        slot = rec.get("slot")
        if slot is None:
            continue
        if not isinstance(slot, int) or not 0 <= slot < len(lifted.checks):
            return TestResult(verdict=Verdict.wrong_answer, time_s=time_s, detail="bad record")
        check = lifted.checks[slot]
        values = rec.get("values")
        if not isinstance(values, list) or len(values) != check.n_values:
            return TestResult(verdict=Verdict.wrong_answer, time_s=time_s, detail="bad record")
        seen.add(slot)
        if check.has_literal and not _contains_objects(values):
            try:
                got = _decode_plain(values[0])
            except (ValueError, TypeError, KeyError, IndexError, OverflowError):
                return TestResult(verdict=Verdict.wrong_answer, time_s=time_s, detail="undecodable")
            if not _literal_holds(check, got):
                return TestResult(
                    verdict=Verdict.wrong_answer, time_s=time_s, detail="assertion failed"
                )
        else:
            judge.items.append((position, check, values))
    missing = [c.slot for c in lifted.checks if c.required and c.slot not in seen]
    if missing:
        return TestResult(
            verdict=Verdict.wrong_answer, time_s=time_s, detail=f"assertion {missing[0]} never ran"
        )
    return TestResult(verdict=Verdict.accepted, time_s=time_s)


def _literal_holds(check: Check, got: Any) -> bool:
    try:
        if check.op == "==":
            return bool(got == check.literal)
        if check.op == "!=":
            return bool(got != check.literal)
        if check.op == "is":
            return got is check.literal
        if check.op == "is not":
            return got is not check.literal
    except (ValueError, TypeError, RecursionError, RuntimeError):
        return False
    return False


def apply_judge(
    results: list[TestResult], judge: JudgeRequest, outcomes: list[Any]
) -> list[TestResult]:
    """Fold the judge's outcomes into the per-test results (a False fails its test)."""
    out = list(results)
    for (position, _check, _values), outcome in zip(judge.items, outcomes, strict=True):
        if outcome is True or out[position].verdict != Verdict.accepted:
            continue
        if outcome is False:
            out[position] = TestResult(
                verdict=Verdict.wrong_answer, time_s=out[position].time_s, detail="assertion failed"
            )
        else:
            out[position] = TestResult(
                verdict=Verdict.runtime_error,
                time_s=out[position].time_s,
                detail=str(outcome)[:200],
            )
    return out
