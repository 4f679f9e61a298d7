"""Offline mode: train on a fixed JSONL of completions. Supplied tokens and log-probs are kept
as they are (no re-tokenising, no EOS appended), rewards and behaviour log-probs are filled
in when missing, every pass over the data is reshuffled, and held-out pass@k is measured."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")

from trainer.demo import toyproblems
from trainer.problems import PromptRenderer, write_jsonl


def _rows(problems, tokenizer):
    rows = []
    for p in problems:
        wrong = toyproblems.program_for(p["metadata"]["family"], p["metadata"]["k"] + 1)
        ids = tokenizer(wrong, add_special_tokens=False)["input_ids"]
        rows += [{"problem_id": p["id"], "completion": p["reference"]}] * 2
        rows += [{"problem_id": p["id"], "completion": wrong}]
        rows += [
            {
                "problem_id": p["id"],
                "completion": wrong,
                "reward": 0.25,
                "prompt_token_ids": [7, 8, 9],
                "token_ids": ids[:-1],  # as an engine might have produced: not re-tokenised
                "token_logprobs": [-0.5] * (len(ids) - 1),
                "finish_reason": "length",
            }
        ]
    rows.append({"problem_id": problems[0]["id"], "completion": "tail dropped"})
    return rows


def test_offline_groups_keep_supplied_tokens_and_fill_the_rest(tiny_model_dir, toy_split):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from trainer.offline import load_offline_groups
    from trainer.rewards import LocalRewards
    from trainer.rollout import Sampling

    problems = toy_split[0][:2]
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32)
    rows = _rows(problems, tokenizer)
    rewards = LocalRewards()
    try:
        groups, dropped = load_offline_groups(
            rows, {p["id"]: p for p in problems}, 4, PromptRenderer(tokenizer), model, rewards,
            Sampling(),
        )  # fmt: skip
    finally:
        rewards.close()
    assert dropped == 0 and len(groups) == 2
    for gi, (g, p) in enumerate(zip(groups, problems, strict=True)):
        assert g.rewards == [1.0, 1.0, 0.0, 0.25]
        supplied = g.completions[3]
        assert supplied.prompt_token_ids == [7, 8, 9] and supplied.truncated
        assert supplied.token_ids == rows[4 * gi + 3]["token_ids"]
        assert supplied.logprob == pytest.approx(-0.5 * len(supplied.token_ids))
        ref = g.completions[0]
        assert ref.token_ids == tokenizer(p["reference"], add_special_tokens=False)["input_ids"]
        assert tokenizer.eos_token_id not in ref.token_ids  # nothing appended
        assert ref.logprob < 0 and len(ref.token_logprobs) == len(ref.token_ids)
        assert ref.prompt_token_ids == tokenizer(p["prompt"])["input_ids"]


def test_offline_batches_reshuffle_every_pass():
    from trainer.buffer import Group
    from trainer.offline import OfflineBatches

    groups = [Group({"id": str(i)}, [], [], [], 0, 0) for i in range(6)]
    batches = OfflineBatches(groups, seed=0)
    orders = []
    for _ in range(3):
        seen = [g.problem["id"] for _ in range(3) for g in batches.take(2)]
        assert sorted(seen) == [str(i) for i in range(6)]  # each group once per pass
        orders.append(seen)
    assert orders[0] != orders[1] and orders[1] != orders[2] and batches.passes == 3
    assert orders[0] != [str(i) for i in range(6)]  # not file order, even the first pass
    assert all(g.uses == 3 for g in groups)


def test_offline_run_trains_and_evaluates(tmp_path, tiny_model_dir, toy_split):
    from transformers import AutoTokenizer

    from trainer.config import TrainConfig
    from trainer.train import train

    problems = toy_split[0][:2]
    tokenizer = AutoTokenizer.from_pretrained(tiny_model_dir)
    write_jsonl(tmp_path / "problems.jsonl", problems)
    write_jsonl(tmp_path / "heldout.jsonl", toy_split[1][:2])
    write_jsonl(tmp_path / "offline.jsonl", _rows(problems, tokenizer))
    cfg = TrainConfig.model_validate(
        {
            "run": {"out_dir": str(tmp_path / "run"), "steps": 3, "torch_threads": 1},
            "model": {"path": str(tiny_model_dir)},
            "data": {
                "problems": str(tmp_path / "problems.jsonl"),
                "heldout": str(tmp_path / "heldout.jsonl"),
                "offline": str(tmp_path / "offline.jsonl"),
            },
            "rollout": {"group_size": 4, "max_new_tokens": 8},
            "algo": {"groups_per_step": 1},
            "optim": {"lr": 1e-3},
            "eval": {"samples_per_problem": 2, "ks": [1], "every_steps": 2},
            "log": {"tensorboard": False},
        }
    )
    result = train(cfg)
    assert result["step"] == 3
    rows = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    steps = [r for r in rows if "loss" in r]
    assert len(steps) == 3 and all(r["loss"] >= 0 for r in steps)
    assert steps[-1]["offline/passes"] == 2  # 2 groups, 1 per step: the third step starts pass 2
    assert [e["step"] for e in result["evals"]] == [0, 2, 3]
    assert all(e["eval/logprob_gap"] < 1e-3 for e in result["evals"][1:])
