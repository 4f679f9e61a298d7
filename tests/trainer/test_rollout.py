"""The transformers engine: sampling, behaviour log-probs that the learner reproduces, sync."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from trainer.policy import response_logprobs, save_weights  # noqa: E402
from trainer.rollout import TransformersEngine  # noqa: E402


def _learner_logprobs(engine, model, comps, temperature):
    with torch.no_grad():
        out = response_logprobs(
            model,
            [c.prompt_token_ids for c in comps],
            [c.token_ids for c in comps],
            temperature,
            engine.tokenizer.pad_token_id,
        )
    return out.sequence


def test_engine_samples_n_per_prompt_with_logprobs(tiny_model_dir, toy_split):
    engine = TransformersEngine(str(tiny_model_dir))
    prompts = [p["prompt"] for p in toy_split[0][:3]]
    groups = engine.generate(prompts, n=4, temperature=1.0, max_new_tokens=12, seed=0)
    assert [len(g) for g in groups] == [4, 4, 4]
    for group in groups:
        for c in group:
            assert 1 <= len(c.token_ids) <= 12
            assert len(c.token_logprobs) == len(c.token_ids)
            assert c.logprob <= 0
            assert c.logprob == pytest.approx(sum(c.token_logprobs))


def test_learner_reproduces_engine_logprobs(tiny_model_dir, toy_split):
    engine = TransformersEngine(str(tiny_model_dir))
    # prompts of different lengths exercise the engine's left padding
    prompts = [toy_split[0][0]["prompt"], toy_split[0][-1]["prompt"] + "# again\n"]
    for temperature in (1.0, 0.7):
        comps = [c for g in engine.generate(prompts, 3, temperature, 10, seed=1) for c in g]
        learner = _learner_logprobs(engine, engine.model, comps, temperature)
        engine_lp = torch.tensor([c.logprob for c in comps])
        assert torch.allclose(learner, engine_lp, atol=1e-3), (learner, engine_lp)


def test_weight_sync_makes_engine_match_the_new_learner(tiny_model_dir, toy_split, tmp_path):
    from transformers import AutoModelForCausalLM

    engine = TransformersEngine(str(tiny_model_dir))
    learner = AutoModelForCausalLM.from_pretrained(str(tiny_model_dir), dtype=torch.float32)
    with torch.no_grad():
        for p in learner.parameters():
            p.add_(0.05 * torch.randn_like(p))
    prompts = [p["prompt"] for p in toy_split[0][:2]]
    comps = [c for g in engine.generate(prompts, 2, 1.0, 10, seed=2) for c in g]
    before = _learner_logprobs(engine, learner, comps, 1.0)
    assert not torch.allclose(before, torch.tensor([c.logprob for c in comps]), atol=1e-3)

    engine.load_weights(save_weights(learner, tmp_path / "sync").parent)
    comps = [c for g in engine.generate(prompts, 2, 1.0, 10, seed=3) for c in g]
    after = _learner_logprobs(engine, learner, comps, 1.0)
    assert torch.allclose(after, torch.tensor([c.logprob for c in comps]), atol=1e-3)
