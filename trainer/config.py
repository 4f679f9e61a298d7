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
    """Where the run writes and how long it lasts."""

    out_dir: str = Field("runs/train", description="Run folder: config, metrics, checkpoints.")
    steps: int = Field(100, ge=0, description="Learner steps (optimizer updates) to run.")
    seed: int = Field(0, description="Seed for torch, the sampler and prompt order.")
    resume: bool = Field(True, description="Resume from the latest checkpoint in out_dir if any.")
    device: str = Field("cpu", description="Learner device: 'cpu' or 'cuda'.")
    dtype: Literal["float32", "bfloat16"] = Field("float32", description="Learner weights dtype.")
    torch_threads: int | None = Field(
        None, ge=1, description="torch intra-op threads (1 is fastest on a busy shared CPU)."
    )


class ModelConfig(_Section):
    """The starting policy: a local Hugging Face folder with weights and tokenizer."""

    path: str = Field(description="Folder with config.json, weights and tokenizer files.")


class DataConfig(_Section):
    """Problems to train and evaluate on (CONTRACT problem JSONL)."""

    problems: str = Field(description="Training problems JSONL; each needs a 'prompt'.")
    heldout: str | None = Field(None, description="Held-out problems JSONL for pass@k at syncs.")
    offline: str | None = Field(
        None,
        description="Offline mode: JSONL of {problem_id, completion[, reward, behavior_logprob]}; "
        "no rollouts; missing rewards come from the reward source, missing behaviour "
        "log-probs from the starting model.",
    )
    prompt_template: str = Field(
        "{prompt}", description="Format string turning a problem's prompt into model input."
    )


class RolloutConfig(_Section):
    """The inference engine that samples completions with lagged weights."""

    engine: Literal["transformers", "vllm"] = Field("transformers", description="Engine kind.")
    group_size: int = Field(8, ge=2, description="G: completions sampled per prompt.")
    prompts_per_batch: int = Field(8, ge=1, description="Prompts sent to the engine at once.")
    temperature: float = Field(1.0, gt=0, description="Sampling temperature; log-probs use it too.")
    max_new_tokens: int = Field(64, ge=1, description="Completion length cap, tokens.")
    tensor_parallel_size: int = Field(1, ge=1, description="vLLM tensor parallelism.")
    gpu_memory_utilization: float = Field(
        0.1, gt=0, le=1, description="vLLM memory fraction (on CPU it sizes the KV cache)."
    )
    max_model_len: int | None = Field(
        None, ge=16, description="vLLM context length (default: the model's)."
    )
    sync_check_samples: int = Field(
        4, ge=0, description="Samples re-scored by the learner after each sync to verify it."
    )
    sync_check_tolerance: float = Field(
        1e-2,
        gt=0,
        description="Max per-token |learner − engine| log-prob gap after a sync "
        "(fp32 agrees to ~1e-5; raise it for bf16).",
    )


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
    lr: float = Field(1e-6, gt=0, description="AdamW learning rate.")
    weight_decay: float = Field(0.0, ge=0, description="AdamW weight decay.")
    grad_clip: float = Field(1.0, gt=0, description="Max global gradient norm.")
    groups_per_step: int = Field(8, ge=1, description="B: groups in one learner step.")
    micro_batch_groups: int | None = Field(
        None, ge=1, description="Groups per forward/backward pass (default: all B at once)."
    )
    min_fresh_groups: int = Field(
        1, ge=0, description="New groups a step waits for; the rest may be reused from the buffer."
    )
    sync_every_steps: int = Field(
        50, ge=0, description="L: push learner weights to the engine every L steps (0: never)."
    )


class EvalConfig(_Section):
    """Unbiased pass@k on held-out problems at each sync."""

    samples_per_problem: int = Field(16, ge=1, description="n: completions per held-out problem.")
    ks: list[int] = Field(default_factory=lambda: [1, 4], description="k values for pass@k.")
    temperature: float = Field(1.0, gt=0, description="Sampling temperature for evaluation.")
    at_start: bool = Field(True, description="Also evaluate before the first step.")

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


class TrainConfig(_Section):
    """The whole run; one TOML file with these sections."""

    run: RunConfig = Field(default_factory=RunConfig)
    model: ModelConfig
    data: DataConfig
    rollout: RolloutConfig = Field(default_factory=RolloutConfig)
    reward: RewardConfig = Field(default_factory=RewardConfig)
    algo: AlgoConfig = Field(default_factory=AlgoConfig)
    eval: EvalConfig = Field(default_factory=EvalConfig)
    log: LogConfig = Field(default_factory=LogConfig)
    checkpoint: CheckpointConfig = Field(default_factory=CheckpointConfig)

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
