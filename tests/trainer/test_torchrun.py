"""Two learner ranks under ``torchrun`` (gloo on CPU): DDP keeps their weights identical."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from trainer.demo import toyproblems
from trainer.problems import write_jsonl

torch = pytest.importorskip("torch")

REPO = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_two_ranks_under_torchrun_train_in_lockstep(tmp_path, tiny_model_dir, toy_split):
    from safetensors.torch import load_file

    write_jsonl(tmp_path / "train.jsonl", toy_split[0][:4])
    cfg = tmp_path / "cfg.toml"
    cfg.write_text(
        f"""
[run]
out_dir = "{tmp_path / "run"}"
steps = 2
torch_threads = 1
[model]
path = "{tiny_model_dir}"
[data]
problems = "{tmp_path / "train.jsonl"}"
[rollout]
group_size = 2
prompts_per_batch = 2
max_new_tokens = 12
[algo]
groups_per_step = 2
sync_every_steps = 2
lr = 1e-3
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
        timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    run = tmp_path / "run"
    ranks = [load_file(str(run / f"sync-rank{r}" / "model.safetensors")) for r in (0, 1)]
    start = load_file(str(tiny_model_dir / "model.safetensors"))
    assert ranks[0].keys() == ranks[1].keys()
    assert all(torch.equal(ranks[0][k], ranks[1][k]) for k in ranks[0])
    assert any(not torch.equal(ranks[0][k], start[k]) for k in start)
    assert (run / "final" / "config.json").exists()
