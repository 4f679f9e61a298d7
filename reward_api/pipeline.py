"""The verification spine: extract -> dedupe -> sandbox -> grade -> judge -> scan -> score.

``Verifier`` owns two pools of warm cells (candidates, and judges that never run candidate
code) and turns (problem, sample) jobs into ``Result``s in job order. Identical work inside
one call (same problem, program and reward settings) runs once. Every stage is timed under
the name that is also its metric key: ``extract``, ``sandbox``, ``grade``, ``judge``,
``scan``, ``score`` (``Verifier.stage_seconds``).

Infrastructure failures (a cell that dies or hangs) are retried in fresh cells, then
reported as ``sandbox_error`` with ``reward = None``: never as a program's failure.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from reward_api.errors import InfrastructureError, SandboxError
from reward_api.extract import program_of
from reward_api.grading import JudgeRequest, PreparedTest, apply_judge, grade_report, prepare_tests
from reward_api.lifting import PARSE_LOCK
from reward_api.sandbox import CellPool, SandboxPolicy, open_pool
from reward_api.schemas import (
    AssertTest,
    Problem,
    Result,
    RewardSettings,
    Sample,
    TestResult,
    Verdict,
)

SANDBOX_ATTEMPTS = 3
# compiling candidate programs on the host (the syntax check) must not spray their warnings
warnings.filterwarnings("ignore", category=SyntaxWarning)
warnings.filterwarnings("ignore", category=DeprecationWarning, message="invalid escape sequence")
RUNTIME_VERSION = "runner-1"


def _default_runtime_root() -> Path:
    if os.geteuid() == 0 or os.access("/var/lib/codereward", os.W_OK):
        return Path("/var/lib/codereward/runtime/bookworm-py311")
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return cache / "codereward/runtime/bookworm-py311"


class VerifierSettings(BaseSettings):
    """How the verifier runs; read from ``CODEREWARD_*`` environment variables."""

    model_config = SettingsConfigDict(env_prefix="CODEREWARD_", extra="ignore")

    sandbox: Literal["process", "docker"] = Field("process", description="Sandbox backend.")
    workers: int = Field(default_factory=lambda: os.cpu_count() or 1, ge=1, le=512,
                         description="Cells run in parallel (default: all cores).")  # fmt: skip
    runtime_root: Path = Field(default_factory=_default_runtime_root,
                               description="Sandbox runtime root filesystem (process backend).")  # fmt: skip
    recycle_after: int = Field(256, ge=1, description="Replace a cell after this many samples.")
    max_output_bytes: int = Field(16 << 20, ge=1024, description="Stdout cap per test.")
    docker_image: str = Field("codereward/sandbox-python:3.11", description="Docker sandbox image.")
    docker_runtime: str | None = Field(None, description="OCI runtime for docker, e.g. runsc.")

    def policy(self) -> SandboxPolicy:
        return SandboxPolicy(
            runtime_root=self.runtime_root,
            recycle_after_samples=self.recycle_after,
            max_output_bytes=self.max_output_bytes,
            docker_image=self.docker_image,
            docker_runtime=self.docker_runtime,
        )


@dataclass(frozen=True)
class Job:
    """One sample to verify against its problem."""

    problem: Problem
    sample: Sample


ResultCallback = Callable[[int, Result], None]


@dataclass
class _Work:
    """One unique (problem, program, reward) unit and the jobs that share it."""

    key: str
    problem: Problem
    program: str
    reward: Any
    jobs: list[int]


def work_key(problem: Problem, program: str, reward: RewardSettings | None) -> str:
    """Content hash of everything a result depends on (also the cache key)."""
    h = hashlib.sha256()
    for part in (
        RUNTIME_VERSION,
        problem.model_dump_json(
            include={"tests", "limits", "compare", "setup_code", "language", "reference"}
        ),
        program,
        reward.model_dump_json() if reward is not None else "",
    ):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def syntax_verdict(program: str) -> Verdict | None:
    """``no_code`` or ``syntax_error`` decided on the host without running anything."""
    if not program.strip():
        return Verdict.no_code
    try:
        with PARSE_LOCK:
            compile(program, "<solution>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError):
        return Verdict.syntax_error
    return None


class Verifier:
    """Runs jobs in the configured sandbox; thread-safe; close() (or ``with``) frees the pools."""

    def __init__(self, settings: VerifierSettings | None = None) -> None:
        self.settings = settings or VerifierSettings()
        policy = self.settings.policy()
        self.pool: CellPool = open_pool(self.settings.sandbox, policy, self.settings.workers)
        self.judges: CellPool = open_pool(
            self.settings.sandbox, policy, max(1, self.settings.workers // 2)
        )
        self._executor = ThreadPoolExecutor(self.settings.workers, thread_name_prefix="verify")
        self.stage_seconds: dict[str, float] = defaultdict(float)
        self._stats_lock = threading.Lock()
        self.tests_run = 0

    def __enter__(self) -> Verifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
        self.pool.close()
        self.judges.close()

    @contextmanager
    def _stage(self, name: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            with self._stats_lock:
                self.stage_seconds[name] += time.perf_counter() - t0

    # ------------------------------------------------------------------ the spine
    def verify(
        self,
        jobs: Sequence[Job],
        reward: RewardSettings | None = None,
        on_result: ResultCallback | None = None,
    ) -> list[Result]:
        """Results in job order; ``on_result(index, result)`` as each job finishes."""
        from reward_api import scoring

        with self._stage("extract"):
            units: dict[str, _Work] = {}
            for i, job in enumerate(jobs):
                program = program_of(job.sample)
                key = work_key(job.problem, program, reward)
                unit = units.get(key)
                if unit is None:
                    resolved = scoring.resolve(reward, (job.problem.metadata or {}).get("reward"))
                    units[key] = _Work(key, job.problem, program, resolved, [i])
                else:
                    unit.jobs.append(i)
        results: list[Result | None] = [None] * len(jobs)
        lock = threading.Lock()
        work_list = list(units.values())
        scan_error: str | None = None
        for _attempt in range(2):
            try:
                static_reports = self._scan(work_list)
                scan_error = None
                break
            except InfrastructureError as exc:  # semgrep failed: retried, then sandbox_error
                static_reports, scan_error = {}, f"static analysis failed: {exc}"[:500]

        def finish(unit: _Work, base: Result) -> None:
            if scan_error is not None and unit.reward.scan_categories:
                base = base.model_copy(
                    update={"verdict": Verdict.sandbox_error, "reward": None, "accepted": False,
                            "error": scan_error}
                )  # fmt: skip
            with self._stage("score"):
                result = _finalize(base, unit, static_reports.get(unit.key))
            for idx in unit.jobs:
                sample = jobs[idx].sample
                one = result.model_copy(
                    update={"problem_id": sample.problem_id, "sample_id": sample.sample_id}
                )
                with lock:
                    results[idx] = one
                if on_result is not None:
                    on_result(idx, one)

        def run_and_finish(unit: _Work) -> None:
            finish(unit, self._run_unit(unit))

        futures = [self._executor.submit(run_and_finish, u) for u in work_list]
        for fut in futures:
            fut.result()
        return [r for r in results if r is not None]

    def _scan(self, units: list[_Work]) -> dict[str, Any]:
        """One batched semgrep-core run per set of rule categories (the hack gate needs one)."""
        groups: dict[tuple[str, ...], list[_Work]] = {}
        for u in units:
            if u.reward.scan_categories:
                groups.setdefault(tuple(u.reward.scan_categories), []).append(u)
        if not groups:
            return {}
        from reward_api.static import scan_programs

        out: dict[str, Any] = {}
        with self._stage("scan"):
            for categories, group in groups.items():
                reports = scan_programs([u.program for u in group], categories=categories)
                out.update({u.key: r for u, r in zip(group, reports, strict=True)})
        return out

    def _run_unit(self, unit: _Work) -> Result:
        from reward_api import scoring

        problem = unit.problem
        base = {"problem_id": problem.id, "sample_id": None}
        verdict = syntax_verdict(unit.program)
        indices = scoring.select_tests(problem.tests, unit.reward.max_tests)
        if verdict is not None:
            tests = [TestResult(verdict=verdict) for _ in indices]
            return Result(**base, reward=0.0, accepted=False, passed=0, total=len(indices),
                          verdict=verdict, tests=tests)  # fmt: skip
        prepared = prepare_tests(problem, indices, unit.program)
        last_error = ""
        for _attempt in range(SANDBOX_ATTEMPTS):
            try:
                tests = self._run_in_sandbox(problem, unit, prepared)
                break
            except SandboxError as exc:
                last_error = str(exc)
        else:
            return Result(**base, reward=None, accepted=False, passed=0, total=len(indices),
                          verdict=Verdict.sandbox_error, error=last_error[:500])  # fmt: skip
        passed = sum(t.verdict == Verdict.accepted for t in tests)
        first_bad = next((t.verdict for t in tests if t.verdict != Verdict.accepted), None)
        return Result(
            **base,
            reward=0.0,
            accepted=first_bad is None and passed == len(indices),
            passed=passed,
            total=len(indices),
            verdict=first_bad or Verdict.accepted,
            tests=tests,
        )

    def _run_in_sandbox(
        self, problem: Problem, unit: _Work, prepared: list[PreparedTest]
    ) -> list[TestResult]:
        limits = problem.limits
        request = {
            "op": "sample",
            "program": unit.program,
            "setup": problem.setup_code,
            "tests": [p.spec for p in prepared],
            "time_s": limits.time_s,
            "memory_mb": limits.memory_mb,
            "max_output_bytes": self.settings.max_output_bytes,
            "stop_on_first_failure": bool(unit.reward.stop_on_first_failure),
            "stop_after_timeout": unit.reward.mode == "all_or_nothing",
            "numpy": _mentions_numpy(unit.program, problem),
        }
        budget = (limits.time_s + 2.0) * max(1, len(prepared)) + 30.0
        with self._stage("sandbox"), self.pool.lease() as cell:
            oom_before = cell.prepare(limits.memory_mb) if hasattr(cell, "prepare") else 0
            answer = cell.request(request, budget)
            oom = (cell.oom_kills() if hasattr(cell, "oom_kills") else 0) > oom_before
            limits_hit = any(
                isinstance(r, dict) and (r.get("limit") or r.get("signal"))
                for r in answer.get("tests") or []
            )
            if answer.get("anomaly") or limits_hit:
                cell.broken = True  # recycle at once; the sample's own reports still stand
        reports = answer.get("tests")
        if not isinstance(reports, list) or len(reports) > len(prepared):
            raise SandboxError("runner answered with a malformed report")
        judge = JudgeRequest()
        with self._stage("grade"):
            tests = [
                grade_report(problem, prepared[i], rep, oom, judge, i)
                for i, rep in enumerate(reports)
            ]
            for _p in prepared[len(reports) :]:
                tests.append(TestResult(verdict=Verdict.skipped, detail="after a decisive failure"))
        with self._stats_lock:
            self.tests_run += len(reports)
        if judge.items:
            with self._stage("judge"):
                tests = apply_judge(tests, judge, self._judge(problem, prepared, judge))
        return tests

    def _judge(
        self, problem: Problem, prepared: list[PreparedTest], judge: JudgeRequest
    ) -> list[Any]:
        preludes = {
            lifted.prelude
            for pos, _, _ in judge.items
            if (lifted := prepared[pos].lifted) is not None
        }
        request = {
            "op": "judge",
            "setup": problem.setup_code,
            "prelude": "\n".join(sorted(p for p in preludes if p)),
            "checks": [{"expr": c.expr, "values": v} for _, c, v in judge.items],
            "numpy": any(
                '"nd"' in json.dumps(v) or '"np"' in json.dumps(v) for _, _, v in judge.items
            )
            or _mentions_numpy("", problem),
            "time_s": problem.limits.time_s,
            "memory_mb": max(problem.limits.memory_mb, 256),
        }
        with self.judges.lease() as cell:
            answer = cell.request(request, problem.limits.time_s + 30.0)
        outcomes = answer.get("outcomes")
        if not isinstance(outcomes, list) or len(outcomes) != len(judge.items):
            raise SandboxError("judge answered with a malformed report")
        return outcomes


def _mentions_numpy(program: str, problem: Problem) -> bool:
    """Whether the runner should warm numpy first (so numpy values are recognised as such)."""
    if "numpy" in program or "numpy" in (problem.setup_code or ""):
        return True
    return any(isinstance(t, AssertTest) and "numpy" in t.code for t in problem.tests)


def _finalize(base: Result, unit: _Work, static: Any) -> Result:
    """Reward, reward_parts and the static block, from the preset (reward_api.scoring)."""
    from reward_api import scoring

    if base.verdict == Verdict.sandbox_error:
        return base
    resolved = unit.reward
    reference = unit.problem.reference
    similarity = None
    if resolved.needs_similarity and reference:
        similarity = scoring.similarity(unit.program, reference)
    reward, parts = scoring.compose(
        resolved, base.passed, base.total, base.accepted, static, similarity
    )
    shown = static if resolved.static else None
    return base.model_copy(update={"reward": reward, "reward_parts": parts, "static": shown})


def verify_once(
    pairs: Sequence[tuple[Problem, Sample]],
    reward: RewardSettings | None = None,
    settings: VerifierSettings | None = None,
) -> list[Result]:
    """Convenience: a throwaway Verifier for one batch."""
    with Verifier(settings) as verifier:
        return verifier.verify([Job(p, s) for p, s in pairs], reward)


def load_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line; ValueError names the bad line."""
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{n}: not valid JSON ({exc.msg})") from None
            if not isinstance(obj, dict):
                raise ValueError(f"{path}:{n}: expected a JSON object")
            yield n, obj
