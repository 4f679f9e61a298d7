"""The result cache: a verified (problem, program, reward settings) is never run twice.

A result is stored under ``reward_api.verify.keys.result_key``, the same content hash the
verifier dedupes a batch by (everything that can change a result, nothing that cannot).
Two backends share one narrow interface: an in-memory LRU with an age limit (the embedded
mode, one process) and Redis with a TTL (broker mode, shared by the gateway and every
worker; workers write, so a task redelivered after its worker died finds its items done).

Never cached: ``sandbox_error`` results (an infrastructure failure is retried next time,
not remembered). A hit is returned with ``cached=True`` and the caller's ids.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from reward_api.schemas import Result, Sample, Verdict

KEY_PREFIX = "cr:res:"


def cacheable(result: Result) -> bool:
    """Infrastructure failures are retried on the next request, never remembered."""
    return result.verdict is not Verdict.sandbox_error


def as_hit(result: Result, sample: Sample) -> Result:
    """A stored result re-labelled for the sample that asked for it."""
    return result.model_copy(
        update={"problem_id": sample.problem_id, "sample_id": sample.sample_id, "cached": True}
    )


class ResultCache(Protocol):
    """Key -> Result store; both methods take and return many keys at once."""

    def get_many(self, keys: Sequence[str]) -> dict[str, Result]: ...

    def put_many(self, results: Mapping[str, Result]) -> None: ...


class MemoryCache:
    """Thread-safe LRU with an age limit, for the embedded mode."""

    def __init__(self, size: int, ttl_s: float) -> None:
        self.size = size
        self.ttl_s = ttl_s
        self._data: OrderedDict[str, tuple[float, Result]] = OrderedDict()
        self._lock = threading.Lock()

    def get_many(self, keys: Sequence[str]) -> dict[str, Result]:
        now = time.monotonic()
        out: dict[str, Result] = {}
        with self._lock:
            for key in keys:
                entry = self._data.get(key)
                if entry is None:
                    continue
                if now - entry[0] > self.ttl_s:
                    del self._data[key]
                    continue
                self._data.move_to_end(key)
                out[key] = entry[1]
        return out

    def put_many(self, results: Mapping[str, Result]) -> None:
        if self.size <= 0:
            return
        now = time.monotonic()
        with self._lock:
            for key, result in results.items():
                if not cacheable(result):
                    continue
                self._data[key] = (now, result)
                self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)


class RedisCache:
    """Results as JSON strings under ``cr:res:<key>`` with a TTL (broker mode)."""

    def __init__(self, client: Any, ttl_s: int) -> None:
        self.client = client  # a synchronous redis.Redis
        self.ttl_s = ttl_s

    def get_many(self, keys: Sequence[str]) -> dict[str, Result]:
        if not keys:
            return {}
        raws = self.client.mget([KEY_PREFIX + k for k in keys])
        return decode_hits(keys, raws)

    def put_many(self, results: Mapping[str, Result]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for key, value in encode_entries(results):
            pipe.set(KEY_PREFIX + key, value, ex=self.ttl_s)
        pipe.execute()


def decode_hits(keys: Sequence[str], raws: Iterable[bytes | str | None]) -> dict[str, Result]:
    """Parse an MGET answer; shared by the sync and asyncio Redis users."""
    return {k: Result.model_validate_json(raw) for k, raw in zip(keys, raws, strict=True) if raw}


def encode_entries(results: Mapping[str, Result]) -> list[tuple[str, str]]:
    """The (key, JSON) pairs worth storing."""
    return [(k, r.model_dump_json()) for k, r in results.items() if cacheable(r)]


class AsyncRedisCache:
    """The gateway's asyncio view of the same Redis entries."""

    def __init__(self, client: Any, ttl_s: int) -> None:
        self.client = client  # a redis.asyncio.Redis
        self.ttl_s = ttl_s

    async def get_many(self, keys: Sequence[str]) -> dict[str, Result]:
        if not keys:
            return {}
        raws = await self.client.mget([KEY_PREFIX + k for k in keys])
        return decode_hits(keys, raws)

    async def put_many(self, results: Mapping[str, Result]) -> None:
        entries = encode_entries(results)
        if not entries:
            return
        pipe = self.client.pipeline(transaction=False)
        for key, value in entries:
            pipe.set(KEY_PREFIX + key, value, ex=self.ttl_s)
        await pipe.execute()
