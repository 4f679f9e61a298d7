"""Unbiased pass@k on held-out problems (the estimator of Chen et al., 2021).

``pass_at_k(n, c, k) = 1 − C(n−c, k) / C(n, k)`` is ``reward_api.pass_at_k``, one
estimator for ``codereward eval`` and the trainer. ``evaluate`` samples n completions per
problem with an engine (holding whatever weights the caller gave it: the trainer gives it
the learner's), scores them and averages pass@k over problems; problems with any
``sandbox_error`` are left out and counted.
"""

from __future__ import annotations

from typing import Any

from reward_api import pass_at_k
from trainer.problems import PromptRenderer
from trainer.rewards import RewardRequest, RewardSource
from trainer.rollout import RolloutEngine, Sampling

__all__ = ["evaluate", "pass_at_k"]


def evaluate(
    engine: RolloutEngine,
    rewards: RewardSource,
    problems: list[dict[str, Any]],
    renderer: PromptRenderer,
    n: int,
    ks: list[int],
    sampling: Sampling,
    seed: int = 0,
    batch_prompts: int = 16,
) -> dict[str, float]:
    """{"pass@k": mean over problems, ..., "eval/problems": counted, "eval/dropped": ...}."""
    per_problem: list[int] = []
    dropped = 0
    for start in range(0, len(problems), batch_prompts):
        chunk = problems[start : start + batch_prompts]
        groups = engine.generate([renderer.ids(p) for p in chunk], n, sampling, seed + start)
        requests = [
            RewardRequest(problem=p, completion=c.text, sample_id=f"eval-{p['id']}-{j}")
            for p, group in zip(chunk, groups, strict=True)
            for j, c in enumerate(group)
        ]
        scored = rewards.score(requests)
        for i in range(len(chunk)):
            part = scored[i * n : (i + 1) * n]
            if any(s.reward is None for s in part):
                dropped += 1
                continue
            per_problem.append(sum(s.accepted for s in part))
    out: dict[str, float] = {
        "eval/problems": float(len(per_problem)),
        "eval/dropped": float(dropped),
    }
    for k in ks:
        vals = [pass_at_k(n, c, k) for c in per_problem]
        out[f"pass@{k}"] = sum(vals) / len(vals) if vals else float("nan")
    return out
