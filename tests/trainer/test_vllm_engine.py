"""The vLLM engine on this CPU: sampling with log-probs, a weight sync verified by log-probs,
and two steps of the training loop with vLLM as its engine.

vLLM spawns worker processes, so the engine is built in a child script under
``if __name__ == "__main__"``; the script prints one JSON line of measurements.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.vllm

REPO = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path

    if __name__ == "__main__":
        import torch
        from transformers import AutoModelForCausalLM

        from trainer.config import TrainConfig
        from trainer.policy import response_logprobs
        from trainer.rollout import VLLMEngine
        from trainer.train import sync_engine

        model_dir, out_dir = sys.argv[1], Path(sys.argv[2])
        prompts = ["# def f(x): return x+3\\n", "# read a b, print a+b+7\\n"]
        engine = VLLMEngine(model_dir, seed=0, gpu_memory_utilization=0.1)
        learner = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
        pad = 0

        def gap(groups):
            comps = [c for g in groups for c in g]
            with torch.no_grad():
                out = response_logprobs(
                    learner, [c.prompt_token_ids for c in comps], [c.token_ids for c in comps],
                    1.0, pad,
                )
            engine_lp = torch.tensor([c.logprob for c in comps])
            return float((out.sequence - engine_lp).abs().max())

        groups = engine.generate(prompts, 3, 1.0, 12, seed=0)
        shape = [len(g) for g in groups]
        lengths = [len(c.token_ids) for g in groups for c in g]
        before = gap(groups)
        with torch.no_grad():
            for p in learner.parameters():
                p.add_(0.05 * torch.randn_like(p))
        stale = gap(engine.generate(prompts, 3, 1.0, 12, seed=1))
        cfg = TrainConfig.model_validate(
            {"model": {"path": model_dir}, "data": {"problems": "unused"},
             "rollout": {"max_new_tokens": 12, "sync_check_tolerance": 1e-3}}
        )
        check = sync_engine(cfg, learner, engine, out_dir, pad, prompts, seed=2)
        after = gap(engine.generate(prompts, 3, 1.0, 12, seed=3))

        # the same engine inside the training loop: two steps, a verified sync after each
        from trainer.demo import toyproblems
        from trainer.problems import write_jsonl
        from trainer.train import train

        problems = toyproblems.make_split(seed=0, k_max=9)[0][:4]
        write_jsonl(out_dir / "train.jsonl", problems)
        run_cfg = TrainConfig.model_validate(
            {"run": {"out_dir": str(out_dir / "run"), "steps": 2, "torch_threads": 1},
             "model": {"path": model_dir}, "data": {"problems": str(out_dir / "train.jsonl")},
             "rollout": {"engine": "vllm", "group_size": 2, "prompts_per_batch": 2,
                         "max_new_tokens": 12, "sync_check_tolerance": 1e-3},
             "algo": {"groups_per_step": 2, "sync_every_steps": 1, "lr": 1e-3},
             "log": {"tensorboard": False}, "checkpoint": {"every_steps": 0}}
        )
        # the learner has drifted from model_dir; reload the engine to match the run's start
        engine.load_weights(Path(model_dir))
        run = train(run_cfg, engine=engine)
        rows = [json.loads(x) for x in (out_dir / "run" / "metrics.jsonl").read_text().splitlines()]
        gaps = [r["sync/logprob_gap"] for r in rows if "sync/logprob_gap" in r]
        print("RESULT " + json.dumps(
            {"shape": shape, "lengths": lengths, "before": before, "stale": stale,
             "check": check, "after": after, "train_steps": run["step"], "train_gaps": gaps}
        ))
    """
)


def test_vllm_engine_samples_and_syncs_weights(tiny_model_dir, tmp_path):
    pytest.importorskip("vllm")
    script = tmp_path / "vllm_check.py"
    script.write_text(SCRIPT)
    proc = subprocess.run(
        [sys.executable, str(script), str(tiny_model_dir), str(tmp_path / "sync")],
        cwd=REPO,
        env={**__import__("os").environ, "PYTHONPATH": str(REPO), "OMP_NUM_THREADS": "1"},
        capture_output=True,
        text=True,
        timeout=420,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, proc.stderr[-3000:]
    result = json.loads(lines[-1].removeprefix("RESULT "))
    assert result["shape"] == [3, 3]
    assert all(1 <= n <= 12 for n in result["lengths"])
    assert result["before"] < 1e-3  # engine log-probs are the learner's at the same weights
    assert result["stale"] > 1e-2  # the learner moved; the engine still has the old weights
    assert result["check"] < 1e-3  # sync_engine's own check after the reload
    assert result["after"] < 1e-3  # and fresh samples agree too
    assert result["train_steps"] == 2
    assert len(result["train_gaps"]) == 2 and max(result["train_gaps"]) < 1e-3
