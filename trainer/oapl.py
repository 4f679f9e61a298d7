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


def oapl_targets(rewards: torch.Tensor, beta_value: float) -> torch.Tensor:
    """The regression targets r − V̂*(x), (B, G) -> (B, G). Rewards are data: no gradient.

    Each sample's loss term needs only its own log-probs and this target, so the samples of
    a batch may be split into any micro-batches and the summed gradient is the full batch's.
    """
    return rewards - optimal_value(rewards, beta_value).unsqueeze(1)


def oapl_residuals(
    logprobs: torch.Tensor,
    behavior_logprobs: torch.Tensor,
    targets: torch.Tensor,
    beta_kl: float,
) -> torch.Tensor:
    """β₂ · [ln π(y|x) − ln π_vllm(y|x)] − (r − V̂*), elementwise over any matching shape."""
    return beta_kl * (logprobs - behavior_logprobs.detach()) - targets.detach()


def oapl_loss(
    logprobs: torch.Tensor,
    behavior_logprobs: torch.Tensor,
    rewards: torch.Tensor,
    beta_value: float,
    beta_kl: float,
    sample_weights: torch.Tensor | None = None,
) -> torch.Tensor:
    """The OAPL squared regression loss, a scalar: the mean over all B·G samples.

    logprobs: (B, G) learner ln π(y|x), summed over response tokens (carries the gradient).
    behavior_logprobs: (B, G) engine ln π_vllm(y|x) recorded at sampling time.
    rewards: (B, G). beta_value is β₁ (the value temperature), beta_kl is β₂.
    sample_weights: (B, G) or None; 0 drops a sample's term (a masked truncated response),
    which still counts in V̂* and in the B·G normaliser.
    """
    if not (logprobs.shape == behavior_logprobs.shape == rewards.shape) or logprobs.dim() != 2:
        raise ValueError(
            "logprobs, behavior_logprobs and rewards must share one (B, G) shape, got "
            f"{tuple(logprobs.shape)}, {tuple(behavior_logprobs.shape)}, {tuple(rewards.shape)}"
        )
    rewards = rewards.to(logprobs.dtype)
    residual = oapl_residuals(
        logprobs, behavior_logprobs, oapl_targets(rewards, beta_value), beta_kl
    )
    squared = residual.pow(2)
    if sample_weights is not None:
        squared = squared * sample_weights.to(squared.dtype)
    return squared.mean()


def group_advantages(rewards: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    """GRPO advantages: (r − mean_group) / (std_group + eps). rewards (B, G) -> (B, G)."""
    mean = rewards.mean(dim=1, keepdim=True)
    std = rewards.std(dim=1, keepdim=True, unbiased=False)
    return (rewards - mean) / (std + eps)


def grpo_surrogates(
    token_logprobs: torch.Tensor,
    behavior_token_logprobs: torch.Tensor,
    advantages: torch.Tensor,
    mask: torch.Tensor,
    clip_eps: float = 0.2,
) -> torch.Tensor:
    """Per-sequence clipped surrogate, averaged over each sequence's tokens.

    token_logprobs, behavior_token_logprobs, mask: (..., T); advantages: (...). Returns (...).
    The per-token ratio exp(ln π − ln π_behaviour) is PPO-clipped to [1 − ε, 1 + ε].
    """
    mask = mask.to(token_logprobs.dtype)
    adv = advantages.to(token_logprobs.dtype).unsqueeze(-1)
    log_ratio = (token_logprobs - behavior_token_logprobs.detach()) * mask
    ratio = torch.exp(log_ratio)
    surrogate = torch.minimum(ratio * adv, torch.clamp(ratio, 1 - clip_eps, 1 + clip_eps) * adv)
    return (surrogate * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)


def grpo_loss(
    token_logprobs: torch.Tensor,
    behavior_token_logprobs: torch.Tensor,
    rewards: torch.Tensor,
    mask: torch.Tensor,
    clip_eps: float = 0.2,
) -> torch.Tensor:
    """GRPO with an importance-sampling correction against the behaviour policy, a scalar.

    token_logprobs, behavior_token_logprobs, mask: (B, G, T), mask 1 on response tokens.
    rewards: (B, G). Each sequence's surrogate is averaged over its tokens and the result
    averaged over sequences (the GRPO paper's normalisation).
    """
    if token_logprobs.shape != behavior_token_logprobs.shape or token_logprobs.shape != mask.shape:
        raise ValueError("token_logprobs, behavior_token_logprobs and mask must share (B, G, T)")
    if token_logprobs.shape[:2] != rewards.shape:
        raise ValueError("rewards must be (B, G) matching the first two dims of token_logprobs")
    adv = group_advantages(rewards.to(token_logprobs.dtype))
    return -grpo_surrogates(token_logprobs, behavior_token_logprobs, adv, mask, clip_eps).mean()
