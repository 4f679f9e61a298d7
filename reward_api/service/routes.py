"""The /v1 API and the health routes: each validates, dispatches to the gateway, responds.

- ``POST /v1/rewards``: verify and score a batch (``wait: false`` answers 202 and a job id)
- ``GET /v1/jobs/{id}``: progress and results of a ``wait: false`` batch
- ``POST /v1/problems``, ``GET /v1/problems/{id}``: the problem store
- ``GET /healthz`` (liveness), ``GET /readyz`` (broker, worker, sandbox), ``GET /metrics``
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from reward_api import __version__
from reward_api.schemas import Problem
from reward_api.service.deps import CallerDep, GatewayDep
from reward_api.service.http import (
    ERROR_RESPONSES,
    ApiError,
    Health,
    JobAccepted,
    JobStatus,
    ProblemsRequest,
    ProblemsResponse,
    RewardsRequest,
    RewardsResponse,
)
from reward_api.service.problem_store import warnings_for
from reward_api.service.settings import ServiceSettings

router = APIRouter()


@router.post(
    "/v1/rewards",
    response_model=RewardsResponse,
    responses={
        **ERROR_RESPONSES,
        202: {"model": JobAccepted, "description": "Queued (wait=false)."},
    },
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
    job_id = await gw.submit_job(pairs, body.reward)
    return JSONResponse({"job_id": job_id}, status_code=202)


@router.get("/v1/jobs/{job_id}", response_model=JobStatus, responses=ERROR_RESPONSES)
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


@router.post("/v1/problems", response_model=ProblemsResponse, responses=ERROR_RESPONSES)
async def put_problems(body: ProblemsRequest, gw: GatewayDep, who: CallerDep) -> ProblemsResponse:
    """Register problems so rewards requests can send only their ids."""
    await gw.registry.put(body.problems)
    return ProblemsResponse(
        registered=len(body.problems),
        ids=[p.id for p in body.problems],
        warnings=warnings_for(body.problems),
    )


@router.get("/v1/problems/{problem_id}", response_model=Problem, responses=ERROR_RESPONSES)
async def get_problem(problem_id: str, gw: GatewayDep, who: CallerDep) -> Problem:
    """One registered problem."""
    found = await gw.registry.get_many([problem_id])
    if problem_id not in found:
        raise ApiError(404, f"no problem {problem_id!r}")
    return found[problem_id].problem


@router.get("/healthz", response_model=Health)
async def healthz(gw: GatewayDep) -> Health:
    """Liveness: the process answers."""
    return Health(status="ok", mode=_mode(gw.settings), version=__version__)


@router.get("/readyz", response_model=Health, responses={503: {"model": Health}})
async def readyz(gw: GatewayDep) -> Any:
    """Readiness: broker reachable, a worker alive, the sandbox answers."""
    checks = await gw.dispatch.ready()
    ok = all(checks.values())
    body = Health(
        status="ok" if ok else "unavailable",
        mode=_mode(gw.settings),
        checks=checks,
        version=__version__,
    )
    if ok:
        return body
    return JSONResponse(
        body.model_dump(), status_code=503, headers={"Retry-After": str(gw.settings.retry_after_s)}
    )


@router.get("/metrics", response_class=Response)
def metrics(gw: GatewayDep) -> Response:
    """Prometheus text exposition."""
    return Response(gw.metrics.render(), media_type=gw.metrics.content_type)


def _mode(settings: ServiceSettings) -> Literal["embedded", "broker"]:
    return "embedded" if settings.embedded else "broker"
