"""Celery on Redis: the broker-mode queue between the gateway and ``codereward worker``.

The task is thin: parse the chunk, skip items already in the result cache, call
``Verifier.verify``, store and reply. Everything about verification lives in
``reward_api.verify.pipeline``; this module only moves work and results.

Delivery guarantees, and why each setting is here:

- ``acks_late`` + ``worker_prefetch_multiplier=1`` + ``reject_on_worker_lost``: a message
  is acknowledged only after its results are stored and replied, one message per free
  slot, so a worker killed mid-task leaves its message in Redis's unacked set.
- Leases, not long timeouts: the visibility timeout is short (``visibility_timeout_s``,
  60 s) and a live worker renews the lease of every message it holds every
  ``lease_renew_s`` (it moves the message's score in kombu's ``unacked_index`` forward).
  A running task of any length is never handed out twice; a message whose worker died
  (SIGKILL, OOM, a lost node) stops being renewed and another worker's restore sweep
  (every ``restore_interval_s``) puts it back on the queue about a minute later.
- Time limits: sandbox per-test limit < task soft limit < task hard limit (checked by
  ``ServiceSettings``), and the lease is renewed at least three times per timeout.
- Idempotent by content hash: every item carries its result-cache key; a redelivered or
  duplicated task finds finished items in the cache and redoes nothing. The gateway
  keeps the first reply per chunk, so an item never gets two results.
- Infrastructure failures (``sandbox_error`` items, an unreachable sandbox) are retried
  with exponential backoff up to ``task_max_retries``; then the items are replied as
  ``sandbox_error`` with no reward, never as a program's failure.
- Routing per language: a task goes to the queue named by its problems' language
  (``python``), so workers with a given runtime consume only what they can run.

Workers use Celery's ``threads`` pool: one ``Verifier`` per process is shared by the
task threads (it is thread-safe and runs programs in sandbox subprocesses, so the GIL is
not the limit) instead of one sandbox pool per prefork child.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from celery import Celery, Task
from celery.exceptions import SoftTimeLimitExceeded
from celery.signals import (
    task_postrun,
    task_received,
    task_revoked,
    worker_ready,
    worker_shutdown,
)
from celery.worker.consumer import Consumer
from kombu.transport.redis import Channel as RedisChannel

from reward_api.errors import InfrastructureError
from reward_api.schemas import (
    Problem,
    Result,
    RewardSettings,
    Sample,
    Verdict,
    sandbox_error_result,
)
from reward_api.service.cache import RedisCache, as_hit
from reward_api.service.dispatch import run_program_retrying
from reward_api.service.settings import ServiceSettings
from reward_api.verify.pipeline import Job, Verifier

log = logging.getLogger(__name__)

TASK_NAME = "codereward.verify_chunk"
RUN_TASK_NAME = "codereward.run_code"
WORKERS_KEY = "cr:workers"
STARTED_KEY = "cr:started"
"""Per queue, the latest publication time (``payload["sent"]``) of a chunk a worker took."""
CLAIM_PREFIX = "cr:claim:"
HEARTBEAT_EVERY_S = 10.0
HEARTBEAT_TTL_S = 35.0
REPLY_TTL_S = 3600
RECONNECT_INTERVALS_S = (0.2, 0.3, 1.0)
"""How a worker that lost Redis tries it again: first after 0.2 s, then 0.3 s more each
time, at most 1 s apart (Celery's are 2 s, 4 s, 6 s, ..., so a worker came back up to 3 s
after a restarted Redis did, and a client retrying 5 times 1 s apart, as OpenRLHF's does,
could see every try fail)."""


class QuickReconnectConsumer(Consumer):
    """Celery's consumer, reconnecting to the broker on ``RECONNECT_INTERVALS_S``."""

    def ensure_connected(self, conn: Any) -> Any:
        start, step, most = RECONNECT_INTERVALS_S
        ensure = conn.ensure_connection

        def quick(*args: Any, **kwargs: Any) -> Any:
            kwargs.update(interval_start=start, interval_step=step, interval_max=most)
            return ensure(*args, **kwargs)

        conn.ensure_connection = quick
        return super().ensure_connected(conn)


def make_celery(settings: ServiceSettings) -> Celery:
    """A Celery app bound to ``settings.broker_url`` with the task registered."""
    if not settings.broker_url:
        raise ValueError("broker mode needs CODEREWARD_BROKER_URL")
    app = Celery("codereward", broker=settings.broker_url)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_soft_time_limit=settings.task_soft_time_limit_s,
        task_time_limit=settings.task_time_limit_s,
        task_ignore_result=True,  # results travel on the reply list, not the result backend
        task_serializer="json",
        accept_content=["json"],
        task_default_queue="python",
        broker_transport_options={
            "visibility_timeout": settings.visibility_timeout_s,
            "unacked_restore_interval": settings.restore_interval_s,
            "unacked_restore_throttle": 1,
            # The restore sweep's lock; a lock left in Redis by an outage blocks every
            # sweep until it expires (kombu's default is 300 s).
            "unacked_mutex_expire": max(5, min(60, int(settings.visibility_timeout_s / 10))),
            "socket_timeout": 5,
            "socket_connect_timeout": 2,
        },
        broker_connection_retry_on_startup=True,
        # Publishing while Redis is down must fail fast so the gateway can answer 503.
        task_publish_retry_policy={
            "max_retries": 1,
            "interval_start": 0.1,
            "interval_step": 0.2,
            "interval_max": 0.3,
        },
        worker_hijack_root_logger=False,
        worker_consumer=f"{__name__}:QuickReconnectConsumer",
        worker_send_task_events=False,
    )
    state = _WorkerState(settings)
    app.conf.codereward_state = state

    @app.task(bind=True, name=TASK_NAME, max_retries=settings.task_max_retries)
    def verify_chunk(self: Task, payload: dict[str, Any]) -> int:
        return _run_chunk(self, state, payload)

    @app.task(name=RUN_TASK_NAME)
    def run_code(payload: dict[str, Any]) -> int:
        wait_s = float(payload.get("start_by", time.time() + 30.0)) - time.time()
        if wait_s <= 0:
            return 0  # the gateway has answered 504 already; nobody reads a reply
        report = run_program_retrying(
            state.verifier(),
            payload["code"],
            payload["stdin"],
            payload["time_s"],
            payload["memory_mb"],
            wait_s,
            str(payload.get("language") or "python"),
            payload.get("compile_time_s"),
        )
        _push(state, payload["reply_to"], json.dumps(report), ttl_s=60)
        return 0

    return app


class _WorkerState:
    """Per-process lazies: the Verifier and the Redis client, built on first use."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        self._verifier: Verifier | None = None
        self._redis: redis.Redis | None = None
        self._lock = threading.Lock()
        self.stop = threading.Event()
        self.held: dict[str, str] = {}
        """Task id -> delivery tag of every message this worker holds unacknowledged."""
        self.claims: dict[str, str] = {}
        """Task id -> claim key (``claim_key``) of every chunk this worker holds."""

    def verifier(self) -> Verifier:
        with self._lock:
            if self._verifier is None:
                self._verifier = Verifier(self.settings)
            return self._verifier

    def redis(self) -> redis.Redis:
        with self._lock:
            if self._redis is None:
                self._redis = redis.Redis.from_url(
                    self.settings.broker_url or "", socket_timeout=5, socket_connect_timeout=2
                )
            return self._redis

    def close(self) -> None:
        self.stop.set()
        with self._lock:
            if self._verifier is not None:
                self._verifier.close()
                self._verifier = None


def encode_payload(
    reply_to: str,
    chunk: int,
    items: list[tuple[str, str, Problem, Sample]],
    reward: RewardSettings | None,
    queue: str = "python",
) -> dict[str, Any]:
    """A task's JSON payload: problems once per digest, items referencing them, and the
    queue and wall-clock time it is published on (``claim``)."""
    problems: dict[str, Any] = {}
    out = []
    for key, digest, problem, sample in items:
        problems.setdefault(digest, problem.model_dump(mode="json"))
        out.append({"key": key, "digest": digest, "sample": sample.model_dump(mode="json")})
    return {
        "reply_to": reply_to,
        "chunk": chunk,
        "problems": problems,
        "items": out,
        "reward": reward.model_dump(mode="json") if reward is not None else None,
        "queue": queue,
        "sent": time.time(),
    }


def claim_key(reply_to: str, chunk: int) -> str:
    return f"{CLAIM_PREFIX}{reply_to}:{chunk}"


def claim(client: redis.Redis, payload: dict[str, Any], ttl_s: float) -> str | None:
    """Mark a chunk as taken by a live worker, at once when its message is received.

    kombu's Redis transport takes a message off its queue (``BRPOP``) before it records
    it as unacknowledged, so a worker killed between the two loses it: no restore brings
    it back, and its request would wait to its deadline. The gateway tells such a chunk
    from one still queued by two marks written here: its claim (renewed with the
    worker's leases while the worker holds it) and, per queue, the latest publication
    time of a chunk taken, which only grows. Queues are FIFO, so a chunk with no claim
    whose queue has handed out a later one was lost, and the gateway publishes it again
    (``CeleryDispatch``); a second copy is idempotent (the result cache, and the
    gateway counts a chunk's first reply only)."""
    if "reply_to" not in payload or "sent" not in payload:
        return None  # published by an older gateway: nothing to claim
    key = claim_key(payload["reply_to"], payload["chunk"])
    pipe = client.pipeline(transaction=False)
    pipe.set(key, 1, px=int(ttl_s * 1000))
    pipe.zadd(STARTED_KEY, {payload.get("queue", "python"): float(payload["sent"])}, gt=True)
    pipe.execute()
    return key


def _run_chunk(task: Task, state: _WorkerState, payload: dict[str, Any]) -> int:
    settings = state.settings
    problems = {d: Problem.model_validate(p) for d, p in payload["problems"].items()}
    items = [
        (it["key"], problems[it["digest"]], Sample.model_validate(it["sample"]))
        for it in payload["items"]
    ]
    reward = RewardSettings.model_validate(payload["reward"]) if payload["reward"] else None
    cache = RedisCache(state.redis(), settings.cache_ttl_s)
    keys = [k for k, _, _ in items]

    # Idempotence: a redelivered task (its worker died) or a duplicate redoes nothing done.
    hits = through_outage(state, lambda: cache.get_many(keys))
    done = {k: as_hit(r, s) for k, r, (_, _, s) in _zip_hits(hits, items)}
    todo = [(k, p, s) for k, p, s in items if k not in done]
    if todo:
        try:
            results = state.verifier().verify([Job(p, s) for _, p, s in todo], reward)
        except SoftTimeLimitExceeded:
            results = [infra_result(s, "task soft time limit exceeded") for _, _, s in todo]
        except InfrastructureError as exc:
            # The sandbox itself is unusable here (e.g. cannot start a cell).
            results = [infra_result(s, f"sandbox unavailable: {exc}") for _, _, s in todo]
        except Exception as exc:
            # The task boundary: a fault of ours (a bug, a broken install) must still answer
            # the waiting gateway, as sandbox_error (never a reward of 0), and be logged loudly.
            log.exception("verification failed inside the worker")
            results = [infra_result(s, f"internal error: {type(exc).__name__}") for _, _, s in todo]
        fresh = {k: r for (k, _, _), r in zip(todo, results, strict=True)}
        through_outage(state, lambda: cache.put_many(fresh))
        infra = [r for r in fresh.values() if r.verdict is Verdict.sandbox_error]
        healthy = state.verifier().pool.healthy  # cells start: a retry can succeed
        if infra and healthy and task.request.retries < (task.max_retries or 0):
            # Finished items are in the cache; the retry redoes only the failed ones.
            raise task.retry(countdown=min(2**task.request.retries, 30))
        done.update(fresh)
    _reply(state, payload["reply_to"], payload["chunk"], {k: done[k] for k in keys})
    return len(keys)


def _zip_hits(
    hits: dict[str, Result], items: list[tuple[str, Problem, Sample]]
) -> list[tuple[str, Result, tuple[str, Problem, Sample]]]:
    return [(k, hits[k], (k, p, s)) for k, p, s in items if k in hits]


def infra_result(sample: Sample, error: str) -> Result:
    """An infrastructure failure for one item of a chunk: no reward, never a 0."""
    return sandbox_error_result(sample.problem_id, sample.sample_id, error)


def _reply(state: _WorkerState, reply_to: str, chunk: int, results: dict[str, Result]) -> None:
    """Push the chunk's results to the gateway's reply list; waits out a Redis outage."""
    body = json.dumps(
        {"chunk": chunk, "results": {k: r.model_dump(mode="json") for k, r in results.items()}}
    )
    _push(state, reply_to, body)


def _push(state: _WorkerState, reply_to: str, body: str, ttl_s: int = REPLY_TTL_S) -> None:
    def push() -> None:
        pipe = state.redis().pipeline(transaction=True)
        pipe.rpush(reply_to, body)
        pipe.expire(reply_to, ttl_s)
        pipe.execute()

    through_outage(state, push)


T = TypeVar("T")


def through_outage(state: _WorkerState, op: Callable[[], T]) -> T:
    """Run a Redis operation, waiting out an outage (backoff) until the soft time limit.

    A task that has verified its items keeps them: it waits for Redis to come back rather
    than failing and leaving the work to a redelivery.
    """
    delay = 0.2
    deadline = time.monotonic() + state.settings.task_soft_time_limit_s
    while True:
        try:
            return op()
        except (redis.ConnectionError, redis.TimeoutError):
            if time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 5.0)


def _heartbeat(state: _WorkerState, name: str) -> None:
    """Every few seconds: check the sandbox, then announce this worker as alive."""
    while not state.stop.is_set():
        try:
            try:
                ok = state.verifier().self_check()
            except InfrastructureError:
                ok = False
            client = state.redis()
            if ok:
                client.zadd(WORKERS_KEY, {name: time.time()})
            else:
                client.zrem(WORKERS_KEY, name)
        except (redis.ConnectionError, redis.TimeoutError):
            pass  # Redis is down: /readyz fails on the broker check already
        state.stop.wait(HEARTBEAT_EVERY_S)


def _renew_leases(state: _WorkerState) -> None:
    """Every ``lease_renew_s``: mark the messages this worker holds as just delivered.

    kombu's Redis transport restores an unacknowledged message once its score in
    ``unacked_index`` (its delivery time) is older than the visibility timeout; moving the
    score of held messages forward keeps them ours while we live. ``xx``: a message acked
    meanwhile is never re-added.
    """
    key = RedisChannel.unacked_index_key
    while not state.stop.wait(state.settings.lease_renew_s):
        tags = list(state.held.values())
        claims = list(state.claims.values())
        if not tags and not claims:
            continue
        try:
            pipe = state.redis().pipeline(transaction=False)
            if tags:
                pipe.zadd(key, dict.fromkeys(tags, time.time()), xx=True)
            for c in claims:
                pipe.pexpire(c, int(state.settings.visibility_timeout_s * 1000))
            pipe.execute()
        except (redis.ConnectionError, redis.TimeoutError):
            pass  # Redis is down: nothing is restored meanwhile either


def alive_workers(client: redis.Redis) -> int:
    """Workers whose sandbox self-check succeeded within the heartbeat TTL."""
    return int(client.zcount(WORKERS_KEY, time.time() - HEARTBEAT_TTL_S, "+inf"))


def run_worker(settings: ServiceSettings, queues: str, concurrency: int) -> None:
    """``codereward worker``: consume ``queues`` with ``concurrency`` task threads."""
    app = make_celery(settings)
    state: _WorkerState = app.conf.codereward_state
    name = f"codereward-{os.getpid()}@{socket.gethostname()}"

    def on_ready(**_: object) -> None:
        threading.Thread(target=_heartbeat, args=(state, name), daemon=True).start()
        threading.Thread(target=_renew_leases, args=(state,), daemon=True).start()

    def on_received(request: Any = None, **_: object) -> None:
        message = getattr(request, "message", None)
        if message is not None and message.delivery_tag is not None:
            state.held[request.id] = str(message.delivery_tag)
        if getattr(request, "name", None) == TASK_NAME:
            try:
                args = request.args
                key = claim(state.redis(), args[0], settings.visibility_timeout_s)
            except (redis.ConnectionError, redis.TimeoutError):
                return  # Redis is down: the gateway cannot publish again meanwhile either
            except (TypeError, IndexError, KeyError, AttributeError):
                return  # not a payload of ours: the task itself reports it
            if key is not None:
                state.claims[request.id] = key

    def on_done(task_id: str | None = None, request: Any = None, **_: object) -> None:
        tid = str(task_id or getattr(request, "id", ""))
        state.held.pop(tid, None)
        state.claims.pop(tid, None)

    def on_shutdown(**_: object) -> None:
        state.close()
        try:
            state.redis().zrem(WORKERS_KEY, name)
        except (redis.ConnectionError, redis.TimeoutError):
            pass

    worker_ready.connect(on_ready, weak=False)
    task_received.connect(on_received, weak=False)
    task_postrun.connect(on_done, weak=False)
    task_revoked.connect(on_done, weak=False)
    worker_shutdown.connect(on_shutdown, weak=False)
    app.worker_main(
        [
            "worker",
            "--pool=threads",
            f"--concurrency={concurrency}",
            f"--queues={queues}",
            f"--hostname={name}",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
        ]
    )
