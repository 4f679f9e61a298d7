"""Sandboxes: where candidate programs run. Two backends share one runner and one runtime.

- ``process``: a warm runner inside Linux namespaces made by bubblewrap (``process.py``).
- ``docker``: the same runner inside hardened, warm Docker containers (``docker.py``).

Both speak the runner protocol of ``runner.py`` over a byte stream, so a backend is only
"how to start a cell and reach its stdin/stdout". ``open_pool`` picks one from a plain dict.
"""

from __future__ import annotations

from reward_api.sandbox.cell import Cell, CellPool
from reward_api.sandbox.policy import SandboxPolicy

__all__ = ["BACKENDS", "Cell", "CellPool", "SandboxPolicy", "open_pool"]

BACKENDS = ("process", "docker")


def open_pool(backend: str, policy: SandboxPolicy, size: int) -> CellPool:
    """A pool of ``size`` warm cells of the named backend."""
    if backend == "process":
        from reward_api.sandbox.process import ProcessCell

        factory = ProcessCell.factory(policy)
    elif backend == "docker":
        from reward_api.sandbox.docker import DockerCell

        factory = DockerCell.factory(policy)
    else:
        raise ValueError(f"unknown sandbox backend {backend!r}; choose one of {BACKENDS}")
    return CellPool(factory, size=size, recycle_after=policy.recycle_after_samples)
