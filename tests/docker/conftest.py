"""Fixtures of the docker tests: the engine and the sandbox image must be there (no skips).

Run ``make images`` first (``make test-docker`` does); a missing engine or image fails the
tests with the command that fixes it.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator

import pytest

from reward_api.sandbox.policy import SandboxPolicy
from reward_api.verify.pipeline import Verifier, VerifierSettings

LABEL = SandboxPolicy().label


def our_containers() -> list[str]:
    """Ids of every container (running or not) that carries the sandbox label."""
    out = subprocess.run(
        ["docker", "ps", "-aq", "--filter", f"label={LABEL}"],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    return out.stdout.split()


@pytest.fixture(scope="session", autouse=True)
def docker_ready() -> None:
    from reward_api.errors import SandboxUnavailable
    from reward_api.sandbox.docker import check_available

    try:
        check_available(SandboxPolicy())
    except SandboxUnavailable as exc:
        pytest.fail(f"docker backend unavailable: {exc}", pytrace=False)


@pytest.fixture(scope="session")
def verifier() -> Iterator[Verifier]:
    """The docker twin of tests/conftest.py's process verifier (same name, so shared tests run here)."""
    with Verifier(VerifierSettings(sandbox="docker", workers=2)) as v:
        yield v


@pytest.fixture(scope="module")
def solo() -> Iterator[Verifier]:
    """One docker cell, so consecutive samples share it (the cross-sample leak tests)."""
    with Verifier(VerifierSettings(sandbox="docker", workers=1)) as v:
        yield v
