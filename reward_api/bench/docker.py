"""Per-test cost of the docker backend against two baselines measured in the same run.

- ``docker``: samples through ``Verifier(sandbox="docker")`` with warm cells (containers
  started before the clock starts; ``docker_cold_s`` adds their start-up).
- ``spawn``: a bare ``python3 -I solution.py`` process per test, no sandbox, the same
  parallelism: what an unsandboxed harness pays.
- ``docker_run``: one ``docker run --rm -i`` of the same image per test, hardened the same
  way: what a naive container sandbox pays. Slow, so it times ``docker_run_tests`` tests and
  reports the per-test mean.
- ``process`` (for reference): the bubblewrap backend on the same jobs.

``python -m reward_api.bench.docker [N_TESTS]`` prints the dict as JSON; the lead's
``make bench`` prints the ratios. Nothing here gates on an absolute time.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from reward_api.schemas import Problem, Sample
from reward_api.verify.pipeline import Job, Verifier, VerifierSettings

TESTS_PER_SAMPLE = 10
PROGRAM = "import sys\n\ndef main():\n    a, b = map(int, sys.stdin.read().split())\n    print(a + b)\n\nmain()\n"


def _jobs(n_tests: int) -> list[Job]:
    tests = [
        {"type": "stdio", "input": f"{i} {i * 7}\n", "output": f"{i * 8}\n"}
        for i in range(TESTS_PER_SAMPLE)
    ]
    problem = Problem.model_validate({"id": "bench/add", "tests": tests})
    samples = max(1, n_tests // TESTS_PER_SAMPLE)
    # distinct programs, so the verifier's de-duplication does not skip any of them
    return [
        Job(
            problem,
            Sample.model_validate(
                {"problem_id": problem.id, "sample_id": str(i), "code": PROGRAM + f"# {i}\n"}
            ),
        )
        for i in range(samples)
    ]


def _time_verifier(backend: str, jobs: list[Job], workers: int) -> dict[str, float]:
    t0 = time.perf_counter()
    settings = VerifierSettings.model_validate({"sandbox": backend, "workers": workers})
    with Verifier(settings) as verifier:
        verifier.pool.warm()
        warm_at = time.perf_counter()
        results = verifier.verify(jobs)
        done = time.perf_counter()
        tests = verifier.tests_run
    if not all(r.accepted for r in results):
        bad = next(r for r in results if not r.accepted)
        raise RuntimeError(
            f"{backend}: a benchmark sample was not accepted: {bad.verdict} {bad.error}"
        )
    return {"tests": tests, "wall_s": done - warm_at, "cold_s": done - t0}


def _time_spawn(n_tests: int, workers: int, python: str) -> float:
    folder = Path(tempfile.mkdtemp(prefix="codereward-bench-"))
    try:
        program = folder / "solution.py"
        program.write_text(PROGRAM)

        def one(i: int) -> None:
            out = subprocess.run(
                [python, "-I", str(program)], input=f"{i} {i * 7}\n".encode(),
                capture_output=True, timeout=60, check=True, env={"PATH": "/usr/bin:/bin"},
            )  # fmt: skip
            if out.stdout.strip() != str(i * 8).encode():
                raise RuntimeError("spawn baseline answered wrongly")

        t0 = time.perf_counter()
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(one, range(n_tests)))
        return time.perf_counter() - t0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _time_docker_run(n_tests: int, workers: int, image: str) -> float:
    def one(i: int) -> None:
        out = subprocess.run(
            ["docker", "run", "--rm", "-i", "--network", "none", "--read-only",
             "--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--user", "65534:65534",
             "--pids-limit", "96", "--memory", "768m", "--tmpfs", "/tmp:size=256m",
             "--label", "codereward.bench=1", image, "/usr/bin/python3", "-I", "-c", PROGRAM],
            input=f"{i} {i * 7}\n".encode(), capture_output=True, timeout=120, check=True,
        )  # fmt: skip
        if out.stdout.strip() != str(i * 8).encode():
            raise RuntimeError("docker run baseline answered wrongly")

    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, range(n_tests)))
    return time.perf_counter() - t0


def bench_docker(
    n_tests: int = 1200,
    docker_run_tests: int = 40,
    workers: int | None = None,
    process: bool = True,
    quick: bool = False,
) -> dict[str, Any]:
    """Per-test seconds of each way to run a test, and the ratios against the baselines.

    ``quick`` (for a smoke run of ``make bench``): at most 200 tests and 10 ``docker run``s.
    """
    if quick:
        n_tests, docker_run_tests = min(n_tests, 200), min(docker_run_tests, 10)
    workers = workers or os.cpu_count() or 1
    jobs = _jobs(n_tests)
    n = len(jobs) * TESTS_PER_SAMPLE
    image = VerifierSettings.model_validate({}).docker_image
    docker = _time_verifier("docker", jobs, workers)
    spawn_s = _time_spawn(n, workers, shutil.which("python3") or sys.executable)
    run_n = max(1, min(docker_run_tests, n))
    run_s = _time_docker_run(run_n, workers, image)
    out: dict[str, Any] = {
        "tests": n,
        "workers": workers,
        "docker_per_test_s": docker["wall_s"] / n,
        "docker_cold_s": docker["cold_s"],
        "spawn_per_test_s": spawn_s / n,
        "docker_run_tests": run_n,
        "docker_run_per_test_s": run_s / run_n,
    }
    if process:
        proc = _time_verifier("process", jobs, workers)
        out["process_per_test_s"] = proc["wall_s"] / n
        out["process_vs_spawn"] = out["process_per_test_s"] / out["spawn_per_test_s"]
    out["docker_vs_spawn"] = out["docker_per_test_s"] / out["spawn_per_test_s"]
    out["docker_vs_docker_run"] = out["docker_per_test_s"] / out["docker_run_per_test_s"]
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    result = bench_docker(n_tests=int(args[0])) if args else bench_docker()
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
