"""What a run spends: generations, verifier calls, verifier CPU seconds, learner seconds.

``MeteredRewards`` wraps a ``RewardSource`` and counts the samples it scores, the calls,
their wall seconds and the CPU seconds of this process tree while they ran
(``tree_cpu_s``). The trainer keeps one for training rewards and one for evaluation, so
a run's cost to train is never mixed with the cost of measuring it.

``tree_cpu_s`` is user + system CPU of this process (every thread), of its reaped
children, and of every live descendant (with the children it reaped), read from
``/proc``. A sandbox cell that lives across calls is counted by the difference. A process
that vanishes is counted by whoever reaped it (its parent, alive, or this process) or,
when its parent vanished with it (a killed cell: bubblewrap, its namespace and the runner
die together and nobody reaps them with accounting), at the last value seen, so the
counter never goes backwards. What it does not protect against: CPU that other threads
of this process spend while a call runs is counted too, so the figure is exact only when
nothing else runs in the process during scoring (``rollout.synchronous``); a killed
cell's CPU after the last reading before the call that killed it is lost, and so is a
short-lived process whose parent died with it before any reading. Where there is no
``/proc`` it counts this process and its reaped children only.
"""

from __future__ import annotations

import os
import resource
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from trainer.rewards import RewardRequest, RewardSource, Scored

_TICK_S = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01


def _proc_times(pid: int) -> tuple[int, float] | None:
    """(parent pid, utime + stime + cutime + cstime in seconds), or None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    # after the command name: fields[1] is the parent pid, [11:15] utime..cstime in ticks
    return int(fields[1]), sum(int(x) for x in fields[11:15]) * _TICK_S


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


class _TreeMeter:
    """The state ``tree_cpu_s`` keeps between readings: descendants seen, CPU of the lost."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.known: dict[int, tuple[int, float]] = {}
        self.lost_s = 0.0

    def read(self) -> float:
        with self.lock:
            own = resource.getrusage(resource.RUSAGE_SELF)
            reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
            total = own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime
            if not Path("/proc/self/task").exists():
                return total
            me = os.getpid()
            live: dict[int, tuple[int, float]] = {}
            todo = _children(me)
            while todo:
                pid = todo.pop()
                if pid in live:
                    continue
                found = _proc_times(pid)
                if found is not None:
                    live[pid] = found
                    todo += _children(pid)
            for pid, (ppid, seen_s) in self.known.items():
                if pid not in live and ppid != me and ppid not in live:
                    self.lost_s += seen_s  # died with its parent: nobody reaped it for us
            self.known = live
            return total + sum(t for _, t in live.values()) + self.lost_s


_METER = _TreeMeter()


def tree_cpu_s() -> float:
    """CPU seconds of this process tree so far (see the module docstring); never decreases."""
    return _METER.read()


class MeteredRewards:
    """A ``RewardSource`` that counts what it is asked to score and what that costs."""

    def __init__(self, inner: RewardSource, close_inner: bool = True) -> None:
        self.inner = inner
        self.close_inner = close_inner
        self.samples = 0
        self.calls = 0
        self.wall_s = 0.0
        self.cpu_s = 0.0
        self._lock = threading.Lock()

    def score(self, requests: Sequence[RewardRequest]) -> list[Scored]:
        if not requests:
            return []
        cpu0, t0 = tree_cpu_s(), time.perf_counter()
        out = self.inner.score(requests)
        wall, cpu = time.perf_counter() - t0, tree_cpu_s() - cpu0
        with self._lock:
            self.samples += len(requests)
            self.calls += 1
            self.wall_s += wall
            self.cpu_s += cpu
        return out

    def totals(self, prefix: str) -> dict[str, float]:
        """``{prefix}/samples``, ``/calls``, ``/wall_s``, ``/cpu_s``."""
        with self._lock:
            return {
                f"{prefix}/samples": float(self.samples),
                f"{prefix}/calls": float(self.calls),
                f"{prefix}/wall_s": self.wall_s,
                f"{prefix}/cpu_s": self.cpu_s,
            }

    def close(self) -> None:
        if self.close_inner:
            self.inner.close()
