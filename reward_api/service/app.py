"""The reward service's FastAPI app: ``create_app`` wires middleware, errors and routes.

What is protected: every /v1 and drop-in route needs a key when keys are configured; keys
are never logged. Not protected: /healthz, /readyz, /metrics, /openapi.json and /v1/ping are open
(they reveal no data; keep them off public ingress if that matters). The routes are in
``routes`` (the /v1 API and health) and ``dropin`` (OpenRLHF, SandboxFusion); the bodies
and the boundary errors in ``http``; the spine in ``gateway``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from reward_api import __version__
from reward_api.errors import BrokerUnavailable
from reward_api.schemas import allow_big_ints
from reward_api.service import dropin, routes
from reward_api.service.dispatch import REDIS_ERRORS
from reward_api.service.gateway import Gateway
from reward_api.service.http import (
    ApiError,
    BodyLimit,
    RequestTimer,
    error_response,
    field_path,
    plain_errors,
)
from reward_api.service.settings import ServiceSettings


def create_app(settings: ServiceSettings | None = None) -> FastAPI:
    """The gateway app; ``settings`` defaults to the environment (read once, here)."""
    settings = settings or ServiceSettings()
    allow_big_ints()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        gw = Gateway(settings)
        app.state.gateway = gw
        gw.start()
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
        return error_response(exc.status, exc.message, retry_after_s=exc.retry_after_s)

    @app.exception_handler(BrokerUnavailable)
    async def _broker_down(_: Request, exc: Exception) -> JSONResponse:
        return error_response(
            503, "broker unavailable; retry later", retry_after_s=settings.retry_after_s
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {"loc": ("body",), "msg": "invalid"}
        message = f"{field_path(first.get('loc', ()))}: {first.get('msg', 'invalid')}"
        return error_response(422, message, detail=plain_errors(errors))

    for exc_type in REDIS_ERRORS:
        # A Redis call outside the dispatch boundary (registry, jobs) failed: 503, not 500.
        app.add_exception_handler(exc_type, _broker_down)

    app.include_router(routes.router)
    app.include_router(dropin.router)
    return app
