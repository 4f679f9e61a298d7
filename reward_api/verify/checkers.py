"""Checkers: a problem's own program that decides its stdio tests (a special judge).

A problem with many valid answers (APPS, TACO, CodeContests) carries a ``checker``
(``{"language", "code"}``, CONTRACT.md). For every stdio test whose candidate ran to its end
(exit 0, within its limits) the candidate's stdout comes back to the host as usual; then
the checker decides, instead of the problem's comparator:

1. A checker in a compiled language is built once (``build_spec``, its language's recipe
   in ``reward_api.verify.languages``; C++ finds ``testlib.h`` on the cpp root's include
   path). The artifact is cached on the host by content hash (``languages.artifact_key``),
   so the next sample of the problem unpacks it; while one sample compiles a checker, the
   others of the same checker wait for its artifact instead of compiling it again. A
   Python checker needs no build: it was parsed when the problem was validated, and the
   runner forks it from its warm interpreter like a program (no interpreter start per
   check), with ``sys.argv`` set.
2. All of a sample's checks run in one request to one cell of the checker's language,
   from the checker pool (``Verifier.checker_pool``): cells that run checkers only, never
   a candidate's program, and never the candidate's own cell (which is released before).
   Each check is a fork (and exec of the artifact) as ``checker input.txt output.txt
   answer.txt``, the three files written in its working folder for that check alone
   (base64 on the wire, so NUL bytes and binary output cross intact; invalid UTF-8 was
   already replaced by U+FFFD when the candidate's stdout was read).
3. The candidate's output is untrusted data for the checker: each check runs under
   ``CHECK_TIME_S`` wall seconds, ``CHECK_MEMORY_MB`` of address space, ``CHECK_OUTPUT_BYTES``
   of output and the cell's policy (no network, read-only root, fresh ``/tmp``).

Verdicts (exit status of ``checker INPUT OUTPUT ANSWER``, testlib's codes):

==============================================  ===============================================
checker outcome                                 test verdict
==============================================  ===============================================
exit 0                                          ``accepted``
exit 1, 2, 4, 7, 8 (testlib's _wa, _pe, _dirt,  ``wrong_answer`` (the checker's message is not
_points, _unexpected_eof)                       shown: it may quote the expected answer)
any other failure: exit 3 (_fail) or another    the checker is run again on the test's own
status, a signal, a timeout, too much output,   answer as the output (the *control*): if it
a Python exception (a traceback on stderr)      accepts that, the candidate's output made it
                                                fail: ``wrong_answer``; if not, the checker is
                                                broken: ``ProblemFault``
the checker does not compile                    ``ProblemFault`` with the compiler's message
==============================================  ===============================================

Why the control: a crash on a hostile output (garbage, a huge token, NUL bytes) must cost
the candidate its reward and must not let it escape to ``sandbox_error`` (no program may
cause one), while a checker that fails on valid output is the problem's fault, not the
candidate's. Running the checker on the jury's answer, which no candidate touches, tells
the two apart. A ``ProblemFault`` becomes the sample's ``sandbox_error`` (reward null: a
trainer drops it) with the reason, and is not retried; a checker that does not compile is
remembered by its content hash, so the next sample of the problem is not compiled for it.
"""

from __future__ import annotations

import base64
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reward_api.errors import ProblemFault, SandboxError
from reward_api.sandbox import Cell, CellPool
from reward_api.schemas import Checker, Problem, StdioTest, TestResult, Verdict
from reward_api.verify import languages
from reward_api.verify.grading import clean_text

CHECK_TIME_S = 10.0
"""Wall seconds one check may take (at least the problem's own ``time_s``)."""
CHECK_MEMORY_MB = 1024
"""Address space of one check (a JVM's or Go's reservation comes on top, as for programs)."""
CHECK_OUTPUT_BYTES = 1 << 20
"""Stdout (and stderr) a check may write; more is the checker's failure."""
MAX_REQUEST_BYTES = 40 << 20
"""Files of the checks one request carries (the runner's frames are at most 64 MiB); a
sample whose checks need more sends several requests in the same lease."""
FILES = ("input.txt", "output.txt", "answer.txt")
REJECTS = {1: "wrong answer", 2: "presentation error", 4: "extra output",
           7: "partial score", 8: "unexpected end of output"}  # fmt: skip
"""testlib's exit codes that reject the output (the checker itself worked)."""
_PY_EXCEPTION = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)\b")
MAX_BROKEN = 1024


def pool_language(checker: Checker) -> str:
    """The pool a checker's cells come from: its language's (python and python3 share)."""
    return "python" if checker.language in ("python", "python3") else checker.language


def build_spec(checker: Checker, compile_s: float) -> dict[str, Any]:
    """The runner's build of a checker in a compiled language (``_Builds`` in runner.py)."""
    unit = languages.stdio_unit(checker.language, checker.code)
    return languages.build_spec(unit, CHECK_MEMORY_MB, compile_s)


@dataclass(frozen=True)
class Check:
    """One stdio test to decide: the test's index in ``problem.tests`` and what the
    candidate printed."""

    index: int
    output: str


@dataclass
class _Lease:
    """A checker cell for one sample's checks; ``spoiled``: a check hit a limit or left an
    anomaly, so the cell is recycled when the lease ends (not before its control runs)."""

    cell: Cell
    spoiled: bool = False


def _b64(text: str) -> str:
    # a lone surrogate (possible in a problem's JSON) cannot be UTF-8: written as '?'
    return base64.b64encode(text.encode("utf-8", "replace")).decode("ascii")


class Checkers:
    """Runs problems' checkers in their own cells; thread-safe.

    ``pool_for(language)`` gives the checker cells of a language; ``artifacts`` is the
    verifier's ``ArtifactCache``; ``runtime`` is part of every artifact key."""

    def __init__(
        self, pool_for: Callable[[str], CellPool], artifacts: Any, runtime: str,
        compile_time_s: float,
    ) -> None:  # fmt: skip
        self.pool_for = pool_for
        self.artifacts = artifacts
        self.runtime = runtime
        self.compile_time_s = compile_time_s
        self._broken: dict[str, str] = {}
        """Checkers that did not compile, by artifact key: the reason."""
        self._locks: dict[str, threading.Lock] = {}
        self._tried: set[str] = set()
        """Checkers whose first compile was waited for (by artifact key)."""
        self._lock = threading.Lock()
        self.checks_run = 0
        """Checker runs (checks and control runs)."""
        self.requests = 0
        """Requests to checker cells (one per sample, unless its files need more)."""
        self.compiles = 0
        """Checker builds compiled (not unpacked from the artifact cache)."""

    def check(self, problem: Problem, checks: list[Check], stop: bool) -> dict[int, TestResult]:
        """The verdict of each check, by test index (``skipped`` after a rejection when
        ``stop``); ``ProblemFault`` when the checker is broken (module docstring)."""
        checker = problem.checker
        if checker is None or not checks:
            return {}
        if pool_language(checker) == "python":  # forked from the warm runner: no build
            return self._session(problem, None, None, checks, stop)
        spec = build_spec(checker, self.compile_time_s)
        # its own namespace: a candidate that submits the checker's source never shares
        # its artifact (built in a candidate cell) with the checker
        key = languages.artifact_key(spec, f"{self.runtime}/checker")
        if key in self._broken:
            raise ProblemFault(self._broken[key])
        if key not in self.artifacts and key not in self._tried:
            with self._lock:
                lock = self._locks.setdefault(key, threading.Lock())
            with lock:  # the first sample of a checker compiles it; the others wait for it
                if key in self._broken:
                    raise ProblemFault(self._broken[key])
                if key not in self.artifacts and key not in self._tried:
                    try:
                        return self._session(problem, spec, key, checks, stop)
                    finally:
                        with self._lock:
                            # waited for once: an artifact the cache cannot keep (too big,
                            # or a cache of 0 MiB) is then compiled by each sample, in parallel
                            if len(self._tried) >= MAX_BROKEN:
                                self._tried.clear()
                            self._tried.add(key)
                            self._locks.pop(key, None)
        return self._session(problem, spec, key, checks, stop)

    # ------------------------------------------------------------------ one lease
    def _session(
        self,
        problem: Problem,
        spec: dict[str, Any] | None,
        key: str | None,
        checks: list[Check],
        stop: bool,
    ) -> dict[int, TestResult]:
        assert problem.checker is not None
        time_s = max(CHECK_TIME_S, problem.limits.time_s)
        items: list[tuple[int, dict[str, str]]] = []
        out: dict[int, TestResult] = {}
        for c in checks:
            test = problem.tests[c.index]
            assert isinstance(test, StdioTest)
            files = {FILES[0]: _b64(test.input), FILES[2]: _b64(test.output)}
            if sum(map(len, files.values())) > MAX_REQUEST_BYTES:
                raise ProblemFault(f"test {c.index} is too large for its checker")
            files[FILES[1]] = _b64(c.output)
            if sum(map(len, files.values())) > MAX_REQUEST_BYTES:
                out[c.index] = TestResult(verdict=Verdict.output_limit,
                                          detail="output too large for the checker")  # fmt: skip
                continue
            items.append((c.index, files))
        pool = self.pool_for(pool_language(problem.checker))
        with pool.lease() as cell:
            cell.prepare(max(CHECK_MEMORY_MB, languages.COMPILE_CELL_MB))
            lease = _Lease(cell)
            try:
                self._checks(lease, problem, spec, key, items, time_s, stop, out)
            finally:
                cell.broken |= lease.spoiled
        for c in checks:
            out.setdefault(c.index, TestResult(verdict=Verdict.skipped,
                                               detail="after a decisive failure"))  # fmt: skip
        return out

    def _checks(
        self, lease: _Lease, problem: Problem, spec: dict[str, Any] | None, key: str | None,
        items: list[tuple[int, dict[str, str]]], time_s: float, stop: bool,
        out: dict[int, TestResult],
    ) -> None:  # fmt: skip
        """Every check of a sample, then the control runs of those the checker failed."""
        assert problem.checker is not None
        failed: dict[int, str] = {}
        rejected = False
        for group in _groups(items):
            if stop and rejected:
                break
            reports = self._request(lease, problem, spec, key, group, time_s, stop)
            for (index, _files), rep in zip(group, reports, strict=False):
                verdict = self._verdict(problem.checker, rep)
                if isinstance(verdict, str):
                    failed[index] = verdict
                else:
                    out[index] = verdict
                rejected |= not (isinstance(verdict, TestResult) and
                                 verdict.verdict == Verdict.accepted)  # fmt: skip
        if failed:
            self._control(lease, problem, spec, key, items, failed, time_s, out)

    def _control(
        self, lease: _Lease, problem: Problem, spec: dict[str, Any] | None, key: str | None,
        items: list[tuple[int, dict[str, str]]], failed: dict[int, str], time_s: float,
        out: dict[int, TestResult],
    ) -> None:  # fmt: skip
        """Run the checker on each failed test's own answer: whose fault was it?"""
        assert problem.checker is not None
        group = [(i, {**f, FILES[1]: f[FILES[2]]}) for i, f in items if i in failed]
        for part in _groups(group):
            reports = self._request(lease, problem, spec, key, part, time_s, stop=False)
            if len(reports) != len(part):
                raise SandboxError("the checker cell answered fewer control runs than asked")
            for (index, _f), rep in zip(part, reports, strict=True):
                verdict = self._verdict(problem.checker, rep)
                if isinstance(verdict, TestResult) and verdict.verdict == Verdict.accepted:
                    out[index] = TestResult(
                        verdict=Verdict.wrong_answer,
                        detail=f"the checker failed on this output ({failed[index]}); it "
                        "accepts the test's own answer",
                    )
                    continue
                why = verdict if isinstance(verdict, str) else "it rejects it"
                raise ProblemFault(
                    f"the problem's checker fails on the answer of test {index} ({why}); "
                    "the candidate is not judged"
                )

    def _request(
        self, lease: _Lease, problem: Problem, spec: dict[str, Any] | None, key: str | None,
        group: list[tuple[int, dict[str, str]]], time_s: float, stop: bool,
    ) -> list[dict[str, Any]]:  # fmt: skip
        """One ``sample`` request of checks; the reports, one per check that ran."""
        assert problem.checker is not None
        tests: list[dict[str, Any]] = [{"kind": "stdio", "args": list(FILES), "files": files}
                                       for _i, files in group]  # fmt: skip
        request: dict[str, Any] = {
            "op": "sample", "tests": tests, "time_s": time_s, "memory_mb": CHECK_MEMORY_MB,
            "max_output_bytes": CHECK_OUTPUT_BYTES, "stop_on_first_failure": stop,
        }  # fmt: skip
        budget = (time_s + 2.0) * len(tests) + 30.0
        if spec is None:  # python: the runner forks the checker as it forks programs
            request.update(program=problem.checker.code, setup=None)
        else:
            request["builds"] = [self.artifacts.mark(dict(spec), key)]
            for t in tests:
                t["build"] = 0
            budget += self.compile_time_s + 5.0
        cell = lease.cell
        answer = cell.request({**request, **cell.sample_overrides()}, timeout_s=budget)
        reports, builds = answer.get("tests"), answer.get("builds")
        if not isinstance(reports, list) or len(reports) > len(tests):
            raise SandboxError("the checker cell answered with a malformed report")
        if spec is not None and (not isinstance(builds, list) or len(builds) != 1
                                 or not isinstance(builds[0], dict)):  # fmt: skip
            raise SandboxError("the checker cell answered with a malformed build report")
        if answer.get("anomaly") or any(
            isinstance(r, dict) and (r.get("limit") or r.get("signal")) for r in reports
        ):
            lease.spoiled = True  # recycled once this lease ends (a control run may follow)
        with self._lock:
            self.checks_run += len(reports)
            self.requests += 1
        if spec is not None:
            assert isinstance(builds, list) and key is not None
            self._built(key, builds[0])
        return [r if isinstance(r, dict) else {} for r in reports]

    def _built(self, key: str, b: dict[str, Any]) -> None:
        """Keep a compiled checker's artifact, or raise ``ProblemFault`` when it did not compile."""
        packed = b.pop("artifact", None)
        if not b.get("cached"):
            with self._lock:
                self.compiles += 1
        if not b.get("ok"):
            if b.get("limit") or b.get("signal") is not None:
                raise ProblemFault("the problem's checker did not compile within its limits "
                                   "(time, memory or output)")  # fmt: skip
            message = clean_text(b.get("output", ""), languages.MAX_COMPILE_MESSAGE_CHARS)
            reason = f"the problem's checker does not compile: {message or 'compile error'}"
            with self._lock:
                if len(self._broken) < MAX_BROKEN:
                    self._broken[key] = reason
            raise ProblemFault(reason)
        if isinstance(packed, list):
            self.artifacts.put(key, packed)

    @staticmethod
    def _verdict(checker: Checker, rep: dict[str, Any]) -> TestResult | str:
        """The verdict of one check, or why the checker failed (a str: see ``_control``)."""
        if rep.get("files_error"):
            return f"its files could not be written: {clean_text(rep['files_error'], 100)}"
        limit = rep.get("limit")
        if limit == "timeout":
            return "it timed out"
        if limit:
            return "it wrote too much" if limit == "output_limit" else f"limit {limit}"
        if rep.get("signal") is not None:
            return f"it was killed by signal {rep.get('signal')}"
        code = rep.get("exit_code")
        if code == 0:
            return TestResult(verdict=Verdict.accepted)
        if code == 1 and pool_language(checker) == "python" and _python_raised(rep):
            return "it raised an exception"
        if isinstance(code, int) and code in REJECTS:
            return TestResult(verdict=Verdict.wrong_answer,
                              detail=f"the checker rejected the output ({REJECTS[code]})")  # fmt: skip
        return f"exit status {code}"


def _python_raised(rep: dict[str, Any]) -> bool:
    tail = str(rep.get("stderr_tail", ""))
    if "Traceback (most recent call last):" in tail:
        return True
    lines = [line for line in tail.splitlines() if line.strip()]
    return bool(lines) and bool(_PY_EXCEPTION.match(lines[-1]))


def _groups(
    items: list[tuple[int, dict[str, str]]],
) -> list[list[tuple[int, dict[str, str]]]]:
    """Checks cut into requests of at most ``MAX_REQUEST_BYTES`` of files each."""
    groups: list[list[tuple[int, dict[str, str]]]] = []
    size = MAX_REQUEST_BYTES + 1
    for item in items:
        n = sum(map(len, item[1].values())) + 256
        if size + n > MAX_REQUEST_BYTES:
            groups.append([])
            size = 0
        groups[-1].append(item)
        size += n
    return groups
