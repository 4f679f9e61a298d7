"""Offline mode: train on a fixed JSONL of completions; rewards come from the verifier and
behaviour log-probs from the starting model when the file leaves them out."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")

from trainer.demo import toyproblems
from trainer.problems import write_jsonl
from trainer.config import TrainConfig


def test_offline_run_fills_missing_rewards_and_logprobs(tmp_path, tiny_model_dir, toy_split):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from trainer.offline import load_offline_groups
    from trainer.rewards import LocalRewards
    from trainer.train import train

    problems = toy_split[0][:2]
    write_jsonl(tmp_path / "problems.jsonl", problems)
    rows = []
    for p in problems:
        wrong = toyproblems.program_for(p["metadata"]["family"], p["metadata"]["k"] + 1)
        rows += [{"problem_id": p["id"], "completion": p["reference"]}] * 2
        rows += [{"problem_id": p["id"], "completion": wrong}]
        rows += [
            {"problem_id": p["id"], "completion": wrong, "reward": 0.25, "behavior_logprob": -3.0}
        ]
    rows.append({"problem_id": problems[0]["id"], "completion": "tail dropped"})
    write_jsonl(tmp_path / "offline.jsonl", rows)

    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32)
    rewards = LocalRewards()
    try:
        groups, dropped = load_offline_groups(
            rows, {p["id"]: p for p in problems}, 4, tokenizer, model, rewards, "{prompt}", 1.0
        )
    finally:
        rewards.close()
    assert dropped == 0 and len(groups) == 2
    for g in groups:
        assert g.rewards == [1.0, 1.0, 0.0, 0.25]
        assert g.completions[3].logprob == -3.0
        assert (
            g.completions[0].logprob < 0
            and g.completions[0].token_ids[-1] == tokenizer.eos_token_id
        )

    cfg = TrainConfig.model_validate(
        {
            "run": {"out_dir": str(tmp_path / "run"), "steps": 3, "torch_threads": 1},
            "model": {"path": str(tiny_model_dir)},
            "data": {
                "problems": str(tmp_path / "problems.jsonl"),
                "offline": str(tmp_path / "offline.jsonl"),
            },
            "rollout": {"group_size": 4},
            "algo": {"groups_per_step": 2, "lr": 1e-3},
            "log": {"tensorboard": False},
        }
    )
    assert train(cfg)["step"] == 3
    lines = (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()
    losses = [json.loads(x)["loss"] for x in lines]
    assert len(losses) == 3 and all(v >= 0 for v in losses)
