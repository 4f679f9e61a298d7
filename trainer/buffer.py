"""The rollout buffer: scored groups tagged with the policy version that sampled them.

The sampler thread ``put``s groups; the learner ``take``s B groups per step, newest unused
first, topped up by re-drawing from the buffer (OAPL is off-policy, so reuse is sound within
one sync period). ``clear(version)`` empties it at a sync and refuses late groups from older
versions. Thread-safe.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from typing import Any

from trainer.rollout import Completion


@dataclass
class Group:
    """G completions of one prompt, with their rewards."""

    problem: dict[str, Any]
    completions: list[Completion]
    rewards: list[float]
    accepted: list[bool]
    policy_version: int
    sampled_at_step: int
    uses: int = field(default=0)


class BufferClosed(RuntimeError):
    """``take`` was waiting when the buffer was closed (the sampler stopped)."""


class RolloutBuffer:
    """Groups of the current policy version."""

    def __init__(self, seed: int = 0) -> None:
        self._cond = threading.Condition()
        self._groups: list[Group] = []
        self._fresh: list[Group] = []
        self._version = 0
        self._closed: BaseException | None = None
        self._rng = random.Random(seed)
        self.dropped_stale = 0

    @property
    def version(self) -> int:
        with self._cond:
            return self._version

    def put(self, group: Group) -> bool:
        """Add a group; False (and dropped) when it was sampled by an older version."""
        with self._cond:
            if group.policy_version != self._version:
                self.dropped_stale += 1
                return False
            self._groups.append(group)
            self._fresh.append(group)
            self._cond.notify_all()
            return True

    def extend(self, groups: list[Group]) -> None:
        """Add many groups (offline mode)."""
        for g in groups:
            self.put(g)

    def take(self, n: int, min_fresh: int, timeout_s: float | None = None) -> list[Group]:
        """B groups: waits until ``min_fresh`` unused ones and ``n`` in all are there."""
        with self._cond:
            ok = self._cond.wait_for(
                lambda: (
                    self._closed is not None
                    or (len(self._fresh) >= min(min_fresh, n) and len(self._groups) >= n)
                ),
                timeout=timeout_s,
            )
            if self._closed is not None:
                raise BufferClosed("the sampler stopped") from self._closed
            if not ok:
                raise TimeoutError(f"no {n} groups within {timeout_s} s")
            picked = self._fresh[:n]
            self._fresh = self._fresh[n:]
            if len(picked) < n:
                ids = {id(g) for g in picked}
                rest = [g for g in self._groups if id(g) not in ids]
                picked += self._rng.sample(rest, n - len(picked))
            for g in picked:
                g.uses += 1
            return picked

    def clear(self, new_version: int) -> None:
        """Empty the buffer and accept only groups of ``new_version`` from now on."""
        with self._cond:
            self._groups.clear()
            self._fresh.clear()
            self._version = new_version

    def close(self, reason: BaseException) -> None:
        """Wake any waiting ``take`` with ``BufferClosed``."""
        with self._cond:
            self._closed = reason
            self._cond.notify_all()

    def __len__(self) -> int:
        with self._cond:
            return len(self._groups)
