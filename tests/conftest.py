"""Shared fixtures: one real process-sandbox Verifier per test session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from reward_api.schemas import Problem, Result, Sample
from reward_api.verify.pipeline import Job, Verifier, VerifierSettings


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


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """In CI (CI=true) a skip is a failure, except for tests that need a GPU.

    Everything else the suite needs (bubblewrap, Docker, Redis, semgrep, torch, vLLM on the
    CPU) is installed by .ci/run, so a skip there would hide a missing install step.
    """
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") == "true" and report.skipped and item.get_closest_marker("gpu") is None:
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, which must run it: {report.longrepr}"
