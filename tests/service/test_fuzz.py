"""Schemathesis against the live /openapi.json: no generated input makes a 5xx."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from gateway_procs import KEY, auth, base_env, start_server
from hypothesis import HealthCheck, given, settings

EXAMPLES = int(os.environ.get("GATEWAY_FUZZ_EXAMPLES", "20"))  # per operation


@pytest.fixture(scope="module")
def fuzz_url(logdir: Path) -> Iterator[str]:
    env = base_env(CODEREWARD_API_KEYS=KEY, CODEREWARD_MAX_BODY_BYTES="200000")
    proc, url = start_server(env, logdir)
    yield url
    proc.stop()


def test_no_input_makes_a_server_error(fuzz_url: str) -> None:
    # schemathesis' own pytest plugin does not load under this pytest; drive its
    # per-operation hypothesis strategies directly instead.
    schema = schemathesis.openapi.from_url(fuzz_url + "/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    for operation in operations:

        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def check(case: schemathesis.Case) -> None:
            response = case.call(base_url=fuzz_url, headers=auth(), timeout=60)
            assert response.status_code < 500, (case.path, case.body, response.text[:500])

        check()
