"""The HTTP boundary: request and response bodies, error answers, body size and rate limits.

Everything a route needs to refuse a request lives here, so routes stay thin (validate,
dispatch, respond). Errors, each a boundary answer and never a 500::

    401  missing or unknown API key (keys compared with hmac.compare_digest)
    413  body over max_body_bytes (Content-Length, and the bytes actually streamed)
    422  malformed body; ``message`` names the field
    429  per-key request rate or batch size over the limit; Retry-After
    503  Redis unreachable (broker mode); Retry-After
"""

from __future__ import annotations

import hashlib
import hmac
import math
import time
from typing import Any, Literal

from fastapi import Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from reward_api.schemas import Problem, Result, RewardSettings
from reward_api.service.settings import ServiceSettings

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


def error_response(
    status: int, message: str, detail: Any = None, retry_after_s: float | None = None
) -> JSONResponse:
    headers = {}
    if retry_after_s is not None:
        headers["Retry-After"] = str(max(1, math.ceil(retry_after_s)))
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    body = {"detail": detail if detail is not None else message, "message": message}
    return JSONResponse(jsonable_encoder(body), status_code=status, headers=headers)


def field_path(loc: Any) -> str:
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
                    await error_response(413, f"body over {self.max_bytes} bytes")(
                        scope, receive, send
                    )
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
                await error_response(413, f"body over {self.max_bytes} bytes")(scope, receive, send)
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


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "Missing or unknown API key."},
    413: {"model": ErrorBody, "description": "Body over the size limit."},
    422: {"model": ErrorBody, "description": "Malformed body; message names the field."},
    429: {"model": ErrorBody, "description": "Rate or batch limit; see Retry-After."},
    503: {"model": ErrorBody, "description": "Broker unreachable; see Retry-After."},
}
"""The error answers every route may give, for the OpenAPI page."""


def plain_errors(errors: Any) -> Any:
    """pydantic errors carry exceptions in ``ctx``; keep only JSON-safe parts."""
    return [{k: v for k, v in e.items() if k in ("type", "loc", "msg")} for e in errors]
