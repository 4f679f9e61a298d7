"""Shared fixtures for the trainer tests: a tiny Llama and tokenizer built locally."""

from __future__ import annotations

import os
from pathlib import Path

# One OpenMP thread per torch thread: several times faster on a busy 2-core machine. Read
# when torch loads, so it must be set before any test module imports torch.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import pytest


@pytest.fixture(scope="session")
def toy_split() -> tuple[list[dict], list[dict]]:
    from trainer.demo import toyproblems

    return toyproblems.make_split(seed=0, k_max=9)


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory, toy_split) -> Path:
    """A random tiny Llama (head_dim 64, untied embeddings) with a BPE tokenizer."""
    pytest.importorskip("torch")
    from trainer.demo.tinymodel import build_tiny_model

    train, heldout = toy_split
    texts = [p["prompt"] + p["reference"] for p in train + heldout]
    return build_tiny_model(tmp_path_factory.mktemp("tiny"), texts, hidden_size=64, layers=1)


@pytest.fixture(scope="session")
def tied_qwen2_dir(tmp_path_factory, toy_split) -> Path:
    """A random tiny Qwen2 with tie_word_embeddings = true (2 layers, hidden 128)."""
    pytest.importorskip("torch")
    from trainer.demo.tinymodel import build_tiny_model

    train, heldout = toy_split
    texts = [p["prompt"] + p["reference"] for p in train + heldout]
    return build_tiny_model(
        tmp_path_factory.mktemp("qwen2"), texts, hidden_size=128, layers=2, architecture="qwen2"
    )
