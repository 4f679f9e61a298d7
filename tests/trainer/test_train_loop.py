"""A short real training run: tiny Llama, transformers engine, the in-process verifier.

It checks the spine end to end (metrics, syncs with their log-prob check, held-out pass@k,
checkpoints, the resolved config) and that a second run resumes where the first stopped.
"""

from __future__ import annotations

import json
import tomllib

import pytest

pytest.importorskip("torch")

from trainer.config import TrainConfig
from trainer.problems import write_jsonl


def _config(tmp_path, model_dir, split, steps, every=2, **algo):
    train_set, heldout = split
    write_jsonl(tmp_path / "train.jsonl", train_set[:6])
    write_jsonl(tmp_path / "heldout.jsonl", heldout[:2])
    return TrainConfig.model_validate(
        {
            "run": {"out_dir": str(tmp_path / "run"), "steps": steps, "torch_threads": 1},
            "model": {"path": str(model_dir)},
            "data": {
                "problems": str(tmp_path / "train.jsonl"),
                "heldout": str(tmp_path / "heldout.jsonl"),
            },
            "rollout": {"group_size": 4, "prompts_per_batch": 2, "max_new_tokens": 16},
            "reward": {"source": "local"},
            "algo": {"groups_per_step": 2, "sync_every_steps": 2, **algo},
            "optim": {"lr": 1e-3},
            "eval": {"samples_per_problem": 2, "ks": [1, 2], "every_steps": every},
            "checkpoint": {"every_steps": 2, "keep": 1},
        }
    )


def _rows(run_dir):
    return [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]


def test_short_oapl_run_logs_syncs_evaluates_and_resumes(tmp_path, tiny_model_dir, toy_split):
    from trainer.train import train

    cfg = _config(tmp_path, tiny_model_dir, toy_split, steps=4)
    result = train(cfg)
    run_dir = tmp_path / "run"
    assert result["step"] == 4
    assert tomllib.loads((run_dir / "config.toml").read_text())["algo"]["sync_every_steps"] == 2

    rows = _rows(run_dir)
    steps = [r for r in rows if "loss" in r]
    assert [r["step"] for r in steps] == [1, 2, 3, 4]
    for key in (
        "reward/mean",
        "reward/pass_rate",
        "entropy/token",
        "logratio/learner_engine_mean",
        "lag/steps",
        "throughput/learner_tokens_per_s",
        "throughput/rollout_tokens_per_s",
        "reward/latency_s",
        "time/generate",
        "time/reward",
        "time/update",
        "time/wait",
    ):
        assert key in steps[-1], key
    assert all(0.0 <= r["reward/mean"] <= 1.0 for r in steps)
    synced = [r for r in steps if "sync/logprob_gap" in r]
    assert [r["step"] for r in synced] == [2, 4]
    assert all(r["sync/logprob_gap"] < 1e-2 for r in synced)
    evals = [r for r in rows if "pass@1" in r]
    assert [r["step"] for r in evals] == [0, 2, 4]
    assert all(0.0 <= r["pass@2"] <= 1.0 for r in evals)
    assert (run_dir / "checkpoints" / "step_000004" / "model.safetensors").exists()
    assert (run_dir / "final" / "config.json").exists()
    assert (run_dir / "tb").is_dir()

    resumed = train(_config(tmp_path, tiny_model_dir, toy_split, steps=6))
    assert resumed["step"] == 6
    steps = [r["step"] for r in _rows(run_dir) if "loss" in r]
    assert steps == [1, 2, 3, 4, 5, 6]


def test_grpo_baseline_runs_through_the_same_loop(tmp_path, tiny_model_dir, toy_split):
    from trainer.train import train

    cfg = _config(tmp_path, tiny_model_dir, toy_split, steps=2, loss="grpo")
    cfg.eval.at_start = False
    assert train(cfg)["step"] == 2


def test_evaluation_every_n_steps_uses_the_learner_weights_between_syncs(
    tmp_path, tiny_model_dir, toy_split
):
    from trainer.train import train

    cfg = _config(tmp_path, tiny_model_dir, toy_split, steps=4, every=3)
    cfg.rollout.sync_check_tolerance = 1e-4
    cfg.optim.warmup_steps = 1
    train(cfg)
    rows = _rows(tmp_path / "run")
    evals = [r for r in rows if "pass@1" in r]
    assert [r["step"] for r in evals] == [0, 3, 4]
    # step 3 is between syncs (2, 4): the engine got the learner's weights, checked, and
    # its lagged weights back; step 4 was a sync, so the engine already was the learner
    assert evals[1]["eval/logprob_gap"] < 1e-4 and "eval/logprob_gap" not in evals[0]
    assert [r["step"] for r in rows if "sync/logprob_gap" in r] == [2, 4]
    lr = [r["optim/lr"] for r in rows if "loss" in r]
    assert lr[0] < lr[1] and lr[-1] < lr[1]  # warmup, then cosine decay
