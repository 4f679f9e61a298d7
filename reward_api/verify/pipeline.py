"""The verification spine: extract -> dedupe -> plan -> sandbox (judge) -> check -> grade -> scan -> score.

``Verifier`` owns two pools of warm cells, candidates and judges (which never run candidate
code), and turns (problem, sample) jobs into ``Result``s in job order. Identical work
inside one call (``keys.result_key``) runs once. Each test gets a plan
(``reward_api.verify.plans``): stdio and call tests and host-checked asserts run in the
candidate's cell alone; any other assert test runs in a judge session leased beside it,
the judge's child calling into the candidate's over a socket (process backend) or
through this process (docker). Grading (``reward_api.verify.grading``) decides every
verdict outside the candidate. A worker takes one problem's samples in a row, so its
judge keeps that problem's test code warm. A problem's checker (``reward_api.verify.checkers``)
decides its stdio tests once the candidate's cell is released: in one request to a cell of
a third kind, the checker pool of the checker's language, which never runs candidate code.
The static scan of the batch (one semgrep-core run) goes on in a thread beside the
sandboxes; a sample is scored once both its tests and the scan are done. Every stage is
timed under the name that is also its metric key: ``extract``, ``sandbox``,
``judge``, ``check``, ``grade``, ``scan``, ``score`` (``Verifier.stage_seconds``).

Infrastructure failures (a cell that dies or hangs) are retried in fresh cells, then
reported as ``sandbox_error`` with ``reward = None``: never as a program's failure. A broken
problem (``ProblemFault``: its checker does not compile or fails on the test's own answer)
is that sample's ``sandbox_error`` with the reason, at once.
"""

from __future__ import annotations

import json
import logging
import select
import socket
import threading
import time
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from reward_api.errors import InfrastructureError, ProblemFault, SandboxBusy, SandboxError
from reward_api.sandbox import Cell, CellPool, open_pool
from reward_api.schemas import (
    PROBLEM_FAULT,
    AssertTest,
    CallTest,
    Problem,
    Result,
    RewardSettings,
    Sample,
    StdioTest,
    TestResult,
    Verdict,
    allow_big_ints,
    canonical_language,
    sandbox_error_result,
)
from reward_api.verify import (
    headers,
    lifted,
    lifted_c_host,
    lifted_go,
    lifted_go_host,
    lifted_go_testify,
    lifted_rust,
)
from reward_api.verify.checkers import Check, Checkers
from reward_api.verify.extract import program_of
from reward_api.verify.grading import grade, ran_to_end
from reward_api.verify.keys import problem_digest, result_key, runtime_version
from reward_api.verify.languages import COMPILED, compile_cell_cpus
from reward_api.verify.plans import PARSE_LOCK, Plan, plan_tests
from reward_api.verify.settings import VerifierSettings

log = logging.getLogger(__name__)
SANDBOX_ATTEMPTS = 3
COMPILE_CELL_RECYCLE = 1024
"""Requests a compile cell serves before it is replaced (its warm server restarts then)."""
# compiling candidate programs on the host (the syntax check) must not spray their warnings
warnings.filterwarnings("ignore", category=SyntaxWarning)
warnings.filterwarnings("ignore", category=DeprecationWarning, message="invalid escape sequence")
MAX_RUN_STDERR_CHARS = 2000

__all__ = ["Job", "Verifier", "VerifierSettings", "verify_once"]


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
    digest: str
    problem: Problem
    program: str
    reward: Any
    jobs: list[int]
    syntax: Verdict | None = None
    """no_code or syntax_error, decided on the host before anything runs (or compile_error:
    a Python program too large to send, ``oversized_program``); None: it compiles."""
    detail: str | None = None
    """Why, where ``syntax`` alone does not say (the program's size)."""


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


def oversized_program(program: str) -> str | None:
    """Why a Python program is too large to send to its cell (a ``compile_error``), or None:
    more than ``MAX_REQUEST_SOURCE_BYTES`` as its request carries it (JSON), the compiled
    languages' bound on their builds' source. Decided before the host parses or scans it,
    measured a MiB of characters at a time (JSON escapes each character alone)."""
    if len(program) * 12 <= MAX_REQUEST_SOURCE_BYTES:  # a character is at most 12 in JSON
        return None
    size, step = 2, 1 << 20
    for start in range(0, len(program), step):
        size += _json_len(program[start : start + step]) - 2
        if size > MAX_REQUEST_SOURCE_BYTES:
            return (f"the program is too large: {len(program) / (1 << 20):.1f} M characters, "
                    f"more than {MAX_REQUEST_SOURCE_BYTES >> 20} MiB as sent to its cell")  # fmt: skip
    return None


@dataclass(frozen=True)
class _HostSide:
    """How the host reads a lifted test's recorded lines (``read``), decides what it can
    of them without a judge (``decide``: None where a judge, or the program's process,
    must), and whether a compiled judge decides the rest (``judged``; if not, the test
    runs beside the program)."""

    read: Callable[[Any, int], lifted.Recorded | None]
    decide: Callable[[Any, lifted.Recorded], lifted.Judged | None] | None
    judged: bool


_HOST_SIDES = {
    "cpp": _HostSide(lifted.read, lifted_c_host.decide_cpp, True),
    "c": _HostSide(lifted.read_c, lifted_c_host.decide, True),
    "go": _HostSide(
        lifted_go.read, lambda host, rec: lifted_go_host.decide(host, rec.channel), True
    ),
    "go-testify": _HostSide(lifted_go_testify.read, lifted_go_testify.decide, False),
    "rust": _HostSide(lifted_rust.read, lifted_rust.decide, False),
}


def _host_side(language: str, shape: Any) -> _HostSide:
    """The host's side of a lifted test of ``language`` planned as ``shape``."""
    if isinstance(shape, lifted_go_testify.Plan):
        return _HOST_SIDES["go-testify"]
    return _HOST_SIDES[language]


class _Scan:
    """What one ``verify`` call's static scan found, and the units that ran before it ended."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done = False
        self.reports: dict[str, Any] = {}
        self.error: str | None = None
        self.crash: BaseException | None = None
        self.deferred: list[tuple[_Work, Result]] = []


class Verifier:
    """Runs jobs in the configured sandbox; thread-safe; close() (or ``with``) frees the pools."""

    def __init__(self, settings: VerifierSettings | None = None) -> None:
        allow_big_ints()
        self.settings = settings or VerifierSettings()
        policy = self.settings.policy()
        self.pool: CellPool = open_pool(self.settings.sandbox, policy, self.settings.workers)
        # one judge per worker: a sample holds its candidate cell and, at most, one judge
        self.judges: CellPool = open_pool(self.settings.sandbox, policy, self.settings.workers)
        self._policy = policy
        self._language_pools: dict[str, CellPool] = {}
        """One pool per compiled language, opened at its first sample (its own root or image)."""
        self._compile_pools: dict[str, CellPool] = {}
        """Compile cells of the languages with a warm compiler (``languages.WARM_MODES``):
        they run compilers only, never a program."""
        self._pools_lock = threading.Lock()
        self.artifacts = ArtifactCache(self.settings.artifact_cache_mb << 20)
        """Compiled stdio builds by content hash (program, toolchain, flags): a program seen
        again (another problem, a retry) is not compiled again."""
        self._checker_pools: dict[str, CellPool] = {}
        """Cells that run problems' checkers only, one pool per checker language."""
        self._executor = ThreadPoolExecutor(self.settings.workers, thread_name_prefix="verify")
        self.stage_seconds: dict[str, float] = defaultdict(float)
        self._stats_lock = threading.Lock()
        self.tests_run = 0
        self.builds_compiled = 0
        """Compiled-language builds the runners compiled (one per program, and per assert test)."""
        self.runtime = runtime_version(self.settings.sandbox)
        """Part of every result key (``reward_api.verify.keys``)."""
        self.checkers = Checkers(self.checker_pool, self.artifacts, self.runtime,
                                 self.settings.compile_time_s)  # fmt: skip
        self.lifted = lifted.Judges(self.checker_pool, self.artifacts, self.runtime,
                                    self.settings.compile_time_s)  # fmt: skip
        """The judges of lifted C++ and Go assert tests (``reward_api.verify.lifted``,
        ``lifted_go``), in the checker cells of their language."""
        self.headers = self._open_headers()
        """Precompiled headers of C++ programs' first includes (``reward_api.verify.headers``),
        built in C++ checker cells; None where the backend's cells cannot read them."""

    def __enter__(self) -> Verifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
        if self.headers is not None:
            self.headers.close()
        self.pool.close()
        self.judges.close()
        with self._pools_lock:
            pools = [*self._language_pools.values(), *self._checker_pools.values(),
                     *self._compile_pools.values()]  # fmt: skip
            for pool in pools:
                pool.close()
            self._language_pools.clear()
            self._checker_pools.clear()
            self._compile_pools.clear()

    def _open_headers(self) -> headers.Headers | None:
        if self.settings.sandbox != "process" or not self.settings.precompiled_headers:
            return None
        from reward_api.sandbox import process
        from reward_api.verify import languages

        root = self.settings.language_policy(self._policy, "cpp").runtime_root
        if process.runner_mount(root) != process.RUNNER_MOUNT:
            return None  # the cells bind the runner over the root's /opt
        return headers.Headers(lambda: process.shared_runner_dir() / "pch",
                               f"{process.RUNNER_MOUNT}/pch", self.runtime,
                               self._build_header, headers.SEEDS,
                               languages.header_flags())  # fmt: skip

    def _build_header(self, header: str, flags: list[str]) -> list[Any] | None:
        """A precompiled header's packed build (``headers.build_spec``), compiled in a C++
        checker cell (never one that runs a program); None when it failed."""
        from reward_api.verify import languages

        compile_s = self.settings.compile_time_s
        spec = headers.build_spec(header, flags, compile_s, languages.COMPILE_MEMORY_MB)
        request = {"op": "sample", "builds": [spec], "tests": [], "time_s": 1.0,
                   "memory_mb": 256, "max_output_bytes": 1 << 16,
                   "stop_on_first_failure": False}  # fmt: skip
        with self.checker_pool("cpp").lease() as cell:
            cell.prepare(languages.COMPILE_CELL_MB)
            answer = cell.request({**request, **cell.sample_overrides()}, timeout_s=compile_s + 30)
            if answer.get("anomaly"):
                cell.broken = True
        done = answer.get("builds")
        if not isinstance(done, list) or len(done) != 1 or not isinstance(done[0], dict):
            raise SandboxError("the header's cell answered with a malformed report")
        if not done[0].get("ok"):
            log.info("precompiled header not built: %s", str(done[0].get("output"))[:300])
            return None
        packed = done[0].get("artifact")
        return packed if isinstance(packed, list) else None

    def language_pool(self, language: str) -> CellPool:
        """The warm cells of a compiled language (started as samples need them)."""
        with self._pools_lock:
            pool = self._language_pools.get(language)
            if pool is None:
                policy = self.settings.language_policy(self._policy, language)
                pool = open_pool(self.settings.sandbox, policy, self.settings.workers)
                self._language_pools[language] = pool
            return pool

    def checker_pool(self, language: str) -> CellPool:
        """The cells that run checkers in ``language`` (python, or a compiled language): the
        language's root or image, but never a cell that runs candidate programs."""
        with self._pools_lock:
            pool = self._checker_pools.get(language)
            if pool is None:
                policy = self._policy
                if language in COMPILED:
                    policy = self.settings.language_policy(self._policy, language)
                pool = open_pool(self.settings.sandbox, policy, self.settings.workers)
                self._checker_pools[language] = pool
            return pool

    def _check(self, problem: Problem, unit: _Work, checks: list[Check]) -> dict[int, TestResult]:
        """The checker's verdicts of the stdio tests whose program ran to its end."""
        if problem.checker is None or not checks:
            return {}
        with self._stage("check"):
            return self.checkers.check(problem, checks, bool(unit.reward.stop_on_first_failure))

    def compile_pool(self, language: str) -> CellPool:
        """The compile cells of a language with a warm compiler (started as samples need
        them); each keeps its server across the samples it compiles."""
        with self._pools_lock:
            pool = self._compile_pools.get(language)
            if pool is None:
                policy = self.settings.language_policy(self._policy, language)
                policy = replace(policy, recycle_after_samples=max(
                    policy.recycle_after_samples, COMPILE_CELL_RECYCLE),
                    cell_cpus=max(policy.cell_cpus, compile_cell_cpus()))  # fmt: skip
                pool = open_pool(self.settings.sandbox, policy, self.settings.workers)
                self._compile_pools[language] = pool
            return pool

    def _compile_apart(
        self,
        language: str,
        recipe: str,
        specs: list[dict[str, Any]],
        picked: list[int],
        wait_s: float | None = None,
    ) -> dict[int, dict[str, Any]]:
        """Builds ``picked`` of ``specs`` compiled in a compile cell (by the recipe's warm
        server, or by its own command: ``languages.COMPILED_APART``): each spec gets the
        pack of its artifact (or ``failed``), so the cell that runs the sample only unpacks
        it; returns the compile reports by build index."""
        from reward_api.verify import languages

        server = languages.compile_server(recipe)
        fields = ("files", "serve", "time_s", "remove") if server else (
            "files", "compile", "env", "time_s", "memory_mb", "max_procs", "remove", "seed_cache")  # fmt: skip
        builds = [{k: specs[i][k] for k in fields if k in specs[i]} for i in picked]
        request = {"op": "compile", "server": server, "builds": builds}
        # a build whose compiler crashes is compiled once more by a fresh server (runner.py)
        budget = sum(2 * (float(b["time_s"]) + 5.0) for b in builds) + 30.0
        pool = self.compile_pool(language)
        with self._stage("compile_cell"), pool.lease(timeout_s=wait_s) as cell:
            cell.prepare(languages.COMPILE_CELL_MB)
            answer = cell.request({**request, **cell.sample_overrides()}, timeout_s=budget)
            if answer.get("anomaly"):  # its /tmp kept what it could not remove
                cell.broken = True
        reports = answer.get("builds")
        if (
            not isinstance(reports, list)
            or len(reports) != len(picked)
            or not all(isinstance(r, dict) for r in reports)
        ):
            raise SandboxError("compile cell answered with a malformed report")
        out: dict[int, dict[str, Any]] = {}
        for i, report in zip(picked, reports, strict=True):
            packed = report.pop("artifact", None)
            if report.get("ok") and isinstance(packed, list):
                specs[i]["artifact"] = packed
            else:
                report["ok"] = False
                specs[i]["failed"] = True
            specs[i].pop("return_artifact", None)
            out[i] = report
        return out

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
        from reward_api.verify import scoring

        with self._stage("extract"):
            units: dict[str, _Work] = {}
            digests: dict[int, str] = {}
            for i, job in enumerate(jobs):
                program = program_of(job.sample)
                digest = digests.get(id(job.problem))
                if digest is None:
                    digest = digests[id(job.problem)] = problem_digest(job.problem)
                key = result_key(digest, program, reward, self.runtime)
                unit = units.get(key)
                if unit is None:
                    resolved = scoring.resolve(reward, (job.problem.metadata or {}).get("reward"))
                    too_large = None
                    if job.problem.language in COMPILED:  # its compiler decides the rest
                        syntax = None if program.strip() else Verdict.no_code
                    elif too_large := oversized_program(program):
                        syntax = Verdict.compile_error
                    else:
                        syntax = syntax_verdict(program)
                    units[key] = _Work(key, digest, job.problem, program, resolved, [i], syntax,
                                       too_large)  # fmt: skip
                else:
                    unit.jobs.append(i)
        results: list[Result | None] = [None] * len(jobs)
        lock = threading.Lock()
        work_list = list(units.values())
        # The static scan (one batched semgrep-core run) goes beside the sandboxes, not before
        # them: a unit that ran before the scan ended waits in ``deferred`` for its report.
        scanned = _Scan()

        def finish(unit: _Work, base: Result) -> None:
            if scanned.error is not None and unit.reward.scan_categories:
                base = base.model_copy(
                    update={"verdict": Verdict.sandbox_error, "reward": None, "accepted": False,
                            "error": scanned.error}
                )  # fmt: skip
            with self._stage("score"):
                result = _finalize(base, unit, scanned.reports.get(unit.key))
            for idx in unit.jobs:
                sample = jobs[idx].sample
                one = result.model_copy(
                    update={"problem_id": sample.problem_id, "sample_id": sample.sample_id}
                )
                with lock:
                    results[idx] = one
                if on_result is not None:
                    on_result(idx, one)

        def scan() -> None:
            try:
                for _attempt in range(2):
                    try:
                        scanned.reports = self._scan(work_list)
                        scanned.error = None
                        break
                    except InfrastructureError as exc:  # retried, then sandbox_error
                        scanned.reports, scanned.error = {}, f"static analysis failed: {exc}"[:500]
            except BaseException as exc:  # a bug of ours: raised by verify, as before
                scanned.crash = exc
            with scanned.lock:
                scanned.done = True
                deferred, scanned.deferred = scanned.deferred, []
            if scanned.crash is None:
                for unit, base in deferred:
                    finish(unit, base)

        def finish_when_scanned(unit: _Work, base: Result) -> None:
            with scanned.lock:
                if not scanned.done:
                    scanned.deferred.append((unit, base))
                    return
            if scanned.crash is None:
                finish(unit, base)

        def run_and_finish(units: list[_Work]) -> None:
            for unit in units:
                try:
                    base = self._run_unit(unit)
                except Exception as exc:
                    # The sample boundary: a fault of ours on one sample (a bug) is logged
                    # loudly and reported as that sample's sandbox_error (no reward, dropped
                    # by trainers); it never costs the rest of the batch its results.
                    log.exception("verifying a sample of %s failed", unit.problem.id)
                    error = f"internal error: {type(exc).__name__}: {exc}"
                    base = sandbox_error_result(unit.problem.id, None, error)
                finish_when_scanned(unit, base)

        scanner = threading.Thread(target=scan, name="verify-scan", daemon=True)
        scanner.start()
        try:
            futures = [self._executor.submit(run_and_finish, t) for t in self._tasks(work_list)]
            for fut in futures:
                fut.result()
        finally:
            scanner.join()
        if scanned.crash is not None:
            raise scanned.crash
        return [r for r in results if r is not None]

    def _tasks(self, units: list[_Work]) -> list[list[_Work]]:
        """Units grouped by problem, so a worker verifies one problem's samples in a row and
        its judge keeps that problem's test code warm; a group is split when there are
        fewer problems than workers, so every worker still has work."""
        groups: dict[str, list[_Work]] = {}
        for u in units:
            groups.setdefault(u.digest, []).append(u)
        split = max(1, -(-self.settings.workers // max(1, len(groups))))
        tasks = []
        for group in groups.values():
            size = max(1, -(-len(group) // split))
            tasks += [group[i : i + size] for i in range(0, len(group), size)]
        return tasks

    def _scan(self, units: list[_Work]) -> dict[str, Any]:
        """One batched semgrep-core run per set of rule categories and language (the hack gate
        needs one set)."""
        groups: dict[tuple[str, ...], list[_Work]] = {}
        for u in units:
            # a program that does not parse is paid 0 anyway; its scan could only stall.
            # A compiled language's program is scanned in its own language (its compiler
            # has not run yet: one that will not compile is still only paid 0)
            if u.reward.scan_categories and u.syntax is None:
                groups.setdefault(tuple(u.reward.scan_categories), []).append(u)
        if not groups:
            return {}
        from reward_api.verify.static_analysis import scan_programs

        out: dict[str, Any] = {}
        with self._stage("scan"):
            for categories, group in groups.items():
                reports = scan_programs(
                    [u.program for u in group],
                    categories=categories,
                    languages=[u.problem.language for u in group],
                )
                out.update({u.key: r for u, r in zip(group, reports, strict=True)})
        return out

    def _run_unit(self, unit: _Work) -> Result:
        from reward_api.verify import scoring

        problem = unit.problem
        base = {"problem_id": problem.id, "sample_id": None}
        verdict = unit.syntax
        indices = scoring.select_tests(problem.tests, unit.reward.max_tests)
        if verdict is not None:
            tests = [TestResult(verdict=verdict, detail=unit.detail) for _ in indices]
            return Result(**base, reward=0.0, accepted=False, passed=0, total=len(indices),
                          verdict=verdict, tests=tests)  # fmt: skip
        compiled = problem.language in COMPILED
        plans = [] if compiled else plan_tests(problem, indices)
        last_error = ""
        for _attempt in range(SANDBOX_ATTEMPTS):
            try:
                if compiled:
                    tests = self._run_compiled(problem, unit, indices)
                else:
                    tests = self._run_in_sandbox(problem, unit, plans)
                break
            except SandboxError as exc:
                last_error = str(exc)
            except ProblemFault as exc:  # the problem's own fault: reported, never retried
                error = PROBLEM_FAULT + str(exc)
                return sandbox_error_result(problem.id, None, error, total=len(indices))
        else:
            return sandbox_error_result(problem.id, None, last_error, total=len(indices))
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

    def _run_in_sandbox(self, problem: Problem, unit: _Work, plans: list[Plan]) -> list[TestResult]:
        limits = problem.limits
        specs: list[dict[str, Any]] = []
        for plan in plans:
            test = problem.tests[plan.index]
            if plan.kind == "stdio":
                assert isinstance(test, StdioTest)
                specs.append({"kind": "stdio", "input": test.input})
            elif plan.kind == "judge":
                specs.append({"kind": "serve"})
            else:
                specs.append({"kind": "calls", "calls": list(plan.calls)})
        numpy = _mentions_numpy(unit.program, problem)
        request = {
            "op": "sample",
            "program": unit.program,
            "setup": problem.setup_code,
            "tests": specs,
            "time_s": limits.time_s,
            "memory_mb": limits.memory_mb,
            "max_output_bytes": self.settings.max_output_bytes,
            "stop_on_first_failure": bool(unit.reward.stop_on_first_failure),
            "stop_after_timeout": unit.reward.mode == "all_or_nothing",
            "numpy": numpy,
        }
        budget = (limits.time_s + 2.0) * max(1, len(plans)) + 30.0
        judged = [i for i, p in enumerate(plans) if p.kind == "judge"]
        outcomes: dict[int, dict[str, Any]] = {}
        with self._stage("sandbox"), self.pool.lease() as cell:
            cell.prepare(limits.memory_mb)
            deadline = time.monotonic() + budget
            with _JudgeSession(self, problem, plans, judged, numpy, unit.digest) as judge:
                if judge.connect(cell):
                    request["peer"] = True
                # the judge is leased and ready before the candidate's clock can start: a
                # judge cell being replaced (a container start, seconds under load) must not
                # count against a candidate's test time
                judge.ready(deadline)
                cell.send_json({**request, **cell.sample_overrides()})
                while True:
                    kind, payload = cell.recv(deadline)
                    if kind != b"J":
                        continue  # a late peer frame of a test that is over
                    event = _json_object(payload, cell)
                    if event.get("ev") == "serving":
                        position = event.get("test")
                        if position not in judged:
                            raise SandboxError("runner served a test that is not the judge's")
                        with self._stage("judge"):
                            outcome = judge.relay(cell, position, deadline)
                        outcomes[position] = outcome
                        stop = bool(unit.reward.stop_on_first_failure) and (
                            outcome.get("verdict") != "pass"
                        )
                        cell.send_json({"op": "end", "stop": stop})
                        continue
                    if "ev" in event:
                        continue  # a "gone" notice after its test ended
                    answer = cell.check(event)
                    break
            reports = answer.get("tests")
            if not isinstance(reports, list) or len(reports) > len(plans):
                raise SandboxError("runner answered with a malformed report")
            oom = _mark_after_sample(cell, answer, reports)
        reports = [rep if isinstance(rep, dict) else {} for rep in reports]
        checks = [Check(plans[k].index, str(rep.get("stdout", ""))) for k, rep in enumerate(reports)
                  if plans[k].kind == "stdio" and ran_to_end(rep, oom)]  # fmt: skip
        checked = self._check(problem, unit, checks)
        with self._stage("grade"):
            tests = [
                grade(problem, plans[i], rep, oom, outcomes.get(i), checked.get(plans[i].index))
                for i, rep in enumerate(reports)
            ]
            for _p in plans[len(reports) :]:
                tests.append(TestResult(verdict=Verdict.skipped, detail="after a decisive failure"))
        with self._stats_lock:
            self.tests_run += len(reports)
        return tests

    def _run_compiled(
        self, problem: Problem, unit: _Work, indices: list[int], lift: bool = True
    ) -> list[TestResult]:
        """A sample in a compiled language (``reward_api.verify.languages``): its builds are
        compiled once each in a cell of the language, then every test is a fork and exec
        of its build's artifact; the host grades what the runner reports. A lifted assert
        test's comparisons run in its judge (``reward_api.verify.lifted``); one that cannot
        be judged there runs again beside the program (``lift`` False)."""
        from reward_api.verify import languages

        limits = problem.limits
        may_lift = self.lifted.usable if lift and self.settings.lift_asserts else None
        every, which_of_every = languages.units_for(problem, unit.program, indices, may_lift)
        if any(u.refused is not None for u in every):
            return self._with_refused(problem, unit, indices, every, which_of_every)
        units, which = every, which_of_every
        specs: list[dict[str, Any]] = []
        for i, b in zip(indices, which, strict=True):
            test = problem.tests[i]
            spec: dict[str, Any] = {"kind": "stdio", "build": b}
            if isinstance(test, StdioTest):
                spec["input"] = test.input
            elif isinstance(test, CallTest):
                spec["input"] = languages.call_input(problem.language, test)
                spec["pass_channel"] = True
            else:
                spec["pass_channel"] = True
                if units[b].nonce_fd:
                    spec["nonce"] = units[b].nonce_fd
            specs.append(spec)
        compile_s = self.settings.compile_time_s
        build_specs = [languages.build_spec(u, limits.memory_mb, compile_s) for u in units]
        source = sum(_json_len(s.get("files")) + _json_len(s.get("input", "")) for s in build_specs)
        if source > MAX_REQUEST_SOURCE_BYTES:
            detail = (f"the program is too large: its {len(build_specs)} builds hold "
                      f"{source >> 20} MiB of source")  # fmt: skip
            return [TestResult(verdict=Verdict.compile_error, detail=detail) for _ in indices]
        keys: list[str | None] = []
        for u, spec in zip(units, build_specs, strict=True):
            # an assert build carries its own nonce: never the same twice, never cached
            key = languages.artifact_key(spec, self.runtime) if u.expect is None else None
            keys.append(key)
            self.artifacts.mark(spec, key)
        if self.headers is not None:  # the key is the unit's: the same artifact either way
            build_specs = [spec if "artifact" in spec else languages.with_header(u, spec, self.headers)
                           for u, spec in zip(units, build_specs, strict=True)]  # fmt: skip
        apart: dict[int, dict[str, Any]] = {}
        for recipe in sorted({u.recipe for u in units} & languages.COMPILED_APART):
            picked = [k for k, (u, spec) in enumerate(zip(units, build_specs, strict=True))
                      if u.recipe == recipe and "artifact" not in spec]  # fmt: skip
            if picked:
                apart.update(self._compile_apart(problem.language, recipe, build_specs, picked))
        for k, done in apart.items():
            key = keys[k]
            if key is not None and done.get("ok"):
                self.artifacts.put(key, build_specs[k]["artifact"])
        # the request holds the tests' inputs and the sources beside the packs
        room = MAX_REQUEST_BYTES - source - sum(_json_len(t.get("input", "")) for t in specs)
        for k in _fit_artifacts(units, build_specs, min(room, MAX_REQUEST_ARTIFACT_BYTES)):
            apart[k] = {"ok": False, "output": "the builds are too large to run together",
                        "limit": None, "signal": None, "time_s": 0.0}  # fmt: skip
        request = {
            "op": "sample",
            "builds": build_specs,
            "tests": specs,
            "time_s": limits.time_s,
            "memory_mb": limits.memory_mb,
            "max_output_bytes": self.settings.max_output_bytes,
            "stop_on_first_failure": bool(unit.reward.stop_on_first_failure),
            "stop_after_timeout": unit.reward.mode == "all_or_nothing",
        }
        budget = (compile_s + 5.0) * len(units) + (limits.time_s + 2.0) * len(specs) + 30.0
        # a judge that needs no value of the program's (or whose types the program's
        # declarations predict) builds meanwhile
        for u in units:
            if u.lift is None or getattr(u.lift[1], "host", None) is not None:
                continue  # no judge, or none unless a recorded line needs Go
            early = u.lift[2] or u.lift_guess
            if early is not None:
                self.lifted.prepare(early, u.recipe)
        pool = self.language_pool(problem.language)
        with self._stage("sandbox"), pool.lease() as cell:
            # the compilers' address space is limited per process; the cell's ceiling must
            # hold the biggest of them as well as the program
            cell.prepare(max(limits.memory_mb, languages.COMPILE_CELL_MB))
            answer = cell.request({**request, **cell.sample_overrides()}, timeout_s=budget)
            reports = answer.get("tests")
            builds = answer.get("builds")
            if (not isinstance(reports, list) or len(reports) > len(specs)
                    or not isinstance(builds, list) or len(builds) != len(units)):  # fmt: skip
                raise SandboxError("runner answered with a malformed report")
            oom = _mark_after_sample(cell, answer, reports)
        for k, done in apart.items():  # the compile's own report, not the unpacking's
            builds[k] = done
        for key, b in zip(keys, builds, strict=True):
            packed = b.pop("artifact", None) if isinstance(b, dict) else None
            if key is not None and isinstance(packed, list) and b.get("ok"):
                self.artifacts.put(key, packed)
        reports = [rep if isinstance(rep, dict) else {} for rep in reports]
        checks = [Check(indices[k], str(rep.get("stdout", ""))) for k, rep in enumerate(reports)
                  if isinstance(problem.tests[indices[k]], StdioTest)
                  and ran_to_end(rep, oom, python=False)]  # fmt: skip
        checked = self._check(problem, unit, checks)
        judged = self._judge_lifted(problem, unit, units, which, reports, builds)
        with self._stats_lock:
            self.stage_seconds["compile"] += sum(
                float(b.get("time_s") or 0) for b in builds if isinstance(b, dict)
            )
            self.tests_run += len(reports)
            self.builds_compiled += sum(
                1 for b in builds if isinstance(b, dict) and not b.get("skipped")
                and not b.get("cached")
            )  # fmt: skip
        with self._stage("grade"):
            tests: list[TestResult | None] = []
            for k, rep in enumerate(reports):
                b = which[k]
                build = builds[b] if isinstance(builds[b], dict) else {}
                if units[b].lift is None:
                    tests.append(languages.grade_compiled(
                        problem, indices[k], units[b], rep, build, oom, checked.get(indices[k])
                    ))  # fmt: skip
                elif k in judged and judged[k] is None:
                    tests.append(None)  # not judged apart: run beside the program below
                else:
                    tests.append(languages.grade_lifted(
                        problem, indices[k], units[b], rep, build, oom, judged.get(k)
                    ))  # fmt: skip
        again = [indices[k] for k, t in enumerate(tests) if t is None]
        if again:
            redone = iter(self._run_compiled(problem, unit, again, lift=False))
            tests = [next(redone) if t is None else t for t in tests]
        out = [t for t in tests if t is not None]
        if unit.reward.stop_on_first_failure:
            # a lifted test's failure is known only after its judge: what ran after it is
            # skipped, as the runner skips what follows a failure it sees
            bad = next((k for k, t in enumerate(out) if t.verdict != Verdict.accepted), None)
            if bad is not None:
                out[bad + 1 :] = [TestResult(verdict=Verdict.skipped, detail="after a decisive failure")
                                  for _ in out[bad + 1 :]]  # fmt: skip
        for _ in indices[len(out) :]:
            out.append(TestResult(verdict=Verdict.skipped, detail="after a decisive failure"))
        return out

    def _judge_lifted(
        self, problem: Problem, unit: _Work, units: list[Any], which: list[int],
        reports: list[dict[str, Any]], builds: list[Any],
    ) -> dict[int, lifted.Judged | None]:  # fmt: skip
        """The judges' outcomes of a sample's lifted tests, by report position: None where
        the test must run beside the program (a type the recorder does not know, a judge
        that does not compile); absent where the recorder wrote no types' line (the program
        ended before the test's ``main``: the candidate's own report decides) or, in Go,
        where the channel holds lines the recorder would not write."""
        jobs: list[tuple[int, tuple[str, str, lifted.Recorded]]] = []
        out: dict[int, lifted.Judged | None] = {}
        for k, rep in enumerate(reports):
            lift = units[which[k]].lift
            if lift is None:
                continue
            code, shape, source = lift
            side = _host_side(problem.language, shape)
            if rep.get("compile_error"):
                build = builds[which[k]] if isinstance(builds[which[k]], dict) else {}
                if getattr(shape, "guessed", False) or (  # entry points read from the test
                    problem.language == "rust" and build.get("limit") is None
                    and lifted_rust.recorder_failed(build.get("output"), units[which[k]].lift_line)
                ):  # fmt: skip
                    out[k] = None
                continue
            rec = side.read(rep.get("pass_channel"), len(shape.calls))
            if rec is None:
                continue
            if rec.types is None:
                out[k] = None
                continue
            host = getattr(shape, "host", None)
            decided = None if host is None or side.decide is None else side.decide(host, rec)
            if decided is not None:  # comparisons with literals: no judge to run
                self.lifted.count_host()
                out[k] = decided
                continue
            if not side.judged:  # no judge: the test runs beside the program
                out[k] = None
                continue
            if source is None and problem.language == "c":
                source = lifted.judge_c(code, shape, rec.types, lifted.includes_c(unit.program))
            elif source is None:  # the judge reads the types this program's calls returned
                source = lifted.judge(code, shape, rec.types, lifted.judge_context(unit.program))
            jobs.append((k, (code, source, rec)))
        retry: list[tuple[int, tuple[str, str, lifted.Recorded]]] = []
        if jobs:
            with self._stage("judge"):
                done = self.lifted.judge([j for _k, j in jobs], problem.limits.time_s,
                                         problem.language)  # fmt: skip
            for (k, (code, tried, rec)), judged in zip(jobs, done, strict=True):
                out[k] = None if judged.outcome == "broken" else judged
                if judged.outcome == "broken" and problem.language == "cpp":
                    std = lifted.judge(
                        code,
                        units[which[k]].lift[1],
                        rec.types,
                        lifted.judge_context(unit.program, lifted.USING_STD),
                    )
                    if std != tried:
                        retry.append((k, (code, std, rec)))
        if retry:
            # a test written for ``using namespace std`` that the program gave it some other
            # way (``namespace cr { using namespace std; } using namespace cr;``): judged with
            # it before going back beside the program
            with self._stage("judge"):
                done = self.lifted.judge([j for _k, j in retry], problem.limits.time_s,
                                         problem.language)  # fmt: skip
            for (k, _j), judged in zip(retry, done, strict=True):
                out[k] = None if judged.outcome == "broken" else judged
        return out

    def _with_refused(self, problem: Problem, unit: _Work, indices: list[int],
                      units: list[Any], which: list[int]) -> list[TestResult]:  # fmt: skip
        """A sample whose call tests name an entry point that cannot be called: those tests
        are ``compile_error`` without a build; the others run (up to the first refused
        one when the sample stops on its first failure)."""
        from reward_api.verify import languages

        refused = [units[b].refused is not None for b in which]
        if unit.reward.stop_on_first_failure:
            first = refused.index(True)
            ran = self._run_compiled(problem, unit, indices[:first]) if first else []
            if any(t.verdict != Verdict.accepted for t in ran):
                rest = [TestResult(verdict=Verdict.skipped, detail="after a decisive failure")]
                return ran + rest * (len(indices) - len(ran))
            detail = units[which[first]].refused
            skipped = TestResult(verdict=Verdict.skipped, detail="after a decisive failure")
            return [*ran, TestResult(verdict=Verdict.compile_error, detail=detail),
                    *[skipped] * (len(indices) - first - 1)]  # fmt: skip
        runnable = [i for i, r in zip(indices, refused, strict=True) if not r]
        results = iter(self._run_compiled(problem, unit, runnable) if runnable else [])
        return [
            languages.grade_compiled(problem, i, units[b], {}, {}, False) if r else next(results)
            for i, b, r in zip(indices, which, refused, strict=True)
        ]

    # ------------------------------------------------------------------ one-off runs
    def pool_for(self, language: str) -> CellPool:
        """The cells that run programs in ``language`` (Python's, or a compiled language's)."""
        name = canonical_language(language) or language
        return self.language_pool(name) if name in COMPILED else self.pool

    def run_program(
        self,
        code: str,
        stdin: str,
        time_s: float,
        memory_mb: int,
        wait_s: float | None = None,
        language: str = "python",
        compile_time_s: float | None = None,
    ) -> dict[str, Any]:
        """Run ``code`` once on ``stdin`` in a cell (SandboxFusion's /run_code); no grading.

        In a compiled language the program is built first (its compile limited to
        ``compile_time_s``) and the answer carries ``compile``: ``ok``, ``time_s`` and the
        compiler's ``output``; a program that does not compile is not run.

        The caller compares stdout itself, so nothing expected ever reaches us. Returns
        ``stdout``, ``stderr`` (tail), ``exit_code`` (None when killed), ``signal`` (the one
        that killed it, else None), ``time_s`` and ``limit`` (``timeout``, ``output_limit`` or
        None), or ``{"error": ...}`` when the sandbox itself failed (with ``"busy": True``
        when no cell was free within ``wait_s``).
        """
        from reward_api.verify import languages

        name = canonical_language(language) or language
        message: dict[str, Any] = {
            "op": "sample",
            "program": code,
            "setup": None,
            "tests": [{"kind": "stdio", "input": stdin}],
            "time_s": time_s,
            "memory_mb": memory_mb,
            "max_output_bytes": self.settings.max_output_bytes,
            "stop_on_first_failure": True,
        }
        budget = time_s + 30
        cell_mb = memory_mb
        if name in COMPILED:
            limit_s = self.settings.compile_time_s
            compile_s = min(compile_time_s or limit_s, limit_s)
            unit = languages.stdio_unit(name, code)
            spec = languages.build_spec(unit, memory_mb, compile_s)
            if self.headers is not None:
                spec = languages.with_header(unit, spec, self.headers)
            message.update(program=None, builds=[spec])
            message["tests"] = [{"kind": "stdio", "input": stdin, "build": 0}]
            budget += compile_s
            cell_mb = max(memory_mb, languages.COMPILE_CELL_MB)
        apart: dict[int, dict[str, Any]] = {}
        try:
            if name in COMPILED and unit.recipe in languages.COMPILED_APART:
                apart = self._compile_apart(name, unit.recipe, [spec], [0], wait_s)
            pool = self.pool_for(name)
            with self._stage("sandbox"), pool.lease(timeout_s=wait_s) as cell:
                cell.prepare(cell_mb)
                answer = cell.request({**message, **cell.sample_overrides()}, timeout_s=budget)
                if answer.get("anomaly"):
                    cell.broken = True
        except SandboxBusy as exc:
            return {"error": f"sandbox busy: {exc}", "busy": True}
        except InfrastructureError as exc:
            return {"error": f"sandbox failed: {exc}"}
        tests = answer.get("tests")
        if not isinstance(tests, list) or not tests or not isinstance(tests[0], dict):
            return {"error": "sandbox answered without a test report"}
        t = tests[0]
        out: dict[str, Any] = {
            "stdout": str(t.get("stdout", "")),
            "stderr": str(t.get("stderr_tail", ""))[-MAX_RUN_STDERR_CHARS:],
            "exit_code": t.get("exit_code"),
            "signal": t.get("signal"),
            "time_s": t.get("time_s"),
            "limit": t.get("limit"),
        }
        builds = list(apart.values()) or answer.get("builds")
        if name in COMPILED and isinstance(builds, list) and builds and isinstance(builds[0], dict):
            b = builds[0]
            out["compile"] = {"ok": bool(b.get("ok")), "time_s": b.get("time_s"),
                              "output": str(b.get("output", ""))[-MAX_RUN_STDERR_CHARS:],
                              "limit": b.get("limit")}  # fmt: skip
        return out

    def self_check(self) -> bool:
        """True when the sandbox runs a trivial program and grades it accepted."""
        problem = Problem.model_validate(
            {"id": "_selfcheck", "tests": [{"type": "stdio", "input": "2\n", "output": "4"}]}
        )
        sample = Sample(problem_id="_selfcheck", code="print(int(input()) * 2)")
        (result,) = self.verify([Job(problem, sample)])
        return result.verdict is Verdict.accepted


class ArtifactCache:
    """Packed builds (``runner._pack``) by content key, least recently used first out,
    bounded in bytes; thread-safe."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[str, tuple[list[Any], int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0

    def __contains__(self, key: str) -> bool:
        with self._lock:
            return key in self._items

    def get(self, key: str | None) -> list[Any] | None:
        with self._lock:
            item = self._items.get(key) if key else None
            if item is None:
                return None
            self._items.move_to_end(key)  # type: ignore[arg-type]
            self.hits += 1
            return item[0]

    def mark(self, build: dict[str, Any], key: str | None) -> dict[str, Any]:
        """``build`` (a runner build spec), given its cached artifact to unpack, or asked to
        return the artifact it compiles (a build without a key: neither); returns it."""
        cached = self.get(key)
        if cached is not None:
            build["artifact"] = cached
        elif key is not None:
            build["return_artifact"] = True
        return build

    def put(self, key: str, packed: list[Any]) -> None:
        size = sum(len(str(f[2])) for f in packed if isinstance(f, list) and len(f) == 3)
        if size > self.max_bytes:
            return
        with self._lock:
            if key in self._items:
                return
            self._items[key] = (packed, size)
            self._bytes += size
            while self._bytes > self.max_bytes and self._items:
                _, (_, old) = self._items.popitem(last=False)
                self._bytes -= old


def _json_object(payload: bytes, cell: Cell) -> dict[str, Any]:
    try:
        msg = json.loads(payload)
    except ValueError as exc:
        cell.broken = True
        raise SandboxError(f"runner sent bad JSON: {exc}") from exc
    if not isinstance(msg, dict):
        cell.broken = True
        raise SandboxError("runner sent a non-object")
    return msg


class _JudgeSession:
    """A judge cell for one sample, leased at the first test it must run.

    ``relay`` runs one test: the judge's child executes the test code, and the peer frames
    of its calls go to the candidate's child and back through the host, which parses none
    of them. The session ends with the sample; a judge that did not end cleanly is recycled.
    """

    def __init__(
        self,
        verifier: Verifier,
        problem: Problem,
        plans: list[Plan],
        judged: list[int],
        numpy: bool,
        key: str,
    ) -> None:
        self.verifier = verifier
        self.problem = problem
        self.positions = {p: k for k, p in enumerate(judged)}
        self.tests = [{"code": _assert_code(problem, plans[p]), "entry": list(plans[p].entry)}
                      for p in judged]  # fmt: skip
        self.numpy = numpy
        self.key = key
        self._lease: Any = None
        self.cell: Cell | None = None
        self.direct = False
        """The judge's child and the candidate's talk over one socket, not via the host."""

    def __enter__(self) -> _JudgeSession:
        return self

    def _lease_judge(self) -> Cell:
        if self.cell is None:
            # a judge that ran this problem last still holds its test code in a warm child
            self._lease = self.verifier.judges.lease(prefer=self.key)
            self.cell = self._lease.__enter__()
            self._ready = False
            self._started = False
        return self.cell

    def connect(self, cand: Cell) -> bool:
        """Where both cells take descriptors (the process backend), give each one end of a
        socket pair, so calls go child to child; else the host relays them. True if direct."""
        if not self.tests or not cand.supports_fd_passing:
            return False
        judge = self._lease_judge()
        if not judge.supports_fd_passing:
            return False
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            cand.pass_fd(a.fileno())
            judge.pass_fd(b.fileno())
        finally:
            a.close()
            b.close()
        self.direct = True
        return True

    def start(self) -> None:
        """Lease a judge and start its session (before the candidate gets its sample)."""
        if not self.tests:
            return
        self._lease_judge()
        assert self.cell is not None
        if self._started:
            return
        self._started = True
        limits = self.problem.limits
        self.cell.prepare(max(limits.memory_mb, 256))
        self.cell.send_json({
            "op": "judge",
            "setup": self.problem.setup_code,
            "tests": self.tests,
            "time_s": limits.time_s,
            "memory_mb": max(limits.memory_mb, 256),
            "numpy": self.numpy,
            "peer": self.direct,
            "key": self.key,
        })  # fmt: skip

    def ready(self, deadline: float) -> None:
        """Lease the judge, start its session and wait until it is ready (no-op without
        judged tests)."""
        if self.tests:
            self._open(deadline)

    def _open(self, deadline: float) -> Cell:
        self.start()
        assert self.cell is not None
        if not self._ready:
            ready = self.cell.recv_json(deadline)
            if ready.get("ev") != "judge_ready":
                self.cell.check(ready)
                raise SandboxError("the judge did not start")
            self._ready = True
        return self.cell

    def relay(self, cand: Cell, position: int, deadline: float) -> dict[str, Any]:
        """Run the judge test at ``position`` against the serving candidate; its outcome."""
        judge = self._open(deadline)
        judge.send_json({"op": "run", "test": self.positions[position]})
        test_deadline = min(deadline, time.monotonic() + self.problem.limits.time_s + 10.0)
        cand_fd, judge_fd = cand.fileno(), judge.fileno()
        while True:
            moved = False
            for kind, payload in cand.poll(0.0):
                moved = True
                if kind == b"P":
                    judge.send(b"P", payload)
                else:
                    event = _json_object(payload, cand)
                    if event.get("ev") == "gone":
                        judge.send_json({"op": "gone", "reason": str(event.get("reason"))})
                    elif "ev" not in event:
                        cand.check(event)
                        raise SandboxError("the candidate ended its sample during a judged test")
            for kind, payload in judge.poll(0.0):
                moved = True
                if kind == b"P":
                    cand.send(b"P", payload)
                    continue
                event = _json_object(payload, judge)
                if event.get("ev") == "verdict":
                    return event
                if "ev" not in event:
                    judge.check(event)
                    raise SandboxError("the judge ended its session during a test")
            if moved:
                continue
            if time.monotonic() > test_deadline:
                judge.broken = True
                raise SandboxError("the judge did not finish its test in time")
            select.select([cand_fd, judge_fd], [], [], 0.05)

    def __exit__(self, *exc: object) -> None:
        if self.cell is None:
            return
        try:
            if not self.cell.broken:
                # the judge cleans up while the sample goes on; its answer is read before
                # the cell's next lease (CellPool settles it), and an unclean end recycles it
                self.cell.send_json({"op": "close"})
                self.cell.owe(lambda answer: bool(answer.get("clean")))
        except SandboxError:
            self.cell.broken = True
        finally:
            self._lease.__exit__(None, None, None)


def _assert_code(problem: Problem, plan: Plan) -> str:
    test = problem.tests[plan.index]
    assert isinstance(test, AssertTest)
    return test.code


def _mentions_numpy(program: str, problem: Problem) -> bool:
    """Whether the runner should warm numpy first (so numpy values are recognised as such)."""
    if "numpy" in program or "numpy" in (problem.setup_code or ""):
        return True
    return any(isinstance(t, AssertTest) and "numpy" in t.code for t in problem.tests)


def _finalize(base: Result, unit: _Work, static: Any) -> Result:
    """Reward, reward_parts and the static block, from the preset (reward_api.verify.scoring)."""
    from reward_api.verify import scoring

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


MAX_REQUEST_SOURCE_BYTES = 64 << 20
"""The source text (as JSON) of one sample's builds: each build carries the program (one
per call entry point, one per assert test, one for the stdio tests). A C program of 40 MB
(a comment) in two builds made a request the runner could not read, and a program with no
bound on its size would pass any bound on frames: a ``sandbox_error`` of its own making.
Past it, the sample is a ``compile_error`` that says so. A Python program has the same
bound (``oversized_program``): one of 300 MiB (a comment) broke its cell's pipe, three
times over (``sandbox_error``). Under the bound the static scan still reads the whole
program, about a second per MiB, while the batch's results wait for it."""
MAX_REQUEST_BYTES = 240 << 20
"""One request to a run cell, as JSON (the runner reads the host's frames up to 256 MiB)."""
MAX_REQUEST_ARTIFACT_BYTES = 160 << 20
"""Packed builds one sample's request may carry (the runner reads frames of up to 256 MiB).
A program with a 30 MB static array has a 40 MB pack in each of its builds (one per call
entry point, one for its stdio tests); more than the runner could read in one request was
its death, and the sample's ``sandbox_error``."""


def _json_len(value: Any) -> int:
    return len(json.dumps(value))


def _packed_size(packed: Any) -> int:
    """About the JSON bytes of a packed build (its base64 text dominates)."""
    if not isinstance(packed, list):
        return 0
    return sum(len(str(f[0])) + len(str(f[-1])) + 32 for f in packed if isinstance(f, list) and f)


def _fit_artifacts(units: list[Any], specs: list[dict[str, Any]], room: int) -> list[int]:
    """Keep the packed builds of a request within ``room`` bytes, largest
    first out: a build the cell can compile itself is compiled there again (its cached pack
    is left out); one compiled apart cannot run without its pack and fails (the indices
    returned: a ``compile_error`` of the program's own size)."""
    from reward_api.verify import languages

    sizes = {k: _packed_size(s.get("artifact")) for k, s in enumerate(specs) if "artifact" in s}
    total = sum(sizes.values())
    failed = []
    for k in sorted(sizes, key=sizes.__getitem__, reverse=True):
        if total <= room:
            break
        total -= sizes[k]
        specs[k].pop("artifact")
        specs[k].pop("return_artifact", None)
        if units[k].recipe in languages.COMPILED_APART:
            specs[k]["failed"] = True
            failed.append(k)
    return failed


def _mark_after_sample(cell: Cell, answer: dict[str, Any], reports: list[Any]) -> bool:
    """Whether a test of the sample was OOM-killed; a cell whose sample hit a limit, was
    killed (SIGKILL: the OOM killer or a limit) or caused an anomaly is recycled at once
    (the sample's own reports still stand). A program that died of its own signal (a failed
    C ``assert``'s SIGABRT, a segfault) leaves no more behind than one that exited: the
    runner kills and clears the same after both, so its cell stays warm."""
    killed = any(isinstance(r, dict) and r.get("signal") == 9 for r in reports)
    oom = killed and cell.oom_killed()
    limits_hit = any(isinstance(r, dict) and r.get("limit") for r in reports)
    if answer.get("anomaly") or limits_hit or killed:
        cell.broken = True
    return oom
