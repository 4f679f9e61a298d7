"""Build a tiny Llama and a BPE tokenizer locally (no model hub is reachable).

The tokenizer is byte-level BPE trained on local text with digits split one per token, so
constants are copied digit by digit. The model is a ``LlamaConfig`` with random weights,
``head_dim`` 64 (the smallest vLLM's CPU attention accepts) and untied embeddings (vLLM's
weight reload leaves a tied output head stale). ``build_tiny_model`` saves both into one
folder that transformers and vLLM load alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

BOS, EOS, PAD = "<|bos|>", "<|eos|>", "<|pad|>"


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
        special_tokens=[PAD, BOS, EOS],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(list(texts), trainer=trainer)
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token=BOS, eos_token=EOS, pad_token=PAD, padding_side="left"
    )


def build_tiny_model(
    out_dir: str | Path,
    texts: Iterable[str],
    hidden_size: int = 128,
    layers: int = 2,
    vocab_size: int = 320,
    seed: int = 0,
) -> Path:
    """Train the tokenizer, build a random Llama, save both to ``out_dir``; returns it."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = train_tokenizer(texts, vocab_size=vocab_size)
    head_dim = 64
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden_size,
        intermediate_size=2 * hidden_size,
        num_hidden_layers=layers,
        num_attention_heads=hidden_size // head_dim,
        num_key_value_heads=hidden_size // head_dim,
        head_dim=head_dim,
        max_position_embeddings=256,
        tie_word_embeddings=False,
        bos_token_id=tokenizer.bos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config)
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out
