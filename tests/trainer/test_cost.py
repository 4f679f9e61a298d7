"""Cost counters: MeteredRewards counts what the real verifier scored and its CPU seconds."""

from __future__ import annotations

import itertools

from trainer.cost import MeteredRewards, tree_cpu_s
from trainer.experiment import task
from trainer.rewards import LocalRewards, RewardRequest


def _requests(n: int, tag: str) -> list[RewardRequest]:
    problems = task.make_splits().heldout[:n]
    return [RewardRequest(p, p["reference"], f"{tag}-{i}") for i, p in enumerate(problems)]


def test_metered_rewards_count_samples_calls_and_cpu():
    metered = MeteredRewards(LocalRewards({"preset": "default", "hack_gate": False}))
    try:
        first = metered.score(_requests(12, "a"))
        metered.score(_requests(5, "b"))
        assert metered.score([]) == []  # nothing asked: no call counted
    finally:
        metered.close()
    assert all(s.accepted for s in first)
    totals = metered.totals("verifier")
    assert totals["verifier/samples"] == 17
    assert totals["verifier/calls"] == 2
    assert totals["verifier/wall_s"] > 0
    assert totals["verifier/cpu_s"] > 0  # the sandbox's processes did the work


def test_tree_cpu_never_decreases_when_cells_are_recycled(monkeypatch):
    # a cell replaced after every 16 samples: bubblewrap, its namespace and the runner are
    # killed together and reaped by nobody with accounting (without the counter's memory
    # of them, readings went down: -0.07, -0.10, -0.14 s between calls here)
    monkeypatch.setenv("CODEREWARD_RECYCLE_AFTER", "16")
    problems = task.make_splits().train
    rewards = LocalRewards({"preset": "default", "hack_gate": False})
    readings = [tree_cpu_s()]
    try:
        for i in range(8):
            part = problems[i * 32 : (i + 1) * 32]
            rewards.score(
                [RewardRequest(p, p["reference"], f"r{i}-{j}") for j, p in enumerate(part)]
            )
            readings.append(tree_cpu_s())
    finally:
        rewards.close()
    readings.append(tree_cpu_s())
    assert all(b >= a for a, b in itertools.pairwise(readings)), readings
    assert readings[-1] > readings[0]
