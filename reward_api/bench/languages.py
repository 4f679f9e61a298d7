"""Compiled languages against plain execution on MBXP's real model samples.

For each language, the same samples (``prompt + completion``, then the record's test, as
MBXP's own harness builds them) are judged twice in the same run:

- sandboxed: ``Verifier`` (process backend, one worker), which builds each sample once in
  the language's cell with the trusted harness around the test;
- plain: ``sandbox_images/runtime/toolchains.py`` under ``chroot`` into the same runtime
  root (same compiler and flags, no namespace, no limits but a wall clock): the program and
  the test as one file, compiled, run once; it passes when both exit 0.

``agreement`` returns per-sample verdicts of both and the wall times, which the agreement
test (tests/languages/test_agreement.py) compares and ``make bench`` prints as ratios
(sandboxed per sample / plain compile + run per sample). Needs root (chroot) and the
language roots (``make runtimes``).
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# ../shared beside the repository (CONTRACT.md's place), or beside a worktree's parent
MBXP = Path(
    os.environ.get("CODEREWARD_MBXP_DIR")
    or next((p / "shared/data/mbxp" for p in ROOT.parents if (p / "shared/data/mbxp").is_dir()),
            ROOT.parent / "shared/data/mbxp")
)  # fmt: skip
FILES = {
    "cpp": ("mbcpp_release_v1.2.jsonl", "mbcpp_samples.jsonl"),
    "java": ("mbjp_release_v1.2.jsonl", "mbjp_samples.jsonl"),
    "javascript": ("mbjsp_release_v1.2.jsonl", "mbjsp_samples.jsonl"),
    "typescript": ("mbtsp_release_v1.2.jsonl", "mbtsp_samples.jsonl"),
    "go": ("mbgp_release_v1.1.jsonl", "mbgp_samples.jsonl"),
}
PLAIN_RECIPE = {"cpp": "cpp", "java": "java", "javascript": "javascript",
                "typescript": "typescript", "go": "go"}  # fmt: skip
PLAIN_TIMEOUT_S = 30.0


@dataclass
class Agreement:
    language: str
    ids: list[str]
    sandboxed: list[bool]
    plain: list[bool]
    verdicts: list[str]
    sandboxed_s: float
    plain_s: float
    compile_s: float
    plain_compile_s: list[float]

    @property
    def agree(self) -> int:
        return sum(a == b for a, b in zip(self.sandboxed, self.plain, strict=True))

    def disagreements(self) -> list[tuple[str, bool, bool, str]]:
        return [(i, a, b, v) for i, a, b, v in
                zip(self.ids, self.sandboxed, self.plain, self.verdicts, strict=True) if a != b]  # fmt: skip


def toolchains() -> Any:
    """sandbox_images/runtime/toolchains.py (the plain baseline), imported from its folder."""
    here = str(ROOT / "sandbox_images" / "runtime")
    if here not in sys.path:
        sys.path.insert(0, here)
    import toolchains as module

    return module


def load(language: str, limit: int | None = None, start: int = 0) -> list[tuple[Any, Any]]:
    """(problem, sample) pairs of MBXP's model samples in ``language``, in file order."""
    from reward_api.data.converters.mbxp import mbxp_problem, mbxp_sample, problem_id

    problems_file, samples_file = FILES[language]
    with open(MBXP / problems_file) as f:
        problems = {problem_id(r["task_id"]): mbxp_problem(r) for r in map(json.loads, f)}
    pairs = []
    with open(MBXP / samples_file) as f:
        for k, rec in enumerate(map(json.loads, f)):
            p = problems[problem_id(rec["task_id"])]
            pairs.append((p, mbxp_sample(p, rec["completion"], sample_id=str(k))))
    return pairs[start:][:limit] if limit is not None else pairs[start:]


def agreement(
    language: str, pairs: list[tuple[Any, Any]], workers: int = 1, plain_recipe: str | None = None
) -> Agreement:
    """Judge ``pairs`` sandboxed and plain in the same run (``plain_recipe``: another
    toolchains.py recipe for the plain side, e.g. ``cpp-nopch``: g++ as a user runs it)."""
    from reward_api.verify import languages
    from reward_api.verify.pipeline import Job, Verifier
    from reward_api.verify.settings import VerifierSettings

    settings = VerifierSettings(sandbox="process", workers=workers)
    with Verifier(settings) as verifier:
        verifier.language_pool(language).warm(1)
        t0 = time.perf_counter()
        results = verifier.verify([Job(p, s) for p, s in pairs])
        sandboxed_s = time.perf_counter() - t0
        compile_s = verifier.stage_seconds.get("compile", 0.0)
    tc = toolchains()
    job = {
        "recipe": plain_recipe or PLAIN_RECIPE[language],
        "timeout_s": PLAIN_TIMEOUT_S,
        "programs": [{"source": s.code + "\n" + p.tests[0].code, "inputs": [""]} for p, s in pairs],
    }
    t0 = time.perf_counter()
    plain = tc.run_chrooted(str(languages.default_root(language)), tc.with_server_source(job))
    plain_s = time.perf_counter() - t0
    plain_ok = [
        bool(r["compiles"]) and all(c["rc"] == 0 for c in r["compiles"])
        and bool(r["runs"]) and all(x["rc"] == 0 for x in r["runs"])
        for r in plain["programs"]
    ]  # fmt: skip
    return Agreement(
        language=language,
        ids=[s.problem_id for _, s in pairs],
        sandboxed=[r.accepted for r in results],
        plain=plain_ok,
        verdicts=[r.verdict.value for r in results],
        sandboxed_s=sandboxed_s,
        plain_s=plain_s,
        compile_s=compile_s,
        plain_compile_s=[c["time_s"] for r in plain["programs"] for c in r["compiles"]],
    )


def bench_languages(per_language: int = 24) -> list[dict[str, Any]]:
    """Per language: agreement, and sandboxed per-sample wall time over plain compile + run."""
    rows = {}
    for language, plain_recipe in [*((lang, None) for lang in FILES), ("cpp", "cpp-nopch")]:
        pairs = load(language, per_language)
        a = agreement(language, pairs, plain_recipe=plain_recipe)
        n = len(pairs)
        rows[f"{language} vs {plain_recipe or PLAIN_RECIPE[language]}"] = {
            "samples": n,
            "agree": a.agree,
            "accepted": sum(a.sandboxed),
            "sandboxed_s_per_sample": round(a.sandboxed_s / n, 3),
            "plain_s_per_sample": round(a.plain_s / n, 3),
            "ratio": round(a.sandboxed_s / a.plain_s, 2),
            "compile_s_per_build": round(a.compile_s / n, 3),
            "plain_compile_s_median": round(sorted(a.plain_compile_s)[len(a.plain_compile_s) // 2], 3)
            if a.plain_compile_s else None,
        }  # fmt: skip
    return [{"case": name, **row} for name, row in rows.items()]
