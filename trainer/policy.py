"""The learner's view of the policy: log-probs of given responses, token entropy, weight export.

``response_logprobs`` scores (prompt, response) token-id pairs under the learner's model at a
sampling temperature, returning per-token log-probs shaped ``(N, T)`` with a response mask,
so the OAPL sequence log-prob is ``(token_logprobs * mask).sum(-1)``. ``save_weights`` writes
the learner's weights as one safetensors file that both engines reload.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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


def response_logprobs(
    model: torch.nn.Module,
    prompts: list[list[int]],
    responses: list[list[int]],
    temperature: float,
    pad_id: int,
) -> ResponseLogprobs:
    """Score each response after its prompt; gradients flow into ``token_logprobs``.

    Sequences are right-padded, so positions are plain offsets and padding sits after every
    real token (a causal model never looks at it).
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
    logp = torch.log_softmax(picked.float() / temperature, dim=-1)  # (N, T, V)
    token_logprobs = logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1) * mask
    with torch.no_grad():
        entropy = -(logp.exp() * logp).sum(-1) * mask
    return ResponseLogprobs(token_logprobs=token_logprobs, mask=mask, entropy=entropy)


def save_weights(model: torch.nn.Module, out_dir: Path) -> Path:
    """Write the model's weights to ``out_dir/model.safetensors`` (contiguous, on CPU)."""
    from safetensors.torch import save_file

    out_dir.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().to("cpu").contiguous() for k, v in model.state_dict().items()}
    path = out_dir / "model.safetensors"
    tmp = out_dir / "model.safetensors.tmp"
    save_file(state, str(tmp), metadata={"format": "pt"})
    tmp.replace(path)
    return path
