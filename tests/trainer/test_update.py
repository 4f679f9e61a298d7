"""The learner update: micro-batches of groups give exactly the full-batch gradient."""

from __future__ import annotations

import copy

import pytest

torch = pytest.importorskip("torch")

from trainer.buffer import Group  # noqa: E402
from trainer.config import TrainConfig  # noqa: E402
from trainer.rollout import TransformersEngine  # noqa: E402
from trainer.train import learner_update  # noqa: E402


@pytest.mark.parametrize("loss", ["oapl", "grpo"])
def test_micro_batches_match_the_full_batch(tiny_model_dir, toy_split, loss):
    engine = TransformersEngine(str(tiny_model_dir))
    problems = toy_split[0][:3]
    sampled = engine.generate([p["prompt"] for p in problems], 4, 1.0, 10, seed=0)
    groups = [
        Group(p, comps, [float(i % 2), 0.0, 1.0, 0.5], [False] * 4, 0, 0)
        for i, (p, comps) in enumerate(zip(problems, sampled, strict=True))
    ]
    grads = []
    for micro in (None, 1):
        cfg = TrainConfig.model_validate(
            {
                "model": {"path": "unused"},
                "data": {"problems": "unused"},
                "algo": {"loss": loss, "micro_batch_groups": micro, "beta_kl": 0.5},
            }
        )
        model = copy.deepcopy(engine.model).train()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.0)
        metrics = learner_update(cfg, model, optimizer, groups, engine.tokenizer.pad_token_id, 0)
        grads.append(([p.grad.clone() for p in model.parameters()], metrics["loss"]))
    (full, full_loss), (micro, micro_loss) = grads
    assert micro_loss == pytest.approx(full_loss, rel=1e-5, abs=1e-6)
    assert all(torch.allclose(a, b, atol=1e-6, rtol=1e-4) for a, b in zip(full, micro))
