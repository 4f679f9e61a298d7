"""The learner's set-up: float32 master weights that learn at lr 1e-6 under bf16 autocast (as
float32 does, where bf16 weights do not move), the warmup + cosine schedule, gradient
checkpointing, and LoRA with merged weights for the engine."""

from __future__ import annotations

import copy
import itertools
import math

import pytest

torch = pytest.importorskip("torch")

from trainer.buffer import Group  # noqa: E402
from trainer.config import ModelConfig, OptimConfig, TrainConfig  # noqa: E402
from trainer.learner import autocast, load_policy, lr_factor, make_optimizer  # noqa: E402
from trainer.oapl import oapl_loss  # noqa: E402
from trainer.policy import LearnerWeights, response_logprobs  # noqa: E402
from trainer.rollout import Sampling, TransformersEngine  # noqa: E402
from trainer.train import learner_update  # noqa: E402

REFERENCE = OptimConfig(schedule="constant", warmup_steps=0)  # lr 1e-6, (0.9, 0.95), 1e-10


def _moved(before, model):
    deltas = [(p.detach().float() - b.detach()).abs() for b, p in zip(before, model.parameters())]
    return max(float(d.max()) for d in deltas), sum(float(d.sum()) for d in deltas)


def test_bf16_autocast_learns_the_bandit_at_lr_1e6_like_float32():
    torch.manual_seed(0)
    arms = torch.multinomial(torch.tensor([0.4, 0.3, 0.2, 0.1]), 64 * 16, True).view(64, 16)
    rewards = torch.tensor([0.0, 0.3, 1.0, 0.6])[arms]
    behavior = torch.log(torch.tensor([0.4, 0.3, 0.2, 0.1]))[arms]
    x = torch.randn(1, 32)
    start = torch.nn.Linear(32, 4, bias=False)  # weights ~U(±0.18), like a real layer's

    def loss_of(policy):
        logp = torch.log_softmax(policy(x.to(policy.weight.dtype)).float(), -1)[0][arms]
        return oapl_loss(logp, behavior, rewards, beta_value=1.0, beta_kl=1.0)

    results = {}
    for name, dtype in [("fp32", "float32"), ("bf16", "bfloat16")]:
        policy = copy.deepcopy(start)
        optimizer = make_optimizer(policy, REFERENCE, "cpu")
        for _ in range(60):
            optimizer.zero_grad()
            with autocast("cpu", dtype):
                loss = loss_of(policy)
            loss.backward()
            optimizer.step()
        assert policy.weight.dtype == torch.float32  # the master copy
        with torch.no_grad():
            results[name] = (
                float(loss_of(start) - loss_of(policy)),
                _moved([start.weight], policy),
            )
    # what bf16 weights (no master copy) do at this learning rate: nothing
    bf16 = copy.deepcopy(start).to(torch.bfloat16)
    optimizer = torch.optim.AdamW(bf16.parameters(), lr=1e-6, betas=(0.9, 0.95), eps=1e-10)
    for _ in range(60):
        optimizer.zero_grad()
        loss_of(bf16).backward()
        optimizer.step()
    bf16_moved = _moved([start.weight.to(torch.bfloat16).float()], bf16)[1]

    print("bandit (loss drop, (max |dw|, sum |dw|)):", results, "bf16 weights:", bf16_moved)
    (fp32_drop, (fp32_max, fp32_sum)), (bf16_drop, (_, bf16_sum)) = results.values()
    assert fp32_drop > 0 and bf16_drop > 0
    assert 0.8 < bf16_drop / fp32_drop < 1.25, results
    assert fp32_max == pytest.approx(60e-6, rel=0.05) and 0.8 < bf16_sum / fp32_sum < 1.25
    assert bf16_moved < 0.05 * fp32_sum  # only weights near 0 move at all in bf16


def test_bf16_autocast_learns_the_toy_task_at_lr_1e6_like_float32(tiny_model_dir, toy_split):
    engine = TransformersEngine(str(tiny_model_dir))
    problems = toy_split[0][:4]
    prompts = [engine.tokenizer(p["prompt"])["input_ids"] for p in problems]
    sampled = engine.generate(prompts, 4, Sampling(max_new_tokens=12), seed=0)
    groups = [
        Group(p, comps, [1.0, 0.0, 0.0, 0.5], [True, False, False, False], 0, 0)
        for p, comps in zip(problems, sampled, strict=True)
    ]
    comps = [c for g in groups for c in g.completions]

    def fp32_loss(model):
        with torch.no_grad():
            out = response_logprobs(
                model, [c.prompt_token_ids for c in comps], [c.token_ids for c in comps], 1.0, 0
            )
            return float(
                oapl_loss(
                    out.sequence.view(4, 4),
                    torch.tensor([c.logprob for c in comps]).view(4, 4),
                    torch.tensor([g.rewards for g in groups]),
                    1.0,
                    0.1,
                )
            )

    results = {}
    for dtype in ("float32", "bfloat16"):
        cfg = TrainConfig.model_validate(
            {
                "model": {"path": str(tiny_model_dir)},
                "data": {"problems": "unused"},
                "run": {"compute_dtype": dtype, "steps": 40},
                "algo": {"beta_kl": 0.1},
                "optim": REFERENCE.model_dump(),
            }
        )
        model = load_policy(cfg.model, "cpu")
        before = [p.detach().clone() for p in model.parameters()]
        start_loss = fp32_loss(model)
        optimizer = make_optimizer(model, cfg.optim, "cpu")
        for step in range(40):
            learner_update(cfg, model, optimizer, groups, 0, step)
        assert all(p.dtype == torch.float32 for p in model.parameters())
        results[dtype] = (start_loss - fp32_loss(model), *_moved(before, model))
    print("toy task (loss drop, max |dw|, sum |dw|):", results)
    (fp32_drop, fp32_max, fp32_sum), (bf16_drop, bf16_max, bf16_sum) = results.values()
    assert fp32_drop > 0 and bf16_drop > 0, results
    assert 0.7 < bf16_drop / fp32_drop < 1.4, results
    assert 0 < fp32_max <= 40e-6 * 2 and 0 < bf16_max <= 40e-6 * 2  # Adam: ~lr per step
    assert 0.7 < bf16_sum / fp32_sum < 1.4, results


def test_warmup_then_cosine_to_the_floor():
    optim = OptimConfig(warmup_steps=10, min_lr_ratio=0.05)
    factors = [lr_factor(s, 110, optim) for s in range(110)]
    assert factors[0] == pytest.approx(1 / 11) and factors[9] == pytest.approx(10 / 11)
    assert factors[10] == pytest.approx(1.0)
    assert factors[60] == pytest.approx(0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * 0.5)))
    assert all(a >= b for a, b in itertools.pairwise(factors[10:]))
    assert lr_factor(109, 110, optim) > 0.05 and lr_factor(500, 110, optim) == pytest.approx(0.05)
    assert OptimConfig().warmup_steps is None and lr_factor(0, 100, OptimConfig()) == 1 / 3
    assert lr_factor(50, 100, OptimConfig(schedule="constant")) == 1.0


def test_gradient_checkpointing_gives_the_same_gradients(tiny_model_dir, toy_split):
    prompts = [[5, 6, 7, 8], [9, 10, 11]]
    responses = [[12, 13, 14], [15, 16]]
    grads = []
    for ckpt in (False, True):
        model = load_policy(
            ModelConfig(path=str(tiny_model_dir), gradient_checkpointing=ckpt), "cpu"
        )
        assert model.is_gradient_checkpointing == ckpt
        response_logprobs(model, prompts, responses, 1.0, 0).sequence.sum().backward()
        grads.append([p.grad.clone() for p in model.parameters()])
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(*grads))


def test_lora_trains_only_adapters_and_the_engine_gets_merged_weights(tiny_model_dir, toy_split):
    cfg = ModelConfig(path=str(tiny_model_dir), lora_rank=4, lora_alpha=8)
    model = load_policy(cfg, "cpu")
    trainable = [n for n, p in model.named_parameters() if p.requires_grad]
    assert trainable and all("lora_" in n for n in trainable)
    optimizer = make_optimizer(model, OptimConfig(lr=1e-2, warmup_steps=0), "cpu")
    prompts, responses = [[5, 6, 7, 8]], [[12, 13, 14]]
    for _ in range(3):
        optimizer.zero_grad()
        (-response_logprobs(model, prompts, responses, 1.0, 0).sequence.sum()).backward()
        optimizer.step()
    engine = TransformersEngine(str(tiny_model_dir))
    exported = dict(LearnerWeights(model))
    assert set(exported) == set(engine.model.state_dict())  # base names, no adapters
    engine.update_weights(LearnerWeights(model))
    with torch.no_grad():
        ours = response_logprobs(model, prompts, responses, 1.0, 0).sequence
        theirs = response_logprobs(engine.model, prompts, responses, 1.0, 0).sequence
        start = response_logprobs(
            load_policy(ModelConfig(path=str(tiny_model_dir)), "cpu"), prompts, responses, 1.0, 0
        ).sequence
    assert float((ours - theirs).abs().max()) < 1e-5
    assert float((ours - start).abs().max()) > 1e-2  # the adapters did move the policy
