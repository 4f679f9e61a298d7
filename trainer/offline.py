"""Offline mode: groups from a JSONL of prompts and completions instead of an engine.

Each row is ``{"problem_id", "completion"[, "reward", "behavior_logprob"]}``. Rows are
grouped by problem in file order, G at a time (a short tail is dropped). A missing reward is
asked from the reward source (a ``sandbox_error`` drops the group); missing behaviour
log-probs are computed with the starting model, which is then π_vllm for the whole run.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import torch

from trainer.buffer import Group
from trainer.policy import response_logprobs
from trainer.rewards import RewardRequest, RewardSource
from trainer.rollout import Completion


def load_offline_groups(
    rows: list[dict[str, Any]],
    problems: dict[str, dict[str, Any]],
    group_size: int,
    tokenizer: Any,
    model: torch.nn.Module,
    rewards: RewardSource,
    prompt_template: str,
    temperature: float,
) -> tuple[list[Group], int]:
    """(groups, dropped_groups) ready for the buffer, all tagged policy version 0."""
    by_problem: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if row["problem_id"] not in problems:
            raise ValueError(f"offline row names unknown problem {row['problem_id']!r}")
        by_problem[row["problem_id"]].append(row)
    chunks = [
        (pid, items[i : i + group_size])
        for pid, items in by_problem.items()
        for i in range(0, len(items) - group_size + 1, group_size)
    ]
    flat = [(pid, row) for pid, chunk in chunks for row in chunk]

    need = [i for i, (_, row) in enumerate(flat) if row.get("reward") is None]
    scored = rewards.score(
        [
            RewardRequest(problems[flat[i][0]], flat[i][1]["completion"], f"offline-{i}")
            for i in need
        ]
    )
    reward: list[float | None] = [row.get("reward") for _, row in flat]
    accepted: list[bool] = [bool(row.get("accepted", row.get("reward") == 1.0)) for _, row in flat]
    for i, s in zip(need, scored, strict=True):
        reward[i], accepted[i] = s.reward, s.accepted

    prompt_ids = [
        tokenizer(prompt_template.format(prompt=problems[pid]["prompt"]), add_special_tokens=False)[
            "input_ids"
        ]
        for pid, _ in flat
    ]
    response_ids = [
        tokenizer(row["completion"], add_special_tokens=False)["input_ids"]
        + [tokenizer.eos_token_id]
        for _, row in flat
    ]
    token_lps: list[list[float]] = []
    with torch.no_grad():
        for start in range(0, len(flat), 64):
            out = response_logprobs(
                model,
                prompt_ids[start : start + 64],
                response_ids[start : start + 64],
                temperature,
                tokenizer.pad_token_id,
            )
            for row_lp, row_mask in zip(out.token_logprobs, out.mask, strict=True):
                token_lps.append(row_lp[row_mask.bool()].tolist())

    groups: list[Group] = []
    dropped = 0
    for c, (pid, chunk) in enumerate(chunks):
        idx = range(c * group_size, (c + 1) * group_size)
        if any(reward[i] is None for i in idx):
            dropped += 1
            continue
        completions = []
        for i, row in zip(idx, chunk, strict=True):
            comp = Completion(prompt_ids[i], response_ids[i], token_lps[i], row["completion"])
            if row.get("behavior_logprob") is not None:
                comp.logprob = float(row["behavior_logprob"])
            completions.append(comp)
        groups.append(
            Group(
                problem=problems[pid],
                completions=completions,
                rewards=[float(reward[i]) for i in idx],  # type: ignore[arg-type]
                accepted=[accepted[i] for i in idx],
                policy_version=0,
                sampled_at_step=0,
            )
        )
    return groups, dropped
