"""Learner throughput and MFU of the OAPL update on a random ~0.5B Llama in bf16 (CUDA).

Never required: the project runs and tests without a GPU. On a machine with one,
``python -m trainer.demo.gpu_bench`` (or ``make gpu-bench``) builds a randomly initialised Llama
of about 0.5B parameters (Qwen2.5-0.5B widths, 16 layers, untied embeddings), feeds it B groups of
G random (prompt, response) sequences and times full OAPL steps: forward, sequence
log-probs, ``oapl_loss``, backward, AdamW. It prints one JSON line: learner tokens per
second (prompt + response tokens through forward and backward) and model FLOPs
utilisation, with FLOPs counted as 6 · N_params · tokens plus the attention term
12 · layers · hidden · seq_len · tokens, against the device's dense bf16 peak
(``--peak-tflops``, guessed from the device name when not given).
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

PEAK_BF16_TFLOPS = {"H200": 989.0, "H100": 989.0, "A100": 312.0, "L40S": 362.0, "A10": 125.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m trainer.demo.gpu_bench")
    parser.add_argument("--groups", type=int, default=8, help="B: groups per step")
    parser.add_argument("--group-size", type=int, default=8, help="G: completions per group")
    parser.add_argument("--prompt-len", type=int, default=256)
    parser.add_argument("--response-len", type=int, default=768)
    parser.add_argument("--micro-groups", type=int, default=1, help="groups per forward pass")
    parser.add_argument("--steps", type=int, default=6, help="timed steps (after 2 warm-up)")
    parser.add_argument("--peak-tflops", type=float, default=None)
    parser.add_argument("--no-checkpointing", action="store_true")
    parser.add_argument("--device", default="cuda", help="'cpu' only smoke-tests the script")
    parser.add_argument("--layers", type=int, default=16, help="16 gives ~0.51B parameters")
    parser.add_argument("--hidden", type=int, default=896)
    parser.add_argument("--vocab", type=int, default=151_936)
    args = parser.parse_args(argv)

    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    from trainer.oapl import oapl_loss

    cuda = args.device.startswith("cuda")
    if cuda and not torch.cuda.is_available():
        print(json.dumps({"error": "no CUDA device; this benchmark needs a GPU"}))
        return 2
    device = torch.device(args.device)
    config = LlamaConfig(
        vocab_size=args.vocab,
        hidden_size=args.hidden,
        intermediate_size=args.hidden * 16 // 3 // 64 * 64 + 64,
        num_hidden_layers=args.layers,
        num_attention_heads=args.hidden // 64,
        num_key_value_heads=max(1, args.hidden // 64 // 7),
        head_dim=64,
        max_position_embeddings=4096,
        tie_word_embeddings=False,
    )
    config._attn_implementation = "sdpa"
    torch.manual_seed(0)
    model: Any = LlamaForCausalLM(config)
    model.to(device=device, dtype=torch.bfloat16)
    if not args.no_checkpointing:
        model.gradient_checkpointing_enable()
    model.train()
    n_params = sum(p.numel() for p in model.parameters())
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-6, fused=cuda)

    b, g = args.groups, args.group_size
    seq_len = args.prompt_len + args.response_len
    n_seq = b * g
    if b % args.micro_groups:
        parser.error("--groups must be a multiple of --micro-groups")
    ids = torch.randint(0, config.vocab_size, (n_seq, seq_len), device=device)
    behavior = -torch.rand(b, g, device=device) * args.response_len
    rewards = torch.randint(0, 2, (b, g), device=device).float()

    def step() -> float:
        optimizer.zero_grad(set_to_none=True)
        total = 0.0
        # micro-batches of whole groups: V̂* is per group, so the mean loss splits exactly
        for first in range(0, b, args.micro_groups):
            groups = slice(first, min(b, first + args.micro_groups))
            chunk = ids[groups.start * g : groups.stop * g]
            logits = model(input_ids=chunk).logits[:, args.prompt_len - 1 : -1].float()
            lp = torch.log_softmax(logits, -1).gather(-1, chunk[:, args.prompt_len :, None])
            seq_lp = lp.squeeze(-1).sum(-1).view(-1, g)  # (groups, G)
            share = seq_lp.shape[0] / b
            loss = oapl_loss(seq_lp, behavior[groups], rewards[groups], 1.0, 1e-3) * share
            loss.backward()
            total += float(loss.detach())
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        return total

    sync = torch.cuda.synchronize if cuda else (lambda: None)
    for _ in range(2):
        step()
    sync()
    t0 = time.perf_counter()
    for _ in range(args.steps):
        step()
    sync()
    elapsed = time.perf_counter() - t0

    tokens = n_seq * seq_len * args.steps
    # model FLOPs only: the forward recomputed by gradient checkpointing is not counted
    flops_per_token = 6 * n_params + 12 * config.num_hidden_layers * config.hidden_size * seq_len
    name = torch.cuda.get_device_name(0) if cuda else "cpu"
    peak = args.peak_tflops or next((v for k, v in PEAK_BF16_TFLOPS.items() if k in name), None)
    achieved = flops_per_token * tokens / elapsed
    print(
        json.dumps(
            {
                "device": name,
                "params": n_params,
                "groups": b,
                "group_size": g,
                "seq_len": seq_len,
                "step_s": elapsed / args.steps,
                "learner_tokens_per_s": tokens / elapsed,
                "model_tflops_per_s": achieved / 1e12,
                "mfu": achieved / (peak * 1e12) if peak else None,
                "peak_bf16_tflops": peak,
                "gradient_checkpointing": not args.no_checkpointing,
                "max_memory_gib": torch.cuda.max_memory_allocated() / 2**30 if cuda else None,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
