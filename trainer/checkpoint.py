"""Checkpoints for resume: weights, optimizer state and the trainer's counters.

Layout: ``out_dir/checkpoints/step_000050/{model.safetensors, optimizer.pt, state.json}``.
A checkpoint folder is written under a temporary name and renamed, so a crash mid-save
leaves the previous one intact; only the newest ``keep`` are kept.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import torch

from trainer.policy import save_weights


def save(
    root: Path,
    step: int,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    state: dict[str, Any],
    keep: int = 2,
) -> Path:
    """Write checkpoint ``step`` under ``root``; prune all but the newest ``keep``."""
    root.mkdir(parents=True, exist_ok=True)
    final = root / f"step_{step:06d}"
    tmp = root / f".tmp_step_{step:06d}"
    shutil.rmtree(tmp, ignore_errors=True)
    save_weights(model, tmp)
    torch.save(optimizer.state_dict(), tmp / "optimizer.pt")
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

    device = next(model.parameters()).device
    model.load_state_dict(load_file(str(path / "model.safetensors"), device=str(device)))
    optimizer.load_state_dict(torch.load(path / "optimizer.pt", map_location=device))
    state: dict[str, Any] = json.loads((path / "state.json").read_text())
    return state
