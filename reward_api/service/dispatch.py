"""Where the gateway sends work it could not answer from the cache: two real backends.

- ``EmbeddedDispatch`` (no broker, this module): calls ``Verifier.verify`` on a thread of
  the gateway process; results are cached in an in-memory LRU. It imports no Celery.
- ``CeleryDispatch`` (``CODEREWARD_BROKER_URL``, ``reward_api.service.broker``): Celery
  tasks on Redis, imported only when a broker is configured.

Errors raised to the gateway: ``BrokerUnavailable`` (publishing failed: answer 503).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import anyio
import redis

from reward_api.errors import InfrastructureError
from reward_api.schemas import Problem, Result, RewardSettings, Sample, sandbox_error_result
from reward_api.service.cache import MemoryCache
from reward_api.service.settings import ServiceSettings
from reward_api.verify.pipeline import Job, Verifier

Progress = Callable[[int], Coroutine[Any, Any, None]]
_progress_tasks: set[asyncio.Task[None]] = set()


def _spawn(coro: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(coro)
    _progress_tasks.add(task)
    task.add_done_callback(_progress_tasks.discard)


# any Redis failure (refused, unreachable, protected mode, NOAUTH, READONLY) is a 503; the
# broker's own publish errors are turned into BrokerUnavailable by the broker dispatch
REDIS_ERRORS: tuple[type[Exception], ...] = (redis.RedisError,)
SELF_CHECK_EVERY_S = 10.0
RUN_ATTEMPTS = 3


def run_program_retrying(
    verifier: Verifier,
    code: str,
    stdin: str,
    time_s: float,
    memory_mb: int,
    wait_s: float,
    language: str = "python",
    compile_time_s: float | None = None,
) -> dict[str, Any]:
    """``Verifier.run_program`` with infrastructure failures retried in fresh cells.

    A failed cell is closed, so the next attempt gets another one; no retry while the
    pool cannot start cells (a broken sandbox answers at once) or past ``wait_s``.
    Used by both dispatches: the embedded one here, the worker's ``run_code`` task.
    """
    deadline = time.monotonic() + wait_s
    report: dict[str, Any] = {}
    for _ in range(RUN_ATTEMPTS):
        left = deadline - time.monotonic()
        if left <= 0:
            return {"error": "no sandbox cell was free in time", "busy": True}
        report = verifier.run_program(
            code, stdin, time_s, memory_mb, wait_s=left, language=language,
            compile_time_s=compile_time_s,
        )  # fmt: skip
        if "error" not in report or report.get("busy") or not verifier.pool_for(language).healthy:
            return report
    return report


@dataclass(frozen=True)
class Work:
    """One unique item to verify: its cache key, problem digest, problem and sample."""

    key: str
    digest: str
    problem: Problem
    sample: Sample


class Dispatch(Protocol):
    """What the gateway needs of a backend (``EmbeddedDispatch``, ``CeleryDispatch``)."""

    settings: ServiceSettings
    runtime: str

    async def cache_get(self, keys: Sequence[str]) -> dict[str, Result]: ...

    async def verify(
        self, work: Sequence[Work], reward: RewardSettings | None, progress: Progress | None
    ) -> dict[str, Result]: ...

    async def run_program(
        self,
        code: str,
        stdin: str,
        time_s: float,
        memory_mb: int,
        wait_s: float,
        language: str = "python",
        compile_time_s: float | None = None,
    ) -> dict[str, Any]:
        """Run once (SandboxFusion's /run_code), compiled first in a compiled ``language``;
        ``{"error", "busy": True}`` when it could not start within ``wait_s``."""
        ...

    async def ready(self) -> dict[str, bool]: ...

    def queue_depth(self) -> float: ...

    async def close(self) -> None: ...


class EmbeddedDispatch:
    """Verification on threads of the gateway process (the default)."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        self.cache = MemoryCache(settings.cache_size, settings.cache_ttl_s)
        self.verifier = Verifier(settings)
        self.runtime = self.verifier.runtime
        self.pending = 0
        self._checked_at = 0.0
        self._check_ok = False
        # /run_code waits for one of these (bounded) on the event loop, not on a thread:
        # a waiting request holds no worker thread, and its own threads never starve
        # verify batches or the readiness check of the shared anyio thread pool
        self._run_slots = asyncio.Semaphore(settings.workers)
        self._run_threads: anyio.CapacityLimiter | None = None
        self._check_threads: anyio.CapacityLimiter | None = None

    async def cache_get(self, keys: Sequence[str]) -> dict[str, Result]:
        return self.cache.get_many(keys)

    async def verify(
        self, work: Sequence[Work], reward: RewardSettings | None, progress: Progress | None
    ) -> dict[str, Result]:
        loop = asyncio.get_running_loop()
        lock = threading.Lock()
        done = [0]

        def on_result(_: int, __: Result) -> None:
            with lock:
                done[0] += 1
                n = done[0]
            if progress is not None:
                loop.call_soon_threadsafe(_spawn, progress(n))

        jobs = [Job(w.problem, w.sample) for w in work]
        self.pending += len(jobs)
        try:
            results = await anyio.to_thread.run_sync(
                self.verifier.verify, jobs, reward, on_result if progress else None
            )
        except InfrastructureError as exc:
            # The Verifier already retried per sample; the sandbox as a whole is unusable.
            error = f"sandbox unavailable: {exc}"
            results = [sandbox_error_result(w.sample.problem_id, w.sample.sample_id, error)
                       for w in work]  # fmt: skip
        finally:
            self.pending -= len(jobs)
        out = {w.key: r for w, r in zip(work, results, strict=True)}
        self.cache.put_many(out)
        return out

    async def ready(self) -> dict[str, bool]:
        now = time.monotonic()
        if now - self._checked_at > SELF_CHECK_EVERY_S or not self._check_ok:
            if self._check_threads is None:
                self._check_threads = anyio.CapacityLimiter(1)
            try:
                self._check_ok = await anyio.to_thread.run_sync(
                    self.verifier.self_check, limiter=self._check_threads
                )
            except InfrastructureError:
                self._check_ok = False
            self._checked_at = now
        return {"sandbox": self._check_ok}

    async def run_program(
        self,
        code: str,
        stdin: str,
        time_s: float,
        memory_mb: int,
        wait_s: float,
        language: str = "python",
        compile_time_s: float | None = None,
    ) -> dict[str, Any]:
        deadline = time.monotonic() + wait_s
        try:
            await asyncio.wait_for(self._run_slots.acquire(), wait_s)
        except TimeoutError:
            return {"error": f"no sandbox cell was free within {wait_s:g} s", "busy": True}
        try:
            if self._run_threads is None:
                self._run_threads = anyio.CapacityLimiter(self.settings.workers)
            left = max(0.05, deadline - time.monotonic())
            return await anyio.to_thread.run_sync(
                run_program_retrying, self.verifier, code, stdin, time_s, memory_mb, left,
                language, compile_time_s, limiter=self._run_threads,
            )  # fmt: skip
        finally:
            self._run_slots.release()

    def queue_depth(self) -> float:
        return float(self.pending)

    async def close(self) -> None:
        await anyio.to_thread.run_sync(self.verifier.close)


def make_dispatch(settings: ServiceSettings) -> Dispatch:
    """The backend the settings ask for: embedded without a broker, Celery with one."""
    if settings.embedded:
        return EmbeddedDispatch(settings)
    from reward_api.service.broker import CeleryDispatch  # Celery only in broker mode

    return CeleryDispatch(settings)
