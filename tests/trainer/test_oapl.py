"""The OAPL objective: its minimiser on a bandit, shapes, stability and gradients, sample
weights; GRPO."""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")

from trainer.oapl import grpo_loss, oapl_loss, optimal_value  # noqa: E402


def test_bandit_minimiser_is_tilted_behaviour_policy():
    torch.manual_seed(0)
    beta = 0.5
    behaviour = torch.tensor([0.35, 0.25, 0.2, 0.15, 0.05])
    reward_of_arm = torch.tensor([0.0, 0.3, 1.0, 0.6, 0.9])
    n_groups, group_size = 64, 256
    arms = torch.multinomial(behaviour, n_groups * group_size, replacement=True).view(n_groups, -1)
    rewards = reward_of_arm[arms]
    behaviour_lp = behaviour.log()[arms]
    logits = torch.zeros(5, requires_grad=True)
    opt = torch.optim.Adam([logits], lr=0.05)
    for _ in range(600):
        logprobs = torch.log_softmax(logits, 0)[arms]
        loss = oapl_loss(logprobs, behaviour_lp, rewards, beta_value=beta, beta_kl=beta)
        opt.zero_grad()
        loss.backward()
        opt.step()
    learned = torch.softmax(logits.detach(), 0)
    target = behaviour * torch.exp(reward_of_arm / beta)
    target = target / target.sum()
    tv = 0.5 * (learned - target).abs().sum().item()
    assert tv < 0.02, (learned, target, tv)


def test_optimal_value_shape_and_closed_form():
    rewards = torch.tensor([[0.0, 1.0, 1.0, 0.0], [2.0, 2.0, 2.0, 2.0]])
    v = optimal_value(rewards, beta=1.0)
    assert v.shape == (2,)
    assert v[0].item() == pytest.approx(math.log((2 + 2 * math.e) / 4))
    assert v[1].item() == pytest.approx(2.0)


def test_optimal_value_is_stable_for_small_beta():
    rewards = torch.tensor([[0.0, 1.0, 1.0, 0.0]])
    v = optimal_value(rewards, beta=1e-3)
    assert torch.isfinite(v).all()
    assert v.item() == pytest.approx(1.0 + 1e-3 * math.log(0.5), abs=1e-6)


def test_optimal_value_tends_to_mean_for_large_beta():
    rewards = torch.rand(3, 8)
    assert torch.allclose(optimal_value(rewards, beta=1e4), rewards.mean(1), atol=1e-3)


def test_oapl_loss_is_scalar_with_analytic_gradient():
    torch.manual_seed(1)
    lp = torch.randn(3, 4, requires_grad=True)
    blp = torch.randn(3, 4)
    r = torch.rand(3, 4)
    b1, b2 = 1.0, 0.1
    loss = oapl_loss(lp, blp, r, b1, b2)
    assert loss.dim() == 0
    loss.backward()
    v = optimal_value(r, b1).unsqueeze(1)
    residual = b2 * (lp.detach() - blp) - (r - v)
    assert torch.allclose(lp.grad, 2 * b2 * residual / residual.numel(), atol=1e-6)


def test_oapl_loss_is_zero_at_the_optimum():
    r = torch.tensor([[0.0, 1.0, 0.5]])
    blp = torch.log(torch.tensor([[0.2, 0.5, 0.3]]))
    b1 = b2 = 0.7
    lp = blp + (r - optimal_value(r, b1).unsqueeze(1)) / b2
    assert oapl_loss(lp, blp, r, b1, b2).item() == pytest.approx(0.0, abs=1e-10)


def test_oapl_loss_rejects_mismatched_shapes():
    with pytest.raises(ValueError):
        oapl_loss(torch.zeros(2, 3), torch.zeros(2, 4), torch.zeros(2, 3), 1.0, 1.0)


def test_grpo_loss_pushes_up_the_better_sample():
    lp = torch.zeros(1, 2, 3, requires_grad=True)
    mask = torch.ones(1, 2, 3)
    loss = grpo_loss(lp, torch.zeros(1, 2, 3), torch.tensor([[1.0, 0.0]]), mask)
    loss.backward()
    assert loss.dim() == 0
    assert (lp.grad[0, 0] < 0).all() and (lp.grad[0, 1] > 0).all()


def test_grpo_loss_clips_the_importance_ratio():
    # a ratio far above 1 + eps with a positive advantage gets no gradient
    lp = torch.full((1, 2, 2), 1.0, requires_grad=True)
    loss = grpo_loss(lp, torch.zeros(1, 2, 2), torch.tensor([[1.0, 0.0]]), torch.ones(1, 2, 2))
    loss.backward()
    assert torch.all(lp.grad[0, 0] == 0)


def test_grpo_loss_ignores_masked_tokens():
    lp = torch.zeros(1, 2, 3, requires_grad=True)
    mask = torch.tensor([[[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]]])
    grpo_loss(lp, torch.zeros(1, 2, 3), torch.tensor([[1.0, 0.0]]), mask).backward()
    assert lp.grad[0, 0, 2] == 0 and lp.grad[0, 1, 1] == 0


def test_optimal_value_accepts_integer_rewards():
    v = optimal_value(torch.tensor([[0, 1]]), beta=1.0)
    assert v.dtype == torch.get_default_dtype()
    assert v.item() == pytest.approx(math.log((1 + math.e) / 2))


def test_sample_weights_drop_terms_but_keep_the_normaliser():
    lp, blp = torch.randn(2, 3), torch.randn(2, 3)
    r = torch.rand(2, 3)
    w = torch.tensor([[1.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
    full = (0.5 * (lp - blp) - (r - optimal_value(r, 1.0).unsqueeze(1))).pow(2)
    assert oapl_loss(lp, blp, r, 1.0, 0.5, w).item() == pytest.approx(float((full * w).sum() / 6))
