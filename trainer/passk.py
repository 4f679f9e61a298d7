"""Unbiased pass@k on held-out problems (the estimator of Chen et al., 2021).

``pass_at_k(n, c, k) = 1 − C(n−c, k) / C(n, k)`` is ``reward_api.pass_at_k``, one
estimator for ``codereward eval`` and the trainer. ``evaluate`` samples n completions per
problem with an engine (holding whatever weights the caller gave it: the trainer gives it
the learner's), scores them and averages pass@k over problems; problems with any
``sandbox_error`` are left out and counted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reward_api import pass_at_k
from trainer.problems import PromptRenderer
from trainer.rewards import RewardRequest, RewardSource
from trainer.rollout import Completion, RolloutEngine, Sampling

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
    group_by: str | None = None,
    reference: Callable[[list[Completion]], list[float]] | None = None,
) -> dict[str, float]:
    """{"pass@k": mean over problems, ..., "eval/problems": counted, "eval/dropped": ...}.

    With ``group_by``: also "pass@k/<value>" per value of ``problem["metadata"][group_by]``.
    With ``reference``: also "eval/kl_to_reference" (nats per response) and
    "eval/entropy_token" (nats per token), over every sampled completion.
    """
    per_problem: list[tuple[str, int]] = []
    dropped = 0
    log_ratio_sum = logprob_sum = 0.0
    n_samples = n_tokens = 0
    for start in range(0, len(problems), batch_prompts):
        chunk = problems[start : start + batch_prompts]
        groups = engine.generate([renderer.ids(p) for p in chunk], n, sampling, seed + start)
        if reference is not None:
            flat = [c for group in groups for c in group]
            for c, ref in zip(flat, reference(flat), strict=True):
                log_ratio_sum += c.logprob - ref
                logprob_sum += c.logprob
                n_tokens += len(c.token_ids)
            n_samples += len(flat)
        requests = [
            RewardRequest(problem=p, completion=c.text, sample_id=f"eval-{p['id']}-{j}")
            for p, group in zip(chunk, groups, strict=True)
            for j, c in enumerate(group)
        ]
        scored = rewards.score(requests)
        for i, problem in enumerate(chunk):
            part = scored[i * n : (i + 1) * n]
            if any(s.reward is None for s in part):
                dropped += 1
                continue
            key = str(problem.get("metadata", {}).get(group_by, "")) if group_by else ""
            per_problem.append((key, sum(s.accepted for s in part)))
    out: dict[str, float] = {
        "eval/problems": float(len(per_problem)),
        "eval/dropped": float(dropped),
    }
    if reference is not None:
        out["eval/kl_to_reference"] = log_ratio_sum / max(n_samples, 1)
        out["eval/entropy_token"] = -logprob_sum / max(n_tokens, 1)
    keys = sorted({key for key, _ in per_problem}) if group_by else []
    for k in ks:
        vals = [pass_at_k(n, c, k) for _, c in per_problem]
        out[f"pass@{k}"] = sum(vals) / len(vals) if vals else float("nan")
        for key in keys:
            part_vals = [pass_at_k(n, c, k) for g, c in per_problem if g == key]
            out[f"pass@{k}/{key}"] = sum(part_vals) / len(part_vals)
    return out
