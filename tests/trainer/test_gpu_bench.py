"""``make gpu-bench``: its CPU dry run (the same script end to end with a tiny Qwen2, vLLM on
this CPU and gloo weight sync), and the GPU-marked checks a lent device runs: the bench
itself, vLLM on its own GPU over NCCL, and colocated sleep mode."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _run(argv: list[str], timeout: int) -> dict:
    proc = subprocess.run(
        [sys.executable, *argv],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), "OMP_NUM_THREADS": "1"},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    rows = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]  # vLLM logs after it
    assert rows, proc.stdout[-3000:]
    return json.loads(rows[-1])


def _cuda_devices() -> int:
    torch = pytest.importorskip("torch")
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


@pytest.mark.vllm
def test_gpu_bench_dry_run_on_cpu():
    pytest.importorskip("vllm")
    row = _run(["-m", "trainer.demo.gpu_bench", "--dry-run"], timeout=480)
    for key in ("learner_tokens_per_s", "rollout_tokens_per_s", "sync_s", "sync_files_s"):
        assert row[key] > 0, key
    assert row["mfu"] is None and row["device"] == "cpu"  # no peak to compare on a CPU
    assert row["sync_backend"] == "gloo" and row["sync_logprob_gap"] < 1e-4
    assert row["micro_batches"] >= 2


@pytest.mark.gpu
def test_gpu_bench_on_one_gpu():
    if _cuda_devices() < 1:
        pytest.skip("needs a CUDA device")
    row = _run(
        ["-m", "trainer.demo.gpu_bench", "--groups", "4", "--group-size", "4",
         "--response-len", "256", "--learner-steps", "2"],
        timeout=600,
    )  # fmt: skip
    print(row)
    assert 0 < row["mfu"] < 1 and row["sync_backend"] == "ipc"
    assert row["sync_logprob_gap"] < 0.5  # a bf16 engine against an autocast learner


GPU_RUN = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path

    if __name__ == "__main__":
        import torch
        from trainer.demo.gpu_bench import build_model
        from trainer.learner import load_policy
        from trainer.config import ModelConfig, TrainConfig
        from trainer.policy import LearnerWeights
        from trainer.rollout import Sampling, VLLMEngine
        from trainer.train import check_sync

        placement, out = sys.argv[1], Path(sys.argv[2])
        model_dir = str(build_model(out, "0.5b", 151_936))
        torch.zeros(1, device="cuda:0")  # the learner's CUDA context before vLLM's processes
        engine = VLLMEngine(
            model_dir, dtype="bfloat16", gpu_memory_utilization=0.3,
            weight_sync="nccl" if placement == "separate" else "ipc",
            devices=[1] if placement == "separate" else None,
            sleep_level=1 if placement == "colocated" else 0, max_model_len=512,
        )
        model = load_policy(ModelConfig(path=model_dir), "cuda:0")
        with torch.no_grad():
            for p in model.parameters():
                p.add_(0.01 * torch.randn_like(p))
        engine.update_weights(LearnerWeights(model, torch.bfloat16))
        cfg = TrainConfig.model_validate({"model": {"path": model_dir}, "data": {"problems": "x"},
                                          "run": {"compute_dtype": "bfloat16"}})
        prompts = [[5, 6, 7, 8] * 8]
        r = {"gap": check_sync(cfg, model, engine, prompts, Sampling(max_new_tokens=32), 0, 0,
                               "cuda:0")}
        free0 = torch.cuda.mem_get_info(0)[0]
        engine.sleep()
        r["freed_gib"] = (torch.cuda.mem_get_info(0)[0] - free0) / 2**30
        engine.wake_up()
        r["gap_after_wake"] = check_sync(cfg, model, engine, prompts, Sampling(max_new_tokens=32),
                                         0, 1, "cuda:0")
        engine.close()
        print(json.dumps(r))
    """
)


@pytest.mark.gpu
@pytest.mark.parametrize("placement", ["separate", "colocated"])
def test_vllm_weight_sync_on_gpus(tmp_path, placement):
    if _cuda_devices() < (2 if placement == "separate" else 1):
        pytest.skip(f"{placement} placement needs more CUDA devices")
    script = tmp_path / "gpu_run.py"
    script.write_text(GPU_RUN)
    row = _run([str(script), placement, str(tmp_path / "model")], timeout=600)
    print(row)
    assert row["gap"] < 0.5 and row["gap_after_wake"] < 0.5
    if placement == "colocated":
        assert row["freed_gib"] > 1  # sleep level 1 hands the engine's memory back
