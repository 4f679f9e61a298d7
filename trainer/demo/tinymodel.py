"""Build a tiny random model and a BPE tokenizer locally (no model hub is reachable).

The tokenizer is byte-level BPE (the ``tokenizers`` library) trained on local text with
digits split one per token, so constants are copied digit by digit; it carries a small
ChatML-style chat template (``<|im_start|>role ... <|im_end|>``) for instruct-style runs.
The model is a Llama (the demo's: untied embeddings) or a Qwen2 (``tie_word_embeddings``
as small Qwen models have it, biases on q/k/v) with random weights and ``head_dim`` 64 (the
smallest vLLM's CPU attention accepts). ``build_tiny_model`` saves both into one folder
that transformers and vLLM load alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

BOS, EOS, PAD = "<|bos|>", "<|eos|>", "<|pad|>"
IM_START, IM_END = "<|im_start|>", "<|im_end|>"
CHAT_TEMPLATE = (
    "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n"
    "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def train_tokenizer(texts: Iterable[str], vocab_size: int = 256):  # type: ignore[no-untyped-def]
    """A ``PreTrainedTokenizerFast`` with byte-level BPE trained on ``texts``."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[PAD, BOS, EOS, IM_START, IM_END],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(list(texts), trainer=trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token=BOS, eos_token=EOS, pad_token=PAD, padding_side="left"
    )
    fast.chat_template = CHAT_TEMPLATE
    return fast


def build_tiny_model(
    out_dir: str | Path,
    texts: Iterable[str],
    hidden_size: int = 128,
    layers: int = 2,
    vocab_size: int = 320,
    seed: int = 0,
    architecture: str = "llama",
) -> Path:
    """Train the tokenizer, build a random model, save both to ``out_dir``; returns it.

    ``architecture``: "llama" (untied embeddings) or "qwen2" (tied, one KV head per two
    query heads when there are two or more).
    """
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = train_tokenizer(texts, vocab_size=vocab_size)
    head_dim = 64
    heads = hidden_size // head_dim
    common = {
        "vocab_size": len(tokenizer),
        "hidden_size": hidden_size,
        "intermediate_size": 2 * hidden_size,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "max_position_embeddings": 256,
        "bos_token_id": tokenizer.bos_token_id,
        "eos_token_id": tokenizer.eos_token_id,
        "pad_token_id": tokenizer.pad_token_id,
    }
    torch.manual_seed(seed)
    model: Any
    if architecture == "qwen2":
        config: Any = Qwen2Config(
            **common, num_key_value_heads=max(1, heads // 2), tie_word_embeddings=True
        )
        model = Qwen2ForCausalLM(config)
    elif architecture == "llama":
        config = LlamaConfig(
            **common, num_key_value_heads=heads, head_dim=head_dim, tie_word_embeddings=False
        )
        model = LlamaForCausalLM(config)
    else:
        raise ValueError(f"unknown architecture {architecture!r}")
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
