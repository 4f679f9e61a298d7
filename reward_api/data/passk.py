"""pass@k evaluation of samples against problems: the unbiased estimator of Chen et al. 2021.

For a problem with ``n`` samples of which ``c`` pass, pass@k is estimated by
``1 - C(n - c, k) / C(n, k)``, computed in the numerically stable product form
``1 - prod_{i = n - c + 1}^{n} (1 - k / i)`` (``pass_at_k``). The benchmark score is the
mean over problems. A problem with fewer than ``k`` samples has no estimate at ``k``: it
is left out of that mean and listed under ``insufficient`` for that ``k``, never dropped
silently. Samples whose verification ended in ``sandbox_error`` (infrastructure, not the
program) are excluded from ``n`` and counted under ``sandbox_errors``; a trainer drops
them the same way.

``summarise`` is pure (per-problem ``(n, c)`` in, report out), with the same means per
difficulty and per problem language (``by_difficulty``, ``by_language``; the table shows
the languages when the set is not Python alone); ``evaluate`` runs the verifier first. The trainer imports ``pass_at_k`` from here.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reward_api.schemas import Problem, Result, Sample, Verdict

if TYPE_CHECKING:
    from reward_api.verify.pipeline import Verifier

UNKNOWN_DIFFICULTY = "unknown"


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for ``c`` correct out of ``n`` samples (requires 0 <= c <= n, 1 <= k <= n)."""
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got n={n}, c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"need 1 <= k <= n, got n={n}, k={k}")
    if n - c < k:
        return 1.0
    prod = 1.0
    for i in range(n - c + 1, n + 1):
        prod *= 1.0 - k / i
    return 1.0 - prod


def _mean(xs: list[float]) -> float | None:
    return sum(xs) / len(xs) if xs else None


def _by_group(
    counts: dict[str, tuple[int, int]], ks: Sequence[int], group_of: dict[str, str]
) -> dict[str, dict[str, Any]]:
    """pass@k of each group of problems (group names in alphabetical order)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for pid in counts:
        groups[group_of[pid]].append(pid)
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(groups):
        pids = groups[name]
        entry: dict[str, Any] = {"problems": len(pids)}
        for k in ks:
            vals = [pass_at_k(counts[p][0], counts[p][1], k) for p in pids if counts[p][0] >= k]
            entry[f"pass@{k}"] = _mean(vals)
            entry[f"problems@{k}"] = len(vals)
        out[name] = entry
    return out


def summarise(
    counts: dict[str, tuple[int, int]],
    ks: Sequence[int],
    difficulty: dict[str, str | None] | None = None,
    language: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The pass@k report from per-problem ``(n, c)``; see the module docstring.
    ``by_difficulty`` and ``by_language`` hold the same means per group of problems."""
    difficulty = difficulty or {}
    language = language or {}
    report: dict[str, Any] = {}
    insufficient: dict[str, list[str]] = {}
    counted: dict[str, int] = {}
    for k in ks:
        values = [pass_at_k(n, c, k) for n, c in counts.values() if n >= k]
        report[f"pass@{k}"] = _mean(values)
        counted[f"pass@{k}"] = len(values)
        insufficient[f"pass@{k}"] = [pid for pid, (n, _c) in counts.items() if n < k]
    by_difficulty = _by_group(
        counts, ks, {pid: difficulty.get(pid) or UNKNOWN_DIFFICULTY for pid in counts}
    )
    by_language = _by_group(counts, ks, {pid: language.get(pid) or "python" for pid in counts})
    ns = [n for n, _c in counts.values()]
    report.update(
        {
            "k": list(ks),
            "problems": len(counts),
            "problems_counted": counted,
            "insufficient": insufficient,
            "by_difficulty": by_difficulty,
            "by_language": by_language,
            "n_per_problem": {pid: n for pid, (n, _c) in counts.items()},
            "c_per_problem": {pid: c for pid, (_n, c) in counts.items()},
            "n_min": min(ns, default=0),
            "n_max": max(ns, default=0),
        }
    )
    return report


def count_results(
    problems: Iterable[Problem], samples: Sequence[Sample], results: Sequence[Result]
) -> tuple[dict[str, tuple[int, int]], dict[str, int]]:
    """Per-problem ``(n, c)`` and per-problem sandbox errors; every problem appears, even unsampled."""
    n: Counter[str] = Counter()
    c: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for sample, result in zip(samples, results, strict=True):
        if result.verdict is Verdict.sandbox_error:
            errors[sample.problem_id] += 1
            continue
        n[sample.problem_id] += 1
        c[sample.problem_id] += int(result.accepted)
    return {p.id: (n[p.id], c[p.id]) for p in problems}, dict(errors)


def evaluate(
    problems: Sequence[Problem],
    samples: Sequence[Sample],
    ks: Sequence[int],
    verifier: Verifier,
    on_result: Callable[[int, Result], None] | None = None,
) -> tuple[dict[str, Any], list[Result]]:
    """Verify every sample, then summarise; returns the report and the results in sample order."""
    from reward_api.verify.pipeline import Job

    by_id = {p.id: p for p in problems}
    jobs = [Job(by_id[s.problem_id], s) for s in samples]
    results = verifier.verify(jobs, on_result=on_result)
    counts, errors = count_results(problems, samples, results)
    report = summarise(
        counts,
        ks,
        {p.id: p.difficulty for p in problems},
        {p.id: "python" if p.language == "python3" else p.language for p in problems},
    )
    report["samples"] = len(samples)
    report["sandbox_errors"] = errors
    report["no_samples"] = [pid for pid, (n, _c) in counts.items() if n == 0]
    report["verdicts"] = dict(Counter(r.verdict.value for r in results).most_common())
    return report, results


def _fmt(v: float | None) -> str:
    return "n/a" if v is None else f"{v:.4f}"


def render_table(report: dict[str, Any]) -> str:
    """A Markdown table: overall and per-difficulty pass@k, then the problems left out."""
    ks = report["k"]
    head = "| subset | problems | " + " | ".join(f"pass@{k}" for k in ks) + " |"
    lines = [head, "|---|---|" + "---|" * len(ks)]
    lines.append(
        f"| all | {report['problems']} | "
        + " | ".join(_fmt(report[f"pass@{k}"]) for k in ks)
        + " |"
    )
    for name, entry in report["by_difficulty"].items():
        lines.append(
            f"| {name} | {entry['problems']} | "
            + " | ".join(_fmt(entry[f"pass@{k}"]) for k in ks)
            + " |"
        )
    by_language = report.get("by_language", {})
    if set(by_language) - {"python"}:  # a Python-only set keeps its table as it was
        for name, entry in by_language.items():
            lines.append(
                f"| language: {name} | {entry['problems']} | "
                + " | ".join(_fmt(entry[f"pass@{k}"]) for k in ks)
                + " |"
            )
    for k in ks:
        short = report["insufficient"][f"pass@{k}"]
        if short:
            lines.append("")
            lines.append(
                f"pass@{k}: {len(short)} problems have fewer than {k} samples and are left out "
                f"of its mean: " + ", ".join(short[:20]) + (" …" if len(short) > 20 else "")
            )
    return "\n".join(lines) + "\n"


def curve(counts: dict[str, tuple[int, int]]) -> list[tuple[int, float]]:
    """pass@k for k = 1 .. the smallest n over sampled problems (every problem counted)."""
    ns = [n for n, _c in counts.values() if n > 0]
    if not ns:
        return []
    top = min(ns)
    sampled = [(n, c) for n, c in counts.values() if n > 0]
    return [
        (k, sum(pass_at_k(n, c, k) for n, c in sampled) / len(sampled)) for k in range(1, top + 1)
    ]


def write_curve(report: dict[str, Any], path: Path) -> Path:
    """A PNG of the pass@k curve (k = 1 .. min n), the requested ``k`` marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counts = {pid: (n, report["c_per_problem"][pid]) for pid, n in report["n_per_problem"].items()}
    points = curve(counts)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    if points:
        ax.plot([k for k, _ in points], [v for _, v in points], marker=".", color="#48a")
    marked = [(k, report[f"pass@{k}"]) for k in report["k"] if report[f"pass@{k}"] is not None]
    ax.scatter([k for k, _ in marked], [v for _, v in marked], color="#c44", zorder=3)
    for k, v in marked:
        ax.annotate(f"{v:.3f}", (k, v), textcoords="offset points", xytext=(4, -10), fontsize=8)
    ax.set_xscale("log")
    ticks = sorted({1, *report["k"], *([points[-1][0]] if points else [])})
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel("k")
    ax.set_ylabel("pass@k")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"pass@k over {report['problems']} problems")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
