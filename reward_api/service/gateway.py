"""The gateway's state and its spine: resolve problems, then cache -> queue/verify -> respond.

``Gateway`` holds what one gateway process owns: settings, the dispatch (embedded threads
or Celery workers), the problem and job stores, the guard and the metrics. ``score`` is
the data path of every reward request, each stage timed under its metric key
(``codereward_stage_seconds{stage=...}``)::

    resolve (problem ids to problems) -> cache (content-hash lookup, duplicates in the
    batch collapsed) -> verify (``reward_api.service.dispatch``) -> respond (item order,
    hits flagged ``cached``)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from reward_api.errors import BrokerUnavailable
from reward_api.schemas import Result, RewardSettings, Sample, sandbox_error_result
from reward_api.service.cache import as_hit
from reward_api.service.dispatch import REDIS_ERRORS, Dispatch, Work, make_dispatch
from reward_api.service.http import ApiError, Guard, RewardItem
from reward_api.service.job_store import MemoryJobStore, RedisJobStore, encode_work
from reward_api.service.metrics import Metrics
from reward_api.service.problem_store import Entry, MemoryProblemStore, RedisProblemStore
from reward_api.service.settings import ServiceSettings
from reward_api.verify.extract import program_of
from reward_api.verify.keys import result_key

log = logging.getLogger(__name__)

# ---------------------------------------------------------------- the service


class Gateway:
    """State of one gateway process: settings, dispatch, registry, jobs, metrics."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        self.metrics = Metrics()
        self.guard = Guard(settings)
        self.dispatch: Dispatch = make_dispatch(settings)
        self.metrics.set_queue_depth_source(self.dispatch.queue_depth)
        self.registry: MemoryProblemStore | RedisProblemStore
        self.jobs: MemoryJobStore | RedisJobStore
        running_ttl = int(settings.request_timeout_s + settings.job_ttl_s)
        if settings.embedded:
            self.registry = MemoryProblemStore()
            self.jobs = MemoryJobStore(settings.job_ttl_s, running_ttl)
        else:
            from reward_api.service.broker import CeleryDispatch

            assert isinstance(self.dispatch, CeleryDispatch)
            client = self.dispatch.redis  # one connection pool for dispatch and stores
            self.registry = RedisProblemStore(client)
            self.jobs = RedisJobStore(client, settings.job_ttl_s, running_ttl)
        self._background: set[asyncio.Task[None]] = set()
        self.owner = uuid.uuid4().hex
        """This process's name on the leases of the wait=false jobs it drives."""

    def start(self) -> None:
        """Background work of a running gateway (broker mode: adopting orphaned jobs)."""
        if isinstance(self.jobs, RedisJobStore):
            self._keep(self._adopt_orphans(self.jobs))

    def _keep(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_failure)

    async def _adopt_orphans(self, jobs: RedisJobStore) -> None:
        """Every few seconds: drive the jobs whose gateway died (their lease expired)."""
        while True:
            try:
                for job_id, pairs, reward in await jobs.orphans(self.owner):
                    log.warning("adopting wait=false job %s of a gateway that stopped", job_id)
                    self.start_job(job_id, pairs, reward)
            except REDIS_ERRORS:
                pass  # Redis is down: the jobs wait in it
            await asyncio.sleep(jobs.lease_s / 3)

    async def submit_job(
        self, pairs: list[tuple[Entry, Sample]], reward: RewardSettings | None
    ) -> str:
        """Record a wait=false job (with its work, in broker mode) and start driving it."""
        job_id = uuid.uuid4().hex
        work = encode_work(pairs, reward) if isinstance(self.jobs, RedisJobStore) else None
        await self.jobs.create(job_id, len(pairs), work=work, owner=self.owner)
        self.start_job(job_id, pairs, reward)
        return job_id

    async def resolve(
        self, items: list[RewardItem], field: str = "items.{i}.problem_id"
    ) -> list[tuple[Entry, Sample]]:
        """Problems for every item; 422 naming the item whose problem id is unknown."""
        ids = [it.problem_id for it in items if it.problem_id is not None]
        entries = await self.registry.get_many(ids) if ids else {}
        inline: dict[int, Entry] = {}
        out = []
        for i, it in enumerate(items):
            if it.problem is not None:
                entry = inline.setdefault(id(it.problem), Entry(it.problem))
            else:
                found = entries.get(it.problem_id or "")
                if found is None:
                    where = field.format(i=i)
                    raise ApiError(422, f"{where}: unknown problem {it.problem_id!r}")
                entry = found
            sample = Sample.model_validate(
                {
                    "problem_id": entry.problem.id,
                    "sample_id": it.sample_id,
                    "completion": it.completion,
                    "code": it.code,
                }
            )
            out.append((entry, sample))
        return out

    async def score(
        self,
        pairs: list[tuple[Entry, Sample]],
        reward: RewardSettings | None,
        progress: Callable[[int], Coroutine[Any, Any, None]] | None = None,
    ) -> list[Result]:
        """cache -> queue/verify -> assemble, in item order."""
        runtime = self.dispatch.runtime
        m = self.metrics
        with m.stage("cache"):
            keys = [result_key(e.digest, program_of(s), reward, runtime) for e, s in pairs]
            hits = await self.dispatch.cache_get(list(dict.fromkeys(keys)))
            todo: dict[str, Work] = {}
            for key, (entry, sample) in zip(keys, pairs, strict=True):
                if key not in hits and key not in todo:
                    todo[key] = Work(key, entry.digest, entry.problem, sample)
        m.count_cache(len(pairs) - len(todo), len(todo))
        fresh: dict[str, Result] = {}
        if todo:
            n_hits = len(pairs) - len(todo)

            async def counted(n: int) -> None:
                if progress is not None:
                    await progress(n_hits + n)

            m.inflight_items.inc(len(todo))
            try:
                with m.stage("verify"):
                    fresh = await self.dispatch.verify(
                        list(todo.values()), reward, counted if progress else None
                    )
            finally:
                m.inflight_items.dec(len(todo))
        with m.stage("respond"):
            results = []
            for key, (_, sample) in zip(keys, pairs, strict=True):
                if key in hits:
                    results.append(as_hit(hits[key], sample))
                elif todo[key].sample is sample:
                    results.append(fresh[key])
                else:
                    # The same program twice in one batch was verified once.
                    results.append(as_hit(fresh[key], sample))
            m.count_results(results)
        return results

    def start_job(
        self, job_id: str, pairs: list[tuple[Entry, Sample]], reward: RewardSettings | None
    ) -> None:
        jobs = self.jobs

        async def renew() -> None:
            assert isinstance(jobs, RedisJobStore)
            while True:
                await asyncio.sleep(jobs.lease_s / 3)
                with contextlib.suppress(*REDIS_ERRORS):
                    await jobs.renew(job_id, self.owner)

        async def run() -> None:
            lease = None
            if isinstance(jobs, RedisJobStore):
                lease = asyncio.get_running_loop().create_task(renew())
            try:
                await drive()
            finally:
                if lease is not None:
                    lease.cancel()

        async def drive() -> None:
            async def progress(n: int) -> None:
                await _retrying(lambda: self.jobs.progress(job_id, n), self.settings)

            deadline = time.monotonic() + self.settings.request_timeout_s
            delay = 0.2
            while True:
                try:
                    results = await self.score(pairs, reward, progress)
                    break
                except BrokerUnavailable:
                    # Accepted work outlives a Redis outage: try again until the deadline.
                    if time.monotonic() > deadline:
                        error = "broker unavailable until the job's deadline"
                        results = [
                            sandbox_error_result(s.problem_id, s.sample_id, error) for _, s in pairs
                        ]
                        break
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 5.0)
            await _retrying(lambda: self.jobs.finish(job_id, results), self.settings)

        self._keep(run())

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        await self.dispatch.close()


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("wait=false job failed", exc_info=task.exception())


async def _retrying(op: Callable[[], Awaitable[None]], settings: ServiceSettings) -> None:
    """Retry a job-record write through a Redis outage, until the request deadline."""
    deadline = time.monotonic() + settings.request_timeout_s
    delay = 0.2
    while True:
        try:
            await op()
            return
        except REDIS_ERRORS:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
