"""Shared fixtures: one real process-sandbox Verifier per test session."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from reward_api.pipeline import Job, Verifier, VerifierSettings
from reward_api.schemas import Problem, Result, Sample


@pytest.fixture(scope="session")
def verifier() -> Iterator[Verifier]:
    with Verifier(VerifierSettings(sandbox="process", workers=2)) as v:
        yield v


def run(verifier: Verifier, problem: dict[str, Any], code: str, **reward: Any) -> Result:
    """Verify one program against one problem given as a plain dict."""
    from reward_api.schemas import RewardSettings

    p = Problem.model_validate({"id": "t", **problem})
    settings = RewardSettings(**reward) if reward else None
    return verifier.verify([Job(p, Sample(problem_id=p.id, code=code))], settings)[0]
