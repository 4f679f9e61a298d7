"""``make demo``: proof that OAPL learns, on this CPU, against the real verifier.

1. Generate the toy problem set (``trainer.demo.toyproblems``), split by (family, K).
2. Build a tiny Llama and a BPE tokenizer locally (``trainer.demo.tinymodel``).
3. Warm start with supervised learning on noisy solutions (a share use a wrong constant),
   so the policy knows the format but often misses the constant.
4. Train with OAPL, then with the GRPO baseline, from the same warm start, with rewards
   from the in-process verifier (``reward.source = "local"``; ``--reward-url`` uses a running
   ``codereward serve`` instead), measuring held-out pass@k from the learner every 10 steps.
5. Write ``curves.json``, ``curves.png`` (training reward and held-out pass@1 per step, both
   methods) and ``passk.json`` (before and after) into the output folder.

Run alone: ``python -m trainer.demo --out runs/demo``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

from trainer.config import TrainConfig
from trainer.demo import toyproblems
from trainer.problems import write_jsonl


def demo_config(
    out: Path, model_dir: Path, loss: str, steps: int, reward_url: str | None
) -> TrainConfig:
    """The demo's training config for ``loss`` ('oapl' or 'grpo')."""
    algo: dict[str, Any] = {
        "loss": loss,
        # β₁ = β₂ = β: the target policy is π_vllm·exp(r/β)/Z; 0.5 moves far per sync
        # without the swings a smaller β (sharper target) showed on this tiny model
        "beta_value": 0.5,
        "beta_kl": 0.5,
        "groups_per_step": 8,
        "min_fresh_groups": 4,
        "sync_every_steps": 10,
    }
    # a 0.4M-parameter model from a short warm start: lr 2e-4, constant (the reference's
    # 1e-6 with cosine decay is for billion-parameter models); AdamW (0.9, 0.95), eps 1e-10
    optim = {"lr": 2e-4, "schedule": "constant", "warmup_steps": 0, "grad_clip": 1.0}
    reward: dict[str, Any] = {"source": "local"}
    if reward_url:
        reward = {"source": "http", "url": reward_url}
    return TrainConfig.model_validate(
        {
            "run": {
                "out_dir": str(out / loss),
                "steps": steps,
                "seed": 1,
                "resume": False,
                "torch_threads": 1,
            },
            "model": {"path": str(model_dir)},
            "data": {
                "problems": str(out / "data" / "train.jsonl"),
                "heldout": str(out / "data" / "heldout.jsonl"),
            },
            "rollout": {
                "engine": "transformers",
                "group_size": 8,
                "prompts_per_batch": 8,
                "temperature": 1.0,
                "max_new_tokens": 32,
            },
            "reward": reward,
            "algo": algo,
            "optim": optim,
            "eval": {
                "every_steps": 10,
                "samples_per_problem": 16,
                "ks": [1, 4, 16],
                "temperature": 1.0,
            },
            "log": {"tensorboard": True},
            "checkpoint": {"every_steps": 0, "keep": 1},
        }
    )


def prepare(out: Path, warm_steps: int, wrong_fraction: float) -> Path:
    """Problems, tiny model and warm start; returns the warm-started model folder."""
    from trainer.demo.tinymodel import build_tiny_model
    from trainer.demo.warmstart import warm_start

    train_set, heldout = toyproblems.make_split(seed=0)
    (out / "data").mkdir(parents=True, exist_ok=True)
    write_jsonl(out / "data" / "train.jsonl", train_set)
    write_jsonl(out / "data" / "heldout.jsonl", heldout)
    texts = [p["prompt"] + p["reference"] for p in train_set + heldout]
    init = build_tiny_model(out / "init", texts)
    examples = toyproblems.warm_start_examples(train_set, 4000, wrong_fraction, seed=0)
    warm, losses = warm_start(init, out / "warm", examples, steps=warm_steps)
    (out / "warm_start.json").write_text(json.dumps({"losses": losses}))
    return warm


def read_metrics(path: Path) -> list[dict[str, Any]]:
    """Rows of a run's metrics.jsonl."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def plot(out: Path, curves: dict[str, Any]) -> None:
    """Training reward and held-out pass@1 per step for each method, as one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for name, c in curves.items():
        axes[0].plot(c["steps"], c["reward_smoothed"], label=name)
        axes[1].plot(c["eval_steps"], c["pass@1"], marker="o", label=name)
    axes[0].set(title="training reward (moving average)", xlabel="learner step", ylabel="reward")
    axes[1].set(title="held-out pass@1", xlabel="learner step", ylabel="pass@1")
    for ax in axes:
        ax.legend()
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out / "curves.png", dpi=120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer.demo")
    parser.add_argument("--out", default="runs/demo", help="output folder")
    parser.add_argument("--steps", type=int, default=100, help="learner steps per method")
    parser.add_argument("--warm-steps", type=int, default=600, help="supervised warm-start steps")
    parser.add_argument("--wrong-fraction", type=float, default=0.4, help="warm-start noise")
    parser.add_argument("--methods", default="oapl,grpo", help="comma-separated losses to run")
    parser.add_argument("--reward-url", default=None, help="use codereward serve at this URL")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    # One intra-op thread per torch thread is far faster on a CPU shared with other work, and
    # the env var (unlike torch.set_num_threads) also covers the sampler thread.
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    from trainer.train import train

    out = Path(args.out)
    t0 = time.perf_counter()
    warm = prepare(out, args.warm_steps, args.wrong_fraction)
    timings = {"prepare_s": time.perf_counter() - t0}
    curves: dict[str, Any] = {}
    passk: dict[str, Any] = {}
    for method in args.methods.split(","):
        t0 = time.perf_counter()
        result = train(demo_config(out, warm, method, args.steps, args.reward_url))
        timings[f"{method}_s"] = time.perf_counter() - t0
        rows = [r for r in read_metrics(out / method / "metrics.jsonl") if "loss" in r]
        rewards = [r["reward/mean"] for r in rows]
        window = 5
        smooth = [
            sum(rewards[max(0, i - window + 1) : i + 1])
            / len(rewards[max(0, i - window + 1) : i + 1])
            for i in range(len(rewards))
        ]
        evals = result["evals"]
        curves[method] = {
            "steps": [r["step"] for r in rows],
            "reward": rewards,
            "reward_smoothed": smooth,
            "pass_rate": [r["reward/pass_rate"] for r in rows],
            "loss": [r["loss"] for r in rows],
            "eval_steps": [e["step"] for e in evals],
            "pass@1": [e["pass@1"] for e in evals],
            "evals": evals,
        }
        passk[method] = {
            "before": {k: v for k, v in evals[0].items() if k.startswith("pass@")},
            "after": {k: v for k, v in evals[-1].items() if k.startswith("pass@")},
            "steps": result["step"],
        }
    summary = {"passk": passk, "timings_s": timings, "heldout_problems": evals[0]["eval/problems"]}
    (out / "curves.json").write_text(json.dumps(curves, indent=1))
    (out / "passk.json").write_text(json.dumps(summary, indent=1))
    plot(out, curves)
    print(json.dumps(summary, indent=1))
    return 0
