"""Reward sources: the in-process verifier, or a running ``codereward serve`` over HTTP.

Both answer ``score(requests) -> list[Scored]`` in request order. ``Scored.reward`` is None
when the verifier reported ``sandbox_error`` (an infrastructure failure): the trainer drops
that sample's whole group and never scores it 0.

Errors::

    RewardUnavailable   the service could not be reached or kept failing after
                        ``max_attempts`` tries (connection refused or reset, timeouts,
                        5xx, 429); the trainer stops rather than train on guesses.
    httpx.HTTPStatusError   a 4xx other than 429: our request is wrong, a bug; not retried.

A killed or dropped request is retried whole (with exponential back-off), so it costs time,
never a training step: the sampler only hands a group to the learner once it is scored.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol


class RewardUnavailable(RuntimeError):
    """The reward service kept failing after every retry."""


@dataclass(frozen=True)
class RewardRequest:
    """One completion to score against its problem (a CONTRACT problem dict)."""

    problem: dict[str, Any]
    completion: str
    sample_id: str


@dataclass(frozen=True)
class Scored:
    """The part of a CONTRACT Result the trainer uses."""

    reward: float | None
    accepted: bool
    verdict: str


class RewardSource(Protocol):
    """Scores completions; results in request order."""

    def score(self, requests: Sequence[RewardRequest]) -> list[Scored]:
        """One ``Scored`` per request."""
        ...

    def close(self) -> None:
        """Release connections or sandboxes."""
        ...


def _scored(result: dict[str, Any]) -> Scored:
    return Scored(
        reward=None if result.get("reward") is None else float(result["reward"]),
        accepted=bool(result.get("accepted", False)),
        verdict=str(result.get("verdict", "")),
    )


class LocalRewards:
    """``reward_api.pipeline.Verifier`` in this process."""

    def __init__(self, reward_settings: dict[str, Any] | None = None) -> None:
        from reward_api.pipeline import Verifier
        from reward_api.schemas import RewardSettings

        self._verifier = Verifier()
        self._settings = RewardSettings.model_validate(reward_settings) if reward_settings else None

    def score(self, requests: Sequence[RewardRequest]) -> list[Scored]:
        from reward_api.pipeline import Job
        from reward_api.schemas import Problem, Sample

        problems: dict[str, Problem] = {}
        jobs = []
        for req in requests:
            pid = req.problem["id"]
            if pid not in problems:
                problems[pid] = Problem.model_validate(req.problem)
            sample = Sample(problem_id=pid, sample_id=req.sample_id, completion=req.completion)
            jobs.append(Job(problem=problems[pid], sample=sample))
        results = self._verifier.verify(jobs, reward=self._settings)
        return [_scored(r.model_dump(mode="json")) for r in results]

    def close(self) -> None:
        self._verifier.close()


class HttpRewards:
    """``POST /v1/rewards`` on a running ``codereward serve``, batched and retried."""

    def __init__(
        self,
        url: str,
        api_key: str | None = None,
        batch_size: int = 64,
        max_concurrency: int = 4,
        timeout_s: float = 120.0,
        max_attempts: int = 8,
        retry_backoff_s: float = 0.5,
        reward_settings: dict[str, Any] | None = None,
    ) -> None:
        import httpx

        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(base_url=url, headers=headers, timeout=timeout_s)
        self._pool = ThreadPoolExecutor(max_workers=max_concurrency, thread_name_prefix="reward")
        self.batch_size = batch_size
        self.max_attempts = max_attempts
        self.retry_backoff_s = retry_backoff_s
        self.reward_settings = reward_settings
        self.retries = 0

    def score(self, requests: Sequence[RewardRequest]) -> list[Scored]:
        batches = [
            list(requests[i : i + self.batch_size])
            for i in range(0, len(requests), self.batch_size)
        ]
        out: list[Scored] = []
        for part in self._pool.map(self._post_with_retry, batches):
            out.extend(part)
        return out

    def _post_with_retry(self, batch: list[RewardRequest]) -> list[Scored]:
        import httpx

        body: dict[str, Any] = {
            "items": [
                {"problem": r.problem, "completion": r.completion, "sample_id": r.sample_id}
                for r in batch
            ],
            "wait": True,
        }
        if self.reward_settings:
            body["reward"] = self.reward_settings
        delay = self.retry_backoff_s
        last: Exception | None = None
        for attempt in range(self.max_attempts):
            if attempt:
                self.retries += 1
                time.sleep(delay)
                delay *= 2
            try:
                resp = self._client.post("/v1/rewards", json=body)
            except httpx.TransportError as exc:  # refused, reset, killed mid-request, timeout
                last = exc
                continue
            if resp.status_code >= 500 or resp.status_code == 429:
                last = httpx.HTTPStatusError(
                    f"{resp.status_code} from reward service", request=resp.request, response=resp
                )
                continue
            resp.raise_for_status()
            results = resp.json()["results"]
            if len(results) != len(batch):
                raise RewardUnavailable(f"asked {len(batch)} rewards, got {len(results)}")
            return [_scored(r) for r in results]
        raise RewardUnavailable(f"reward service failed {self.max_attempts} times: {last!r}")

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._client.close()


def make_reward_source(source: str, **kwargs: Any) -> RewardSource:
    """The reward source named ``source`` ('local' or 'http')."""
    if source == "local":
        return LocalRewards(reward_settings=kwargs.get("reward_settings"))
    if source == "http":
        return HttpRewards(**kwargs)
    raise ValueError(f"unknown reward source {source!r}; choose 'local' or 'http'")
