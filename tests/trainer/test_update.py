"""The learner update: token-budget micro-batches give exactly the full-batch gradient, which
is the gradient of the reference loss; truncated responses can be masked out."""

from __future__ import annotations

import copy

import pytest

torch = pytest.importorskip("torch")

from trainer.buffer import Group  # noqa: E402
from trainer.config import TrainConfig  # noqa: E402
from trainer.learner import micro_batches  # noqa: E402
from trainer.oapl import oapl_loss  # noqa: E402
from trainer.policy import response_logprobs  # noqa: E402
from trainer.rollout import Sampling, TransformersEngine  # noqa: E402
from trainer.train import learner_update  # noqa: E402


@pytest.fixture(scope="module")
def sampled(tiny_model_dir, toy_split):
    engine = TransformersEngine(str(tiny_model_dir))
    problems = toy_split[0][:3]
    prompts = [engine.tokenizer(p["prompt"])["input_ids"] for p in problems]
    groups = engine.generate(prompts, 4, Sampling(max_new_tokens=10), seed=0)
    built = [
        Group(p, comps, [float(i % 2), 0.0, 1.0, 0.5], [False] * 4, 0, 0)
        for i, (p, comps) in enumerate(zip(problems, groups, strict=True))
    ]
    return engine, built


def _cfg(**algo):
    return TrainConfig.model_validate(
        {
            "model": {"path": "unused"},
            "data": {"problems": "unused"},
            "algo": {"beta_kl": 0.5, **algo},
            "optim": {"warmup_steps": 0, "grad_clip": 1e9},  # compare unclipped gradients
        }
    )


def _grads(engine, groups, **algo):
    model = copy.deepcopy(engine.model).train()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0)
    metrics = learner_update(_cfg(**algo), model, optimizer, groups, 0, 0)
    return [p.grad.clone() for p in model.parameters()], metrics


def test_micro_batches_pack_longest_first_under_the_budget():
    lengths = [5, 9, 3, 9, 2]
    batches = micro_batches(lengths, 18)
    assert sorted(i for b in batches for i in b) == [0, 1, 2, 3, 4]
    assert all(len(b) * max(lengths[i] for i in b) <= 18 for b in batches)
    assert batches[0] == [1, 3]
    assert micro_batches(lengths, 1) == [[1], [3], [0], [2], [4]]  # too long: one each
    assert micro_batches(lengths, None) == [[1, 3, 0, 2, 4]]


@pytest.mark.parametrize("loss", ["oapl", "grpo"])
def test_token_budget_micro_batches_match_the_full_batch(sampled, loss):
    engine, groups = sampled
    full, full_m = _grads(engine, groups, loss=loss)
    micro, micro_m = _grads(engine, groups, loss=loss, micro_batch_tokens=40)
    assert micro_m["learner/micro_batches"] > 2 and full_m["learner/micro_batches"] == 1
    assert micro_m["loss"] == pytest.approx(full_m["loss"], rel=1e-5, abs=1e-6)
    assert all(torch.allclose(a, b, atol=1e-6, rtol=1e-4) for a, b in zip(full, micro))


def test_update_gradient_is_the_reference_oapl_loss_gradient(sampled):
    engine, groups = sampled
    grads, _ = _grads(engine, groups, micro_batch_tokens=40, beta_value=0.7)
    model = copy.deepcopy(engine.model).train()
    comps = [c for g in groups for c in g.completions]
    out = response_logprobs(
        model, [c.prompt_token_ids for c in comps], [c.token_ids for c in comps], 1.0, 0
    )
    loss = oapl_loss(
        out.sequence.view(3, 4),
        torch.tensor([c.logprob for c in comps]).view(3, 4),
        torch.tensor([g.rewards for g in groups]),
        beta_value=0.7,
        beta_kl=0.5,
    )
    loss.backward()
    assert all(
        torch.allclose(p.grad, g, atol=1e-6, rtol=1e-4) for p, g in zip(model.parameters(), grads)
    )


def test_masked_truncated_responses_get_no_gradient(sampled):
    engine, groups = sampled
    groups = copy.deepcopy(groups)
    for g in groups:
        for c in g.completions:
            c.finish_reason = "length"
    grads, metrics = _grads(engine, groups, mask_truncated=True)
    assert metrics["response/truncated"] == 1.0
    assert metrics["loss"] == 0.0
    assert all(float(g.abs().max()) == 0.0 for g in grads)
    kept, _ = _grads(engine, groups, mask_truncated=False)
    assert any(float(g.abs().max()) > 0 for g in kept)
