"""``make bench``: speed and memory as ratios against baselines measured in the same run.

Sections (each prints its own table; a section whose parts are missing says why):

- verify: ``codereward verify`` (the CLI, cold start included, default reward with the hack
  gate) on >= 1,200 MBPP tests and on APPS, against plain unsandboxed runs on the same
  number of workers: a fresh ``python3 -I`` per test, and a fresh one per sample;
- judged: HumanEval-shaped ``check(candidate)`` tests (the judge path), 4 samples a
  problem, against a fresh interpreter per sample;
- round trip: the cost of one call from the judge's test code into the candidate;
- cell memory: what one warm cell costs (cgroup accounting, when available);
- languages: MBXP model samples in C++, Java, JavaScript, TypeScript and Go (C and Rust:
  a hand-written set), judged sandboxed (one worker) against a plain compile + run under
  chroot, in the same run: per-sample ratios (distinct samples, and an RL-shaped batch),
  compile time per build; and the per-test ratio against a plain run of the same artifact
  (``reward_api.bench.languages``);
- static, docker, gateway: the benches those components ship.

No number here gates a test: the ratios are for people and for the closing notes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reward_api.bench.unsandboxed import run_plain_many

ROOT = Path(__file__).resolve().parents[2]  # the repository
DATA = Path(os.environ.get("CODEREWARD_BENCH_DATA", ROOT.parent / "shared" / "data"))


def _reference_set(fmt: str, path: Path, max_tests: int) -> tuple[list[Any], list[Any]]:
    from reward_api.data.converters import convert

    problems, samples, _ = convert(fmt, str(path))
    by_id = {p.id: p for p in problems}
    chosen_p, chosen_s, seen, n_tests = [], [], set(), 0
    for s in samples:
        if s.problem_id in seen:
            continue
        seen.add(s.problem_id)
        chosen_p.append(by_id[s.problem_id])
        chosen_s.append(s)
        n_tests += len(by_id[s.problem_id].tests)
        if n_tests >= max_tests:
            break
    return chosen_p, chosen_s


def _write_jsonl(path: Path, rows: list[Any]) -> None:
    path.write_text("".join(r.model_dump_json() + "\n" for r in rows))


def bench_verify(
    name: str, fmt: str, path: Path, max_tests: int, workers: int = 2
) -> dict[str, Any]:
    problems, samples = _reference_set(fmt, path, max_tests)
    n_tests = sum(len(p.tests) for p in problems)
    with tempfile.TemporaryDirectory() as d:
        pf, sf, of = Path(d, "p.jsonl"), Path(d, "s.jsonl"), Path(d, "r.jsonl")
        _write_jsonl(pf, problems)
        _write_jsonl(sf, samples)
        cli = [
            sys.executable,
            "-m",
            "reward_api.cli",
            "verify",
            str(pf),
            str(sf),
            "-o",
            str(of),
            "-q",
        ]
        t0 = time.perf_counter()
        proc = subprocess.run([*cli, "--workers", str(workers)], capture_output=True, text=True)
        t_cr = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr[-2000:])
        accepted = sum(json.loads(line)["accepted"] for line in of.read_text().splitlines())
    by_id = {p.id: p for p in problems}
    pairs = [(by_id[s.problem_id], s.code or "") for s in samples]
    _, t_test = run_plain_many(pairs, workers=workers, per="test")
    _, t_sample = run_plain_many(pairs, workers=workers, per="sample")
    return {
        "set": name,
        "samples": len(samples),
        "tests": n_tests,
        "accepted": accepted,
        "verify_s": t_cr,
        "plain_per_test_s": t_test,
        "plain_per_sample_s": t_sample,
        "ms_per_test_verify": 1000 * t_cr / n_tests,
        "ms_per_test_plain": 1000 * t_test / n_tests,
        "ratio_vs_spawn_per_test": t_cr / t_test,
        "ratio_vs_fresh_interpreter_per_sample": t_cr / t_sample,
    }


def _whole_check_set(path: Path, n_problems: int, per_problem: int) -> list[Any]:
    """MBPP as HumanEval's harness shapes it: one test, ``def check(candidate)`` holding the
    asserts, then ``check(entry)``: a judged test. ``per_problem`` samples of each (the
    reference, told apart by a comment), as a pass@k evaluation or an RL group has."""
    from reward_api.schemas import Problem, Sample
    from reward_api.verify.pipeline import Job

    jobs = []
    for line in path.read_text().splitlines()[:n_problems]:
        rec = json.loads(line)
        fn = _first_function(rec["code"])
        if fn is None:
            continue
        body = "\n".join("    " + t.replace(fn + "(", "candidate(") for t in rec["test_list"])
        test = f"def check(candidate):\n{body}\n\ncheck({fn})\n"
        problem = Problem.model_validate(
            {
                "id": str(rec["task_id"]),
                "tests": [{"type": "assert", "code": test}],
                "reference": rec["code"],
                "setup_code": rec["test_setup_code"] or None,
            }
        )
        for k in range(per_problem):
            code = f"{rec['code']}\n# sample {k}\n"
            jobs.append(Job(problem, Sample(problem_id=problem.id, code=code)))
    return jobs


def _first_function(code: str) -> str | None:
    import re

    m = re.search(r"def\s+(\w+)\s*\(", code)
    return m.group(1) if m else None


def bench_judged(path: Path, n_problems: int = 160, per_problem: int = 4) -> dict[str, Any]:
    """Judged tests (the test code runs in a judge cell) against plain per-sample runs."""
    from reward_api.verify.pipeline import Verifier, VerifierSettings

    jobs = _whole_check_set(path, n_problems, per_problem)
    with Verifier(VerifierSettings(workers=2)) as verifier:
        verifier.verify(jobs[:2])  # cells up, as a serving verifier's are
        t0 = time.perf_counter()
        results = verifier.verify(jobs)
        t_verify = time.perf_counter() - t0
    pairs = [(j.problem, j.sample.code or "") for j in jobs]
    _, t_sample = run_plain_many(pairs, workers=2, per="sample")
    return {
        "set": f"MBPP as whole check() tests, {per_problem} samples a problem",
        "samples": len(jobs),
        "accepted": sum(r.accepted for r in results),
        "verify_s": t_verify,
        "plain_per_sample_s": t_sample,
        "ratio_vs_fresh_interpreter_per_sample": t_verify / t_sample,
    }


def bench_round_trip(backend: str = "process", calls: int = 400) -> dict[str, Any]:
    """The cost of one call from the judge's test code into the candidate and back: a test
    making ``calls`` calls, less a test making one, per call."""
    from reward_api.schemas import Problem, Sample
    from reward_api.verify.pipeline import Job, Verifier, VerifierSettings

    def timed(n: int, verifier: Any, tag: int) -> float:
        test = f"for i in range({n}):\n    assert f(i) == i + 1\n"
        problem = Problem.model_validate(
            {"id": f"rt{n}", "tests": [{"type": "assert", "code": test}]}
        )
        code = f"def f(x):\n    return x + 1\n# {tag}\n"
        t0 = time.perf_counter()
        (result,) = verifier.verify([Job(problem, Sample(problem_id=problem.id, code=code))])
        if not result.accepted:
            raise RuntimeError(f"the round-trip program was not accepted: {result.verdict}")
        return time.perf_counter() - t0

    with Verifier(VerifierSettings(sandbox=backend, workers=1)) as verifier:
        for tag in range(2):
            timed(1, verifier, tag), timed(calls, verifier, tag)
        one = min(timed(1, verifier, 10 + t) for t in range(3))
        many = min(timed(calls, verifier, 20 + t) for t in range(3))
    return {
        "backend": backend,
        "path": "judge <-> candidate socket" if backend == "process" else "relayed by the host",
        "ms_per_call_round_trip": 1000 * (many - one) / (calls - 1),
    }


def bench_cell_memory() -> dict[str, Any]:
    from reward_api.sandbox.process import ProcessCell
    from reward_api.verify.pipeline import VerifierSettings

    cell = ProcessCell(VerifierSettings().policy())
    try:
        d = cell.cgroups.dirs.get("memory")
        if d is None:
            return {"cell_memory_mb": None, "note": "no writable memory cgroup here"}
        name = "memory.current" if (d / "memory.current").exists() else "memory.usage_in_bytes"
        return {"cell_memory_mb": int((d / name).read_text()) / 2**20}
    finally:
        cell.close()


def _section(title: str, fn: Callable[[], Any]) -> None:
    print(f"\n## {title}", flush=True)
    try:
        out = fn()
    except Exception as exc:  # a bench section that cannot run here says why and the rest go on
        print(f"  skipped: {type(exc).__name__}: {str(exc)[:300]}")
        return
    rows = out if isinstance(out, list) else [out]
    for row in rows:
        for key, value in row.items():
            shown = f"{value:.3f}" if isinstance(value, float) else value
            print(f"  {key:42s} {shown}")
        print()


def main() -> int:
    print("codereward bench: ratios < 1 mean codereward is faster than the baseline")
    if DATA.exists():
        _section(
            "verify vs plain execution (MBPP asserts, 2 workers)",
            lambda: bench_verify("mbpp", "mbpp", DATA / "mbpp.jsonl", 1200),
        )
        _section(
            "verify vs plain execution (APPS stdio/call, 2 workers)",
            lambda: bench_verify("apps", "apps", DATA / "apps_mini_val_150.jsonl", 1000),
        )
        _section(
            "judged tests vs plain execution (HumanEval-shaped check(), 2 workers)",
            lambda: bench_judged(DATA / "mbpp.jsonl"),
        )
    else:
        print(f"\n## verify\n  skipped: no datasets at {DATA} (set CODEREWARD_BENCH_DATA)")
    _section("one call round trip, judge to candidate (process backend)", bench_round_trip)
    _section(
        "one call round trip, judge to candidate (docker backend)",
        lambda: bench_round_trip("docker"),
    )
    _section("memory of one warm cell", bench_cell_memory)

    def languages() -> Any:
        from reward_api.bench.languages import bench_languages

        return bench_languages(int(os.environ.get("CODEREWARD_BENCH_LANGUAGE_SAMPLES", "24")))

    def per_test() -> Any:
        from reward_api.bench.languages import bench_per_test

        return bench_per_test()

    _section(
        "compiled languages per sample vs plain compile + run (MBXP model samples, C and "
        "Rust hand-written; 1 worker; targets vs plain g++ -O2: cpp <= 0.8x, others <= 1.0x)",
        languages,
    )
    _section("compiled languages per test vs a plain run of the same artifact (1 worker)", per_test)

    def static() -> Any:
        from reward_api.bench.static import bench_static

        return bench_static(64)

    def docker() -> Any:
        from reward_api.bench.docker import bench_docker

        return bench_docker()

    def gateway() -> Any:
        from reward_api.bench.gateway import bench_gateway

        return bench_gateway()

    _section(
        "static analysis at batch 64 (semgrep-core, batched vs one CLI call per program)", static
    )
    _section("docker backend per test vs bare spawn and docker run", docker)
    _section("gateway (loopback, bounded load)", gateway)
    return 0


if __name__ == "__main__":
    sys.exit(main())
