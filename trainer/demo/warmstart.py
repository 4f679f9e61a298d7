"""Supervised warm start: next-token cross-entropy on (prompt, completion) pairs.

The loss covers the completion tokens and the end-of-sequence token, not the prompt. The
result is saved as a Hugging Face folder (weights and tokenizer) the trainer starts from.
"""

from __future__ import annotations

import random
from pathlib import Path

import torch

from trainer.policy import response_logprobs


def warm_start(
    model_dir: str | Path,
    out_dir: str | Path,
    examples: list[tuple[str, str]],
    steps: int = 300,
    batch_size: int = 32,
    lr: float = 3e-3,
    seed: int = 0,
) -> tuple[Path, list[float]]:
    """Fine-tune the model in ``model_dir`` on ``examples``; returns (out_dir, losses)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.manual_seed(seed)
    rng = random.Random(seed)
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    model.train()
    encoded = [
        (
            tokenizer(p, add_special_tokens=False)["input_ids"],
            tokenizer(c, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id],
        )
        for p, c in examples
    ]
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / 20))
    losses: list[float] = []
    for _ in range(steps):
        batch = rng.sample(encoded, min(batch_size, len(encoded)))
        out = response_logprobs(
            model, [b[0] for b in batch], [b[1] for b in batch], 1.0, tokenizer.pad_token_id
        )
        loss = -(out.token_logprobs * out.mask).sum() / out.mask.sum()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        schedule.step()
        losses.append(float(loss.detach()))
    out_path = Path(out_dir)
    model.save_pretrained(out_path)
    tokenizer.save_pretrained(out_path)
    return out_path, losses
