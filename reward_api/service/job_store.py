"""Records of ``wait: false`` reward jobs: status, progress and, once done, results.

A dict in the embedded mode; a Redis hash ``cr:job:<id>`` in broker mode so any gateway
process answers ``GET /v1/jobs/{id}``. The gateway process that accepted a job drives it
(dispatches, collects, writes the record) and holds its lease (``cr:job-owner:<id>``,
renewed every few seconds). In broker mode the record also keeps the job's work (its
problems, samples and reward settings) and the job is listed in ``cr:jobs:active`` until
it is done, so when the driving gateway dies (crash, restart, a lost pod) another
gateway, or the same one restarted, finds the lease expired, takes it (``SET NX``) and
drives the job again from its record: items the workers had finished come from the
result cache, the rest are verified again. In the embedded mode a job lives and dies
with its process.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from reward_api.schemas import Problem, Result, RewardSettings, Sample
from reward_api.service.problem_store import Entry

KEY_PREFIX = "cr:job:"
OWNER_PREFIX = "cr:job-owner:"
ACTIVE_KEY = "cr:jobs:active"
Status = Literal["queued", "running", "done"]
Work = list[tuple[Entry, Sample]]


def encode_work(pairs: Work, reward: RewardSettings | None) -> str:
    """A job's work as JSON: each problem once (by digest), the samples, the reward."""
    problems: dict[str, Any] = {}
    items = []
    for entry, sample in pairs:
        problems.setdefault(entry.digest, entry.problem.model_dump(mode="json"))
        items.append([entry.digest, sample.model_dump(mode="json")])
    body: dict[str, Any] = {"problems": problems, "items": items}
    body["reward"] = reward.model_dump(mode="json") if reward is not None else None
    return json.dumps(body)


def decode_work(raw: str | bytes) -> tuple[Work, RewardSettings | None]:
    body = json.loads(raw)
    entries = {d: Entry(Problem.model_validate(p), d) for d, p in body["problems"].items()}
    pairs = [(entries[d], Sample.model_validate(s)) for d, s in body["items"]]
    reward = RewardSettings.model_validate(body["reward"]) if body["reward"] else None
    return pairs, reward


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

    async def create(
        self, job_id: str, total: int, work: str | None = None, owner: str = ""
    ) -> None:
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

    def __init__(self, client: Any, ttl_s: int, running_ttl_s: int, lease_s: float = 15.0) -> None:
        self.client = client  # redis.asyncio.Redis
        self.ttl_s = ttl_s
        self.running_ttl_s = running_ttl_s
        self.lease_s = lease_s

    async def create(
        self, job_id: str, total: int, work: str | None = None, owner: str = ""
    ) -> None:
        key = KEY_PREFIX + job_id
        fields: dict[str, Any] = {"status": "queued", "completed": 0, "total": total}
        if work is not None:
            fields["work"] = work
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(key, mapping=fields)
        pipe.expire(key, self.running_ttl_s)
        if work is not None:
            pipe.set(OWNER_PREFIX + job_id, owner, ex=int(self.lease_s))
            pipe.sadd(ACTIVE_KEY, job_id)
        await pipe.execute()

    async def renew(self, job_id: str, owner: str) -> None:
        """Keep the lease of a job this gateway drives."""
        await self.client.set(OWNER_PREFIX + job_id, owner, ex=int(self.lease_s))

    async def orphans(self, owner: str) -> list[tuple[str, Work, RewardSettings | None]]:
        """Active jobs whose driver stopped renewing; each one returned is now ``owner``'s."""
        out = []
        for raw_id in await self.client.smembers(ACTIVE_KEY):
            job_id = raw_id.decode() if isinstance(raw_id, bytes) else str(raw_id)
            if await self.client.exists(OWNER_PREFIX + job_id):
                continue
            work = await self.client.hget(KEY_PREFIX + job_id, "work")
            if work is None:
                await self.client.srem(ACTIVE_KEY, job_id)  # expired or finished
                continue
            if not await self.client.set(
                OWNER_PREFIX + job_id, owner, ex=int(self.lease_s), nx=True
            ):
                continue  # another gateway took it first
            pairs, reward = decode_work(work)
            out.append((job_id, pairs, reward))
        return out

    async def progress(self, job_id: str, completed: int) -> None:
        await self.client.hset(
            KEY_PREFIX + job_id, mapping={"status": "running", "completed": completed}
        )

    async def finish(self, job_id: str, results: list[Result]) -> None:
        key = KEY_PREFIX + job_id
        body = json.dumps([r.model_dump(mode="json") for r in results])
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(key, mapping={"status": "done", "completed": len(results), "results": body})
        pipe.hdel(key, "work")
        pipe.expire(key, self.ttl_s)
        pipe.srem(ACTIVE_KEY, job_id)
        pipe.delete(OWNER_PREFIX + job_id)
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
