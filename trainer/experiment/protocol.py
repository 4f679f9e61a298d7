"""The experiment protocol, top to bottom: task → warm start → sweep → arms × seeds → report.

1. ``prepare``: the toy task's train / validation / held-out problems
   (``trainer.experiment.task``), a tiny Llama and tokenizer, and one supervised warm start
   that every arm starts from.
2. ``baseline``: held-out pass@k of the warm start for each seed (a zero-step run: the same
   evaluation, with the same seed, that every arm's later points use).
3. ``sweep``: lr and β₁ = β₂ for OAPL, lr for GRPO, scored by pass@1 on the validation
   problems (one seed of its own, never a paired seed, never the held-out problems). The
   arms take the winners: OAPL's for every OAPL arm, GRPO's for GRPO.
4. ``datasets``: for each seed, the offline dataset: the completions the warm start samples
   for the prompts of every step (the prompts and sampling seeds an online run draws),
   scored once by the verifier; its generation and verification are that arm's cost.
5. ``arms``: every arm × every seed, each a ``codereward train`` run in its own process
   (``jobs`` at a time) in the deterministic mode (``rollout.synchronous``: every step
   samples exactly B·G completions), so every online arm uses the same generations;
   offline-online chains an offline run on the first share of the dataset and an online
   run from its final weights. With ``determinism_check`` the first arm's first seed runs
   twice and every logged number is compared.
6. ``collect`` and ``report``: per arm, per seed, the evaluation curve against generations
   and steps, training entropy, KL to the warm start and the cost counters; t-intervals
   over seeds (``trainer.experiment.intervals``); ``trainer.experiment.report`` writes
   the Markdown, the raw JSON and the PNGs.

Arms (names as in the report):

- ``grpo``: GRPO with the IS ratio against the engine's log-probs, sync every
  ``arms.grpo_lag`` steps;
- ``oapl-lag{L}``: OAPL with the engine L steps behind at most;
- ``offline``: OAPL on the offline dataset, no engine but for evaluation, no sync;
- ``offline-online``: offline OAPL on ``offline_share`` of the budget, then online OAPL;
- ``reward-{name}``: OAPL at ``arms.online_lag`` trained on another reward (static score
  alone, similarity alone, the ``easy`` and ``hard`` presets); ``execution`` (all tests
  pass, no hack gate) is the reward of every other arm. Held-out pass@k always counts
  accepted samples (all tests pass), whatever the arm trained on.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trainer.config import TrainConfig
from trainer.experiment import task
from trainer.experiment.config import ExperimentConfig
from trainer.problems import read_jsonl, write_jsonl

log = logging.getLogger("experiment")

REWARD_SETTINGS: dict[str, dict[str, Any]] = {
    # execution alone: 1 when every test passes; no hack gate (no semgrep scan per sample)
    "execution": {"preset": "default", "hack_gate": False},
    "static": {"preset": "default", "hack_gate": False, "static": True, "static_weight": 1.0},
    "similarity": {"preset": "default", "hack_gate": False, "similarity_weight": 1.0},
    "preset-easy": {"preset": "easy"},
    "preset-hard": {"preset": "hard"},
}
# metric keys that measure time, not what was learned: left out of the determinism check
_TIMED = ("time/", "throughput/", "reward/latency_s")


@dataclass(frozen=True)
class Arm:
    """One way of training, run once per seed."""

    name: str
    loss: str
    kind: str  # "online", "offline" or "offline-online"
    lag: int  # sync interval of the online part (0: none)
    reward: str  # a key of REWARD_SETTINGS
    group: str  # "algorithm" or "reward": the report's table


@dataclass
class Paths:
    """Where the protocol keeps its files under ``out_dir``."""

    root: Path
    data: Path = field(init=False)
    init: Path = field(init=False)
    warm: Path = field(init=False)

    def __post_init__(self) -> None:
        self.data = self.root / "data"
        self.init = self.root / "init"
        self.warm = self.root / "warm"

    def run(self, *parts: str) -> Path:
        return self.root.joinpath("runs", *parts)


def arms(cfg: ExperimentConfig) -> list[Arm]:
    """Every arm the config asks for, in report order."""
    a = cfg.arms
    out = [Arm("grpo", "grpo", "online", a.grpo_lag, "execution", "algorithm")]
    out += [
        Arm(f"oapl-lag{lag}", "oapl", "online", lag, "execution", "algorithm")
        for lag in a.oapl_lags
    ]
    if a.offline:
        out.append(Arm("offline", "oapl", "offline", 0, "execution", "algorithm"))
    if a.offline_online:
        out.append(
            Arm("offline-online", "oapl", "offline-online", a.online_lag, "execution", "algorithm")
        )
    out += [Arm(f"reward-{r}", "oapl", "online", a.online_lag, r, "reward") for r in a.rewards]
    return out  # fmt: skip


def train_config(
    cfg: ExperimentConfig,
    paths: Paths,
    out_dir: Path,
    seed: int,
    *,
    loss: str,
    lag: int,
    lr: float,
    beta: float,
    steps: int,
    reward: str = "execution",
    heldout: str = "heldout",
    model: Path | None = None,
    offline: Path | None = None,
    eval_every: int | None = None,
    at_start: bool = False,
) -> TrainConfig:
    """The ``codereward train`` config of one run of the protocol."""
    b, ev = cfg.budget, cfg.eval
    return TrainConfig.model_validate(
        {
            "run": {"out_dir": str(out_dir), "steps": steps, "seed": seed, "resume": False,
                    "torch_threads": 1},
            "model": {"path": str(model or paths.warm)},
            "data": {
                "problems": str(paths.data / "train.jsonl"),
                "heldout": str(paths.data / f"{heldout}.jsonl"),
                **({"offline": str(offline)} if offline else {}),
            },
            "rollout": {
                "engine": "transformers",
                "synchronous": offline is None,
                "group_size": b.group_size,
                "prompts_per_batch": b.groups_per_step,
                "temperature": b.temperature,
                "max_new_tokens": b.max_new_tokens,
                "sync_check_samples": 2,
            },
            "reward": {"source": "local", "reward_settings": REWARD_SETTINGS[reward]},
            "algo": {
                "loss": loss,
                "beta_value": beta,
                "beta_kl": beta,
                "groups_per_step": b.groups_per_step,
                "sync_every_steps": lag,
            },
            "optim": {"lr": lr, "schedule": "constant", "warmup_steps": 0},
            "eval": {
                "every_steps": ev.every_steps if eval_every is None else eval_every,
                "samples_per_problem": ev.samples_per_problem,
                "ks": ev.ks,
                "temperature": b.temperature,
                "at_start": at_start,
                "group_by": "difficulty",
                "kl_reference": str(paths.warm),
            },
            "log": {"tensorboard": False},
            "checkpoint": {"every_steps": 0, "keep": 1},
        }
    )  # fmt: skip


# -- 1. prepare ---------------------------------------------------------------------------
def prepare(cfg: ExperimentConfig, paths: Paths) -> dict[str, Any]:
    """Problems, tiny model and warm start; returns the task's sizes."""
    from trainer.demo.tinymodel import build_tiny_model
    from trainer.demo.warmstart import warm_start

    t = cfg.task
    splits = task.make_splits(
        t.seed, t.heldout_per_family, t.validation_per_family, t.train_per_family
    )
    paths.data.mkdir(parents=True, exist_ok=True)
    for name in ("train", "validation", "heldout"):
        write_jsonl(paths.data / f"{name}.jsonl", getattr(splits, name))
    m, w = cfg.model, cfg.warm_start
    init = build_tiny_model(
        paths.init, task.texts(splits), m.hidden_size, m.layers, m.vocab_size, seed=t.seed
    )
    examples = task.warm_start_examples(
        splits.train, w.examples, w.wrong_constant, w.wrong_family, seed=t.seed
    )
    _, losses = warm_start(init, paths.warm, examples, steps=w.steps, lr=w.lr, seed=t.seed)
    return {
        "train": len(splits.train),
        "validation": len(splits.validation),
        "heldout": len(splits.heldout),
        "families": {"easy": list(task.EASY), "hard": list(task.HARD)},
        "warm_start_final_loss": losses[-1],
    }


# -- running codereward train in processes ------------------------------------------------
def run_chain(configs: list[TrainConfig]) -> None:
    """Run configs one after another, each in its own ``python -m trainer train`` process."""
    for tc in configs:
        out = Path(tc.run.out_dir)
        out.mkdir(parents=True, exist_ok=True)
        path = out / "input.toml"
        path.write_text(tc.resolved_toml())
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        with open(out / "log.txt", "w") as fh:
            proc = subprocess.run(
                [sys.executable, "-m", "trainer", "train", str(path)],
                stdout=fh,
                stderr=subprocess.STDOUT,
                env=env,
                check=False,
            )
        if proc.returncode != 0:
            tail = (out / "log.txt").read_text()[-3000:]
            raise RuntimeError(f"run {out} failed with status {proc.returncode}:\n{tail}")


def run_all(chains: list[list[TrainConfig]], jobs: int) -> None:
    """Every chain, ``jobs`` at a time; the first failure stops the protocol."""
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for future in [pool.submit(run_chain, chain) for chain in chains]:
            future.result()


# -- 4. offline datasets ------------------------------------------------------------------
def make_dataset(cfg: ExperimentConfig, paths: Paths, seed: int) -> dict[str, float]:
    """The warm start's completions for every step's prompts, scored once; returns its cost.

    Row t·B..: the prompts and sampling seed of step t of an online run (``rollout_step``
    with the warm start's weights), so the dataset is what an engine that never syncs
    would have sampled. Writes ``datasets/seed{seed}.jsonl``.
    """
    import random

    import torch

    from trainer.cost import MeteredRewards
    from trainer.problems import PromptRenderer
    from trainer.rewards import LocalRewards
    from trainer.rollout import Sampling, TransformersEngine
    from trainer.train import rollout_step

    tc = train_config(
        cfg, paths, paths.run("unused"), seed, loss="oapl", lag=0, lr=1.0, beta=1.0,
        steps=cfg.budget.steps,
    )  # fmt: skip
    random.seed(seed)
    torch.manual_seed(seed)
    engine = TransformersEngine(str(paths.warm))
    renderer = PromptRenderer(engine.tokenizer)
    rewards = MeteredRewards(LocalRewards(REWARD_SETTINGS["execution"]))
    problems = read_jsonl(paths.data / "train.jsonl")
    ro = tc.rollout
    sampling = Sampling(ro.temperature, ro.top_p, ro.top_k, ro.max_new_tokens, tuple(ro.stop))
    rows: list[dict[str, Any]] = []
    generate_s = generations = 0.0
    for step in range(cfg.budget.steps):
        groups, stats = rollout_step(tc, engine, rewards, problems, renderer, sampling, seed,
                                     step, 0)  # fmt: skip
        generate_s += stats["time/generate"]
        generations += stats["rollout/samples"]
        for g in groups:
            for c, r, acc in zip(g.completions, g.rewards, g.accepted, strict=True):
                rows.append({
                    "problem_id": g.problem["id"], "completion": c.text, "reward": r,
                    "accepted": acc, "prompt_token_ids": c.prompt_token_ids,
                    "token_ids": c.token_ids, "token_logprobs": c.token_logprobs,
                    "finish_reason": c.finish_reason, "step": step,
                })  # fmt: skip
    rewards.close()
    engine.close()
    out = paths.root / "datasets"
    out.mkdir(parents=True, exist_ok=True)
    write_jsonl(out / f"seed{seed}.jsonl", rows)
    accepted = sum(r["accepted"] for r in rows) / max(len(rows), 1)
    return {
        "generations": generations,
        "generate_s": generate_s,
        "rows": float(len(rows)),
        "accepted_share": accepted,
        **rewards.totals("verifier"),
    }


def dataset_part(paths: Paths, seed: int, steps: int) -> Path:
    """The rows of the first ``steps`` steps of a seed's dataset, as their own file."""
    rows = [
        r for r in read_jsonl(paths.root / "datasets" / f"seed{seed}.jsonl") if r["step"] < steps
    ]
    out = paths.root / "datasets" / f"seed{seed}-first{steps}.jsonl"
    write_jsonl(out, rows)
    return out  # fmt: skip


# -- 6. collect ---------------------------------------------------------------------------
def read_run(out_dir: Path) -> dict[str, Any]:
    """A run's evaluations, training entropy per step and cost."""
    rows = [json.loads(x) for x in (out_dir / "metrics.jsonl").read_text().splitlines() if x]
    evals = [r for r in rows if "pass@1" in r]
    steps = [r for r in rows if "loss" in r]
    return {
        "evals": evals,
        "entropy": [[r["step"], r["entropy/token"]] for r in steps],
        "reward": [[r["step"], r["reward/mean"]] for r in steps],
        "cost": json.loads((out_dir / "cost.json").read_text()),
    }


def _learned(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if not k.startswith(_TIMED)} for r in rows]


def compare_runs(a: Path, b: Path) -> dict[str, Any]:
    """Whether two runs logged the same numbers (time keys aside); the first differences."""
    ra = _learned([json.loads(x) for x in (a / "metrics.jsonl").read_text().splitlines() if x])
    rb = _learned([json.loads(x) for x in (b / "metrics.jsonl").read_text().splitlines() if x])
    diffs: list[str] = []
    if len(ra) != len(rb):
        diffs.append(f"{len(ra)} rows against {len(rb)}")
    for x, y in zip(ra, rb, strict=False):
        for key in sorted(set(x) | set(y)):
            if x.get(key) != y.get(key):
                diffs.append(f"step {x.get('step')} {key}: {x.get(key)!r} != {y.get(key)!r}")
    ca, cb = (json.loads((p / "cost.json").read_text()) for p in (a, b))
    for key in ("generations", "verifier/samples", "verifier/calls", "steps"):
        if ca[key] != cb[key]:
            diffs.append(f"cost {key}: {ca[key]} != {cb[key]}")
    return {"identical": not diffs, "rows": len(ra), "differences": diffs[:10]}


def rewrite_report(cfg: ExperimentConfig) -> dict[str, Path]:
    """The report again from its raw JSON (summaries recomputed; no run repeated)."""
    from trainer.experiment import report

    folder = Path(cfg.report_dir)
    raw = json.loads((folder / f"{cfg.name}.json").read_text())
    raw["summary"] = report.summarise(raw)
    return report.write(raw, folder)


# -- the spine ----------------------------------------------------------------------------
def run_protocol(cfg: ExperimentConfig, command: str) -> dict[str, Any]:
    """Run the whole protocol; write the report; return the raw results."""
    from trainer.experiment import report

    t_start = time.perf_counter()
    paths = Paths(Path(cfg.out_dir))
    paths.root.mkdir(parents=True, exist_ok=True)
    (paths.root / "experiment.json").write_text(cfg.model_dump_json(indent=1))
    timings: dict[str, float] = {}

    # 1. task, model, warm start
    t0 = time.perf_counter()
    sizes = prepare(cfg, paths)
    timings["prepare_s"] = time.perf_counter() - t0
    log.info("task %s", sizes)

    # 2 + 3. warm-start evaluation per seed and the validation sweep, in parallel
    t0 = time.perf_counter()
    b, sw = cfg.budget, cfg.sweep
    baseline = [
        [train_config(cfg, paths, paths.run("warm", f"seed{s}"), s, loss="oapl", lag=0,
                      lr=1.0, beta=1.0, steps=0, at_start=True)]
        for s in cfg.seeds
    ]  # fmt: skip
    sweep_runs: dict[str, dict[str, Any]] = {}
    for lr in sw.lrs:
        for beta in sw.betas:
            sweep_runs[f"oapl-lr{lr:g}-beta{beta:g}"] = {"loss": "oapl", "lr": lr, "beta": beta}
        sweep_runs[f"grpo-lr{lr:g}"] = {"loss": "grpo", "lr": lr, "beta": 1.0}
    sweep_chains = [
        [train_config(cfg, paths, paths.run("sweep", name), sw.seed, loss=p["loss"],
                      lag=sw.oapl_lag if p["loss"] == "oapl" else cfg.arms.grpo_lag,
                      lr=p["lr"], beta=p["beta"], steps=sw.steps, heldout="validation",
                      eval_every=0)]
        for name, p in sweep_runs.items()
    ]  # fmt: skip
    run_all(baseline + sweep_chains, cfg.jobs)
    for name, p in sweep_runs.items():
        p["validation"] = read_run(paths.run("sweep", name))["evals"][-1]
    chosen = {
        loss: max(
            (p for p in sweep_runs.values() if p["loss"] == loss),
            key=lambda p: p["validation"]["pass@1"],
        )
        for loss in ("oapl", "grpo")
    }
    timings["baseline_and_sweep_s"] = time.perf_counter() - t0
    log.info("sweep chose %s", {k: (v["lr"], v["beta"]) for k, v in chosen.items()})

    # 4. offline datasets (one per seed), scored once
    t0 = time.perf_counter()
    arm_list = arms(cfg)
    needs_data = any(a.kind != "online" for a in arm_list)
    datasets = {s: make_dataset(cfg, paths, s) for s in cfg.seeds} if needs_data else {}
    timings["datasets_s"] = time.perf_counter() - t0

    # 5. arms × seeds
    t0 = time.perf_counter()
    half = round(b.steps * cfg.arms.offline_share)
    chains: list[list[TrainConfig]] = []
    for arm in arm_list:
        hp = chosen[arm.loss]
        for s in cfg.seeds:
            common = {"loss": arm.loss, "lr": hp["lr"], "beta": hp["beta"], "reward": arm.reward}
            out = paths.run(arm.name, f"seed{s}")
            if arm.kind == "online":
                chains.append(
                    [train_config(cfg, paths, out, s, lag=arm.lag, steps=b.steps, **common)]
                )
            elif arm.kind == "offline":
                data = paths.root / "datasets" / f"seed{s}.jsonl"
                chains.append(
                    [train_config(cfg, paths, out, s, lag=0, steps=b.steps, offline=data, **common)]
                )
            else:
                data = dataset_part(paths, s, half)
                chains.append([
                    train_config(cfg, paths, out / "offline", s, lag=0, steps=half, offline=data, **common),
                    train_config(cfg, paths, out / "online", s, lag=arm.lag, steps=b.steps - half,
                                 model=out / "offline" / "final", **common),
                ])  # fmt: skip
    if cfg.determinism_check:
        first = chains[0][0].model_copy(deep=True)
        first.run.out_dir = str(paths.run("determinism", "rerun"))
        chains.append([first])
    run_all(chains, cfg.jobs)
    timings["arms_s"] = time.perf_counter() - t0

    # 6. collect and report
    determinism = (
        compare_runs(Path(chains[0][0].run.out_dir), paths.run("determinism", "rerun"))
        if cfg.determinism_check
        else None
    )
    runs: dict[str, dict[str, Any]] = {}
    for arm in arm_list:
        runs[arm.name] = {}
        for s in cfg.seeds:
            out = paths.run(arm.name, f"seed{s}")
            if arm.kind == "offline-online":
                runs[arm.name][str(s)] = {
                    "phases": [read_run(out / "offline"), read_run(out / "online")]
                }
            else:
                runs[arm.name][str(s)] = read_run(out)
    warm = {str(s): read_run(paths.run("warm", f"seed{s}"))["evals"][0] for s in cfg.seeds}
    timings["total_s"] = time.perf_counter() - t_start
    raw = {
        "name": cfg.name,
        "command": command,
        "config": cfg.model_dump(mode="json"),
        "task": sizes,
        "generations_per_arm": b.generations,
        "sweep": sweep_runs,
        "chosen": {k: {"lr": v["lr"], "beta": v["beta"]} for k, v in chosen.items()},
        "arms": [a.__dict__ for a in arm_list],
        "warm": warm,
        "datasets": {str(k): v for k, v in datasets.items()},
        "runs": runs,
        "determinism": determinism,
        "timings_s": timings,
        "machine": {"cpus": os.cpu_count(), "load_avg_end": list(os.getloadavg())},
    }  # fmt: skip
    summary = report.summarise(raw)
    raw["summary"] = summary
    report.write(raw, Path(cfg.report_dir))
    return raw
