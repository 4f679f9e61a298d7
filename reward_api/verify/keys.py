"""What a result depends on: the one content hash behind deduplication and the cache.

A result is decided by the problem's tests, limits, comparator, setup code, entry points,
checker, reference and ``metadata`` (which may carry a reward preset), and not by its id,
prompt, difficulty or source; by the program (``code``, or the block extracted from
``completion``); by the reward settings; and by the runtime (this package's version, the
runner's protocol version and the sandbox kind). ``result_key`` hashes exactly that. The
verifier collapses identical work inside one call by it, and the service's result cache
stores results under it, so the two can never disagree about what is "the same".
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from reward_api.schemas import Problem, RewardSettings

RUNTIME_VERSION = "runner-9"
"""Bump when the runner or grading changes what a result would be."""
_PROBLEM_EXCLUDE = frozenset({"id", "prompt", "difficulty", "source"})


def runtime_version(sandbox: str) -> str:
    """What besides the inputs decides a result: this code's version and the sandbox kind."""
    from reward_api import __version__

    return f"codereward-{__version__}/{RUNTIME_VERSION}/{sandbox}"


def problem_digest(problem: Problem) -> str:
    """Hash of the parts of a problem that decide a result."""
    return _sha(problem.model_dump(mode="json", exclude=set(_PROBLEM_EXCLUDE)))


def result_key(digest: str, program: str, reward: RewardSettings | None, runtime: str) -> str:
    """Content key of one program's result against a problem digest."""
    rs = reward.model_dump(mode="json", exclude_none=True) if reward is not None else None
    return _sha([digest, program, rs, runtime])


def _sha(obj: Any) -> str:
    raw = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # surrogatepass: a lone surrogate in a program hashes instead of failing the batch
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()
