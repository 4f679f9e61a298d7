"""Python client of the reward gateway: sync, asyncio, and a TRL reward function.

``RewardClient(base_url).rewards(items)`` cuts ``items`` into batches of ``batch_size``,
sends up to ``max_concurrency`` batches at once to ``POST /v1/rewards`` and returns one
result dict per item, in order. Failures are sorted by whose fault they are::

    connection error, timeout, 5xx, 429  -> retried with exponential backoff and jitter
                                            (429/503: the server's Retry-After is honoured)
        still failing after max_retries  -> that batch's items come back as
                                            {"verdict": "sandbox_error", "reward": None}
    401, 404, 413, 422                   -> RewardClientError (the request is wrong;
                                            retrying cannot help)

An infrastructure failure is never a reward of 0: a trainer must drop ``reward is None``.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
Item = Mapping[str, Any]


class RewardClientError(Exception):
    """The service refused the request (4xx other than 429); the message is the server's."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status = status


def failure_results(items: Sequence[Item], error: str) -> list[dict[str, Any]]:
    """What a batch becomes when the service could not be reached: sandbox_error, no reward."""
    return [
        {
            "problem_id": it.get("problem_id") or (it.get("problem") or {}).get("id"),
            "sample_id": it.get("sample_id"),
            "reward": None,
            "accepted": False,
            "passed": 0,
            "total": 0,
            "verdict": "sandbox_error",
            "tests": [],
            "cached": False,
            "error": error,
        }
        for it in items
    ]


class _Policy:
    """Batching, retry decisions and backoff shared by the sync and async clients."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        batch_size: int,
        max_retries: int,
        backoff_s: float,
        backoff_max_s: float,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self.url = base_url.rstrip("/") + "/v1/rewards"
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.batch_size = batch_size
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.backoff_max_s = backoff_max_s

    def batches(self, items: Sequence[Item]) -> list[list[Item]]:
        return [list(items[i : i + self.batch_size]) for i in range(0, len(items), self.batch_size)]

    def body(self, batch: list[Item], reward: Mapping[str, Any] | None) -> dict[str, Any]:
        body: dict[str, Any] = {"items": [dict(it) for it in batch], "wait": True}
        if reward is not None:
            body["reward"] = dict(reward)
        return body

    def delay_s(self, attempt: int, response: httpx.Response | None) -> float:
        if response is not None:
            retry_after = response.headers.get("retry-after")
            if retry_after is not None:
                try:
                    return min(float(retry_after), self.backoff_max_s)
                except ValueError:
                    pass
        base = min(self.backoff_s * (2**attempt), self.backoff_max_s)
        return base * (0.5 + random.random() / 2)

    def outcome(self, batch: list[Item], response: httpx.Response) -> list[dict[str, Any]] | None:
        """Results, or None to retry; raises for requests the server refuses."""
        if response.status_code == 200:
            results: list[dict[str, Any]] = response.json()["results"]
            if len(results) != len(batch):
                raise RewardClientError(200, "server answered a different number of results")
            return results
        if response.status_code in RETRY_STATUSES:
            return None
        try:
            message = response.json().get("message") or response.text
        except ValueError:
            message = response.text
        raise RewardClientError(response.status_code, str(message)[:500])


class RewardClient:
    """Blocking client; thread-safe; ``with RewardClient(url) as c: c.rewards(items)``."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        timeout_s: float = 900.0,
        max_concurrency: int = 4,
        batch_size: int = 64,
        max_retries: int = 5,
        backoff_s: float = 0.5,
        backoff_max_s: float = 30.0,
    ) -> None:
        self._policy = _Policy(base_url, api_key, batch_size, max_retries, backoff_s, backoff_max_s)
        self._http = httpx.Client(
            timeout=timeout_s, limits=httpx.Limits(max_connections=max_concurrency)
        )
        self._pool = ThreadPoolExecutor(max_concurrency, thread_name_prefix="reward-client")
        self._sleep: Callable[[float], None] = time.sleep

    def rewards(
        self, items: Sequence[Item], reward: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """One result dict per item, in order (``reward`` is None for sandbox_error)."""
        futures = [self._pool.submit(self._batch, b, reward) for b in self._policy.batches(items)]
        out: list[dict[str, Any]] = []
        for fut in futures:
            out.extend(fut.result())
        return out

    def register(self, problems: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """POST /v1/problems; the answer carries warnings (e.g. fewer than five tests)."""
        url = self._policy.url.removesuffix("/rewards") + "/problems"
        response = self._http.post(
            url, json={"problems": [dict(p) for p in problems]}, headers=self._policy.headers
        )
        if response.status_code != 200:
            raise RewardClientError(response.status_code, response.text[:500])
        answer: dict[str, Any] = response.json()
        return answer

    def _batch(self, batch: list[Item], reward: Mapping[str, Any] | None) -> list[dict[str, Any]]:
        p = self._policy
        body = p.body(batch, reward)
        error = "unreachable"
        for attempt in range(p.max_retries + 1):
            response: httpx.Response | None = None
            try:
                response = self._http.post(p.url, json=body, headers=p.headers)
                results = p.outcome(batch, response)
                if results is not None:
                    return results
                error = f"HTTP {response.status_code}"
            except httpx.TransportError as exc:
                error = f"{type(exc).__name__}: {exc}"
            if attempt < p.max_retries:
                self._sleep(p.delay_s(attempt, response))
        return failure_results(batch, f"reward service failed after retries: {error}")

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._http.close()

    def __enter__(self) -> RewardClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncRewardClient:
    """asyncio client; ``async with AsyncRewardClient(url) as c: await c.rewards(items)``."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        timeout_s: float = 900.0,
        max_concurrency: int = 4,
        batch_size: int = 64,
        max_retries: int = 5,
        backoff_s: float = 0.5,
        backoff_max_s: float = 30.0,
    ) -> None:
        self._policy = _Policy(base_url, api_key, batch_size, max_retries, backoff_s, backoff_max_s)
        self._http = httpx.AsyncClient(
            timeout=timeout_s, limits=httpx.Limits(max_connections=max_concurrency)
        )
        self._limit = asyncio.Semaphore(max_concurrency)

    async def rewards(
        self, items: Sequence[Item], reward: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """One result dict per item, in order (``reward`` is None for sandbox_error)."""
        parts = await asyncio.gather(*(self._batch(b, reward) for b in self._policy.batches(items)))
        return [r for part in parts for r in part]

    async def _batch(
        self, batch: list[Item], reward: Mapping[str, Any] | None
    ) -> list[dict[str, Any]]:
        p = self._policy
        body = p.body(batch, reward)
        error = "unreachable"
        for attempt in range(p.max_retries + 1):
            response: httpx.Response | None = None
            try:
                async with self._limit:
                    response = await self._http.post(p.url, json=body, headers=p.headers)
                results = p.outcome(batch, response)
                if results is not None:
                    return results
                error = f"HTTP {response.status_code}"
            except httpx.TransportError as exc:
                error = f"{type(exc).__name__}: {exc}"
            if attempt < p.max_retries:
                await asyncio.sleep(p.delay_s(attempt, response))
        return failure_results(batch, f"reward service failed after retries: {error}")

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncRewardClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _completion_text(completion: Any) -> str:
    """TRL passes plain strings, or for chat data a list of messages: take the last one."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list) and completion and isinstance(completion[-1], Mapping):
        return str(completion[-1].get("content", ""))
    return str(completion)


def trl_reward_func(
    client: RewardClient | str,
    problem_id_column: str = "problem_id",
    reward: Mapping[str, Any] | None = None,
    api_key: str | None = None,
) -> Callable[..., list[float | None]]:
    """A reward function with TRL's signature ``f(prompts, completions, **kwargs)``.

    ``kwargs[problem_id_column]`` (a dataset column TRL forwards) names each completion's
    problem. Infrastructure failures return None, which TRL's GRPOTrainer ignores.
    """
    rc = client if isinstance(client, RewardClient) else RewardClient(client, api_key=api_key)

    def codereward(
        prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any
    ) -> list[float | None]:
        ids = kwargs.get(problem_id_column)
        if ids is None or len(ids) != len(completions):
            raise ValueError(
                f"trl_reward_func needs the dataset column {problem_id_column!r} "
                "(one problem id per completion)"
            )
        items = [
            {"problem_id": str(pid), "completion": _completion_text(c)}
            for pid, c in zip(ids, completions, strict=True)
        ]
        return [r["reward"] for r in rc.rewards(items, reward)]

    return codereward
