"""Fixtures of the exploit files."""

from collections.abc import Iterator

import pytest

from reward_api.verify.pipeline import Verifier, VerifierSettings


@pytest.fixture(scope="module")
def solo() -> Iterator[Verifier]:
    """A one-cell verifier, so consecutive samples surely share a cell (cross-sample exploits)."""
    with Verifier(VerifierSettings(workers=1)) as v:
        yield v
