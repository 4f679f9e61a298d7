"""RewardClient against a real gateway: batching, order, async, TRL, failures never 0."""

from __future__ import annotations

import asyncio
import time

import pytest
from gateway_procs import ADD_OK, ADD_WRONG, KEY, free_port

from reward_api.client import AsyncRewardClient, RewardClient, RewardClientError, trl_reward_func


def _items(tag: str, n: int) -> list[dict]:
    return [
        {"problem_id": "add", "code": (ADD_OK if i % 2 == 0 else ADD_WRONG) + f"\n# {tag} {i}",
         "sample_id": str(i)}
        for i in range(n)
    ]  # fmt: skip


def test_client_batches_concurrently_and_keeps_order(embedded: str) -> None:
    items = _items(f"sync {time.time_ns()}", 5)
    with RewardClient(embedded, api_key=KEY, batch_size=2, max_concurrency=2) as client:
        results = client.rewards(items)
    assert [r["sample_id"] for r in results] == ["0", "1", "2", "3", "4"]
    assert [r["reward"] for r in results] == [1.0, 0.0, 1.0, 0.0, 1.0]


def test_async_client_matches_sync(embedded: str) -> None:
    items = _items(f"async {time.time_ns()}", 4)

    async def go() -> list[dict]:
        async with AsyncRewardClient(embedded, api_key=KEY, batch_size=3) as client:
            return await client.rewards(items)

    assert [r["reward"] for r in asyncio.run(go())] == [1.0, 0.0, 1.0, 0.0]


def test_trl_reward_function_reads_problem_ids_from_kwargs(embedded: str) -> None:
    client = RewardClient(embedded, api_key=KEY)
    reward_func = trl_reward_func(client)
    completions = [
        [{"role": "assistant", "content": f"```python\n{ADD_OK}\n```"}],
        [{"role": "assistant", "content": f"```python\n{ADD_WRONG}\n```"}],
    ]
    rewards = reward_func(prompts=["p", "p"], completions=completions, problem_id=["add", "add"])
    client.close()
    assert rewards == [1.0, 0.0]


def test_unreachable_service_is_sandbox_error_not_zero() -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    with RewardClient(dead, max_retries=2, backoff_s=0.01) as client:
        results = client.rewards([{"problem_id": "add", "code": ADD_OK, "sample_id": "a"}])
    assert results[0]["verdict"] == "sandbox_error" and results[0]["reward"] is None
    assert results[0]["sample_id"] == "a" and "after retries" in results[0]["error"]


def test_refused_requests_raise_instead_of_retrying(embedded: str) -> None:
    with RewardClient(embedded, api_key=KEY, max_retries=5) as client:
        t0 = time.perf_counter()
        with pytest.raises(RewardClientError) as err:
            client.rewards([{"problem_id": "no-such-problem", "code": ADD_OK}])
        assert err.value.status == 422
        assert time.perf_counter() - t0 < 5  # no backoff was slept
    with RewardClient(embedded, api_key="w" * 32) as client, pytest.raises(RewardClientError):
        client.rewards([{"problem_id": "add", "code": ADD_OK}])
