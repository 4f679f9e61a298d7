"""The gateway's side of broker mode: Celery tasks on Redis, and replies on Redis lists.

``CeleryDispatch`` groups items by language queue, cuts them into chunks of
``task_chunk_size``, publishes one Celery task per chunk and waits on a per-request Redis
reply list (``BLPOP``, no polling). Workers write the Redis result cache themselves. A
chunk replied twice (a task redelivered after its worker died) is counted once; a chunk
a worker took off its queue and died before kombu recorded it (no redelivery brings it
back) is found by the wait and published again (``tasks.claim``). While
Redis is down the wait retries until the request's deadline, so work accepted before an
outage is delivered after it; items still missing at the deadline come back as
``sandbox_error`` with no reward. The worker's side is ``reward_api.service.tasks``.

Errors raised to the gateway: ``BrokerUnavailable`` (publishing failed: answer 503).
"""

from __future__ import annotations

import asyncio
import json
import logging
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
    STARTED_KEY,
    TASK_NAME,
    WORKERS_KEY,
    claim_key,
    encode_payload,
    make_celery,
)
from reward_api.verify.keys import runtime_version

log = logging.getLogger(__name__)

RUN_OVERHEAD_S = 3.0
"""Seconds a /run_code answer may take beyond its queueing wait and its time limit."""

LOST_CHECK_EVERY_S = 5.0
"""How often a waiting request looks for its lost chunks (``tasks.claim``): a chunk is
published again when two checks in a row find it unclaimed and off its queue (the queue
is empty, or a chunk published after it was taken)."""
CLOCK_SKEW_S = 1.0
"""Publication times of gateways on other hosts may differ by this much."""

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
        self.resent = 0
        """Chunks published again because a worker died holding them off the books."""

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
                payload = encode_payload(reply_to, len(payloads), chunk, reward, queue)
                payloads.append((queue, payload))
        try:
            await anyio.to_thread.run_sync(self._publish, payloads)
        except PUBLISH_ERRORS as exc:
            raise BrokerUnavailable(str(exc)) from exc
        return await self._collect(reply_to, work, payloads, progress)

    async def _lost(self, reply_to: str, waiting: list[tuple[str, dict[str, Any]]]) -> set[int]:
        """The chunks of ``waiting`` that no worker holds although they are off their queue:
        it is empty, or it has handed out a chunk published after them (``tasks.claim``)."""
        pipe = self.redis.pipeline(transaction=False)
        for _, payload in waiting:
            pipe.exists(claim_key(reply_to, payload["chunk"]))
        queues = sorted({q for q, _ in waiting})
        for q in queues:
            pipe.zscore(STARTED_KEY, q)
            pipe.llen(q)
        answers = await pipe.execute()
        marks = answers[len(waiting) :]
        started = dict(zip(queues, marks[0::2], strict=True))
        empty = {q for q, n in zip(queues, marks[1::2], strict=True) if n == 0}

        def gone(q: str, sent: float) -> bool:  # taken off the queue
            later = started[q]
            return q in empty or (later is not None and later > sent + CLOCK_SKEW_S)

        return {
            p["chunk"]
            for (q, p), held in zip(waiting, answers[: len(waiting)], strict=False)
            if not held and gone(q, p["sent"])
        }

    async def _collect(
        self,
        reply_to: str,
        work: Sequence[Work],
        payloads: list[tuple[str, dict[str, Any]]],
        progress: Progress | None,
    ) -> dict[str, Result]:
        deadline = time.monotonic() + self.settings.request_timeout_s
        seen: set[int] = set()
        out: dict[str, Result] = {}
        n_chunks = len(payloads)
        next_check = time.monotonic() + LOST_CHECK_EVERY_S
        suspects: set[int] = set()
        while len(seen) < n_chunks and time.monotonic() < deadline:
            if time.monotonic() >= next_check:
                next_check = time.monotonic() + LOST_CHECK_EVERY_S
                suspects = await self._resend_lost(reply_to, payloads, seen, suspects)
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

    async def _resend_lost(
        self,
        reply_to: str,
        payloads: list[tuple[str, dict[str, Any]]],
        seen: set[int],
        suspects: set[int],
    ) -> set[int]:
        """Publish again the chunks found lost by this check and the one before; return
        this check's finds (a chunk between its queue and its worker's claim is unclaimed
        for a moment, never for two checks)."""
        waiting = [(q, p) for q, p in payloads if p["chunk"] not in seen]
        try:
            lost = await self._lost(reply_to, waiting)
            again = [
                (q, {**p, "sent": time.time()}) for q, p in waiting if p["chunk"] in lost & suspects
            ]
            if again:
                log.warning("publishing %d lost chunk(s) of %s again", len(again), reply_to)
                await anyio.to_thread.run_sync(self._publish, again)
                self.resent += len(again)
                lost -= {p["chunk"] for _, p in again}
                for q, p in again:  # later checks judge the new copy
                    payloads[p["chunk"]] = (q, p)
        except PUBLISH_ERRORS:
            return set()  # Redis is down: nothing is taken meanwhile; look again later
        return lost

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
