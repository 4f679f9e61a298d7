"""The verification spine: extract -> dedupe -> sandbox -> grade -> scan -> score -> result.

``Verifier`` owns a sandbox pool and turns (problem, sample) jobs into ``Result``s in
job order. Every stage is timed under the name that is also its metric key
(``extract``, ``sandbox``, ``grade``, ``scan``, ``score``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reward_api.schemas import Problem, Result, RewardSettings, Sample


@dataclass(frozen=True)
class Job:
    """One sample to verify against its problem."""

    problem: Problem
    sample: Sample


ResultCallback = Callable[[int, Result], None]


class Verifier:
    """Runs jobs in the configured sandbox; thread-safe; close() (or ``with``) frees the pool."""

    def __init__(self, settings: object | None = None) -> None:
        raise NotImplementedError("being written")

    def verify(
        self,
        jobs: Sequence[Job],
        reward: RewardSettings | None = None,
        on_result: ResultCallback | None = None,
    ) -> list[Result]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError
