"""Gateway benchmark: requests/s and p50/p99 on loopback, cache hits and misses, embedded and
Celery modes, and the gateway's overhead as a ratio to ``Verifier.verify`` on the same work.

``bench_gateway()`` starts everything it measures as real processes on 127.0.0.1 (a
``codereward serve`` per mode, a private ``redis-server`` and a ``codereward worker`` for
the Celery mode), drives them with a bounded closed-loop load generator (a fixed number
of requests from a fixed number of client threads) and stops them. The baseline, direct
``Verifier.verify`` on the same samples, is measured in the same run, so ratios compare
like with like on a shared machine. Nothing here gates a test.

Run alone: ``python -m reward_api.bench.gateway`` (JSON on stdout).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from reward_api.schemas import Problem, Sample
from reward_api.verify.pipeline import Job, Verifier, VerifierSettings

PROBLEM = {
    "id": "bench-add",
    "tests": [
        {"type": "stdio", "input": f"{a} {b}\n", "output": f"{a + b}\n"}
        for a, b in [(1, 2), (30, 4), (-5, 5), (7, 8), (100, 200)]
    ],
}
PROGRAM = "a, b = map(int, input().split())\nprint(a + b)\n"
BATCHES = (1, 8, 64)
CONCURRENCY = 4


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _items(tag: str, n: int) -> list[dict[str, Any]]:
    return [{"problem_id": PROBLEM["id"], "code": PROGRAM + f"# {tag} {i}\n"} for i in range(n)]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def load(
    url: str, bodies: list[dict[str, Any]], concurrency: int, headers: dict[str, str]
) -> dict[str, float]:
    """Send every body once from ``concurrency`` threads; latency percentiles and rates."""
    latencies: list[float] = []
    lock = threading.Lock()
    it = iter(bodies)
    n_items = sum(len(b["items"]) for b in bodies)

    def worker() -> None:
        with httpx.Client(timeout=600) as client:
            while True:
                with lock:
                    body = next(it, None)
                if body is None:
                    return
                t0 = time.perf_counter()
                r = client.post(url + "/v1/rewards", json=body, headers=headers)
                dt = time.perf_counter() - t0
                if r.status_code != 200:
                    raise RuntimeError(f"bench request failed: {r.status_code} {r.text[:200]}")
                with lock:
                    latencies.append(dt)

    threads = [threading.Thread(target=worker) for _ in range(min(concurrency, len(bodies)))]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    return {
        "requests": len(bodies),
        "req_per_s": round(len(bodies) / wall, 2),
        "items_per_s": round(n_items / wall, 2),
        "p50_ms": round(_percentile(latencies, 0.5) * 1000, 3),
        "p99_ms": round(_percentile(latencies, 0.99) * 1000, 3),
    }


class _Procs:
    """Processes started by the bench, stopped by process group."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.procs: list[subprocess.Popen[bytes]] = []

    def start(self, argv: list[str], env: dict[str, str], name: str) -> subprocess.Popen[bytes]:
        with open(self.workdir / f"{name}.log", "ab") as log:  # the child keeps its own fd
            p = subprocess.Popen(
                argv, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.procs.append(p)
        return p

    def stop(self) -> None:
        for p in reversed(self.procs):
            try:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait(10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        self.procs.clear()


def _wait(check: Callable[[], bool], what: str, timeout_s: float = 90) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (httpx.TransportError, OSError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"bench: {what} did not come up")


def _serve(procs: _Procs, env: dict[str, str], name: str) -> str:
    port = _free_port()
    argv = [sys.executable, "-m", "reward_api.service.cli", "serve", "--port", str(port)]
    procs.start(argv, env, name)
    url = f"http://127.0.0.1:{port}"
    _wait(lambda: httpx.get(url + "/readyz", timeout=30).status_code == 200, name)
    r = httpx.post(url + "/v1/problems", json={"problems": [PROBLEM]}, timeout=30)
    r.raise_for_status()
    return url


def _measure_mode(url: str, tag: str, rounds: dict[int, int]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for batch in BATCHES:
        bodies = [{"items": _items(f"{tag}-{batch}-{r}", batch)} for r in range(rounds[batch])]
        miss = load(url, bodies, CONCURRENCY, {})
        hit = load(url, bodies * max(1, 40 // rounds[batch]), CONCURRENCY, {})
        out[f"batch_{batch}"] = {"miss": miss, "hit": hit}
    hit_ms, floor_ms = _cached_vs_floor(url, {"items": _items(f"{tag}-1-0", 1)}, 300)
    out["cached_single_item_p50_ms"] = hit_ms
    out["healthz_floor_p50_ms"] = floor_ms
    # The cached path over the cheapest request the same server answers, interleaved so
    # both see the same machine load.
    out["cached_single_item_over_healthz"] = round(hit_ms / floor_ms, 3)
    return out


def _cached_vs_floor(url: str, body: dict[str, Any], n: int) -> tuple[float, float]:
    """p50 ms of a cached single-item request and of /healthz, alternating, one client."""
    hits: list[float] = []
    floor: list[float] = []
    with httpx.Client(timeout=30) as client:
        client.post(url + "/v1/rewards", json=body).raise_for_status()  # now cached
        for _ in range(n):
            t0 = time.perf_counter()
            client.post(url + "/v1/rewards", json=body)
            t1 = time.perf_counter()
            client.get(url + "/healthz")
            t2 = time.perf_counter()
            hits.append(t1 - t0)
            floor.append(t2 - t1)
    return round(_percentile(hits, 0.5) * 1000, 3), round(_percentile(floor, 0.5) * 1000, 3)


def _direct(n: int, settings: VerifierSettings) -> float:
    problem = Problem.model_validate(PROBLEM)
    jobs = [Job(problem, Sample.model_validate(it)) for it in _items("direct", n)]
    with Verifier(settings) as verifier:
        verifier.verify(jobs[:2])  # start the cells, as the servers' readiness checks did
        t0 = time.perf_counter()
        verifier.verify(jobs)
        return time.perf_counter() - t0


def bench_gateway(quick: bool = False) -> dict[str, Any]:
    """Measure the gateway; ``quick`` shrinks the request counts (a smoke run)."""
    rounds = {1: 8, 8: 4, 64: 2} if not quick else {1: 2, 8: 1, 64: 1}
    workdir = Path(tempfile.mkdtemp(prefix="codereward-bench-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODEREWARD_")}
    for keep in ("CODEREWARD_RUNTIME_ROOT", "CODEREWARD_SANDBOX", "CODEREWARD_WORKERS"):
        if keep in os.environ:
            env[keep] = os.environ[keep]
    settings = VerifierSettings.model_validate({})
    env.setdefault("CODEREWARD_WORKERS", str(settings.workers))
    report: dict[str, Any] = {"concurrency": CONCURRENCY, "workers": settings.workers}
    procs = _Procs(workdir)
    try:
        direct_s = _direct(64, settings)
        report["direct_verify_64_items_s"] = round(direct_s, 3)

        url = _serve(procs, env, "embedded")
        report["embedded"] = _measure_mode(url, "emb", rounds)
        procs.stop()
        miss64 = report["embedded"]["batch_64"]["miss"]
        report["embedded_overhead_ratio"] = round(
            (64 / miss64["items_per_s"]) / direct_s, 3
        )  # gateway seconds per 64 misses over direct seconds for the same 64

        if shutil.which("redis-server"):
            report["celery"] = _bench_celery(env, workdir, rounds, direct_s)
        else:
            report["celery"] = {"skipped": "redis-server not installed"}
    finally:
        procs.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    report["cached_single_item_p50_ms"] = report["embedded"]["cached_single_item_p50_ms"]
    report["cached_single_item_p50_target_ms"] = 5.0
    return report


def _bench_celery(
    env: dict[str, str], workdir: Path, rounds: dict[int, int], direct_s: float
) -> dict[str, Any]:
    import redis

    port = _free_port()
    infra = _Procs(workdir)
    out: dict[str, Any] = {}
    by_chunk: dict[int, float] = {}
    try:
        redis_argv = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
        infra.start([*redis_argv, "--dir", str(workdir)], env, "redis")
        _wait(lambda: bool(redis.Redis(port=port).ping()), "redis-server")
        # One task per sample against one task per chunk of 8, on the same 64-item batches.
        for chunk in (1, 8):
            redis.Redis(port=port).flushall()
            cenv = dict(env, CODEREWARD_BROKER_URL=f"redis://127.0.0.1:{port}/0")
            cenv["CODEREWARD_TASK_CHUNK_SIZE"] = str(chunk)
            run = _Procs(workdir)
            try:
                worker = [sys.executable, "-m", "reward_api.service.cli", "worker"]
                run.start([*worker, "--concurrency", "2"], cenv, f"worker-{chunk}")
                url = _serve(run, cenv, f"celery-{chunk}")
                bodies = [{"items": _items(f"chunk{chunk}-{r}", 64)} for r in range(rounds[64])]
                res = load(url, bodies, CONCURRENCY, {})
                out[f"batch_64_miss_chunk_{chunk}"] = res
                by_chunk[chunk] = res["items_per_s"]
                if chunk == 8:
                    out.update(_measure_mode(url, "cel", rounds))
            finally:
                run.stop()
    finally:
        infra.stop()
    out["faster_chunking"] = "per_chunk_8" if by_chunk[8] >= by_chunk[1] else "per_sample"
    out["chunk_8_over_per_sample_throughput"] = round(by_chunk[8] / by_chunk[1], 3)
    miss64 = out["batch_64"]["miss"]
    out["celery_overhead_ratio"] = round((64 / miss64["items_per_s"]) / direct_s, 3)
    return out


if __name__ == "__main__":
    print(json.dumps(bench_gateway(quick="--quick" in sys.argv), indent=2))
