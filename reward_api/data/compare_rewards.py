"""``codereward rewards compare PROBLEMS SAMPLES [-o DIR]``: reward presets against the tests.

Before trusting a reward type, compare it with what the tests say, separately on easy and
hard problems. This module owns that comparison.

Method. Every sample is verified ONCE (all tests, no early stop) and every program is
scanned ONCE with all rules. Each sample is then re-scored under every preset with
``reward_api.verify.scoring.compose``: the preset's own test selection (DeepCoder's ``max_tests``
subset of the per-test verdicts, and ``stop_on_first_failure``), its weights, the static
report and the similarity to the problem's reference. Samples whose verification hit
``sandbox_error`` are dropped (counted as ``dropped``), as a trainer would.

Ground truth is acceptance: the sample passed every test of its problem. For each preset
and each difficulty (``problem.difficulty``, else ``unknown``; plus ``all``):

- ``false_positives``: reward >= threshold (default 0.5) but not accepted; ``fp_rate``
  divides by the samples not accepted;
- ``false_negatives``: reward < threshold but accepted; ``fn_rate`` divides by the
  accepted samples;
- ``spearman``: Spearman rank correlation between the reward and acceptance (0/1),
  average ranks for ties; ``null`` when either side is constant;
- ``mean_reward``, ``hacks_rewarded`` (samples with a reward_hacking finding whose reward
  is above 0).

Outputs, in DIR (default ``reward-compare``): ``compare.json`` (the numbers, per sample
rewards included), ``compare.png`` (FP rate, FN rate and Spearman per difficulty and
preset; matplotlib, Agg backend); the table goes to stdout.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from reward_api.schemas import Problem, Result, RewardSettings, StaticReport, Verdict

DEFAULT_THRESHOLD = 0.5
ALL = "all"


@dataclass
class Scored:
    """One verified sample and its reward under every preset."""

    problem_id: str
    sample_id: str | None
    difficulty: str
    accepted: bool
    hacking: bool
    rewards: dict[str, float] = field(default_factory=dict)


def subset_counts(
    problem: Problem, result: Result, max_tests: int | None, stop_on_first_failure: bool
) -> tuple[int, int, bool]:
    """(passed, total, accepted) of ``result`` restricted to a preset's test selection.

    ``result`` must come from a run of all tests in problem order (``max_tests`` unset).
    """
    from reward_api.verify.scoring import select_tests

    if len(result.tests) != len(problem.tests):
        return result.passed, result.total, result.accepted
    indices = select_tests(problem.tests, max_tests)
    passed = 0
    for i in indices:
        if result.tests[i].verdict == Verdict.accepted:
            passed += 1
        elif stop_on_first_failure:
            break
    return passed, len(indices), passed == len(indices)


def rescore(
    problem: Problem,
    result: Result,
    program: str,
    static: StaticReport | None,
    presets: Sequence[str],
) -> dict[str, float]:
    """The reward of one verified sample under each preset."""
    from reward_api.verify import scoring

    defaults = (problem.metadata or {}).get("reward")
    sim: float | None = None
    rewards = {}
    for preset in presets:
        resolved = scoring.resolve(RewardSettings.model_validate({"preset": preset}), defaults)
        passed, total, accepted = subset_counts(
            problem, result, resolved.max_tests, resolved.stop_on_first_failure
        )
        similarity = None
        if resolved.needs_similarity and problem.reference:
            if sim is None:
                sim = scoring.similarity(program, problem.reference)
            similarity = sim
        reward, _ = scoring.compose(resolved, passed, total, accepted, static, similarity)
        rewards[preset] = reward
    return rewards


def _average_ranks(values: Sequence[float]) -> list[float]:
    import numpy as np

    arr = np.asarray(values, dtype=float)
    _, inverse, counts = np.unique(arr, return_inverse=True, return_counts=True)
    ends = np.cumsum(counts)
    starts = ends - counts
    average = (starts + ends - 1) / 2.0 + 1.0
    return [float(x) for x in average[inverse]]


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's rank correlation (average ranks for ties); None when undefined."""
    if len(x) != len(y) or len(x) < 2:
        return None
    rx, ry = _average_ranks(x), _average_ranks(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    if vx == 0 or vy == 0:
        return None
    return round(cov / math.sqrt(vx * vy), 6)


def metrics(records: Sequence[Scored], preset: str, threshold: float) -> dict[str, Any]:
    """Agreement of one preset's rewards with acceptance over ``records``."""
    rewards = [r.rewards[preset] for r in records]
    accepted = [r.accepted for r in records]
    n_acc = sum(accepted)
    n_rej = len(records) - n_acc
    fp = sum(1 for w, a in zip(rewards, accepted, strict=True) if w >= threshold and not a)
    fn = sum(1 for w, a in zip(rewards, accepted, strict=True) if w < threshold and a)
    return {
        "n": len(records),
        "accepted": n_acc,
        "mean_reward": round(sum(rewards) / len(rewards), 6) if rewards else None,
        "false_positives": fp,
        "false_negatives": fn,
        "fp_rate": round(fp / n_rej, 6) if n_rej else None,
        "fn_rate": round(fn / n_acc, 6) if n_acc else None,
        "spearman": spearman(rewards, [float(a) for a in accepted]),
        "hacks_rewarded": sum(1 for r in records if r.hacking and r.rewards[preset] > 0),
    }


def summarize(
    records: Sequence[Scored], presets: Sequence[str], threshold: float = DEFAULT_THRESHOLD
) -> dict[str, dict[str, dict[str, Any]]]:
    """``{preset: {difficulty: metrics}}``, difficulties sorted, ``all`` last."""
    groups: dict[str, list[Scored]] = {}
    for r in records:
        groups.setdefault(r.difficulty, []).append(r)
    ordered = [(d, groups[d]) for d in sorted(groups)] + [(ALL, list(records))]
    return {p: {d: metrics(rs, p, threshold) for d, rs in ordered} for p in presets}


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def format_table(summary: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> str:
    """The summary as a fixed-width text table, one row per (preset, difficulty)."""
    cols = ["n", "accepted", "mean_reward", "false_positives", "fp_rate"]
    cols += ["false_negatives", "fn_rate", "spearman", "hacks_rewarded"]
    heads = ["preset", "difficulty", "n", "acc", "mean", "FP", "FP rate", "FN", "FN rate"]
    heads += ["spearman", "hacks>0"]
    rows = [heads]
    for preset, by_difficulty in summary.items():
        for difficulty, m in by_difficulty.items():
            rows.append([preset, difficulty, *(_fmt(m[c]) for c in cols)])
    widths = [max(len(row[i]) for row in rows) for i in range(len(heads))]
    lines = ["  ".join(cell.rjust(w) if i > 1 else cell.ljust(w) for i, (cell, w) in
                       enumerate(zip(row, widths, strict=True))) for row in rows]  # fmt: skip
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def plot(summary: Mapping[str, Mapping[str, Mapping[str, Any]]], path: Path) -> None:
    """Grouped bars: FP rate, FN rate and Spearman per difficulty, one bar per preset."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    presets = list(summary)
    difficulties = list(next(iter(summary.values()))) if presets else []
    panels = (("fp_rate", "false-positive rate"), ("fn_rate", "false-negative rate"),
              ("spearman", "Spearman (reward vs accepted)"))  # fmt: skip
    fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels), 3.8))
    width = 0.8 / max(1, len(presets))
    for ax, (key, title) in zip(axes, panels, strict=True):
        for j, preset in enumerate(presets):
            values = [summary[preset][d][key] for d in difficulties]
            xs = [i + (j - (len(presets) - 1) / 2) * width for i in range(len(difficulties))]
            ax.bar(xs, [v if v is not None else 0.0 for v in values], width, label=preset)
        ax.set_xticks(range(len(difficulties)), difficulties, rotation=20)
        ax.set_title(title)
        ax.set_ylim(-1.0 if key == "spearman" else 0.0, 1.0)
        ax.axhline(0.0, color="black", linewidth=0.6)
    axes[0].legend(title="preset")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def compare(
    problems: Mapping[str, Problem],
    samples: Sequence[Any],
    presets: Sequence[str],
    results: Sequence[Result],
    programs: Sequence[str],
    threshold: float = DEFAULT_THRESHOLD,
) -> dict[str, Any]:
    """Re-score verified samples under every preset and summarise (no sandbox here)."""
    from reward_api.verify.static_analysis import is_hacking, scan_programs

    reports = scan_programs(programs, languages=[problems[s.problem_id].language for s in samples])
    records: list[Scored] = []
    dropped = 0
    for sample, result, program, report in zip(samples, results, programs, reports, strict=True):
        if result.verdict == Verdict.sandbox_error:
            dropped += 1
            continue
        problem = problems[sample.problem_id]
        records.append(
            Scored(
                problem_id=sample.problem_id,
                sample_id=sample.sample_id,
                difficulty=str(problem.difficulty or "unknown"),
                accepted=result.accepted,
                hacking=is_hacking(report),
                rewards=rescore(problem, result, program, report, presets),
            )
        )
    return {
        "threshold": threshold,
        "presets": list(presets),
        "samples": len(samples),
        "dropped": dropped,
        "summary": summarize(records, presets, threshold),
        "records": [asdict(r) for r in records],
    }


def cmd_compare(args: argparse.Namespace) -> int:
    """Verify once, re-score under every preset, print the table, write JSON and PNG."""
    from reward_api.errors import InputError
    from reward_api.jsonl import load_problems, load_samples
    from reward_api.verify import scoring
    from reward_api.verify.extract import program_of
    from reward_api.verify.pipeline import Job, Verifier, VerifierSettings

    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    unknown = [p for p in presets if p not in scoring.PRESETS]
    if unknown or not presets:
        raise InputError(f"--presets: unknown {unknown}; known: {sorted(scoring.PRESETS)}")
    problems = load_problems(args.problems)
    samples = load_samples(args.samples, problems)
    overrides: dict[str, Any] = {"sandbox": args.sandbox}
    if args.workers:
        overrides["workers"] = args.workers
    everything = RewardSettings.model_validate(
        {"preset": "default", "stop_on_first_failure": False}
    )
    jobs = [Job(problems[s.problem_id], s) for s in samples]
    with Verifier(VerifierSettings(**overrides)) as verifier:
        results = verifier.verify(jobs, everything)
    report = compare(
        problems, samples, presets, results, [program_of(s) for s in samples], args.threshold
    )
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    (out / "compare.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    plot(report["summary"], out / "compare.png")
    print(format_table(report["summary"]))
    print(
        f"{len(samples)} samples ({report['dropped']} dropped for sandbox_error), "
        f"threshold {args.threshold}; wrote {out / 'compare.json'} and {out / 'compare.png'}",
        file=sys.stderr,
    )
    return 0


def register(subparsers: Any) -> None:
    """Add ``rewards compare`` to the ``codereward`` command line."""
    rewards = subparsers.add_parser("rewards", help="inspect and compare reward presets")
    sub = rewards.add_subparsers(dest="rewards_command", required=True)
    c = sub.add_parser(
        "compare",
        help="how each reward preset agrees with acceptance by the tests, by difficulty",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    c.add_argument("problems", help="problems JSONL (CONTRACT.md)")
    c.add_argument("samples", help="samples JSONL (CONTRACT.md)")
    c.add_argument("-o", "--output", default="reward-compare", help="output folder")
    c.add_argument("--presets", default="default,easy,hard", help="comma-separated presets")
    c.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                   help="a reward at or above this counts as a positive")  # fmt: skip
    c.add_argument("--sandbox", choices=("process", "docker"), default="process")
    c.add_argument("--workers", type=int, default=0, help="parallel cells (default: all cores)")
    c.set_defaults(func=cmd_compare)
