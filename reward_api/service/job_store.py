"""Records of ``wait: false`` reward jobs: status, progress and, once done, results.

A dict in the embedded mode; a Redis hash ``cr:job:<id>`` in broker mode so any gateway
process answers ``GET /v1/jobs/{id}``. The gateway process that accepted a job drives it
(dispatches, collects, writes the record); if that process dies the record stays
``running`` until it expires: a client that sees no progress for longer than its own
timeout resubmits, and the result cache makes the resubmission cheap.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from reward_api.schemas import Result

KEY_PREFIX = "cr:job:"
Status = Literal["queued", "running", "done"]


@dataclass
class JobRecord:
    """One job's state."""

    job_id: str
    status: Status
    completed: int
    total: int
    results: list[Result] | None = None
    expires_at: float = field(default=0.0)


class MemoryJobStore:
    """Job records in this process (embedded mode); finished ones expire after ``ttl_s``."""

    def __init__(self, ttl_s: float, running_ttl_s: float) -> None:
        self.ttl_s = ttl_s
        self.running_ttl_s = running_ttl_s
        self._jobs: dict[str, JobRecord] = {}

    async def create(self, job_id: str, total: int) -> None:
        self._expire()
        self._jobs[job_id] = JobRecord(
            job_id, "queued", 0, total, expires_at=time.monotonic() + self.running_ttl_s
        )

    async def progress(self, job_id: str, completed: int) -> None:
        rec = self._jobs.get(job_id)
        if rec is not None:
            rec.status = "running"
            rec.completed = completed

    async def finish(self, job_id: str, results: list[Result]) -> None:
        rec = self._jobs.get(job_id)
        if rec is not None:
            rec.status = "done"
            rec.completed = len(results)
            rec.results = results
            rec.expires_at = time.monotonic() + self.ttl_s

    async def get(self, job_id: str) -> JobRecord | None:
        rec = self._jobs.get(job_id)
        if rec is None or rec.expires_at < time.monotonic():
            return None
        return rec

    def _expire(self) -> None:
        now = time.monotonic()
        for k in [k for k, r in self._jobs.items() if r.expires_at < now]:
            del self._jobs[k]


class RedisJobStore:
    """Job records as Redis hashes (broker mode)."""

    def __init__(self, client: Any, ttl_s: int, running_ttl_s: int) -> None:
        self.client = client  # redis.asyncio.Redis
        self.ttl_s = ttl_s
        self.running_ttl_s = running_ttl_s

    async def create(self, job_id: str, total: int) -> None:
        key = KEY_PREFIX + job_id
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(key, mapping={"status": "queued", "completed": 0, "total": total})
        pipe.expire(key, self.running_ttl_s)
        await pipe.execute()

    async def progress(self, job_id: str, completed: int) -> None:
        await self.client.hset(
            KEY_PREFIX + job_id, mapping={"status": "running", "completed": completed}
        )

    async def finish(self, job_id: str, results: list[Result]) -> None:
        key = KEY_PREFIX + job_id
        body = json.dumps([r.model_dump(mode="json") for r in results])
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(key, mapping={"status": "done", "completed": len(results), "results": body})
        pipe.expire(key, self.ttl_s)
        await pipe.execute()

    async def get(self, job_id: str) -> JobRecord | None:
        raw = await self.client.hgetall(KEY_PREFIX + job_id)
        if not raw:
            return None
        d = {(k.decode() if isinstance(k, bytes) else k): v for k, v in raw.items()}
        results = None
        if d.get("results"):
            results = [Result.model_validate(r) for r in json.loads(d["results"])]
        raw_status = d["status"].decode() if isinstance(d["status"], bytes) else d["status"]
        status: Status = (
            "done" if raw_status == "done" else "running" if raw_status == "running" else "queued"
        )
        return JobRecord(job_id, status, int(d["completed"]), int(d["total"]), results)
