"""The transformers engine: sampling, behaviour log-probs that the learner reproduces (top-p
and top-k included), stop strings, truncation flags, and an in-memory weight sync."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from trainer.policy import LearnerWeights, response_logprobs, sampling_logprobs  # noqa: E402
from trainer.rollout import Sampling, TransformersEngine  # noqa: E402


def _ids(engine, texts):
    return [engine.tokenizer(t)["input_ids"] for t in texts]


def _learner_logprobs(engine, model, comps, sampling):
    with torch.no_grad():
        out = response_logprobs(
            model,
            [c.prompt_token_ids for c in comps],
            [c.token_ids for c in comps],
            sampling.temperature,
            engine.tokenizer.pad_token_id,
            sampling.top_k,
            sampling.top_p,
        )
    return out.sequence


def test_engine_samples_n_per_prompt_with_logprobs(tiny_model_dir, toy_split):
    engine = TransformersEngine(str(tiny_model_dir))
    prompts = _ids(engine, [p["prompt"] for p in toy_split[0][:3]])
    groups = engine.generate(prompts, 4, Sampling(max_new_tokens=12), seed=0)
    assert [len(g) for g in groups] == [4, 4, 4]
    for prompt, group in zip(prompts, groups, strict=True):
        for c in group:
            assert c.prompt_token_ids == prompt
            assert 1 <= len(c.token_ids) <= 12
            assert len(c.token_logprobs) == len(c.token_ids)
            assert c.logprob <= 0
            assert c.logprob == pytest.approx(sum(c.token_logprobs))
            assert c.truncated == (c.token_ids[-1] != engine.tokenizer.eos_token_id)


@pytest.mark.parametrize(
    "sampling",
    [Sampling(1.0), Sampling(0.7), Sampling(1.0, top_p=0.8), Sampling(0.9, top_k=5, top_p=0.9)],
    ids=["t1", "t0.7", "top_p", "top_k_top_p"],
)
def test_learner_reproduces_engine_logprobs(tiny_model_dir, toy_split, sampling):
    engine = TransformersEngine(str(tiny_model_dir))
    # prompts of different lengths exercise the engine's left padding
    texts = [toy_split[0][0]["prompt"], toy_split[0][-1]["prompt"] + "# again\n"]
    sampling = Sampling(sampling.temperature, sampling.top_p, sampling.top_k, 10)
    comps = [c for g in engine.generate(_ids(engine, texts), 3, sampling, seed=1) for c in g]
    learner = _learner_logprobs(engine, engine.model, comps, sampling)
    engine_lp = torch.tensor([c.logprob for c in comps])
    assert torch.allclose(learner, engine_lp, atol=1e-3), (learner, engine_lp)


def test_sampling_logprobs_keep_the_nucleus():
    logits = torch.tensor([[3.0, 2.0, 1.0, 0.0, -1.0]])
    probs = torch.softmax(logits, -1)[0]
    lp = sampling_logprobs(logits, 1.0, top_p=0.9)[0]
    kept = int(torch.searchsorted(probs.cumsum(0), torch.tensor(0.9)).item()) + 1
    assert torch.isfinite(lp[:kept]).all() and torch.isinf(lp[kept:]).all()
    assert float(lp[:kept].exp().sum()) == pytest.approx(1.0)
    top2 = sampling_logprobs(logits, 2.0, top_k=2)[0]
    assert torch.isinf(top2[2:]).all()
    assert torch.allclose(top2[:2], torch.log_softmax(logits[0, :2] / 2.0, -1))


def test_stop_string_ends_text_and_tokens(tiny_model_dir, toy_split):
    engine = TransformersEngine(str(tiny_model_dir))
    prompts = _ids(engine, [p["prompt"] for p in toy_split[0][:2]])
    # the random model emits spaces often enough for one of 8 samples to stop on it
    groups = engine.generate(prompts, 4, Sampling(max_new_tokens=24, stop=(" ",)), seed=3)
    stopped = [c for g in groups for c in g if not c.truncated and " " not in c.text]
    assert stopped, "no sample hit the stop string"
    for c in (c for g in groups for c in g):
        assert " " not in c.text
        full = engine.tokenizer.decode(c.token_ids, skip_special_tokens=True)
        assert full.startswith(c.text)
        if c.finish_reason == "stop" and c.token_ids[-1] != engine.tokenizer.eos_token_id:
            assert " " in full  # the last token completed the stop string
            assert " " not in engine.tokenizer.decode(c.token_ids[:-1], skip_special_tokens=True)


def test_weight_sync_makes_engine_match_the_new_learner(tiny_model_dir, toy_split):
    from transformers import AutoModelForCausalLM

    engine = TransformersEngine(str(tiny_model_dir))
    learner = AutoModelForCausalLM.from_pretrained(str(tiny_model_dir), dtype=torch.float32)
    with torch.no_grad():
        for p in learner.parameters():
            p.add_(0.05 * torch.randn_like(p))
    prompts = _ids(engine, [p["prompt"] for p in toy_split[0][:2]])
    sampling = Sampling(max_new_tokens=10)
    comps = [c for g in engine.generate(prompts, 2, sampling, seed=2) for c in g]
    before = _learner_logprobs(engine, learner, comps, sampling)
    assert not torch.allclose(before, torch.tensor([c.logprob for c in comps]), atol=1e-3)

    engine.update_weights(LearnerWeights(learner))
    comps = [c for g in engine.generate(prompts, 2, sampling, seed=3) for c in g]
    after = _learner_logprobs(engine, learner, comps, sampling)
    assert torch.allclose(after, torch.tensor([c.logprob for c in comps]), atol=1e-3)
