"""Offline mode: groups from a JSONL of completions instead of an engine; there is no sync.

Each row is ``{"problem_id", "completion"[, "reward", "accepted", "prompt_token_ids",
"token_ids", "token_logprobs" | "behavior_logprob", "finish_reason"]}``. Rows are grouped
by problem in file order, G at a time (a short tail is dropped).

- Supplied token ids and log-probs are used as they are: a row with ``token_ids`` is not
  re-tokenised and nothing (no EOS) is appended; a row without them trains on the
  tokenisation of its completion text, again with nothing appended. Prompt ids are the
  row's ``prompt_token_ids`` or the ``PromptRenderer``'s.
- ``token_logprobs`` (per token) or ``behavior_logprob`` (their sum) is ln π_vllm; when
  both are missing, the starting model's log-probs under the sampling processing are used,
  and that model is π_vllm for the whole run.
- A missing reward is asked from the reward source (a ``sandbox_error`` drops the group).

``OfflineBatches`` hands out B groups per step, every pass over the data in a new order.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

import torch

from trainer.buffer import Group
from trainer.policy import response_logprobs
from trainer.problems import PromptRenderer
from trainer.rewards import RewardRequest, RewardSource
from trainer.rollout import Completion, Sampling


def load_offline_groups(
    rows: list[dict[str, Any]],
    problems: dict[str, dict[str, Any]],
    group_size: int,
    renderer: PromptRenderer,
    model: torch.nn.Module,
    rewards: RewardSource,
    sampling: Sampling,
) -> tuple[list[Group], int]:
    """(groups, dropped_groups) ready for training, all tagged policy version 0."""
    tokenizer = renderer.tokenizer
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
        list(row["prompt_token_ids"])
        if row.get("prompt_token_ids") is not None
        else renderer.ids(problems[pid])
        for pid, row in flat
    ]
    response_ids = [
        list(row["token_ids"])
        if row.get("token_ids") is not None
        else tokenizer(row["completion"], add_special_tokens=False)["input_ids"]
        for _, row in flat
    ]
    token_lps: list[list[float] | None] = [
        [float(x) for x in row["token_logprobs"]] if row.get("token_logprobs") is not None else None
        for _, row in flat
    ]
    missing = [i for i, lps in enumerate(token_lps) if lps is None]
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    with torch.no_grad():
        for start in range(0, len(missing), 32):
            idx = missing[start : start + 32]
            out = response_logprobs(
                model,
                [prompt_ids[i] for i in idx],
                [response_ids[i] for i in idx],
                sampling.temperature,
                pad,
                sampling.top_k,
                sampling.top_p,
            )
            for i, row_lp, row_mask in zip(idx, out.token_logprobs, out.mask, strict=True):
                token_lps[i] = row_lp[row_mask.bool()].tolist()

    groups: list[Group] = []
    dropped = 0
    for c, (pid, chunk) in enumerate(chunks):
        idx = list(range(c * group_size, (c + 1) * group_size))
        if any(reward[i] is None for i in idx):
            dropped += 1
            continue
        completions = []
        for i, row in zip(idx, chunk, strict=True):
            lps = token_lps[i]
            assert lps is not None
            if len(lps) != len(response_ids[i]):
                raise ValueError(f"offline row {i}: token_logprobs and token_ids differ in length")
            comp = Completion(
                prompt_ids[i],
                response_ids[i],
                lps,
                row["completion"],
                str(row.get("finish_reason", "stop")),
            )
            if row.get("token_logprobs") is None and row.get("behavior_logprob") is not None:
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


class OfflineBatches:
    """B groups per step; each pass over the groups follows a new seeded permutation."""

    def __init__(self, groups: list[Group], seed: int = 0) -> None:
        if not groups:
            raise ValueError("offline data gave no complete group")
        self.groups = groups
        self.rng = random.Random(seed)
        self.passes = 0
        self._order: list[Group] = []

    def take(self, n: int) -> list[Group]:
        """The next ``n`` groups (no group twice in one batch while n <= the dataset)."""
        picked: list[Group] = []
        while len(picked) < n:
            if not self._order:
                self._order = self.rng.sample(self.groups, len(self.groups))
                self.passes += 1
            candidate = self._order.pop()
            if any(candidate is g for g in picked) and len(self.groups) >= n:
                self._order.insert(0, candidate)
                continue
            picked.append(candidate)
        for g in picked:
            g.uses += 1
        return picked
