"""Where the gateway sends work it could not answer from the cache: two real backends.

- ``EmbeddedDispatch`` (no broker): calls ``Verifier.verify`` on a thread of the gateway
  process; results are cached in an in-memory LRU.
- ``CeleryDispatch`` (``CODEREWARD_BROKER_URL``): groups items by language queue, cuts
  them into chunks of ``task_chunk_size``, publishes one Celery task per chunk and waits
  on a per-request Redis reply list (``BLPOP``, no polling). Workers write the Redis
  result cache themselves. A chunk replied twice (a task redelivered after its worker
  died) is counted once. While Redis is down the wait retries until the request's
  deadline, so work accepted before an outage is delivered after it; items still missing
  at the deadline come back as ``sandbox_error`` with no reward.

Errors raised to the gateway: ``BrokerUnavailable`` (publishing failed: answer 503).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

import anyio
import kombu.exceptions
import redis
import redis.asyncio as aredis

from reward_api.cache import AsyncRedisCache, MemoryCache, runtime_version
from reward_api.errors import InfrastructureError
from reward_api.pipeline import Job, Verifier
from reward_api.runs import run_stdio
from reward_api.schemas import Problem, Result, RewardSettings, Sample
from reward_api.settings import ServiceSettings
from reward_api.tasks import (
    HEARTBEAT_TTL_S,
    RUN_TASK_NAME,
    TASK_NAME,
    WORKERS_KEY,
    encode_payload,
    infra_result,
    make_celery,
    queue_for,
    self_check,
    verifier_settings,
)

Progress = Callable[[int], Coroutine[Any, Any, None]]
_progress_tasks: set[asyncio.Task[None]] = set()


def _spawn(coro: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(coro)
    _progress_tasks.add(task)
    task.add_done_callback(_progress_tasks.discard)


# any broker failure (refused, unreachable, protected mode, NOAUTH, READONLY) is a 503
REDIS_ERRORS = (redis.RedisError, kombu.exceptions.OperationalError)
SELF_CHECK_EVERY_S = 10.0


class BrokerUnavailable(Exception):
    """Redis (broker, cache or registry) cannot be reached; the gateway answers 503."""


@dataclass(frozen=True)
class Work:
    """One unique item to verify: its cache key, problem digest, problem and sample."""

    key: str
    digest: str
    problem: Problem
    sample: Sample


class EmbeddedDispatch:
    """Verification on threads of the gateway process (the default)."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        self.runtime = runtime_version(settings.sandbox)
        self.cache = MemoryCache(settings.cache_size, settings.cache_ttl_s)
        self.verifier = Verifier(verifier_settings(settings))
        self.pending = 0
        self._checked_at = 0.0
        self._check_ok = False

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
            results = [infra_result(w.sample, f"sandbox unavailable: {exc}") for w in work]
        finally:
            self.pending -= len(jobs)
        out = {w.key: r for w, r in zip(work, results, strict=True)}
        self.cache.put_many(out)
        return out

    async def ready(self) -> dict[str, bool]:
        now = time.monotonic()
        if now - self._checked_at > SELF_CHECK_EVERY_S or not self._check_ok:
            try:
                self._check_ok = await anyio.to_thread.run_sync(self_check, self.verifier)
            except InfrastructureError:
                self._check_ok = False
            self._checked_at = now
        return {"sandbox": self._check_ok}

    async def run_code(
        self, code: str, stdin: str, time_s: float, memory_mb: int
    ) -> dict[str, Any]:
        return await anyio.to_thread.run_sync(
            run_stdio, self.verifier, code, stdin, time_s, memory_mb
        )

    def queue_depth(self) -> float:
        return float(self.pending)

    async def close(self) -> None:
        await anyio.to_thread.run_sync(self.verifier.close)


class CeleryDispatch:
    """Verification on Celery workers through Redis (broker mode)."""

    def __init__(self, settings: ServiceSettings) -> None:
        url = settings.broker_url or ""
        self.settings = settings
        self.runtime = runtime_version(settings.sandbox)
        self.app = make_celery(settings)
        self.redis = aredis.Redis.from_url(
            url, socket_timeout=5, socket_connect_timeout=2, max_connections=512
        )
        self.cache = AsyncRedisCache(self.redis, settings.cache_ttl_s)
        self._sync = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        self._depth = 0.0

    async def cache_get(self, keys: Sequence[str]) -> dict[str, Result]:
        try:
            return await self.cache.get_many(keys)
        except REDIS_ERRORS as exc:
            raise BrokerUnavailable(str(exc)) from exc

    def _publish(self, payloads: list[tuple[str, dict[str, Any]]]) -> None:
        for queue, payload in payloads:
            self.app.send_task(TASK_NAME, args=[payload], queue=queue, routing_key=queue)

    async def verify(
        self, work: Sequence[Work], reward: RewardSettings | None, progress: Progress | None
    ) -> dict[str, Result]:
        reply_to = f"cr:reply:{uuid.uuid4().hex}"
        by_queue: dict[str, list[Work]] = {}
        for w in work:
            by_queue.setdefault(queue_for(w.problem.language), []).append(w)
        payloads: list[tuple[str, dict[str, Any]]] = []
        size = self.settings.task_chunk_size
        for queue, items in by_queue.items():
            for start in range(0, len(items), size):
                chunk = [
                    (w.key, w.digest, w.problem, w.sample) for w in items[start : start + size]
                ]
                payloads.append((queue, encode_payload(reply_to, len(payloads), chunk, reward)))
        try:
            await anyio.to_thread.run_sync(self._publish, payloads)
        except REDIS_ERRORS as exc:
            raise BrokerUnavailable(str(exc)) from exc
        return await self._collect(reply_to, work, len(payloads), progress)

    async def _collect(
        self, reply_to: str, work: Sequence[Work], n_chunks: int, progress: Progress | None
    ) -> dict[str, Result]:
        deadline = time.monotonic() + self.settings.request_timeout_s
        seen: set[int] = set()
        out: dict[str, Result] = {}
        while len(seen) < n_chunks and time.monotonic() < deadline:
            try:
                popped = await self.redis.blpop([reply_to], timeout=1)
            except REDIS_ERRORS:
                # Redis is down: keep waiting; workers hold their replies until it is back.
                await asyncio.sleep(0.5)
                continue
            if popped is None:
                continue
            msg = json.loads(popped[1])
            if msg["chunk"] in seen:
                continue  # a redelivered task replied again; the first reply stands
            seen.add(msg["chunk"])
            for key, raw in msg["results"].items():
                out[key] = Result.model_validate(raw)
            if progress is not None:
                await progress(len(out))
        try:
            await self.redis.delete(reply_to)
        except REDIS_ERRORS:
            pass  # the list expires on its own
        for w in work:
            if w.key not in out:
                out[w.key] = infra_result(w.sample, "no worker replied before the deadline")
        return out

    async def run_code(
        self, code: str, stdin: str, time_s: float, memory_mb: int
    ) -> dict[str, Any]:
        reply_to = f"cr:reply:{uuid.uuid4().hex}"
        payload = {
            "reply_to": reply_to,
            "code": code,
            "stdin": stdin,
            "time_s": time_s,
            "memory_mb": memory_mb,
        }

        def publish() -> None:
            self.app.send_task(RUN_TASK_NAME, args=[payload], queue="python", routing_key="python")

        try:
            await anyio.to_thread.run_sync(publish)
        except REDIS_ERRORS as exc:
            raise BrokerUnavailable(str(exc)) from exc
        deadline = time.monotonic() + time_s + self.settings.request_timeout_s
        while time.monotonic() < deadline:
            try:
                popped = await self.redis.blpop([reply_to], timeout=1)
            except REDIS_ERRORS:
                await asyncio.sleep(0.5)
                continue
            if popped is not None:
                report: dict[str, Any] = json.loads(popped[1])
                return report
        return {"error": "no worker replied before the deadline"}

    async def ready(self) -> dict[str, bool]:
        try:
            await self.redis.ping()
            workers = await self.redis.zcount(WORKERS_KEY, time.time() - HEARTBEAT_TTL_S, "+inf")
        except REDIS_ERRORS:
            return {"broker": False, "worker": False, "sandbox": False}
        # A worker announces itself only after its sandbox self-check succeeded.
        return {"broker": True, "worker": workers > 0, "sandbox": workers > 0}

    def queue_depth(self) -> float:
        try:
            queues = self.settings.queues.split(",")
            self._depth = float(sum(int(self._sync.llen(q)) for q in queues))
        except REDIS_ERRORS:
            pass  # keep the last value while the broker is down
        return self._depth

    async def close(self) -> None:
        await self.redis.aclose()
        self._sync.close()


Dispatch = EmbeddedDispatch | CeleryDispatch


def make_dispatch(settings: ServiceSettings) -> Dispatch:
    """The backend the settings ask for: embedded without a broker, Celery with one."""
    return EmbeddedDispatch(settings) if settings.embedded else CeleryDispatch(settings)
