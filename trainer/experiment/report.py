"""The protocol's report: summaries with t-intervals over seeds, Markdown, raw JSON, PNGs.

``summarise(raw)`` turns the collected runs into per-arm numbers: each seed's curve of
held-out pass@k against generations and steps (the warm start is every arm's first
point), final pass@k overall and per difficulty with t-intervals, the paired difference
to GRPO, generations to reach a fixed pass@1, training-entropy trend, KL to the warm start
and the cost counters. ``write(raw, folder)`` writes ``<name>.md``, ``<name>.json`` and
``<name>-passk.png``, ``<name>-entropy.png``, ``<name>-rewards.png`` into ``folder``.

Cost of the offline arms: the dataset's generation and verification (made once, before
training) is charged to them; offline-online is charged its share of the dataset's rows.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from pathlib import Path
from typing import Any

from trainer.experiment.intervals import paired_difference, t_interval

DIFFICULTIES = ("easy", "hard")


def _points(run: dict[str, Any], warm: dict[str, Any], gens_per_step: int, base: float,
            step_base: int) -> list[dict[str, Any]]:  # fmt: skip
    pts = []
    for e in run["evals"]:
        pt = {k: v for k, v in e.items() if k.startswith(("pass@", "eval/"))}
        pt["step"] = step_base + e["step"]
        pt["generations"] = base + e["step"] * gens_per_step
        pts.append(pt)
    return pts


def curve(arm: dict[str, Any], run: dict[str, Any], warm: dict[str, Any],
          gens_per_step: int, dataset_gens: float) -> list[dict[str, Any]]:  # fmt: skip
    """(step, generations, pass@k, ...) points of one seed, the warm start first.

    Generations are those spent so far: an online step spends B·G; an offline run spent
    its whole dataset before its first step.
    """
    start = {k: v for k, v in warm.items() if k.startswith(("pass@", "eval/"))}
    start |= {"step": 0, "generations": 0.0}
    if arm["kind"] == "online":
        return [start, *_points(run, warm, gens_per_step, 0.0, 0)]
    if arm["kind"] == "offline":
        return [start, *_points(run, warm, 0, dataset_gens, 0)]
    off, on = run["phases"]
    half = int(off["cost"]["steps"])
    spent = half * gens_per_step  # its dataset: the rows of the first `half` steps' prompts
    first = _points(off, warm, 0, spent, 0)
    second = _points(on, warm, gens_per_step, spent, half)
    return [start, *first, *second]


def _entropy(arm: dict[str, Any], run: dict[str, Any]) -> list[list[float]]:
    if arm["kind"] != "offline-online":
        return [list(x) for x in run["entropy"]]
    off, on = run["phases"]
    half = int(off["cost"]["steps"])
    return [list(x) for x in off["entropy"]] + [[s + half, v] for s, v in on["entropy"]]


def _cost(arm: dict[str, Any], run: dict[str, Any], dataset: dict[str, float] | None,
          steps: int) -> dict[str, float]:  # fmt: skip
    phases = run["phases"] if arm["kind"] == "offline-online" else [run]
    keys = ("generations", "verifier/samples", "verifier/calls", "verifier/cpu_s",
            "verifier/wall_s", "learner_s", "generate_s", "sync_s")  # fmt: skip
    out = {k: sum(float(p["cost"].get(k, 0.0)) for p in phases) for k in keys}
    if arm["kind"] != "online" and dataset is not None:
        share = 1.0
        if arm["kind"] == "offline-online":
            share = float(phases[0]["cost"]["steps"]) / steps
        for k in ("generations", "verifier/samples", "verifier/calls", "verifier/cpu_s",
                  "verifier/wall_s", "generate_s"):  # fmt: skip
            out[k] += share * float(dataset.get(k, 0.0))
    return out


def reach(points: list[dict[str, Any]], target: float) -> float | None:
    """Generations at which pass@1 first reaches ``target`` (linear between points)."""
    for a, b in itertools.pairwise(points):
        if a["pass@1"] >= target:
            return float(a["generations"])
        if b["pass@1"] >= target:
            span = b["pass@1"] - a["pass@1"]
            frac = (target - a["pass@1"]) / span if span > 0 else 1.0
            return float(a["generations"] + frac * (b["generations"] - a["generations"]))
    return float(points[0]["generations"]) if points and points[0]["pass@1"] >= target else None


def _iv(values: list[float], level: float) -> dict[str, float]:
    return t_interval(values, level).as_dict()


def summarise(raw: dict[str, Any]) -> dict[str, Any]:
    """Per-arm numbers with t-intervals over seeds (see the module docstring)."""
    cfg = raw["config"]
    level = cfg["eval"]["confidence"]
    ks = cfg["eval"]["ks"]
    seeds = [str(s) for s in cfg["seeds"]]
    b = cfg["budget"]
    gens_per_step = b["groups_per_step"] * b["group_size"]
    arms = {a["name"]: a for a in raw["arms"]}
    curves: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for name, arm in arms.items():
        curves[name] = {}
        for s in seeds:
            dataset = raw["datasets"].get(s, {})
            curves[name][s] = curve(arm, raw["runs"][name][s], raw["warm"][s], gens_per_step,
                                    float(dataset.get("generations", 0.0)))  # fmt: skip
    warm_p1 = [raw["warm"][s]["pass@1"] for s in seeds]
    algo = [n for n, a in arms.items() if a["group"] == "algorithm"]
    finals = {n: sum(curves[n][s][-1]["pass@1"] for s in seeds) / len(seeds) for n in arms}
    best = max(finals[n] for n in algo)
    warm_mean = sum(warm_p1) / len(warm_p1)
    target = cfg["target_pass1"] or round(warm_mean + 0.5 * (best - warm_mean), 3)

    out: dict[str, Any] = {
        "target_pass1": target,
        "warm": {f"pass@{k}": _iv([raw["warm"][s][f"pass@{k}"] for s in seeds], level)
                 for k in ks},
        "arms": {},
    }  # fmt: skip
    for d in DIFFICULTIES:
        for k in ks:
            out["warm"][f"pass@{k}/{d}"] = _iv(
                [raw["warm"][s][f"pass@{k}/{d}"] for s in seeds], level
            )
    out["warm"]["eval/entropy_token"] = _iv(
        [raw["warm"][s]["eval/entropy_token"] for s in seeds], level
    )
    for name, arm in arms.items():
        final = [curves[name][s][-1] for s in seeds]
        row: dict[str, Any] = {"kind": arm["kind"], "group": arm["group"], "lag": arm["lag"],
                               "reward": arm["reward"], "loss": arm["loss"]}  # fmt: skip
        for k in ks:
            row[f"pass@{k}"] = _iv([f[f"pass@{k}"] for f in final], level)
            for d in DIFFICULTIES:
                row[f"pass@{k}/{d}"] = _iv([f[f"pass@{k}/{d}"] for f in final], level)
        if "grpo" in curves and name != "grpo":
            grpo = [curves["grpo"][s][-1]["pass@1"] for s in seeds]
            row["pass@1_minus_grpo"] = paired_difference(
                [f["pass@1"] for f in final], grpo, level
            ).as_dict()
        reached = [reach(curves[name][s], target) for s in seeds]
        row["generations_to_target"] = reached
        got = [r for r in reached if r is not None]
        row["generations_to_target_mean"] = _iv(got, level) if len(got) == len(seeds) else None
        row["kl_to_start"] = _iv([f["eval/kl_to_reference"] for f in final], level)
        row["eval_entropy_token"] = _iv([f["eval/entropy_token"] for f in final], level)
        ent_first, ent_last = [], []
        for s in seeds:
            series = [v for _, v in _entropy(arm, raw["runs"][name][s])]
            tenth = max(1, len(series) // 10)
            ent_first.append(sum(series[:tenth]) / tenth)
            ent_last.append(sum(series[-tenth:]) / tenth)
        row["train_entropy_first_tenth"] = _iv(ent_first, level)
        row["train_entropy_last_tenth"] = _iv(ent_last, level)
        costs = [
            _cost(arm, raw["runs"][name][s], raw["datasets"].get(s), b["steps"]) for s in seeds
        ]
        row["cost"] = {k: sum(c[k] for c in costs) / len(costs) for k in costs[0]}
        row["cost_per_seed"] = costs
        out["arms"][name] = row
    out["curves"] = curves
    return out


# -- writing ------------------------------------------------------------------------------
def _fmt(iv: dict[str, float] | None, digits: int = 3) -> str:
    if iv is None:
        return "n/a"
    return f"{iv['mean']:.{digits}f} [{iv['low']:.{digits}f}, {iv['high']:.{digits}f}]"


def _gens(row: dict[str, Any]) -> str:
    mean = row["generations_to_target_mean"]
    per_seed = ", ".join("never" if r is None else f"{r:.0f}" for r in row["generations_to_target"])
    head = (
        f"{mean['mean']:.0f} ± {(mean['high'] - mean['low']) / 2:.0f}" if mean else "not all seeds"
    )
    return f"{head} ({per_seed})"


def markdown(raw: dict[str, Any]) -> str:
    """The report as Markdown (tables of the summary; plots linked)."""
    cfg, summ = raw["config"], raw["summary"]
    name, ks = raw["name"], cfg["eval"]["ks"]
    b, arms = cfg["budget"], summ["arms"]
    level = round(cfg["eval"]["confidence"] * 100)
    t = raw["timings_s"]
    lines = [
        f"# Experiment `{name}`: OAPL against GRPO at equal generations, offline against online",
        "",
        f"Made by `{raw['command']}` on {raw['date']} ({raw['machine']['cpus']} CPUs; load "
        f"average at the end {', '.join(f'{x:.1f}' for x in raw['machine']['load_avg_end'])}); "
        f"wall time {t['total_s'] / 60:.1f} min (prepare {t['prepare_s']:.0f} s, baseline and "
        f"sweep {t['baseline_and_sweep_s']:.0f} s, offline datasets {t['datasets_s']:.0f} s, "
        f"arms {t['arms_s']:.0f} s). Every number below is as it came out of that run; "
        f"intervals are two-sided {level}% Student-t intervals over the {len(cfg['seeds'])} "
        f"paired seeds {cfg['seeds']} (same prompts, sampling seeds and evaluation noise for "
        "every arm of a seed). Raw numbers: "
        f"[`{name}.json`]({name}.json).",
        "",
        "## Set-up",
        "",
        f"- Task (`trainer/experiment/task.py`): {raw['task']['train']} training, "
        f"{raw['task']['validation']} validation and {raw['task']['heldout']} held-out "
        f"problems; easy families {', '.join(raw['task']['families']['easy'])} (one "
        f"constant), hard {', '.join(raw['task']['families']['hard'])} (two); held-out and "
        "validation (family, constants) pairs never trained on; 6 tests each, run by the "
        "real verifier (bubblewrap sandbox).",
        f"- Model: tiny Llama, hidden {cfg['model']['hidden_size']}, {cfg['model']['layers']} "
        f"layer(s); warm start {cfg['warm_start']['steps']} supervised steps on solutions of "
        f"which {cfg['warm_start']['wrong_constant']:.0%} carry a wrong constant and "
        f"{cfg['warm_start']['wrong_family']:.0%} another family's operator.",
        f"- Budget per arm: {b['steps']} steps × {b['groups_per_step']} prompts × "
        f"{b['group_size']} samples = **{raw['generations_per_arm']} generations**, "
        f"deterministic mode (`rollout.synchronous`), temperature {b['temperature']}, "
        f"≤ {b['max_new_tokens']} new tokens; AdamW (0.9, 0.95), constant lr.",
        f"- Evaluation: held-out pass@k ({', '.join(map(str, ks))}) from "
        f"{cfg['eval']['samples_per_problem']} samples per problem every "
        f"{cfg['eval']['every_steps']} steps, from the learner's weights; KL to the warm "
        "start estimated on those samples.",
        f"- Sweep on the validation problems (seed {cfg['sweep']['seed']}, "
        f"{cfg['sweep']['steps']} steps; OAPL at lag {cfg['sweep']['oapl_lag']}): chosen "
        f"OAPL lr {raw['chosen']['oapl']['lr']:g}, β₁ = β₂ = {raw['chosen']['oapl']['beta']:g}; "
        f"GRPO lr {raw['chosen']['grpo']['lr']:g}.",
        "",
        "| sweep run | lr | β | " + " | ".join(f"validation pass@{k}" for k in ks) + " |",
        "|---|---|---|" + "---|" * len(ks),
    ]
    for run_name, p in raw["sweep"].items():
        v = p["validation"]
        beta = f"{p['beta']:g}" if p["loss"] == "oapl" else "—"
        lines.append(
            f"| {run_name} | {p['lr']:g} | {beta} | "
            + " | ".join(f"{v.get(f'pass@{k}', math.nan):.3f}" for k in ks)
            + " |"
        )
    w = summ["warm"]
    lines += [
        "",
        f"Warm start, held-out: pass@1 {_fmt(w['pass@1'])}, "
        + ", ".join(f"pass@{k} {_fmt(w[f'pass@{k}'])}" for k in ks[1:])
        + f"; easy pass@{ks[-1]} {_fmt(w[f'pass@{ks[-1]}/easy'])}, "
        f"hard {_fmt(w[f'pass@{ks[-1]}/hard'])}.",
        "",
        "## Algorithms at equal generations (execution reward)",
        "",
        "| arm | " + " | ".join(f"pass@{k}" for k in ks)
        + " | pass@1 − GRPO (paired) | generations to pass@1 "
        f"{summ['target_pass1']:.3f} (mean ± half-width; per seed) |",
        "|---|" + "---|" * (len(ks) + 2),
    ]  # fmt: skip
    algo = [n for n, r in arms.items() if r["group"] == "algorithm"]
    for n in algo:
        r = arms[n]
        diff = _fmt(r.get("pass@1_minus_grpo")) if n != "grpo" else "—"
        lines.append(
            f"| {n} | " + " | ".join(_fmt(r[f"pass@{k}"]) for k in ks) + f" | {diff} | {_gens(r)} |"
        )
    lines += [
        "",
        "Held-out pass@1 at each evaluation, mean over seeds (generations spent → pass@1; "
        "offline arms spent their dataset before their first step):",
        "",
        "| arm | step: generations → pass@1 |",
        "|---|---|",
    ]
    seeds = [str(s) for s in cfg["seeds"]]
    for n in arms:
        pts = [summ["curves"][n][s] for s in seeds]
        cells = []
        for i in range(min(len(p) for p in pts)):
            mean = sum(p[i]["pass@1"] for p in pts) / len(pts)
            cells.append(f"{pts[0][i]['step']}: {pts[0][i]['generations']:.0f} → {mean:.3f}")
        lines.append(f"| {n} | " + ", ".join(cells) + " |")
    lines += [
        "",
        "Per difficulty (final held-out):",
        "",
        "| arm | pass@1 easy | pass@1 hard | " + f"pass@{ks[-1]} easy | pass@{ks[-1]} hard |",
        "|---|---|---|---|---|",
    ]
    for n in ["warm start", *arms]:
        r = summ["warm"] if n == "warm start" else arms[n]
        lines.append(
            f"| {n} | {_fmt(r['pass@1/easy'])} | {_fmt(r['pass@1/hard'])} | "
            f"{_fmt(r[f'pass@{ks[-1]}/easy'])} | {_fmt(r[f'pass@{ks[-1]}/hard'])} |"
        )
    lines += [
        "",
        "## Entropy and KL to the warm start",
        "",
        "| arm | training entropy/token, first tenth of steps | last tenth | "
        "held-out sample entropy/token at the end | KL to warm start at the end (nats/response) |",
        "|---|---|---|---|---|",
    ]
    for n, r in arms.items():
        lines.append(
            f"| {n} | {_fmt(r['train_entropy_first_tenth'])} | "
            f"{_fmt(r['train_entropy_last_tenth'])} | {_fmt(r['eval_entropy_token'])} | "
            f"{_fmt(r['kl_to_start'])} |"
        )
    lines += [
        "",
        f"Warm start's held-out sample entropy/token: "
        f"{_fmt(summ['warm'].get('eval/entropy_token'))}.",
        "",
        "## Rewards (OAPL, trained on the mixed training set; pass@k counts all tests passing)",
        "",
        "| reward | pass@1 easy | pass@1 hard | " + f"pass@{ks[-1]} easy | pass@{ks[-1]} hard | pass@1 |",
        "|---|---|---|---|---|---|",
    ]  # fmt: skip
    execution = f"oapl-lag{cfg['arms']['online_lag']}"
    reward_rows = ([execution] if execution in arms else []) + [
        n for n, r in arms.items() if r["group"] == "reward"
    ]
    for n in reward_rows:
        r = arms[n]
        label = "execution (= " + n + ")" if n == execution else r["reward"]
        lines.append(
            f"| {label} | {_fmt(r['pass@1/easy'])} | {_fmt(r['pass@1/hard'])} | "
            f"{_fmt(r[f'pass@{ks[-1]}/easy'])} | {_fmt(r[f'pass@{ks[-1]}/hard'])} | "
            f"{_fmt(r['pass@1'])} |"
        )
    lines += [
        "",
        "## Cost per arm (mean per seed; training only, evaluation counted apart)",
        "",
        "| arm | generations | verifier samples | verifier calls | verifier CPU s | "
        "verifier wall s | generation s | learner s | sync s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for n, r in arms.items():
        c = r["cost"]
        lines.append(
            f"| {n} | {c['generations']:.0f} | {c['verifier/samples']:.0f} | "
            f"{c['verifier/calls']:.0f} | {c['verifier/cpu_s']:.1f} | {c['verifier/wall_s']:.1f} | "
            f"{c['generate_s']:.1f} | {c['learner_s']:.1f} | {c['sync_s']:.1f} |"
        )
    lines += [
        "",
        "Offline arms are charged their dataset (warm-start completions for every step's "
        "prompts, scored once; offline-online its share of the rows). Verifier CPU s is the "
        "CPU of this process tree while scoring (`trainer/cost.py`). Counts are exact; "
        "seconds depend on what else the shared machine ran at the time (arms ran "
        f"{cfg['jobs']} at a time beside other work), so compare them loosely.",
        "",
    ]
    if raw["datasets"]:
        lines += [
            "Offline datasets, one per seed (their quality, measured before training on them): "
            + "; ".join(
                f"seed {seed}: {d['rows']:.0f} rows, {d['accepted_share']:.1%} accepted, "
                f"generated in {d['generate_s']:.1f} s, verified in {d['verifier/cpu_s']:.1f} "
                "CPU s"
                for seed, d in raw["datasets"].items()
            )
            + ".",
            "",
        ]
    det = raw.get("determinism")
    if det is not None:
        lines += [
            "## Determinism",
            "",
            f"The first arm's first seed ran twice: {det['rows']} logged rows, "
            + ("every number identical (time keys aside)." if det["identical"]
               else "differences: " + "; ".join(det["differences"])),
            "",
        ]  # fmt: skip
    lines += [
        "## Plots",
        "",
        f"![pass@k against generations]({name}-passk.png)",
        "",
        f"![entropy and KL against steps]({name}-entropy.png)",
        "",
        f"![rewards by difficulty]({name}-rewards.png)",
        "",
        "## Summary (generated from the numbers above)",
        "",
        *summary_lines(raw),
        "",
    ]
    return "\n".join(lines)


def summary_lines(raw: dict[str, Any]) -> list[str]:
    """The closing note's facts: generations to the target, final pass@k, entropy, offline."""
    summ, cfg = raw["summary"], raw["config"]
    arms, ks = summ["arms"], cfg["eval"]["ks"]
    algo = [n for n, r in arms.items() if r["group"] == "algorithm"]
    out = [f"- Generations to held-out pass@1 {summ['target_pass1']:.3f}: "
           + "; ".join(f"{n} {_gens(arms[n])}" for n in algo) + "."]  # fmt: skip
    out.append(
        f"- Final held-out pass@{ks[0]}/{ks[-1]}: "
        + "; ".join(f"{n} {arms[n]['pass@1']['mean']:.3f}/{arms[n][f'pass@{ks[-1]}']['mean']:.3f}"
                    for n in algo)
        + f" (warm start {summ['warm']['pass@1']['mean']:.3f}/"
        f"{summ['warm'][f'pass@{ks[-1]}']['mean']:.3f})."
    )  # fmt: skip
    out.append(
        "- Training entropy/token, first → last tenth of steps: "
        + "; ".join(
            f"{n} {arms[n]['train_entropy_first_tenth']['mean']:.3f} → "
            f"{arms[n]['train_entropy_last_tenth']['mean']:.3f}"
            for n in algo
        )
        + "."
    )
    if "offline" in arms:
        online = f"oapl-lag{cfg['arms']['online_lag']}"
        ref = online if online in arms else algo[0]
        parts = []
        for n in ("offline", "offline-online", ref):
            if n in arms:
                c = arms[n]["cost"]
                parts.append(
                    f"{n}: pass@1 {arms[n]['pass@1']['mean']:.3f}, {c['generations']:.0f} "
                    f"generations, verifier CPU {c['verifier/cpu_s']:.1f} s, learner "
                    f"{c['learner_s']:.1f} s, sync {c['sync_s']:.1f} s"
                )
        out.append("- Offline against online at equal generations: " + "; ".join(parts) + ".")
    return out


def plot(raw: dict[str, Any], folder: Path) -> list[Path]:
    """The three PNGs; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summ, cfg, name = raw["summary"], raw["config"], raw["name"]
    ks, level = cfg["eval"]["ks"], cfg["eval"]["confidence"]
    seeds = [str(s) for s in cfg["seeds"]]
    arms = summ["arms"]
    algo = [n for n, r in arms.items() if r["group"] == "algorithm"]
    paths = []

    fig, axes = plt.subplots(1, len(ks), figsize=(5 * len(ks), 4), squeeze=False)
    for n in algo:
        pts = [summ["curves"][n][s] for s in seeds]
        n_pts = min(len(p) for p in pts)
        xs = [pts[0][i]["generations"] for i in range(n_pts)]
        for ax, k in zip(axes[0], ks, strict=True):
            ivs = [t_interval([p[i][f"pass@{k}"] for p in pts], level) for i in range(n_pts)]
            (line,) = ax.plot(xs, [iv.mean for iv in ivs], marker="o", ms=3, label=n)
            ax.fill_between(xs, [iv.low for iv in ivs], [iv.high for iv in ivs],
                            color=line.get_color(), alpha=0.12)  # fmt: skip
    for ax, k in zip(axes[0], ks, strict=True):
        ax.set(title=f"held-out pass@{k} (mean, {level:.0%} t-band)", xlabel="generations",
               ylabel=f"pass@{k}")  # fmt: skip
        ax.grid(alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.tight_layout()
    paths.append(folder / f"{name}-passk.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4), squeeze=False)
    raw_arms = {a["name"]: a for a in raw["arms"]}
    for n in algo:
        series = [_entropy(raw_arms[n], raw["runs"][n][s]) for s in seeds]
        length = min(len(x) for x in series)
        steps = [series[0][i][0] for i in range(length)]
        mean = [sum(x[i][1] for x in series) / len(series) for i in range(length)]
        window = max(1, length // 20)
        smooth = [sum(mean[max(0, i - window + 1) : i + 1]) / len(mean[max(0, i - window + 1) : i + 1])
                  for i in range(length)]  # fmt: skip
        axes[0][0].plot(steps, smooth, label=n)
        pts = [summ["curves"][n][s] for s in seeds]
        n_pts = min(len(p) for p in pts)
        axes[0][1].plot([pts[0][i]["step"] for i in range(n_pts)],
                        [sum(p[i]["eval/kl_to_reference"] for p in pts) / len(pts)
                         for i in range(n_pts)], marker="o", ms=3, label=n)  # fmt: skip
    axes[0][0].set(title="training entropy/token (mean over seeds, moving average)",
                   xlabel="learner step", ylabel="nats/token")  # fmt: skip
    axes[0][1].set(title="KL to the warm start on held-out samples", xlabel="learner step",
                   ylabel="nats/response")  # fmt: skip
    for ax in axes[0]:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    paths.append(folder / f"{name}-entropy.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    execution = f"oapl-lag{cfg['arms']['online_lag']}"
    rows = ([execution] if execution in arms else []) + [
        n for n, r in arms.items() if r["group"] == "reward"
    ]
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(rows) + 2), 4))
    width = 0.38
    for j, d in enumerate(DIFFICULTIES):
        bars: list[dict[str, float]] = [arms[n][f"pass@1/{d}"] for n in rows]
        xs = [i + (j - 0.5) * width for i in range(len(rows))]
        ax.bar(xs, [iv["mean"] for iv in bars], width, label=d,
               yerr=[[iv["mean"] - iv["low"] for iv in bars],
                     [iv["high"] - iv["mean"] for iv in bars]],
               capsize=3)  # fmt: skip
    warm = summ["warm"]
    for j, d in enumerate(DIFFICULTIES):
        ax.axhline(warm[f"pass@1/{d}"]["mean"], color=f"C{j}", ls="--", lw=1,
                   label=f"warm start, {d}")  # fmt: skip
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(["execution" if n == execution else arms[n]["reward"] for n in rows])
    ax.set(title="held-out pass@1 by training reward (OAPL)", ylabel="pass@1")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    paths.append(folder / f"{name}-rewards.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    return paths


def write(raw: dict[str, Any], folder: Path) -> dict[str, Path]:
    """``<name>.md``, ``<name>.json`` and the PNGs into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    raw.setdefault("date", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    name = raw["name"]
    pngs = plot(raw, folder)
    md = folder / f"{name}.md"
    md.write_text(markdown(raw))
    js = folder / f"{name}.json"
    js.write_text(json.dumps(raw, indent=1) + "\n")
    return {"markdown": md, "json": js, **{p.stem: p for p in pngs}}
