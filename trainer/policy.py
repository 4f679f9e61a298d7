"""The learner's view of the policy: log-probs of given responses, token entropy, weight export.

``response_logprobs`` scores (prompt, response) token-id pairs under the learner's model with
the sampling distribution's processing (temperature, then top-k and top-p, renormalised: what
vLLM's ``processed_logprobs`` and transformers' processed scores give), returning per-token
log-probs shaped ``(N, T)`` with a response mask, so the OAPL sequence log-prob is
``(token_logprobs * mask).sum(-1)``.

``LearnerWeights`` is the learner's weights as an engine wants them: Hugging Face names,
full tensors (FSDP shards gathered), LoRA merged (W + B·A·α/r), in the engine's dtype, and
with every name of the state dict, the tied ``lm_head.weight`` included. vLLM re-processes
(on CPU: repacks) only the layers whose weights it is handed, so a tied head that receives no
tensor of its own keeps the old weights. ``save_weights`` writes such a stream to one
safetensors file that both engines reload.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch


@dataclass
class ResponseLogprobs:
    """Per-token learner log-probs, the response mask and the per-token entropy, (N, T) each."""

    token_logprobs: torch.Tensor
    mask: torch.Tensor
    entropy: torch.Tensor

    @property
    def sequence(self) -> torch.Tensor:
        """(N,) summed response log-probs, ln π(y|x)."""
        return (self.token_logprobs * self.mask).sum(-1)


def sampling_logprobs(
    logits: torch.Tensor, temperature: float, top_k: int = 0, top_p: float = 1.0
) -> torch.Tensor:
    """log_softmax of the processed logits: divided by the temperature, then top-k and top-p.

    logits: (..., V). Tokens outside the top-k / nucleus get -inf. The rules are vLLM's and
    transformers': top-k keeps logits ≥ the k-th largest; top-p drops, in ascending order, the
    tokens whose cumulative probability stays ≤ 1 − p, always keeping the most likely one.
    """
    scaled = logits.float() / temperature
    vocab = scaled.shape[-1]
    if (top_k <= 0 or top_k >= vocab) and top_p >= 1.0:
        return torch.log_softmax(scaled, dim=-1)
    ordered, order = scaled.sort(dim=-1, descending=False)
    if 0 < top_k < vocab:
        kth = ordered[..., vocab - top_k : vocab - top_k + 1]
        ordered = ordered.masked_fill(ordered < kth, float("-inf"))
    if top_p < 1.0:
        cumulative = ordered.softmax(dim=-1).cumsum(dim=-1)
        drop = cumulative <= 1 - top_p
        drop[..., -1] = False
        ordered = ordered.masked_fill(drop, float("-inf"))
    processed = torch.full_like(scaled, float("-inf")).scatter(-1, order, ordered)
    return torch.log_softmax(processed, dim=-1)


def response_logprobs(
    model: torch.nn.Module,
    prompts: list[list[int]],
    responses: list[list[int]],
    temperature: float,
    pad_id: int,
    top_k: int = 0,
    top_p: float = 1.0,
) -> ResponseLogprobs:
    """Score each response after its prompt; gradients flow into ``token_logprobs``.

    Sequences are right-padded, so positions are plain offsets and padding sits after every
    real token (a causal model never looks at it). Entropy is that of the processed
    distribution (0·log 0 counted as 0).
    """
    if len(prompts) != len(responses):
        raise ValueError("prompts and responses must pair up")
    device = next(model.parameters()).device
    lengths = [len(p) + len(r) for p, r in zip(prompts, responses, strict=True)]
    width = max(lengths)
    resp_width = max(1, max(len(r) for r in responses))
    ids = torch.full((len(prompts), width), pad_id, dtype=torch.long)
    attn = torch.zeros((len(prompts), width), dtype=torch.long)
    gather_pos = torch.zeros((len(prompts), resp_width), dtype=torch.long)
    targets = torch.full((len(prompts), resp_width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(prompts), resp_width))
    for i, (p, r) in enumerate(zip(prompts, responses, strict=True)):
        seq = p + r
        ids[i, : len(seq)] = torch.tensor(seq)
        attn[i, : len(seq)] = 1
        n = len(r)
        if n:
            # token p+j is predicted by the logits at position p+j-1
            gather_pos[i, :n] = torch.arange(len(p) - 1, len(p) - 1 + n)
            targets[i, :n] = torch.tensor(r)
            mask[i, :n] = 1.0
    ids, attn = ids.to(device), attn.to(device)
    gather_pos, targets, mask = gather_pos.to(device), targets.to(device), mask.to(device)
    logits = model(input_ids=ids, attention_mask=attn).logits  # (N, L, V)
    picked = logits.gather(1, gather_pos.unsqueeze(-1).expand(-1, -1, logits.shape[-1]))
    logp = sampling_logprobs(picked, temperature, top_k, top_p)  # (N, T, V), float32
    token_logprobs = logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1) * mask
    with torch.no_grad():
        probs = logp.exp()
        entropy = -(probs * logp.masked_fill(probs == 0, 0.0)).sum(-1) * mask
    return ResponseLogprobs(token_logprobs=token_logprobs, mask=mask, entropy=entropy)


def unwrap(model: torch.nn.Module) -> torch.nn.Module:
    """The module under a DDP wrapper (FSDP2 shards in place: nothing to unwrap)."""
    inner = getattr(model, "module", None)
    return inner if isinstance(inner, torch.nn.Module) else model


def _full(tensor: torch.Tensor) -> torch.Tensor:
    # an FSDP shard (DTensor) gathers itself: a collective every rank must join in order
    full_tensor = getattr(tensor, "full_tensor", None)
    return full_tensor() if callable(full_tensor) else tensor


class LearnerWeights:
    """The learner's weights in Hugging Face names, one full tensor at a time.

    ``metadata()`` names every tensor with its dtype and full shape without gathering; the
    iteration yields the same names in the same order. Under FSDP every rank must iterate.
    """

    def __init__(self, model: torch.nn.Module, dtype: torch.dtype | None = None) -> None:
        self._model = unwrap(model)
        self.dtype = dtype
        self._lora = hasattr(self._model, "peft_config")

    def _entries(self) -> Iterator[tuple[str, str, torch.Tensor]]:
        """(export name, state-dict name, tensor), LoRA factors skipped."""
        for key, tensor in self._model.state_dict(keep_vars=True).items():
            if not self._lora:
                yield key, key, tensor
                continue
            if ".lora_" in key or "lora_embedding" in key:
                continue
            name = key.removeprefix("base_model.model.").replace(".base_layer.", ".")
            yield name, key, tensor

    def metadata(self) -> list[tuple[str, torch.dtype, tuple[int, ...]]]:
        """(name, dtype, shape) of every tensor the iteration yields, in order."""
        return [
            (name, self.dtype or tensor.dtype, tuple(tensor.shape))
            for name, _, tensor in self._entries()
        ]

    def __iter__(self) -> Iterator[tuple[str, torch.Tensor]]:
        modules = dict(self._model.named_modules()) if self._lora else {}
        with torch.no_grad():
            for name, key, tensor in self._entries():
                full = _full(tensor.detach())
                if self._lora and key.endswith(".base_layer.weight"):
                    layer: Any = modules[key.removesuffix(".base_layer.weight")]
                    for adapter in layer.active_adapters:
                        full = full + layer.get_delta_weight(adapter).to(full.dtype)
                yield name, full.to(self.dtype or full.dtype).contiguous()

    def snapshot(self, device: str = "cpu") -> StoredWeights:
        """A copy of these weights (e.g. the engine's lagged weights, to restore after an eval)."""
        return StoredWeights([(name, t.to(device, copy=True)) for name, t in self])


class StoredWeights:
    """Weights held as a list of (name, tensor); the same interface as ``LearnerWeights``."""

    def __init__(self, items: list[tuple[str, torch.Tensor]]) -> None:
        self._items = items

    def metadata(self) -> list[tuple[str, torch.dtype, tuple[int, ...]]]:
        return [(name, t.dtype, tuple(t.shape)) for name, t in self._items]

    def __iter__(self) -> Iterator[tuple[str, torch.Tensor]]:
        return iter(self._items)


def save_weights(weights: LearnerWeights | StoredWeights, out_dir: Path) -> Path:
    """Write the stream to ``out_dir/model.safetensors`` (each tensor its own CPU copy, so
    tied names do not share storage, which safetensors refuses)."""
    from safetensors.torch import save_file

    out_dir.mkdir(parents=True, exist_ok=True)
    state = {name: t.to("cpu", copy=True).contiguous() for name, t in weights}
    path = out_dir / "model.safetensors"
    tmp = out_dir / "model.safetensors.tmp"
    save_file(state, str(tmp), metadata={"format": "pt"})
    tmp.replace(path)
    return path


def save_pretrained(model: torch.nn.Module, tokenizer: Any, out_dir: Path, is_main: bool) -> None:
    """A Hugging Face folder of the learner (LoRA merged, FSDP gathered) that vLLM serves.

    Every rank calls it (gathering FSDP shards is collective); the main rank writes.
    """
    weights = [(name, t.to("cpu", copy=True)) for name, t in LearnerWeights(model)]
    if not is_main:
        return
    inner: Any = unwrap(model)
    base = inner.get_base_model() if hasattr(inner, "get_base_model") else inner
    save_weights(StoredWeights(weights), out_dir)
    base.config.save_pretrained(out_dir)
    if getattr(base, "generation_config", None) is not None:
        base.generation_config.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
