"""Two learner ranks under ``torchrun`` (gloo on CPU): DDP replicas, or FSDP2 shards behind
the same config; each rank has its own sampler and engine; evaluation between syncs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from trainer.problems import write_jsonl

torch = pytest.importorskip("torch")

REPO = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("strategy", ["ddp", "fsdp"])
def test_two_ranks_under_torchrun_train(tmp_path, tiny_model_dir, toy_split, strategy):
    from safetensors.torch import load_file

    write_jsonl(tmp_path / "train.jsonl", toy_split[0][:4])
    write_jsonl(tmp_path / "heldout.jsonl", toy_split[1][:2])
    cfg = tmp_path / "cfg.toml"
    cfg.write_text(
        f"""
[run]
out_dir = "{tmp_path / "run"}"
steps = 2
torch_threads = 1
strategy = "{strategy}"
[model]
path = "{tiny_model_dir}"
[data]
problems = "{tmp_path / "train.jsonl"}"
heldout = "{tmp_path / "heldout.jsonl"}"
[rollout]
group_size = 2
prompts_per_batch = 2
max_new_tokens = 12
sync_check_tolerance = 1e-4
[algo]
groups_per_step = 2
sync_every_steps = 2
[optim]
lr = 1e-3
[eval]
every_steps = 1
samples_per_problem = 2
ks = [1]
[checkpoint]
every_steps = 1
[log]
tensorboard = false
"""
    )
    proc = subprocess.run(
        [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--master_addr", "127.0.0.1",
         "--master_port", str(_free_port()), "-m", "trainer", "train", str(cfg)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "OMP_NUM_THREADS": "1"},
        capture_output=True,
        text=True,
        timeout=400,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    run = tmp_path / "run"
    rows = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    steps = [r for r in rows if "loss" in r]
    assert [r["step"] for r in steps] == [1, 2]
    # each rank's engine got the whole (gathered) learner and agrees with it, at the sync
    # (step 2) and for the evaluation between syncs (step 1), which every rank joins
    assert [r["step"] for r in steps if "sync/logprob_gap" in r] == [2]
    assert steps[1]["sync/logprob_gap"] < 1e-4
    evals = [r for r in rows if "pass@1" in r]
    assert [r["step"] for r in evals] == [0, 1, 2]
    assert evals[1]["eval/logprob_gap"] < 1e-4
    final = load_file(str(run / "final" / "model.safetensors"))
    start = load_file(str(tiny_model_dir / "model.safetensors"))
    assert set(start) <= set(final)
    assert all(final[k].shape == start[k].shape for k in start)
    assert any(not torch.equal(final[k], start[k]) for k in start)
    ckpt = load_file(str(run / "checkpoints" / "step_000002" / "model.safetensors"))
    assert all(torch.equal(ckpt[k], final[k]) for k in start)
