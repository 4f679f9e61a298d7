"""The problem registry: trainers register problems once and then send only their ids.

Two stores with one interface: a dict in the embedded mode (one gateway process) and
Redis in broker mode (``cr:problem:<id>``, a hash of the problem's JSON and its content
digest, shared by every gateway process). The Redis store keeps parsed problems in a
local map keyed by digest, so a hot problem costs one small ``HGET`` per request, not a
parse of its tests; re-registering an id with new tests changes its digest and so
invalidates that map entry and every cached result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reward_api.schemas import Problem
from reward_api.verify.keys import problem_digest

KEY_PREFIX = "cr:problem:"
MIN_TESTS = 5


class Entry:
    """A registered problem and its content digest."""

    __slots__ = ("digest", "problem")

    def __init__(self, problem: Problem, digest: str | None = None) -> None:
        self.problem = problem
        self.digest = digest or problem_digest(problem)


def warnings_for(problems: Sequence[Problem]) -> list[str]:
    """Problems are accepted with fewer than five tests, but the trainer is told."""
    return [
        f"problem {p.id!r} has {len(p.tests)} test(s); fewer than {MIN_TESTS} tests let "
        "wrong programs pass (reward hacking by special-casing)"
        for p in problems
        if len(p.tests) < MIN_TESTS
    ]


class MemoryProblemStore:
    """Problems in this process's memory (embedded mode)."""

    def __init__(self) -> None:
        self._entries: dict[str, Entry] = {}

    async def put(self, problems: Sequence[Problem]) -> None:
        for p in problems:
            self._entries[p.id] = Entry(p)

    async def get_many(self, ids: Sequence[str]) -> dict[str, Entry]:
        return {i: self._entries[i] for i in ids if i in self._entries}


class RedisProblemStore:
    """Problems in Redis, shared by all gateway processes (broker mode)."""

    def __init__(self, client: Any, local_size: int = 4096) -> None:
        self.client = client  # redis.asyncio.Redis
        self.local_size = local_size
        self._parsed: dict[str, Problem] = {}

    async def put(self, problems: Sequence[Problem]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for p in problems:
            entry = Entry(p)
            pipe.hset(
                KEY_PREFIX + p.id, mapping={"digest": entry.digest, "json": p.model_dump_json()}
            )
            self._remember(entry)
        await pipe.execute()

    async def get_many(self, ids: Sequence[str]) -> dict[str, Entry]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        pipe = self.client.pipeline(transaction=False)
        for i in ids:
            pipe.hget(KEY_PREFIX + i, "digest")
        digests = await pipe.execute()
        out: dict[str, Entry] = {}
        missing: list[tuple[str, str]] = []
        for i, d in zip(ids, digests, strict=True):
            if d is None:
                continue
            digest = d.decode() if isinstance(d, bytes) else str(d)
            problem = self._parsed.get(digest)
            if problem is not None and problem.id == i:
                out[i] = Entry(problem, digest)
            else:
                missing.append((i, digest))
        if missing:
            pipe = self.client.pipeline(transaction=False)
            for i, _ in missing:
                pipe.hget(KEY_PREFIX + i, "json")
            raws = await pipe.execute()
            for (i, digest), raw in zip(missing, raws, strict=True):
                if raw is None:
                    continue
                entry = Entry(Problem.model_validate_json(raw), digest)
                self._remember(entry)
                out[i] = entry
        return out

    def _remember(self, entry: Entry) -> None:
        if len(self._parsed) >= self.local_size:
            self._parsed.pop(next(iter(self._parsed)))
        self._parsed[entry.digest] = entry.problem
