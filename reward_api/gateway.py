"""The reward gateway: FastAPI app factory; the spine is request -> queue -> response.

``POST /v1/rewards`` reads top to bottom as its data path, each stage timed under its
metric key (``codereward_stage_seconds{stage=...}``):

    auth -> limits -> resolve (problem ids to problems) -> cache (content-hash lookup,
    duplicates in the batch collapsed) -> queue/verify (``reward_api.dispatch``: in
    process, or Celery workers) -> respond (item order, hits flagged ``cached``)

Other routes: ``GET /v1/jobs/{id}`` (``wait: false`` progress), ``POST|GET
/v1/problems`` (the registry), ``/healthz``, ``/readyz``, ``/metrics``, the drop-in
endpoints of ``reward_api.compat`` and FastAPI's ``/openapi.json``.

Errors, each a boundary answer and never a 500::

    401  missing or unknown API key (keys compared with hmac.compare_digest)
    413  body over max_body_bytes (Content-Length, and the bytes actually streamed)
    422  malformed body; ``message`` names the field
    429  per-key request rate or batch size over the limit; Retry-After
    503  Redis unreachable (broker mode); Retry-After

What is protected: every /v1 and compat route needs a key when keys are configured; keys
are never logged. Not protected: /healthz, /readyz, /metrics and /openapi.json are open
(they reveal no data; keep them off public ingress if that matters).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import math
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from reward_api import __version__
from reward_api.cache import as_hit, result_key
from reward_api.dispatch import (
    REDIS_ERRORS,
    BrokerUnavailable,
    Dispatch,
    Work,
    infra_result,
    make_dispatch,
)
from reward_api.jobs import MemoryJobs, RedisJobs
from reward_api.metrics import Metrics
from reward_api.registry import Entry, MemoryRegistry, RedisRegistry, warnings_for
from reward_api.schemas import Problem, Result, RewardSettings, Sample
from reward_api.settings import ServiceSettings

log = logging.getLogger(__name__)
MAX_BUCKETS = 100_000

# ---------------------------------------------------------------- request and response bodies


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RewardItem(_Body):
    """One sample to score: a registered problem id or an inline problem, and a program."""

    problem_id: str | None = Field(
        default=None, min_length=1, description="Id of a problem registered with POST /v1/problems."
    )
    problem: Problem | None = Field(
        default=None, description="The problem inline, instead of problem_id (not registered)."
    )
    completion: str | None = Field(
        default=None,
        description="Model output; the program is its last fenced code block, else all.",
    )
    code: str | None = Field(default=None, description="The program, taken verbatim.")
    sample_id: str | None = Field(default=None, description="Optional id, copied to the result.")

    @model_validator(mode="after")
    def _complete(self) -> RewardItem:
        if (self.problem_id is None) == (self.problem is None):
            raise ValueError("give exactly one of 'problem_id' or 'problem'")
        if self.completion is None and self.code is None:
            raise ValueError("give 'completion' or 'code'")
        return self


class RewardsRequest(_Body):
    """A batch of samples to verify and score."""

    items: list[RewardItem] = Field(min_length=1, description="Samples, answered in this order.")
    reward: RewardSettings | None = Field(
        default=None, description="How rewards are composed; unset fields take the preset's values."
    )
    wait: bool = Field(
        default=True, description="true: answer with the results; false: answer 202 with a job_id."
    )


class RewardsResponse(_Body):
    """Results of a batch, in item order."""

    results: list[Result] = Field(description="One result per item, in item order.")


class JobAccepted(_Body):
    """A ``wait: false`` batch was queued."""

    job_id: str = Field(description="Poll GET /v1/jobs/{job_id} for progress and results.")


class JobStatus(_Body):
    """Progress of a queued batch."""

    job_id: str = Field(description="The job's id.")
    status: Literal["queued", "running", "done"] = Field(description="Where the job is.")
    completed: int = Field(description="Items with a result so far.")
    total: int = Field(description="Items in the job.")
    results: list[Result] | None = Field(
        default=None, description="Results in item order, once status is 'done'."
    )


class ProblemsRequest(_Body):
    """Problems to register (an existing id is replaced)."""

    problems: list[Problem] = Field(min_length=1, description="Problems in the contract format.")


class ProblemsResponse(_Body):
    """What was registered."""

    registered: int = Field(description="Problems stored.")
    ids: list[str] = Field(description="Their ids, in request order.")
    warnings: list[str] = Field(
        default_factory=list, description="E.g. problems with fewer than five tests."
    )


class Health(_Body):
    """Liveness or readiness."""

    status: Literal["ok", "unavailable"] = Field(description="'ok' when every check passed.")
    mode: Literal["embedded", "broker"] = Field(description="Where verification runs.")
    checks: dict[str, bool] = Field(default_factory=dict, description="Each check's outcome.")
    version: str = Field(description="codereward version.")


class ErrorBody(_Body):
    """An error answer."""

    detail: Any = Field(description="What went wrong (for 422: pydantic's error list).")
    message: str = Field(description="One line naming the field or the limit.")


# ---------------------------------------------------------------- boundary errors


class ApiError(Exception):
    """An answer other than 200 decided at the boundary (401, 404, 422, 429, 503)."""

    def __init__(self, status: int, message: str, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after_s = retry_after_s


def _error(
    status: int, message: str, detail: Any = None, retry_after_s: float | None = None
) -> JSONResponse:
    headers = {}
    if retry_after_s is not None:
        headers["Retry-After"] = str(max(1, math.ceil(retry_after_s)))
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    body = {"detail": detail if detail is not None else message, "message": message}
    return JSONResponse(jsonable_encoder(body), status_code=status, headers=headers)


def _field_path(loc: Any) -> str:
    parts = [str(p) for p in loc if p not in ("body",)]
    return ".".join(parts) or "body"


# ---------------------------------------------------------------- body size limit


class BodyLimit:
    """ASGI middleware: 413 when Content-Length, or the bytes actually sent, pass the limit.

    The body is buffered up to the limit and replayed to the app, so an oversized chunked
    upload is refused before any handler parses it.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared > self.max_bytes:
                    await _error(413, f"body over {self.max_bytes} bytes")(scope, receive, send)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await _error(413, f"body over {self.max_bytes} bytes")(scope, receive, send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        data = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": data, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class RequestTimer:
    """ASGI middleware observing ``codereward_request_seconds`` by route, method, status.

    Plain ASGI rather than ``@app.middleware("http")``: the latter costs about a
    millisecond per request, a fifth of the cached-request budget.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        t0 = time.perf_counter()
        status = [500]

        async def send_status(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            gw = getattr(scope["app"].state, "gateway", None) if "app" in scope else None
            if gw is not None:
                path = getattr(scope.get("route"), "path", "other")
                gw.metrics.request_seconds.labels(path, scope["method"], str(status[0])).observe(
                    time.perf_counter() - t0
                )


# ---------------------------------------------------------------- auth and limits


class Guard:
    """API-key check (constant time) and per-key token buckets for request rate."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.keys = [k.encode() for k in settings.key_list()]
        self.per_min = settings.rate_limit_per_min
        self.max_batch = settings.max_batch
        self._buckets: dict[str, tuple[float, float]] = {}

    def identify(self, request: Request, url_key: str | None = None) -> str:
        """The caller's identity for limits: a hash of its key, or its address.

        ``url_key`` is the ``api_key`` query parameter, accepted only on the drop-in
        routes: OpenRLHF and verl send no headers, so the URL is all they let us set.
        """
        if not self.keys:
            return "addr:" + (request.client.host if request.client else "?")
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token:
            if not url_key:
                raise ApiError(401, "missing 'Authorization: Bearer <key>'")
            token = url_key
        given = token.strip().encode()
        match = False
        for key in self.keys:
            # Every key is compared, so timing reveals neither the key nor which one matched.
            match |= hmac.compare_digest(given, key)
        if not match:
            raise ApiError(401, "unknown API key")
        return "key:" + hashlib.sha256(given).hexdigest()[:16]

    def take(self, who: str) -> None:
        """Spend one request token; 429 with the wait until the next one."""
        now = time.monotonic()
        rate = self.per_min / 60.0
        tokens, last = self._buckets.get(who, (float(self.per_min), now))
        tokens = min(float(self.per_min), tokens + (now - last) * rate)
        if tokens < 1.0:
            self._buckets[who] = (tokens, now)
            raise ApiError(429, f"over {self.per_min} requests per minute", (1.0 - tokens) / rate)
        if len(self._buckets) > MAX_BUCKETS:
            self._buckets.clear()  # unkeyed callers by address: bound the memory, not the rate
        self._buckets[who] = (tokens - 1.0, now)

    def batch(self, n: int) -> None:
        if n > self.max_batch:
            raise ApiError(
                429, f"batch of {n} items is over the limit of {self.max_batch}; split it", 1
            )


# ---------------------------------------------------------------- the service


class Gateway:
    """State of one gateway process: settings, dispatch, registry, jobs, metrics."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        self.metrics = Metrics()
        self.guard = Guard(settings)
        self.dispatch: Dispatch = make_dispatch(settings)
        self.metrics.set_queue_depth_source(self.dispatch.queue_depth)
        self.registry: MemoryRegistry | RedisRegistry
        self.jobs: MemoryJobs | RedisJobs
        running_ttl = int(settings.request_timeout_s + settings.job_ttl_s)
        if settings.embedded:
            self.registry = MemoryRegistry()
            self.jobs = MemoryJobs(settings.job_ttl_s, running_ttl)
        else:
            client = self.dispatch.redis  # type: ignore[union-attr]
            self.registry = RedisRegistry(client)
            self.jobs = RedisJobs(client, settings.job_ttl_s, running_ttl)
        self._background: set[asyncio.Task[None]] = set()

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
            keys = [result_key(e.digest, s, reward, runtime) for e, s in pairs]
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
        async def run() -> None:
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
                        results = [infra_result(s, error) for _, s in pairs]
                        break
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 5.0)
            await _retrying(lambda: self.jobs.finish(job_id, results), self.settings)

        task = asyncio.get_running_loop().create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_failure)

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


# ---------------------------------------------------------------- dependencies


async def get_gateway(request: Request) -> Gateway:
    """The process's Gateway, made by the app's lifespan.

    ``async`` although it awaits nothing: FastAPI runs a plain ``def`` dependency on a
    worker thread, and those hops were most of a cached request's cost.
    """
    gw: Gateway = request.app.state.gateway
    return gw


GatewayDep = Annotated[Gateway, Depends(get_gateway)]


async def get_caller(request: Request, gw: GatewayDep) -> str:
    """Authenticate (401) and spend a rate token (429); the caller's identity for limits."""
    with gw.metrics.stage("auth"):
        who = gw.guard.identify(request)
        gw.guard.take(who)
    return who


CallerDep = Annotated[str, Depends(get_caller)]


async def get_compat_caller(
    request: Request,
    gw: GatewayDep,
    api_key: Annotated[
        str | None,
        Query(description="API key, for trainers that cannot send headers (OpenRLHF, verl)."),
    ] = None,
) -> str:
    """As ``get_caller``, also accepting the key as ``?api_key=`` (drop-in routes only)."""
    with gw.metrics.stage("auth"):
        who = gw.guard.identify(request, api_key)
        gw.guard.take(who)
    return who


CompatCallerDep = Annotated[str, Depends(get_compat_caller)]


# ---------------------------------------------------------------- the app


def create_app(settings: ServiceSettings | None = None) -> FastAPI:
    """The gateway app; ``settings`` defaults to the environment (read once, here)."""
    settings = settings or ServiceSettings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        gw = Gateway(settings)
        app.state.gateway = gw
        try:
            yield
        finally:
            await gw.close()

    app = FastAPI(
        title="codereward",
        version=__version__,
        description="Sandboxed code-verification rewards for RL post-training of code LLMs.",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(RequestTimer)

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.message, retry_after_s=exc.retry_after_s)

    @app.exception_handler(BrokerUnavailable)
    async def _broker_down(_: Request, exc: Exception) -> JSONResponse:
        return _error(503, "broker unavailable; retry later", retry_after_s=settings.retry_after_s)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": ("body",), "msg": "invalid"}
        message = f"{_field_path(first.get('loc', ()))}: {first.get('msg', 'invalid')}"
        return _error(422, message, detail=_plain(errors))

    for exc_type in REDIS_ERRORS:
        # A Redis call outside the dispatch boundary (registry, jobs) failed: 503, not 500.
        app.add_exception_handler(exc_type, _broker_down)

    responses: dict[int | str, dict[str, Any]] = {
        401: {"model": ErrorBody, "description": "Missing or unknown API key."},
        413: {"model": ErrorBody, "description": "Body over the size limit."},
        422: {"model": ErrorBody, "description": "Malformed body; message names the field."},
        429: {"model": ErrorBody, "description": "Rate or batch limit; see Retry-After."},
        503: {"model": ErrorBody, "description": "Broker unreachable; see Retry-After."},
    }

    @app.post(
        "/v1/rewards",
        response_model=RewardsResponse,
        responses={**responses, 202: {"model": JobAccepted, "description": "Queued (wait=false)."}},
    )
    async def rewards(body: RewardsRequest, gw: GatewayDep, who: CallerDep) -> Any:
        """Verify and score a batch: results in item order, or a job id with wait=false."""
        gw.guard.batch(len(body.items))
        with gw.metrics.stage("resolve"):
            pairs = await gw.resolve(body.items)
        if body.wait:
            results = await gw.score(pairs, body.reward)
            # Serialised once here; returning the model would validate it a second time.
            payload = RewardsResponse.model_construct(results=results).model_dump_json()
            return Response(payload, media_type="application/json")
        job_id = uuid.uuid4().hex
        await gw.jobs.create(job_id, len(pairs))
        gw.start_job(job_id, pairs, body.reward)
        return JSONResponse({"job_id": job_id}, status_code=202)

    @app.get("/v1/jobs/{job_id}", response_model=JobStatus, responses=responses)
    async def job(job_id: str, gw: GatewayDep, who: CallerDep) -> JobStatus:
        """Progress of a wait=false batch; results in item order once done."""
        rec = await gw.jobs.get(job_id)
        if rec is None:
            raise ApiError(404, f"no job {job_id!r} (unknown or expired)")
        return JobStatus(
            job_id=rec.job_id,
            status=rec.status,
            completed=rec.completed,
            total=rec.total,
            results=rec.results,
        )

    @app.post("/v1/problems", response_model=ProblemsResponse, responses=responses)
    async def put_problems(
        body: ProblemsRequest, gw: GatewayDep, who: CallerDep
    ) -> ProblemsResponse:
        """Register problems so rewards requests can send only their ids."""
        await gw.registry.put(body.problems)
        return ProblemsResponse(
            registered=len(body.problems),
            ids=[p.id for p in body.problems],
            warnings=warnings_for(body.problems),
        )

    @app.get("/v1/problems/{problem_id}", response_model=Problem, responses=responses)
    async def get_problem(problem_id: str, gw: GatewayDep, who: CallerDep) -> Problem:
        """One registered problem."""
        found = await gw.registry.get_many([problem_id])
        if problem_id not in found:
            raise ApiError(404, f"no problem {problem_id!r}")
        return found[problem_id].problem

    @app.get("/healthz", response_model=Health)
    async def healthz(gw: GatewayDep) -> Health:
        """Liveness: the process answers."""
        return Health(status="ok", mode=_mode(settings), version=__version__)

    @app.get("/readyz", response_model=Health, responses={503: {"model": Health}})
    async def readyz(gw: GatewayDep) -> Any:
        """Readiness: broker reachable, a worker alive, the sandbox answers."""
        checks = await gw.dispatch.ready()
        ok = all(checks.values())
        body = Health(
            status="ok" if ok else "unavailable",
            mode=_mode(settings),
            checks=checks,
            version=__version__,
        )
        if ok:
            return body
        return JSONResponse(
            body.model_dump(), status_code=503, headers={"Retry-After": str(settings.retry_after_s)}
        )

    @app.get("/metrics", response_class=Response)
    def metrics(gw: GatewayDep) -> Response:
        """Prometheus text exposition."""
        return Response(gw.metrics.render(), media_type=gw.metrics.content_type)

    from reward_api.compat import router

    app.include_router(router)
    return app


def _mode(settings: ServiceSettings) -> Literal["embedded", "broker"]:
    return "embedded" if settings.embedded else "broker"


def _plain(errors: Any) -> Any:
    """pydantic errors carry exceptions in ``ctx``; keep only JSON-safe parts."""
    out = []
    for e in errors:
        out.append({k: v for k, v in e.items() if k in ("type", "loc", "msg")})
    return out
