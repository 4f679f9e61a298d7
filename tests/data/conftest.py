"""Shared fixtures of the dataset tests: one real verifier for the whole module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reward_api.verify.pipeline import Verifier


@pytest.fixture(scope="session")
def verifier() -> Iterator[Verifier]:
    with Verifier() as v:
        yield v
