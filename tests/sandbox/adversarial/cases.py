"""Cases of the exploit files: one program against one problem, and what it must be paid.

A case is an *exploit* (a program that does not solve its problem and tries to be paid
anyway) or a *control* (an honest solution). What must hold, on every backend:

- exploit: a failing verdict (not ``accepted``, not ``sandbox_error``) and reward 0.0. The
  verdict is asserted, not only the reward, so the execution itself must hold: the hack
  gate (a semgrep scan that zeroes the reward) is a second line, not the judge.
- control: ``accepted`` and reward 1.0 under the default reward preset, hack gate on.
- both: the result serialises to JSON (a value that cannot be written out is a crash
  waiting in the CLI or the gateway).

A ``Batch`` verifies its cases in ONE ``Verifier.verify`` call per verifier (memoised), so a
file parametrizes one test per case and pays for one call. An exception out of ``verify``
(one sample crashing everyone) fails every case of the batch with that exception; a batch
that does not finish within its ``timeout_s`` fails them with a message saying so.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from reward_api import Job, Problem, RewardSettings, Sample, Verdict, Verifier


@dataclass(frozen=True)
class Case:
    """One program against one contract-format problem (a dict without ``id``)."""

    name: str
    problem: dict[str, Any]
    code: str
    honest: bool


def exploit(name: str, problem: dict[str, Any], code: str) -> Case:
    return Case(name, problem, code, honest=False)


def control(name: str, problem: dict[str, Any], code: str) -> Case:
    return Case(name, problem, code, honest=True)


def asserts(*codes: str, **fields: Any) -> dict[str, Any]:
    """A problem whose tests are ``assert`` tests; ``fields`` adds setup_code, limits, ..."""
    return {"tests": [{"type": "assert", "code": c} for c in codes], **fields}


def from_table(
    make: Callable[[str, dict[str, Any], str], Case],
    table: dict[str, tuple[str, str, str, dict[str, Any]]],
) -> list[Case]:
    """``make`` (``exploit`` or ``control``) of each ``name: (language, test, program,
    fields)``: one ``assert`` test in that language, ``fields`` added to the problem."""
    return [make(name, {"language": lang, **asserts(test), **fields}, code)
            for name, (lang, test, code, fields) in table.items()]  # fmt: skip


def entry_point_twins(cases: list[Case], entry_points: list[str]) -> list[Case]:
    """The same cases with ``entry_points`` named explicitly (name suffix ``[ep]``).

    The contract's default (names the test uses without defining them, builtins excluded)
    and the explicit list must be judged alike, so a file verifies both."""
    return [
        Case(f"{c.name}[ep]", {**c.problem, "entry_points": entry_points}, c.code, c.honest)
        for c in cases
    ]


def need_roots(*languages: str) -> None:
    """Skip the calling module when a language's runtime root is not built (a skip that
    CI turns into a failure: .ci/run builds every root)."""
    from reward_api.verify.languages import default_root

    missing = [
        lang for lang in languages if not (default_root(lang) / ".codereward-runtime").exists()
    ]
    if missing:
        pytest.skip(f"no runtime root for {missing}: run 'make runtimes'")


def default_entry_point_twins(cases: list[Case]) -> list[Case]:
    """The same cases with their problem's ``entry_points`` removed (name suffix ``[default]``),
    left to the contract's default."""
    out = []
    for c in cases:
        if "entry_points" in c.problem:
            problem = {k: v for k, v in c.problem.items() if k != "entry_points"}
            out.append(Case(f"{c.name}[default]", problem, c.code, c.honest))
    return out


@dataclass
class _Run:
    done: threading.Event = field(default_factory=threading.Event)
    results: dict[str, Any] = field(default_factory=dict)
    error: BaseException | None = None
    seconds: float = 0.0
    started: float = field(default_factory=time.monotonic)


class Batch:
    """Cases verified together, once per verifier; ``check`` asserts one case's result."""

    def __init__(
        self,
        label: str,
        cases: list[Case],
        reward: RewardSettings | None = None,
        timeout_s: float = 300.0,
    ) -> None:
        names = [c.name for c in cases]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        assert not duplicates, f"duplicate case names in {label}: {duplicates}"
        self.label, self.cases, self.reward, self.timeout_s = label, cases, reward, timeout_s
        self.by_name = {c.name: c for c in cases}
        self._runs: weakref.WeakKeyDictionary[Verifier, _Run] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.cases]

    def jobs(self) -> list[Job]:
        out = []
        for c in self.cases:
            problem = Problem.model_validate({"id": f"{self.label}/{c.name}", **c.problem})
            out.append(Job(problem, Sample(problem_id=problem.id, sample_id=c.name, code=c.code)))
        return out

    def run(self, verifier: Verifier) -> _Run:
        """Verify the whole batch (first caller per verifier); wait at most ``timeout_s``."""
        with self._lock:
            run = self._runs.get(verifier)
            if run is None:
                run = self._runs[verifier] = _Run()
                threading.Thread(target=self._verify, args=(verifier, run), daemon=True).start()
        left = run.started + self.timeout_s - time.monotonic()
        if not run.done.wait(max(0.0, left)) and run.error is None:
            run.error = TimeoutError(f"batch {self.label} did not finish in {self.timeout_s} s")
        return run

    def _verify(self, verifier: Verifier, run: _Run) -> None:
        t0 = time.perf_counter()
        try:
            results = verifier.verify(self.jobs(), self.reward)
            run.results = {c.name: r for c, r in zip(self.cases, results, strict=True)}
        except BaseException as exc:  # the crash is what the cases report
            run.error = exc
        run.seconds = time.perf_counter() - t0
        run.done.set()

    def check(self, verifier: Verifier, name: str) -> None:
        case = self.by_name[name]
        run = self.run(verifier)
        if run.error is not None:
            raise AssertionError(
                f"{name}: the batch {self.label} gave no results: {type(run.error).__name__}: "
                f"{str(run.error)[:300]}"
            )
        judge(case, run.results[name])


def judge(case: Case, result: Any) -> None:
    """Assert what ``case`` must get (module docstring)."""
    r = result
    seen = (
        f"verdict={r.verdict.value} reward={r.reward} passed={r.passed}/{r.total} "
        f"tests={[(t.verdict.value, t.detail) for t in r.tests][:6]} error={r.error}"
    )
    assert r.verdict != Verdict.sandbox_error, f"{case.name}: program-made sandbox_error: {seen}"
    try:
        r.model_dump_json()
    except Exception as exc:
        raise AssertionError(f"{case.name}: result does not serialise ({exc!r}): {seen}") from None
    if case.honest:
        assert r.accepted and r.reward == 1.0, f"{case.name}: honest program rejected: {seen}"
    else:
        assert not r.accepted, f"{case.name}: exploit accepted: {seen}"
        assert r.reward == 0.0, f"{case.name}: exploit paid: {seen}"
