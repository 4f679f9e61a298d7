"""Metrics sinks: one JSON line per logged step in ``metrics.jsonl``, and TensorBoard events.

Keys are the stage and quantity names the spine uses (``reward/mean``, ``time/update``...).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any


class MetricsWriter:
    """Appends rows to ``out_dir/metrics.jsonl``; mirrors scalars to ``out_dir/tb``."""

    def __init__(self, out_dir: Path, tensorboard: bool = True) -> None:
        out_dir.mkdir(parents=True, exist_ok=True)
        self.path = out_dir / "metrics.jsonl"
        self._fh = open(self.path, "a")  # noqa: SIM115 - kept open for the run
        self._tb: Any = None
        if tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            self._tb = SummaryWriter(log_dir=str(out_dir / "tb"))

    def write(self, step: int, values: dict[str, float]) -> None:
        """Record ``values`` at ``step``; non-finite numbers are written as null."""
        row: dict[str, Any] = {"step": step}
        for key, value in values.items():
            row[key] = float(value) if math.isfinite(value) else None
            if self._tb is not None and math.isfinite(value):
                self._tb.add_scalar(key, value, step)
        self._fh.write(json.dumps(row) + "\n")
        self._fh.flush()

    def close(self) -> None:
        self._fh.close()
        if self._tb is not None:
            self._tb.close()
