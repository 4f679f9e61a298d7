"""Prompt rendering: templates, the tokenizer's chat template with a system prompt, and the
prompt length limit (long prompts dropped, not cut)."""

from __future__ import annotations

import pytest

pytest.importorskip("transformers")

from trainer.problems import PromptRenderer


@pytest.fixture(scope="module")
def tokenizer(tied_qwen2_dir):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(tied_qwen2_dir)


def test_plain_template_is_tokenised_the_model_way(tokenizer):
    r = PromptRenderer(tokenizer, "Task:\n{prompt}")
    problem = {"id": "a", "prompt": "# add 1\n"}
    assert r.text(problem) == "Task:\n# add 1\n"
    assert r.ids(problem) == tokenizer("Task:\n# add 1\n")["input_ids"]


def test_chat_template_wraps_the_prompt_after_the_system_prompt(tokenizer):
    r = PromptRenderer(tokenizer, "{prompt}", chat_template=True, system_prompt="Write Python.")
    problem = {"id": "a", "prompt": "# add 1\n"}
    text = r.text(problem)
    assert text == (
        "<|im_start|>system\nWrite Python.<|im_end|>\n"
        "<|im_start|>user\n# add 1\n<|im_end|>\n<|im_start|>assistant\n"
    )
    ids = r.ids(problem)
    im_start = tokenizer.convert_tokens_to_ids("<|im_start|>")
    assert ids[0] == im_start and ids.count(im_start) == 3  # special tokens, no extra BOS
    assert tokenizer.decode(ids) == text


def test_chat_template_needs_one(tokenizer):
    from transformers import AutoTokenizer

    bare = AutoTokenizer.from_pretrained(tokenizer.name_or_path)
    bare.chat_template = None
    with pytest.raises(ValueError, match="no chat template"):
        PromptRenderer(bare, chat_template=True)


def test_prompts_over_the_limit_are_dropped(tokenizer):
    r = PromptRenderer(tokenizer, max_prompt_tokens=8)
    short, long = {"id": "s", "prompt": "ab"}, {"id": "l", "prompt": "a b c d e f g h i j k"}
    kept, dropped = r.fitting([short, long])
    assert kept == [short] and dropped == 1
    assert PromptRenderer(tokenizer).fitting([short, long]) == ([short, long], 0)
