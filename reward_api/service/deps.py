"""FastAPI dependencies: the process's ``Gateway`` and the authenticated caller."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query, Request

from reward_api.service.gateway import Gateway

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
    """Authenticate a drop-in call (401), also accepting the key as ``?api_key=``.

    No rate token is spent: the drop-ins' clients (verl, OpenRLHF, SandboxFusion's) do not
    honour 429, and verl counts one as a failed test; their routes queue with bounded
    waits instead (``reward_api.service.dropin``).
    """
    with gw.metrics.stage("auth"):
        return gw.guard.identify(request, api_key)


CompatCallerDep = Annotated[str, Depends(get_compat_caller)]
