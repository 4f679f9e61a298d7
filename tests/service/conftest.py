"""Fixtures of the gateway tests: real uvicorn, Redis and Celery processes on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from gateway_procs import ADD, FEW, KEY, SQUARE, auth, base_env, start_server


@pytest.fixture(scope="session")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("gateway-logs")


@pytest.fixture(scope="session")
def embedded(logdir: Path) -> Iterator[str]:
    """An embedded-mode gateway with an API key and generous limits."""
    env = base_env(CODEREWARD_API_KEYS=KEY, CODEREWARD_MAX_BODY_BYTES="2000000")
    proc, url = start_server(env, logdir)
    r = httpx.post(url + "/v1/problems", json={"problems": [ADD, SQUARE, FEW]}, headers=auth())
    assert r.status_code == 200, r.text
    yield url
    proc.stop()
