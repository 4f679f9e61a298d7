"""``make gpu-bench``: the trainer's own parts on one GPU, a few minutes, one JSON line out.

What it runs (``python -m trainer.demo.gpu_bench``), all with the trainer's code:

1. Builds a Qwen2-architecture model with random weights from a config (``--size 0.5b``:
   Qwen2.5-0.5B's shape, 494M parameters, tied embeddings; ``1.5b``: Qwen2.5-1.5B's) and a
   word-level tokenizer over its 151,936 ids, saved to a temporary folder.
2. Starts ``VLLMEngine`` on it (bf16; colocated on the one GPU with CUDA-IPC weight sync by
   default, or ``--placement separate`` on a second GPU over NCCL).
3. Rollout: B prompts × G samples of random prompt ids, ``--response-len`` new tokens each;
   ``rollout_tokens_per_s`` is generated tokens over wall time.
4. Learner: the starting weights in float32 (master copy) under bf16 autocast with gradient
   checkpointing; ``--learner-steps`` timed calls of ``trainer.train.learner_update`` (the
   OAPL update, AdamW (0.9, 0.95)) on those rollouts with random rewards, micro-batched
   under ``--micro-batch-tokens``. ``learner_tokens_per_s`` counts prompt + response tokens
   through forward and backward; ``mfu`` counts model FLOPs 6·N + 12·layers·hidden·seq per
   token (the forward recomputed by checkpointing not counted) against the dense bf16
   peak (``--peak-tflops``, else guessed from the device name: H200/H100 989).
5. Sync: ``sync_s`` is one in-memory weight update (learner → engine), ``sync_files_s`` the
   safetensors fallback, then the learner/engine log-prob gap on fresh samples (bf16, so
   ~1e-2 is expected).

``--dry-run`` runs the same path on the CPU with a tiny Qwen2, gloo weight sync and float32,
in a minute or two: the test suite runs it so the script cannot rot. On the GPU, the
defaults are sized for one H200 in about 3-5 minutes (0.5B, 8×8 samples of 256 + 768
tokens); ``--size 1.5b`` takes longer.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

PEAK_BF16_TFLOPS = {"H200": 989.0, "H100": 989.0, "A100": 312.0, "L40S": 362.0, "A10": 125.0}

SIZES: dict[str, dict[str, Any]] = {
    # hidden, layers, heads, kv heads, intermediate: the published Qwen2.5 shapes
    "0.5b": {"hidden_size": 896, "num_hidden_layers": 24, "num_attention_heads": 14,
             "num_key_value_heads": 2, "intermediate_size": 4864},
    "1.5b": {"hidden_size": 1536, "num_hidden_layers": 28, "num_attention_heads": 12,
             "num_key_value_heads": 2, "intermediate_size": 8960},
    # the dry run: vLLM's CPU attention needs head_dim 64
    "tiny": {"hidden_size": 128, "num_hidden_layers": 2, "num_attention_heads": 2,
             "num_key_value_heads": 1, "intermediate_size": 256},
}  # fmt: skip


def build_model(out: Path, size: str, vocab: int) -> Path:
    """A random Qwen2 of ``size`` and a word-level tokenizer over ``vocab`` ids, in ``out``."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    words = {f"t{i}": i for i in range(vocab - 2)}
    words |= {"<|pad|>": vocab - 2, "<|eos|>": vocab - 1}
    tok = Tokenizer(models.WordLevel(words, unk_token="<|pad|>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, pad_token="<|pad|>", eos_token="<|eos|>")
    config = Qwen2Config(
        vocab_size=vocab,
        max_position_embeddings=4096,
        tie_word_embeddings=True,
        pad_token_id=vocab - 2,
        eos_token_id=vocab - 1,
        **SIZES[size],
    )
    torch.manual_seed(0)
    Qwen2ForCausalLM(config).save_pretrained(out)
    fast.save_pretrained(out)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer.demo.gpu_bench")
    parser.add_argument("--dry-run", action="store_true", help="tiny model on the CPU (tested)")
    parser.add_argument("--size", choices=["0.5b", "1.5b"], default="0.5b")
    parser.add_argument("--groups", type=int, default=8, help="B: prompts (groups) per step")
    parser.add_argument("--group-size", type=int, default=8, help="G: samples per prompt")
    parser.add_argument("--prompt-len", type=int, default=256)
    parser.add_argument("--response-len", type=int, default=768)
    parser.add_argument("--learner-steps", type=int, default=3, help="timed, after 1 warm-up")
    parser.add_argument("--micro-batch-tokens", type=int, default=16_384)
    parser.add_argument("--gpu-memory-utilization", type=float, default=0.35)
    parser.add_argument("--placement", choices=["colocated", "separate"], default="colocated")
    parser.add_argument("--peak-tflops", type=float, default=None)
    args = parser.parse_args(argv)

    import torch

    from trainer.buffer import Group
    from trainer.config import TrainConfig
    from trainer.learner import load_policy, make_optimizer
    from trainer.policy import LearnerWeights
    from trainer.rollout import Sampling, VLLMEngine
    from trainer.train import check_sync, learner_update

    if args.dry_run:
        size, vocab, device, dtype, sync = "tiny", 512, "cpu", "float32", "gloo"
        args.groups, args.group_size, args.prompt_len, args.response_len = 2, 2, 8, 8
        args.learner_steps, args.micro_batch_tokens = 1, 32
    else:
        if not torch.cuda.is_available():
            print(json.dumps({"error": "no CUDA device; use --dry-run on a CPU"}))
            return 2
        size, vocab, device, dtype = args.size, 151_936, "cuda:0", "bfloat16"
        sync = "nccl" if args.placement == "separate" else "ipc"
    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="gpu-bench-") as tmp:
        t0 = time.perf_counter()
        model_dir = build_model(Path(tmp) / "model", size, vocab)
        timings["build_s"] = time.perf_counter() - t0

        if device.startswith("cuda"):
            # the learner's CUDA context first: vLLM's processes, spawned with their own
            # CUDA_VISIBLE_DEVICES (separate placement), then cannot narrow this process
            torch.cuda.set_device(device)
            torch.zeros(1, device=device)
        t0 = time.perf_counter()
        engine = VLLMEngine(
            str(model_dir),
            gpu_memory_utilization=args.gpu_memory_utilization,
            max_model_len=args.prompt_len + args.response_len + 16,
            dtype=dtype,  # type: ignore[arg-type]
            weight_sync=sync,  # type: ignore[arg-type]
            sync_dir=Path(tmp) / "sync",
            devices=[1] if args.placement == "separate" and not args.dry_run else None,
        )
        timings["engine_start_s"] = time.perf_counter() - t0

        cfg = TrainConfig.model_validate(
            {
                "run": {"device": device, "compute_dtype": dtype, "steps": 1000},
                "model": {"path": str(model_dir), "gradient_checkpointing": not args.dry_run},
                "data": {"problems": "unused"},
                "rollout": {"max_new_tokens": args.response_len, "sync_check_tolerance": 1.0},
                "algo": {"micro_batch_tokens": args.micro_batch_tokens},
                "optim": {"warmup_steps": 0},
            }
        )
        model = load_policy(cfg.model, device)
        optimizer = make_optimizer(model, cfg.optim, device)
        n_params = sum(p.numel() for p in model.parameters())
        config = model.config

        rng = random.Random(0)
        prompts = [
            [rng.randrange(vocab - 2) for _ in range(args.prompt_len)] for _ in range(args.groups)
        ]
        sampling = Sampling(1.0, max_new_tokens=args.response_len)
        engine.generate(prompts[:1], 1, Sampling(1.0, max_new_tokens=4), seed=0)  # warm-up
        t0 = time.perf_counter()
        sampled = engine.generate(prompts, args.group_size, sampling, seed=1)
        rollout_s = time.perf_counter() - t0
        new_tokens = sum(len(c.token_ids) for g in sampled for c in g)

        groups = [
            Group({"id": str(i)}, comps, [float(rng.random() < 0.5) for _ in comps],
                  [False] * len(comps), 0, 0)
            for i, comps in enumerate(sampled)
        ]  # fmt: skip
        pad = config.pad_token_id
        learner_update(cfg, model, optimizer, groups, pad, 0, device)  # warm-up
        sync_device = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
        sync_device()
        t0 = time.perf_counter()
        for step in range(args.learner_steps):
            metrics = learner_update(cfg, model, optimizer, groups, pad, step + 1, device)
        sync_device()
        learner_s = (time.perf_counter() - t0) / args.learner_steps
        tokens = sum(len(c.prompt_token_ids) + len(c.token_ids) for g in sampled for c in g)
        seq_len = tokens / sum(len(g) for g in sampled)
        flops_per_token = (
            6 * n_params + 12 * config.num_hidden_layers * config.hidden_size * seq_len
        )
        wire = torch.bfloat16 if dtype == "bfloat16" else torch.float32

        t0 = time.perf_counter()
        engine.update_weights(LearnerWeights(model, wire))
        sync_device()
        sync_s = time.perf_counter() - t0
        gap = check_sync(cfg, model, engine, prompts[:2], sampling, pad, 2, device)
        engine.weight_sync = "files"
        t0 = time.perf_counter()
        engine.update_weights(LearnerWeights(model, wire))
        sync_files_s = time.perf_counter() - t0
        engine.weight_sync = sync  # type: ignore[assignment]

        name = torch.cuda.get_device_name(0) if device.startswith("cuda") else "cpu"
        peak = args.peak_tflops or next((v for k, v in PEAK_BF16_TFLOPS.items() if k in name), None)
        achieved = flops_per_token * tokens / learner_s
        row = {
            "device": name,
            "model": f"qwen2-{size} (random, tied)",
            "params": n_params,
            "samples": args.groups * args.group_size,
            "prompt_len": args.prompt_len,
            "response_tokens_mean": new_tokens / (args.groups * args.group_size),
            "learner_tokens_per_s": tokens / learner_s,
            "learner_step_s": learner_s,
            "model_tflops_per_s": achieved / 1e12,
            "mfu": achieved / (peak * 1e12) if peak else None,
            "peak_bf16_tflops": peak,
            "rollout_tokens_per_s": new_tokens / rollout_s,
            "rollout_s": rollout_s,
            "sync_s": sync_s,
            "sync_backend": sync,
            "sync_files_s": sync_files_s,
            "sync_logprob_gap": gap,
            "micro_batches": metrics["learner/micro_batches"],
            "loss": metrics["loss"],
            "max_memory_gib": torch.cuda.max_memory_allocated() / 2**30
            if device.startswith("cuda")
            else None,
            **timings,
        }
        engine.close()
    print(json.dumps(row))
    return 0


if __name__ == "__main__":  # vLLM's spawned workers re-import the main module
    raise SystemExit(main())
