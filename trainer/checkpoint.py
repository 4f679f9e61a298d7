"""Checkpoints for resume: weights, optimizer state and the trainer's counters.

Layout: ``out_dir/checkpoints/step_000050/{model.safetensors, optimizer.pt, state.json}``.
Weights and optimizer state are saved whole (``torch.distributed.checkpoint.state_dict``
gathers FSDP shards; LoRA models keep their adapter names), written by the main rank under a
temporary name and renamed, so a crash mid-save leaves the previous one intact; only the
newest ``keep`` are kept. Every rank calls ``save`` and ``load`` (gathering is collective).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import torch
from torch.distributed.checkpoint.state_dict import (
    StateDictOptions,
    get_model_state_dict,
    get_optimizer_state_dict,
    set_model_state_dict,
    set_optimizer_state_dict,
)

_FULL = StateDictOptions(full_state_dict=True, cpu_offload=True)


def save(
    root: Path,
    step: int,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    state: dict[str, Any],
    keep: int = 2,
    is_main: bool = True,
) -> Path:
    """Write checkpoint ``step`` under ``root``; prune all but the newest ``keep``."""
    from safetensors.torch import save_file

    weights: dict[str, Any] = dict(get_model_state_dict(model, options=_FULL))
    optim_state = get_optimizer_state_dict(model, optimizer, options=_FULL)
    final = root / f"step_{step:06d}"
    if not is_main:
        return final
    root.mkdir(parents=True, exist_ok=True)
    tmp = root / f".tmp_step_{step:06d}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    # tied names share storage, which safetensors refuses: each gets its own copy
    save_file(
        {k: v.detach().to("cpu", copy=True).contiguous() for k, v in weights.items()},
        str(tmp / "model.safetensors"),
        metadata={"format": "pt"},
    )
    torch.save(optim_state, tmp / "optimizer.pt")
    (tmp / "state.json").write_text(json.dumps(state))
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    for old in sorted(root.glob("step_*"))[:-keep]:
        shutil.rmtree(old, ignore_errors=True)
    return final


def latest(root: Path) -> Path | None:
    """The newest complete checkpoint folder, or None."""
    found = sorted(p for p in root.glob("step_*") if (p / "state.json").exists())
    return found[-1] if found else None


def load(path: Path, model: torch.nn.Module, optimizer: torch.optim.Optimizer) -> dict[str, Any]:
    """Restore weights and optimizer from ``path``; returns the saved trainer state."""
    from safetensors.torch import load_file

    full = StateDictOptions(full_state_dict=True)
    weights: dict[str, Any] = dict(load_file(str(path / "model.safetensors")))
    set_model_state_dict(model, weights, options=full)
    optim_state = torch.load(path / "optimizer.pt", map_location="cpu", weights_only=False)
    set_optimizer_state_dict(model, optimizer, optim_state_dict=optim_state, options=full)
    state: dict[str, Any] = json.loads((path / "state.json").read_text())
    return state
