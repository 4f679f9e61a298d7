"""The OAPL objective and the GRPO baseline, in pure torch.

OAPL (after A*-PO) regresses the scaled log-ratio between the learner and the lagged
behaviour policy onto the reward's advantage over an estimate of the optimal value:

    V̂*(x)  = β₁ · ln( (1/G) Σᵢ exp(rᵢ/β₁) )
    loss    = mean over samples of ( β₂ · [ln π(yᵢ|x) − ln π_vllm(yᵢ|x)] − (rᵢ − V̂*(x)) )²

with ln π summed over response tokens. There is no importance ratio and no clipping, so
samples from a lagged engine are used as they are. When β₁ = β₂ = β the minimiser over all
policies is π_vllm · exp(r/β) / Z.

``grpo_loss`` is the baseline: group-normalised advantages and a PPO-clipped token-level
surrogate whose ratio is taken against the behaviour (engine) log-probs, which is the
importance-sampling correction for lagged samples.

This module knows nothing of engines, rewards or models; it takes tensors.
"""

from __future__ import annotations

import math

import torch


def optimal_value(rewards: torch.Tensor, beta: float) -> torch.Tensor:
    """V̂*(x) = β · ln mean_i exp(r_i / β) per group (no gradient: rewards are data).

    rewards: (B, G). Returns (B,) in the rewards' float dtype (the default one for integer
    rewards). Computed with logsumexp in float64, so small and large β are both safe.
    """
    if rewards.dim() != 2:
        raise ValueError(f"rewards must be (B, G), got shape {tuple(rewards.shape)}")
    if beta <= 0:
        raise ValueError(f"beta must be > 0, got {beta}")
    group_size = rewards.shape[1]
    # float64: for large β the result is a small difference of two numbers near ln G
    r64 = rewards.detach().to(torch.float64)
    value = beta * (torch.logsumexp(r64 / beta, dim=1) - math.log(group_size))
    out_dtype = rewards.dtype if rewards.is_floating_point() else torch.get_default_dtype()
    return value.to(out_dtype)


def oapl_loss(
    logprobs: torch.Tensor,
    behavior_logprobs: torch.Tensor,
    rewards: torch.Tensor,
    beta_value: float,
    beta_kl: float,
) -> torch.Tensor:
    """The OAPL squared regression loss, a scalar.

    logprobs: (B, G) learner ln π(y|x), summed over response tokens (carries the gradient).
    behavior_logprobs: (B, G) engine ln π_vllm(y|x) recorded at sampling time.
    rewards: (B, G). beta_value is β₁ (the value temperature), beta_kl is β₂.
    """
    if not (logprobs.shape == behavior_logprobs.shape == rewards.shape) or logprobs.dim() != 2:
        raise ValueError(
            "logprobs, behavior_logprobs and rewards must share one (B, G) shape, got "
            f"{tuple(logprobs.shape)}, {tuple(behavior_logprobs.shape)}, {tuple(rewards.shape)}"
        )
    rewards = rewards.to(logprobs.dtype)
    value = optimal_value(rewards, beta_value).unsqueeze(1)  # (B, 1)
    residual = beta_kl * (logprobs - behavior_logprobs.detach()) - (rewards - value)
    return residual.pow(2).mean()


def group_advantages(rewards: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    """GRPO advantages: (r − mean_group) / (std_group + eps). rewards (B, G) -> (B, G)."""
    mean = rewards.mean(dim=1, keepdim=True)
    std = rewards.std(dim=1, keepdim=True, unbiased=False)
    return (rewards - mean) / (std + eps)


def grpo_loss(
    token_logprobs: torch.Tensor,
    behavior_token_logprobs: torch.Tensor,
    rewards: torch.Tensor,
    mask: torch.Tensor,
    clip_eps: float = 0.2,
) -> torch.Tensor:
    """GRPO with an importance-sampling correction against the behaviour policy, a scalar.

    token_logprobs, behavior_token_logprobs, mask: (B, G, T), mask 1 on response tokens.
    rewards: (B, G). The per-token ratio exp(ln π − ln π_behaviour) is PPO-clipped to
    [1 − clip_eps, 1 + clip_eps]; each sequence's surrogate is averaged over its tokens and
    the result averaged over sequences (the GRPO paper's normalisation).
    """
    if token_logprobs.shape != behavior_token_logprobs.shape or token_logprobs.shape != mask.shape:
        raise ValueError("token_logprobs, behavior_token_logprobs and mask must share (B, G, T)")
    if token_logprobs.shape[:2] != rewards.shape:
        raise ValueError("rewards must be (B, G) matching the first two dims of token_logprobs")
    mask = mask.to(token_logprobs.dtype)
    adv = group_advantages(rewards.to(token_logprobs.dtype)).unsqueeze(-1)  # (B, G, 1)
    log_ratio = (token_logprobs - behavior_token_logprobs.detach()) * mask
    ratio = torch.exp(log_ratio)
    surrogate = torch.minimum(ratio * adv, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * adv)
    per_seq = (surrogate * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)  # (B, G)
    return -per_seq.mean()
