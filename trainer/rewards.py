"""Reward sources: the in-process verifier, or a running ``codereward serve`` over HTTP.

Both answer ``score(requests) -> list[Scored]`` in request order. ``Scored.reward`` is None
when the verifier reported ``sandbox_error`` (an infrastructure failure): the trainer drops
that sample's whole group and never scores it 0.

Errors::

    RewardUnavailable   the service could not be reached or kept failing after
                        ``max_attempts`` rounds of the client's own retries (connection
                        refused or reset, timeouts, 5xx, 429); the trainer stops rather
                        than train on guesses, and resumes from its last checkpoint.
    RewardClientError   (``reward_api.client``) a 4xx other than 429: our request is
                        wrong, a bug; not retried.

A killed or dropped request is retried (by the client, then here), so it costs time, never
a training step: the sampler only hands a group to the learner once it is scored.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
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
    """``reward_api.Verifier`` in this process."""

    def __init__(self, reward_settings: dict[str, Any] | None = None) -> None:
        from reward_api import RewardSettings, Verifier

        self._verifier = Verifier()
        self._settings = RewardSettings.model_validate(reward_settings) if reward_settings else None

    def score(self, requests: Sequence[RewardRequest]) -> list[Scored]:
        from reward_api import Job, Problem, Sample

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
    """``POST /v1/rewards`` on a running ``codereward serve`` via ``reward_api.client``.

    The client batches, runs ``max_concurrency`` requests at once and retries transport
    errors, 5xx and 429 with back-off; a batch it still could not deliver comes back as
    ``sandbox_error`` marked "failed after retries". Those items (and only those: a real
    ``sandbox_error`` from the service is dropped by the trainer) are sent again, for up to
    ``max_attempts`` rounds, before ``RewardUnavailable`` stops the run.
    """

    UNDELIVERED = "reward service failed after retries"

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
        from reward_api import RewardClient

        self._client = RewardClient(
            url,
            api_key=api_key,
            timeout_s=timeout_s,
            max_concurrency=max_concurrency,
            batch_size=batch_size,
            max_retries=3,
            backoff_s=retry_backoff_s,
        )
        self.max_attempts = max_attempts
        self.retry_backoff_s = retry_backoff_s
        self.reward_settings = reward_settings
        self.resent = 0

    def score(self, requests: Sequence[RewardRequest]) -> list[Scored]:
        items = [
            {"problem": r.problem, "completion": r.completion, "sample_id": r.sample_id}
            for r in requests
        ]
        results: list[dict[str, Any] | None] = [None] * len(items)
        todo = list(range(len(items)))
        for attempt in range(self.max_attempts):
            if attempt:
                self.resent += len(todo)
                time.sleep(self.retry_backoff_s * 2 ** min(attempt, 6))
            answers = self._client.rewards([items[i] for i in todo], self.reward_settings)
            for i, res in zip(todo, answers, strict=True):
                results[i] = res
            todo = [
                i
                for i in todo
                if str(results[i].get("error") or "").startswith(self.UNDELIVERED)  # type: ignore[union-attr]
            ]
            if not todo:
                return [_scored(r) for r in results if r is not None]
        raise RewardUnavailable(
            f"{len(todo)} rewards undelivered after {self.max_attempts} rounds: "
            f"{results[todo[0]]!r}"
        )

    def close(self) -> None:
        self._client.close()


def make_reward_source(source: str, **kwargs: Any) -> RewardSource:
    """The reward source named ``source`` ('local' or 'http')."""
    if source == "local":
        return LocalRewards(reward_settings=kwargs.get("reward_settings"))
    if source == "http":
        return HttpRewards(**kwargs)
    raise ValueError(f"unknown reward source {source!r}; choose 'local' or 'http'")
