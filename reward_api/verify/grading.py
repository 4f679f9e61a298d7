"""Grading: verdicts from what trusted code saw, never from what the program claims.

Trust rule (CONTRACT.md): an expected output never enters the candidate's cell, and a test
passes only on a signal that trusted code produced after the test ran:

- ``stdio``: the host compares stdout with the expected output (``comparators``), or the
  problem's checker decides in a cell of its own (``checkers``); a non-zero exit or death
  by a signal fails the test, whatever was printed.
- ``call``: the host compares the value the candidate answered to the runner's call with
  the expected JSON (tuples as lists). No answer (an exit, a crash, a hang) fails. The
  compiled languages' call tests compare the same way on their harness's JSON report
  (``reward_api.verify.languages.grade_compiled``).
- ``checked``: the host evaluates each ``assert NAME(args) OP literal`` over the answered
  value (``reward_api.verify.plans``); every statement needs its answer.
- ``judge``: the judge cell ran the test's code; its verdict stands, and a candidate that
  exited, crashed, hung or broke the protocol during a call never passes.

Every test also needs the candidate to end cleanly after its last answer. Nothing here
raises on anything a program can produce: a value that does not decode, compare or
convert is that test's failure (``wrong_answer``), and text the program wrote is cleaned
before it is put in a result.
"""

from __future__ import annotations

import json
import signal
from typing import Any

from reward_api.sandbox.runner import Decoder, Malformed
from reward_api.schemas import CallTest, Problem, StdioTest, TestResult, Verdict
from reward_api.verify.comparators import comparator
from reward_api.verify.plans import HostCheck, Plan

MEMORY_ERROR_EXIT = 101
"""The test child's exit status after a MemoryError (runner.py)."""
_SAFE_ERRORS = (
    ArithmeticError,
    ValueError,
    TypeError,
    RecursionError,
    RuntimeError,
    OverflowError,
    MemoryError,
    AttributeError,
    KeyError,
    IndexError,
)


class Opaque:
    """An object of the program's own types, as the host sees it: equal to nothing else."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<program object>"


def clean_text(text: Any, limit: int = 300) -> str:
    """Program-made text safe to put in a result (lone surrogates replaced, truncated)."""
    s = str(text)[:limit]
    return s.encode("utf-8", "replace").decode("utf-8")


def _opaque(_node: Any) -> Opaque:
    return Opaque()


def decode_value(reply: dict[str, Any]) -> Any:
    """The value of an ``ok`` reply, as plain builtins; Malformed for anything else."""
    return Decoder(on_handle=_opaque).decode(reply.get("ok"), reply.get("n", []))


def _reply(raw: Any) -> dict[str, Any] | None:
    if not isinstance(raw, str):
        return None
    try:
        msg = json.loads(raw)
    except (ValueError, RecursionError, MemoryError):
        return None
    return msg if isinstance(msg, dict) else None


def _contains_opaque(value: Any) -> bool:
    stack, seen = [value], set()
    while stack:
        v = stack.pop()
        if isinstance(v, Opaque):
            return True
        if isinstance(v, list | tuple | set | frozenset) and id(v) not in seen:
            seen.add(id(v))
            stack.extend(v)
        elif isinstance(v, dict) and id(v) not in seen:
            seen.add(id(v))
            stack.extend(v.keys())
            stack.extend(v.values())
    return False


def as_json_plain(value: Any) -> Any:
    """Tuples as lists (a call test's comparison), iteratively, keeping sharing."""
    if not isinstance(value, list | tuple | dict):
        return value
    memo: dict[int, Any] = {}
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        v, parent, key = stack.pop()
        if isinstance(v, list | tuple):
            out: Any = memo.get(id(v))
            if out is None:
                out = memo[id(v)] = [None] * len(v)
                stack.extend((x, out, i) for i, x in enumerate(v))
        elif isinstance(v, dict):
            out = memo.get(id(v))
            if out is None:
                out = memo[id(v)] = {}
                for k, x in v.items():
                    out[k] = None
                    stack.append((x, out, k))
        else:
            out = v
        parent[key] = out
    return root[0]


def safe_equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except _SAFE_ERRORS:
        return False


def failure(report: dict[str, Any], oom: bool, python: bool = True) -> tuple[Verdict, str] | None:
    """The verdict of a test whose candidate did not run to completion, or None
    (``python``: exit status 101 is the runner's MemoryError; elsewhere it is a program's
    own status, e.g. a Rust panic's)."""
    limit = report.get("limit")
    if limit == "timeout":
        return Verdict.timeout, "wall time limit"
    if limit == "output_limit":
        return Verdict.output_limit, "output limit"
    if limit == "protocol":
        return Verdict.runtime_error, "the program wrote on the call channel itself"
    sig = report.get("signal")
    if sig is not None:
        if sig == signal.SIGXCPU:
            return Verdict.timeout, "CPU time limit"
        if sig == signal.SIGKILL and oom:
            return Verdict.memory_limit, "killed by the memory ceiling"
        if sig == signal.SIGXFSZ:
            return Verdict.runtime_error, "file size limit"
        return Verdict.runtime_error, f"killed by signal {sig}"
    if python and report.get("exit_code") == MEMORY_ERROR_EXIT:
        return Verdict.memory_limit, "MemoryError"
    return None


def _exit_failure(report: dict[str, Any], oom: bool) -> TestResult | None:
    time_s = report_time(report)
    failed = failure(report, oom)
    if failed is not None:
        return TestResult(verdict=failed[0], time_s=time_s, detail=failed[1])
    if report.get("exit_code") != 0:
        return TestResult(
            verdict=Verdict.runtime_error,
            time_s=time_s,
            detail=f"exit status {report.get('exit_code')}",
        )
    return None


def ran_to_end(report: dict[str, Any], oom: bool, python: bool = True) -> bool:
    """Whether a stdio test's program exited 0 within its limits, so that its output is
    what decides (by the comparator, or by the problem's checker)."""
    if report.get("compile_error") or failure(report, oom, python) is not None:
        return False
    return report.get("exit_code") == 0


def checked_result(checked: TestResult | None, time_s: float) -> TestResult:
    """A stdio test decided by the problem's checker (``reward_api.verify.checkers``), with
    the candidate's own run time."""
    if checked is None:  # not reached: the checks stopped at an earlier rejection
        return TestResult(verdict=Verdict.skipped, time_s=time_s, detail="not checked")
    return checked.model_copy(update={"time_s": time_s})


def report_time(report: dict[str, Any]) -> float:
    t = report.get("time_s", 0.0)
    return float(t) if isinstance(t, int | float) and t >= 0 else 0.0


def _raised(reply: dict[str, Any], time_s: float) -> TestResult:
    desc = reply.get("raise")
    name = desc.get("type") if isinstance(desc, dict) else None
    if name == "MemoryError":
        return TestResult(verdict=Verdict.memory_limit, time_s=time_s, detail="MemoryError")
    return TestResult(
        verdict=Verdict.runtime_error, time_s=time_s, detail=clean_text(name or "exception", 100)
    )


def _unanswered(report: dict[str, Any], oom: bool) -> TestResult:
    """A call the candidate never answered: why, as far as the host can tell."""
    failed = _exit_failure(report, oom)
    if failed is not None:
        return failed
    return TestResult(
        verdict=Verdict.runtime_error,
        time_s=report_time(report),
        detail="the program exited before answering",
    )


def grade(
    problem: Problem,
    plan: Plan,
    report: dict[str, Any],
    oom: bool,
    judge_verdict: dict[str, Any] | None = None,
    checked: TestResult | None = None,
) -> TestResult:
    """The verdict of one test (``judge_verdict``: the judge's outcome for a judge test;
    ``checked``: the problem's checker's verdict for a stdio test that ran to its end)."""
    test = problem.tests[plan.index]
    time_s = report_time(report)
    if plan.kind == "stdio":
        assert isinstance(test, StdioTest)
        failed = _exit_failure(report, oom)
        if failed is not None:
            return failed
        if problem.checker is not None:
            return checked_result(checked, time_s)
        ok = comparator(problem.compare)(str(report.get("stdout", "")), test.output)
        return TestResult(verdict=Verdict.accepted if ok else Verdict.wrong_answer, time_s=time_s)
    if report.get("ready") is not True:
        return _unanswered(report, oom)
    if plan.kind == "judge":
        return _grade_judged(report, oom, judge_verdict)
    replies = report.get("replies")
    replies = replies if isinstance(replies, list) else []
    expected = len(plan.calls)
    for k in range(expected):
        reply = _reply(replies[k]) if k < len(replies) else None
        if reply is None:
            if k < len(replies):
                return TestResult(
                    verdict=Verdict.wrong_answer, time_s=time_s, detail="malformed answer"
                )
            return _unanswered(report, oom)
        if "raise" in reply:
            return _raised(reply, time_s)
        if "ok" not in reply:
            return TestResult(
                verdict=Verdict.wrong_answer, time_s=time_s, detail="malformed answer"
            )
        try:
            value = decode_value(reply)
        except Malformed:
            return TestResult(verdict=Verdict.wrong_answer, time_s=time_s, detail="malformed value")
        if plan.kind == "call":
            assert isinstance(test, CallTest)
            if _contains_opaque(value):
                return TestResult(
                    verdict=Verdict.wrong_answer, time_s=time_s, detail="returned an object"
                )
            if not safe_equal(as_json_plain(value), as_json_plain(test.output)):
                return TestResult(verdict=Verdict.wrong_answer, time_s=time_s)
        elif not _holds(plan.checks[k], value, reply.get("truth")):
            return TestResult(
                verdict=Verdict.wrong_answer, time_s=time_s, detail="assertion failed"
            )
    failed = _exit_failure(report, oom)
    if failed is not None:
        return failed
    return TestResult(verdict=Verdict.accepted, time_s=time_s)


def _holds(check: HostCheck, got: Any, truth: Any) -> bool:
    try:
        if check.op == "==":
            return bool(got == check.literal)
        if check.op == "!=":
            return bool(got != check.literal)
        if check.op == "is":
            return got is check.literal
        if check.op == "is not":
            return got is not check.literal
        if check.op in ("truthy", "falsy"):
            return (truth is True) == (check.op == "truthy") and isinstance(truth, bool)
    except _SAFE_ERRORS:
        return False
    return False


_JUDGE_VERDICTS = {"assert": Verdict.wrong_answer, "error": Verdict.runtime_error}


def _grade_judged(report: dict[str, Any], oom: bool, outcome: dict[str, Any] | None) -> TestResult:
    time_s = report_time(report)
    verdict = outcome.get("verdict") if isinstance(outcome, dict) else None
    detail = clean_text(outcome.get("detail", "")) if isinstance(outcome, dict) else ""
    if verdict == "pass":
        failed = _exit_failure(report, oom)
        return failed or TestResult(verdict=Verdict.accepted, time_s=time_s)
    if verdict in _JUDGE_VERDICTS:
        if verdict == "error" and detail == "MemoryError":
            return TestResult(verdict=Verdict.memory_limit, time_s=time_s, detail=detail)
        return TestResult(verdict=_JUDGE_VERDICTS[verdict], time_s=time_s, detail=detail or None)
    if verdict == "timeout":
        return TestResult(verdict=Verdict.timeout, time_s=time_s, detail="wall time limit")
    if verdict == "gone":
        why = failure(report, oom)
        if why is not None:
            return TestResult(verdict=why[0], time_s=time_s, detail=why[1])
        return TestResult(verdict=Verdict.runtime_error, time_s=time_s, detail=detail or None)
    # the judge could not finish (it died on what the program sent, or never answered)
    return TestResult(
        verdict=Verdict.runtime_error, time_s=time_s, detail=detail or "the judge could not finish"
    )
