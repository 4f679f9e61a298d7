"""Limits and settings: 413 (declared and streamed), 429 (rate, batch), refused binds/keys."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from gateway_procs import KEY, ROOT, auth, base_env, start_server
from pydantic import ValidationError

from reward_api.client import RewardClient
from reward_api.service.settings import ServiceSettings


@pytest.fixture(scope="module")
def tight(logdir: Path) -> Iterator[str]:
    env = base_env(
        CODEREWARD_API_KEYS=KEY,
        CODEREWARD_RATE_LIMIT_PER_MIN="4",
        CODEREWARD_MAX_BATCH="2",
        CODEREWARD_MAX_BODY_BYTES="2048",
    )
    proc, url = start_server(env, logdir)
    yield url
    proc.stop()


def test_body_over_limit_gets_413_by_content_length(tight: str) -> None:
    big = {"items": [{"problem_id": "x", "code": "#" * 5000}]}
    r = httpx.post(tight + "/v1/rewards", json=big, headers=auth())
    assert r.status_code == 413


def test_body_over_limit_gets_413_when_streamed_without_length(tight: str) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"items": [{"problem_id": "x", "code": "'
        for _ in range(10):
            yield b"#" * 500
        yield b'"}]}'

    r = httpx.post(tight + "/v1/rewards", content=chunks(), headers=auth())
    assert "content-length" not in r.request.headers
    assert r.status_code == 413


def test_batch_over_limit_and_rate_over_limit_get_429(tight: str) -> None:
    items = [{"problem_id": "x", "code": "1"}] * 3
    r = httpx.post(tight + "/v1/rewards", json={"items": items}, headers=auth())
    assert r.status_code == 429 and "Retry-After" in r.headers
    codes = [httpx.get(tight + "/v1/problems/x", headers=auth()).status_code for _ in range(6)]
    assert codes[-1] == 429
    last = httpx.get(tight + "/v1/problems/x", headers=auth())
    assert last.status_code == 429 and int(last.headers["retry-after"]) >= 1


def test_serve_refuses_public_bind_without_keys() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "reward_api.service.cli", "serve", "--host", "0.0.0.0"],
        env=base_env(),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "CODEREWARD_API_KEYS" in r.stderr


def test_placeholder_and_short_keys_are_refused_and_never_echoed() -> None:
    for bad in ("changeme", "short-key", f"{KEY},secret"):
        with pytest.raises(ValidationError) as err:
            ServiceSettings(api_keys=bad)
        assert "changeme" not in str(err.value) and KEY not in str(err.value)
    assert ServiceSettings(api_keys=KEY).key_list() == [KEY]
    assert KEY not in repr(ServiceSettings(api_keys=KEY))


def test_time_limits_nest_and_leases_are_renewed_often_enough() -> None:
    with pytest.raises(ValidationError):
        ServiceSettings(lease_renew_s=30, visibility_timeout_s=60)
    with pytest.raises(ValidationError):
        ServiceSettings(task_soft_time_limit_s=400, task_time_limit_s=330)


def test_gateway_never_imports_torch_or_vllm() -> None:
    code = (
        "import sys, reward_api.service.app, reward_api.client, reward_api.service.tasks\n"
        "bad = [m for m in ('torch', 'vllm', 'transformers') if m in sys.modules]\n"
        "assert not bad, bad"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_client_retries_429_honouring_retry_after_then_reports_no_reward(tight: str) -> None:
    for _ in range(6):  # drain the key's bucket
        httpx.get(tight + "/v1/problems/x", headers=auth())
    client = RewardClient(tight, api_key=KEY, max_retries=2, backoff_s=5.0, backoff_max_s=0.3)
    t0 = time.perf_counter()
    results = client.rewards([{"problem_id": "x", "code": "1"}])
    elapsed = time.perf_counter() - t0
    client.close()
    # Retry-After (about 15 s) was honoured up to backoff_max_s, twice.
    assert 0.6 <= elapsed < 5
    assert results[0]["verdict"] == "sandbox_error" and results[0]["reward"] is None
    assert "HTTP 429" in results[0]["error"]


def test_drop_ins_are_never_rate_limited(tight: str) -> None:
    """verl sends one /run_code per test and counts a 429 as a failed test
    (verl/utils/reward_score/sandbox_fusion/utils.py, 0.9.1: only 504 is retried), so the
    drop-ins queue instead of refusing while /v1 keeps its 429."""
    body = {"code": "print(1)", "language": "python", "run_timeout": 4}
    codes = [
        httpx.post(tight + "/run_code", params={"api_key": KEY}, json=body, timeout=60).status_code
        for _ in range(8)
    ]
    assert codes == [200] * 8
