"""The sandbox policy: one declarative, deny-by-default object for both backends.

Everything a candidate program may have is listed here; anything not listed is denied:

- filesystem: the runtime root read-only; a fresh writable ``/tmp`` and ``/dev/shm`` of fixed
  sizes (wiped after every sample, their modes restored); a minimal read-only ``/dev``; its
  own ``/proc``. No host paths, no secrets.
- network: its own network namespace with only a loopback device (``--network none``).
- identity: an unprivileged uid (65534) inside, no capabilities, ``no-new-privileges``;
  the process backend also runs the cell as an unprivileged host uid when started as root.
- environment: cleared, then exactly ``environment`` below.
- limits per test: wall time and memory from the problem; CPU time, file size, open files,
  processes, message queues (none) and output bytes from here. Per cell (cgroup, when the
  host allows it): memory and pids ceilings as a backstop for fork bombs, and a CPU quota
  so a neighbour's spinning processes cannot starve a cell. The kernel's OOM killer takes a
  test's processes, never the runner (``oom_score_adj``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/tmp",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "PYTHONHASHSEED": "0",
    "PYTHONDONTWRITEBYTECODE": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


@dataclass(frozen=True)
class SandboxPolicy:
    """What a cell allows. Defaults are the documented production values."""

    runtime_root: Path = Path("/var/lib/codereward/runtime/bookworm-py311")
    """Root filesystem of the runtime (bound read-only as / by the process backend)."""
    python: str = "/usr/bin/python3"
    """Interpreter inside the runtime."""
    sandbox_uid: int = 65534
    """Uid (and gid) inside the sandbox; also the host uid the process backend drops to as root."""
    max_output_bytes: int = 16 << 20
    """Stdout bytes a test may write before it is stopped with ``output_limit``."""
    max_file_mb: int = 64
    """Largest file a test may write (RLIMIT_FSIZE)."""
    max_procs: int = 32
    """Processes (and threads) a test may have at once (RLIMIT_NPROC in the cell's user namespace)."""
    cell_memory_overhead_mb: int = 256
    """Cell cgroup memory ceiling above the test's own limit (runner, /tmp contents)."""
    cell_pids_max: int = 96
    """Cell cgroup pids ceiling."""
    cell_cpus: float = 1.0
    """CPU quota of a cell (cgroup ``cpu``; ``--cpus`` for docker): a neighbour's spinning
    processes cannot take more than this, so they cannot turn another cell's honest time
    into a timeout."""
    tmp_mb: int = 128
    """Size of the cell's ``/tmp`` (a tmpfs): filling it is ENOSPC for the program. With
    ``/dev/shm`` it stays inside ``cell_memory_overhead_mb``, so full tmpfs pages never
    push the runner out of its cell's memory."""
    shm_mb: int = 64
    """Size of the cell's ``/dev/shm`` (a tmpfs)."""
    recycle_after_samples: int = 256
    """A cell is replaced after this many samples, and at once after any anomaly."""
    environment: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_ENV))
    """The whole environment a program sees."""
    docker_image: str = "codereward/sandbox-python:3.11"
    """Image the docker backend runs (built by ``make images`` from the same runtime)."""
    docker_runtime: str | None = None
    """Another OCI runtime for the docker backend, e.g. ``runsc`` (gVisor), where installed."""
    label: str = "codereward.sandbox"
    """Label on every container we start, so orphans can be found and removed."""
