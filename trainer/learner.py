"""The learner's set-up: the policy with float32 master weights, how it computes, how it is
spread over ranks, its optimizer and learning-rate schedule, and its micro-batches.

- Weights, gradients and AdamW state are float32 always; ``run.compute_dtype = "bfloat16"``
  runs forward and backward under ``torch.autocast`` (on CPU too), so an update of 1e-6 is
  kept by the master copy instead of rounding away in a bf16 weight.
- Options: LoRA adapters (peft; only they train), gradient checkpointing (non-reentrant),
  and under torchrun DDP or FSDP2 (``fully_shard`` per decoder layer, then the root).
- ``lr_factor``: linear warmup, then cosine decay to ``min_lr_ratio`` (or constant); it is a
  pure function of the step, so resuming needs no scheduler state.
- ``micro_batches``: samples packed longest first under a token budget.
"""

from __future__ import annotations

import math
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import torch

from trainer.config import ModelConfig, OptimConfig


def load_policy(model_cfg: ModelConfig, device: str) -> Any:
    """The starting policy in float32 on ``device``, with LoRA and checkpointing as configured."""
    from transformers import AutoModelForCausalLM

    extra: dict[str, Any] = {}
    if model_cfg.attn_implementation:
        extra["attn_implementation"] = model_cfg.attn_implementation
    model: Any = AutoModelForCausalLM.from_pretrained(model_cfg.path, dtype=torch.float32, **extra)
    if model_cfg.gradient_checkpointing:
        model.config.use_cache = False
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if model_cfg.lora_rank:
        from peft import LoraConfig, get_peft_model

        lora = LoraConfig(
            r=model_cfg.lora_rank,
            lora_alpha=model_cfg.lora_alpha,
            lora_dropout=model_cfg.lora_dropout,
            target_modules=model_cfg.lora_target_modules,
            task_type="CAUSAL_LM",
        )
        model = get_peft_model(model, lora)
    model.to(device)
    model.train()
    return model


def distribute(model: Any, strategy: str, device: str) -> torch.nn.Module:
    """Wrap for the process group already initialised: DDP, or FSDP2 in place."""
    if strategy == "fsdp":
        from torch.distributed.device_mesh import init_device_mesh
        from torch.distributed.fsdp import fully_shard

        mesh = init_device_mesh(
            "cuda" if device.startswith("cuda") else "cpu", (torch.distributed.get_world_size(),)
        )
        layer_types = tuple(getattr(model, "_no_split_modules", None) or ())
        for module in model.modules():
            if type(module).__name__ in layer_types:
                fully_shard(module, mesh=mesh)
        fully_shard(model, mesh=mesh)
        return model
    return torch.nn.parallel.DistributedDataParallel(model)


def make_optimizer(model: torch.nn.Module, optim: OptimConfig, device: str) -> torch.optim.AdamW:
    """AdamW over the trainable (float32) parameters."""
    params = [p for p in model.parameters() if p.requires_grad]
    return torch.optim.AdamW(
        params,
        lr=optim.lr,
        betas=optim.betas,
        eps=optim.eps,
        weight_decay=optim.weight_decay,
        fused=device.startswith("cuda") or None,
    )


def lr_factor(step: int, total_steps: int, optim: OptimConfig) -> float:
    """The learning rate of update ``step`` (0-based) as a share of ``optim.lr``."""
    warmup = (
        optim.warmup_steps
        if optim.warmup_steps is not None
        else round(optim.warmup_ratio * total_steps)
    )
    if step < warmup:
        return (step + 1) / (warmup + 1)
    if optim.schedule == "constant":
        return 1.0
    decay_steps = max(1, total_steps - warmup)
    progress = min(1.0, (step - warmup) / decay_steps)
    cosine = 0.5 * (1.0 + math.cos(math.pi * progress))
    return optim.min_lr_ratio + (1.0 - optim.min_lr_ratio) * cosine


def set_lr(optimizer: torch.optim.Optimizer, lr: float) -> None:
    """Set every parameter group's learning rate."""
    for group in optimizer.param_groups:
        group["lr"] = lr


def autocast(device: str, compute_dtype: str) -> AbstractContextManager[Any]:
    """bf16 autocast for the learner's forward (and so its backward), or nothing."""
    if compute_dtype != "bfloat16":
        return nullcontext()
    return torch.autocast("cuda" if device.startswith("cuda") else "cpu", dtype=torch.bfloat16)


def micro_batches(lengths: list[int], token_budget: int | None) -> list[list[int]]:
    """Indices split into passes of at most ``token_budget`` padded tokens (rows × longest).

    Longest first, filled greedily; a sample longer than the budget gets a pass of its own.
    None: one pass with everything.
    """
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    if token_budget is None:
        return [order] if order else []
    batches: list[list[int]] = []
    current: list[int] = []
    for i in order:
        longest = lengths[current[0]] if current else lengths[i]
        if current and (len(current) + 1) * longest > token_budget:
            batches.append(current)
            current = []
        current.append(i)
    if current:
        batches.append(current)
    return batches
