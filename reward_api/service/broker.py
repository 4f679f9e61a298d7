"""The gateway's side of broker mode: Celery tasks on Redis, and replies on Redis lists.

``CeleryDispatch`` groups items by language queue, cuts them into chunks of
``task_chunk_size``, publishes one Celery task per chunk and waits on a per-request Redis
reply list (``BLPOP``, no polling). Workers write the Redis result cache themselves. A
chunk replied twice (a task redelivered after its worker died) is counted once. While
Redis is down the wait retries until the request's deadline, so work accepted before an
outage is delivered after it; items still missing at the deadline come back as
``sandbox_error`` with no reward. The worker's side is ``reward_api.service.tasks``.

Errors raised to the gateway: ``BrokerUnavailable`` (publishing failed: answer 503).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Sequence
from typing import Any

import anyio
import kombu.exceptions
import redis
import redis.asyncio as aredis

from reward_api.errors import BrokerUnavailable
from reward_api.schemas import Result, RewardSettings, canonical_language, sandbox_error_result
from reward_api.service.cache import AsyncRedisCache
from reward_api.service.dispatch import Progress, Work
from reward_api.service.settings import ServiceSettings
from reward_api.service.tasks import (
    HEARTBEAT_TTL_S,
    RUN_TASK_NAME,
    TASK_NAME,
    WORKERS_KEY,
    encode_payload,
    make_celery,
)
from reward_api.verify.keys import runtime_version

RUN_OVERHEAD_S = 3.0
"""Seconds a /run_code answer may take beyond its queueing wait and its time limit."""

# publishing to a broker that is down fails in kombu as well as in redis-py
PUBLISH_ERRORS = (redis.RedisError, kombu.exceptions.OperationalError)


def queue_for(language: str) -> str:
    """The Celery queue serving a language: its canonical name (``python3`` runs on
    ``python`` workers, ``c++`` on ``cpp``); the Helm chart's worker groups consume these
    (k8s/codereward, ``worker.queues.*.languages``)."""
    name = canonical_language(language) or language
    return "python" if name.startswith("python") else name


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
        except PUBLISH_ERRORS as exc:
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
        except PUBLISH_ERRORS as exc:
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
            except redis.RedisError:
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
        except redis.RedisError:
            pass  # the list expires on its own
        for w in work:
            if w.key not in out:
                out[w.key] = sandbox_error_result(
                    w.sample.problem_id, w.sample.sample_id, "no worker replied before the deadline"
                )
        return out

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
        reply_to = f"cr:reply:{uuid.uuid4().hex}"
        queue = queue_for(language)
        payload = {
            "reply_to": reply_to,
            "code": code,
            "stdin": stdin,
            "time_s": time_s,
            "memory_mb": memory_mb,
            "language": language,
            "compile_time_s": compile_time_s,
            # wall-clock: the worker may be another host; past it nobody waits for the run
            "start_by": time.time() + wait_s,
        }

        def publish() -> None:
            self.app.send_task(
                RUN_TASK_NAME, args=[payload], queue=queue, routing_key=queue,
                expires=wait_s,
            )  # fmt: skip

        start_by = time.monotonic() + wait_s
        while True:
            # verl does not retry a 503 but does retry a 504: ride out a Redis restart
            # within the run's queueing budget, then answer "busy" (504)
            try:
                await anyio.to_thread.run_sync(publish)
                break
            except PUBLISH_ERRORS:
                if time.monotonic() + 0.5 >= start_by:
                    return {"error": "broker unreachable within the wait", "busy": True}
                await asyncio.sleep(0.5)
        # the run's own budget: its time limit and the runner's start-up and report
        deadline = start_by + time_s + RUN_OVERHEAD_S
        while time.monotonic() < deadline:
            try:
                popped = await self.redis.blpop([reply_to], timeout=1)
            except redis.RedisError:
                await asyncio.sleep(0.5)
                continue
            if popped is not None:
                report: dict[str, Any] = json.loads(popped[1])
                return report
        return {"error": "no worker ran the program in time", "busy": True}

    async def ready(self) -> dict[str, bool]:
        try:
            await self.redis.ping()
            workers = await self.redis.zcount(WORKERS_KEY, time.time() - HEARTBEAT_TTL_S, "+inf")
        except redis.RedisError:
            return {"broker": False, "worker": False, "sandbox": False}
        # A worker announces itself only after its sandbox self-check succeeded.
        return {"broker": True, "worker": workers > 0, "sandbox": workers > 0}

    def queue_depth(self) -> float:
        try:
            queues = self.settings.queues.split(",")
            self._depth = float(sum(int(self._sync.llen(q)) for q in queues))
        except redis.RedisError:
            pass  # keep the last value while the broker is down
        return self._depth

    async def close(self) -> None:
        await self.redis.aclose()
        self._sync.close()
