"""The experiment protocol's typed config: TOML in, unknown keys rejected, no torch.

One file describes a whole comparison: the task, the warm start, the budget every arm
gets, the evaluation, the validation sweep and the arms. ``codereward experiment CONFIG``
reads it (``--set key.sub=value`` overrides as for ``codereward train``) and writes the
resolved copy into the output folder.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from trainer.config import parse_override

RewardArm = Literal["static", "similarity", "preset-easy", "preset-hard"]
REWARD_ARMS: list[RewardArm] = ["static", "similarity", "preset-easy", "preset-hard"]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TaskConfig(_Section):
    """How the toy task's (family, constants) pairs are dealt (``trainer.experiment.task``)."""

    seed: int = Field(0, description="Seed of the deal and of the problems' tests.")
    heldout_per_family: int = Field(4, ge=1, description="Held-out problems per family.")
    validation_per_family: int = Field(2, ge=1, description="Validation problems per family.")
    train_per_family: int = Field(24, ge=1, description="Training problems per family.")


class ModelConfig(_Section):
    """The tiny Llama and tokenizer built locally (``trainer.demo.tinymodel``)."""

    hidden_size: int = Field(128, ge=64, description="Hidden size (head_dim is 64).")
    layers: int = Field(2, ge=1, description="Decoder layers.")
    vocab_size: int = Field(320, ge=280, description="BPE vocabulary the tokenizer trains to.")


class WarmStartConfig(_Section):
    """The supervised warm start every arm starts from (noisy on purpose)."""

    steps: int = Field(250, ge=1, description="Supervised steps.")
    examples: int = Field(6000, ge=1, description="(prompt, solution) pairs drawn.")
    wrong_constant: float = Field(
        0.5, ge=0, le=1, description="Share of solutions with a wrong constant."
    )
    wrong_family: float = Field(
        0.2, ge=0, le=1, description="Share of solutions with another family's operator."
    )
    lr: float = Field(3e-3, gt=0, description="AdamW learning rate of the warm start.")


class BudgetConfig(_Section):
    """What every arm gets: steps × groups_per_step × group_size generations."""

    steps: int = Field(120, ge=2, description="Learner steps per arm.")
    groups_per_step: int = Field(4, ge=1, description="B: prompts (groups) per step.")
    group_size: int = Field(8, ge=2, description="G: completions per prompt.")
    max_new_tokens: int = Field(40, ge=8, description="Response length limit, tokens.")
    temperature: float = Field(1.0, gt=0, description="Sampling temperature (eval too).")

    @property
    def generations(self) -> int:
        """Generations per arm."""
        return self.steps * self.groups_per_step * self.group_size


class EvalPlanConfig(_Section):
    """Held-out (and validation) pass@k from the learner's weights during training."""

    every_steps: int = Field(20, ge=1, description="Evaluate every N learner steps.")
    samples_per_problem: int = Field(16, ge=1, description="n per problem.")
    ks: list[int] = Field(default_factory=lambda: [1, 4, 16], description="k values.")
    confidence: float = Field(0.95, gt=0, lt=1, description="Two-sided t-interval level.")


class SweepConfig(_Section):
    """The validation sweep: lr and β₁ = β₂ for OAPL, lr for GRPO; never the held-out set."""

    lrs: list[float] = Field(
        default_factory=lambda: [1e-4, 3e-4], description="Learning rates tried (both losses)."
    )
    betas: list[float] = Field(
        default_factory=lambda: [0.25, 1.0], description="OAPL β₁ = β₂ values tried."
    )
    steps: int = Field(60, ge=1, description="Learner steps of each sweep run.")
    seed: int = Field(100, description="Seed of the sweep runs (not one of the paired seeds).")
    oapl_lag: int = Field(10, ge=1, description="Sync interval the OAPL sweep runs use.")


class ArmsConfig(_Section):
    """Which arms run (each with every seed)."""

    grpo_lag: int = Field(
        1, ge=1, description="GRPO's sync interval (1: on-policy; its IS ratio corrects more)."
    )
    oapl_lags: list[int] = Field(
        default_factory=lambda: [1, 10, 50], description="OAPL sync intervals L, in steps."
    )
    offline: bool = Field(
        True, description="Offline OAPL on a dataset of warm-start completions scored once."
    )
    offline_online: bool = Field(
        True, description="Offline OAPL on part of the budget, then online OAPL on the rest."
    )
    offline_share: float = Field(
        0.5, gt=0, lt=1, description="Budget share of the offline phase in offline-online."
    )
    online_lag: int = Field(
        10, ge=1, description="Sync interval of online phases and of the reward arms."
    )
    rewards: list[RewardArm] = Field(
        default_factory=lambda: list(REWARD_ARMS),
        description="Reward arms (OAPL at online_lag); execution is the OAPL arm at that lag.",
    )


class ExperimentConfig(_Section):
    """The whole protocol; one TOML file with these sections."""

    name: str = Field("experiment", description="Report name: <report_dir>/<name>.md, ...")
    out_dir: str = Field("runs/experiments", description="Run folders and intermediate data.")
    report_dir: str = Field("docs/experiments", description="Report, raw JSON and PNGs.")
    seeds: list[int] = Field(
        default_factory=lambda: [0, 1, 2],
        min_length=2,
        description="Paired seeds: every arm runs each (prompts, sampling, eval noise).",
    )
    jobs: int = Field(1, ge=1, description="Runs in parallel processes.")
    determinism_check: bool = Field(
        True, description="Rerun the first arm's first seed and compare every number."
    )
    target_pass1: float | None = Field(
        None,
        gt=0,
        lt=1,
        description="pass@1 whose generation cost is reported per arm; None: halfway from "
        "the warm start to the best arm's final mean.",
    )
    task: TaskConfig = Field(default_factory=TaskConfig)
    model: ModelConfig = Field(default_factory=ModelConfig)
    warm_start: WarmStartConfig = Field(default_factory=WarmStartConfig)
    budget: BudgetConfig = Field(default_factory=BudgetConfig)
    eval: EvalPlanConfig = Field(default_factory=EvalPlanConfig)
    sweep: SweepConfig = Field(default_factory=SweepConfig)
    arms: ArmsConfig = Field(default_factory=ArmsConfig)

    @model_validator(mode="after")
    def _fits(self) -> ExperimentConfig:
        if len(set(self.seeds)) != len(self.seeds):
            raise ValueError("seeds must differ")
        if any(k > self.eval.samples_per_problem for k in self.eval.ks):
            raise ValueError("every k must be <= eval.samples_per_problem")
        half = round(self.budget.steps * self.arms.offline_share)
        if self.arms.offline_online and not 0 < half < self.budget.steps:
            raise ValueError("arms.offline_share leaves no offline or no online step")
        return self


def load_experiment(path: str | Path, overrides: list[str] | None = None) -> ExperimentConfig:
    """Read TOML, apply ``key.sub=value`` overrides, validate."""
    with open(path, "rb") as fh:
        data: dict[str, Any] = tomllib.load(fh)
    for item in overrides or []:
        keys, value = parse_override(item)
        node = data
        for key in keys[:-1]:
            node = node.setdefault(key, {})
        node[keys[-1]] = value
    return ExperimentConfig.model_validate(data)
