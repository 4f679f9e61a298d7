"""The soak: bounded concurrent clients on loopback for a fixed time, with faults injected.

What runs (all real, all on 127.0.0.1): a private redis-server (append-only file), two
``codereward worker`` supervisors and one ``codereward serve`` in broker mode, their
runtime root behind a symlink the soak owns (``gateway_procs.Runtime``).

The clients, each a thread with a bounded loop that stops at the deadline:

- verl: one ``/run_code`` per test, a sample's tests concurrently, with the body, the
  timeout (compile + run + 10 s) and the retries (504 only, 3 attempts, 1 s then 2 s
  apart) of ``verl/utils/reward_score/sandbox_fusion/utils.py`` (verl 0.9.1); stdout is
  compared as verl does (``rstrip("\\n")`` equality);
- OpenRLHF: ``/compat/openrlhf`` batches with integer, empty and string labels, retried
  as ``openrlhf/utils/remote_rm_utils.py`` (0.8.1, 0.9.0) does: any error, 5 tries, 1 s
  apart, timeout 180 s;
- ``/v1/rewards`` batches through ``reward_api.client.RewardClient`` (429 and 5xx retried,
  Retry-After honoured), a share of them repeats (cache hits);
- ``wait: false`` jobs, polled until done;
- a probe: one fresh item on ``/v1/rewards`` a second, to time recoveries.

The faults, at fixed fractions of the run: SIGKILL of one worker's whole process group
(a new worker is started 5 s later, as a supervisor or a pod would), a Redis restart
(down 3 s), and a broken runtime (every running cell killed, no cell can start) for a
while. Every answer is checked against what the program does; a client timeout is a
hang. Infrastructure answers (SandboxError, sandbox_error, an error after the client's
retries) are expected only while the runtime is broken (and a grace after it); anywhere
else they are counted as ``infra_healthy``, which must be 0.

At the end: cells per worker within the pools' size, no cell cgroup of a dead process, no
process of the run left after the stack stopped, no new container, descriptors and memory
of the gateway and of the worker that was never killed flat between the first quarter
and the end. ``run`` returns the figures (``Report``); ``python tests/service/soak.py
--duration 300`` prints them as JSON.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import random
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gateway_procs import (
    ADD,
    Proc,
    Runtime,
    base_env,
    comm,
    descendants,
    kill_cells,
    start_redis,
    start_server,
    start_worker,
    wait_ready,
)

from reward_api.client import RewardClient

CASES = [(a, b) for a, b in [(1, 2), (3, 4), (10, -5), (0, 0), (7, 8)]]
PROGRAMS = {
    "ok": ("a, b = map(int, input().split())\nprint(a + b)", lambda a, b: str(a + b)),
    "wrong": ("a, b = map(int, input().split())\nprint(a - b)", lambda a, b: str(a - b)),
    "zero": ("print(0)", lambda a, b: "0"),
    "crash": ("import sys\nsys.exit(3)", None),
}
VERDICT = {"ok": "accepted", "wrong": "wrong_answer", "zero": "wrong_answer",
           "crash": "runtime_error"}  # fmt: skip
PROMPT = "Soak problem 77: read two integers a and b on one line and print a + b."
TEMPLATE = "<|im_start|>user\n{}<|im_end|>\n<|im_start|>assistant\n"
SOAK_PROBLEM = dict(ADD, id="soak/77", prompt=PROMPT)
GRACE_S = 20.0  # after the runtime is mended, answers may still carry its failure


@dataclass
class Call:
    kind: str
    t0: float
    t1: float
    outcome: str  # ok | wrong | infra | hang | lost
    detail: str = ""


@dataclass
class Report:
    duration_s: float
    requests: dict[str, int] = field(default_factory=dict)
    items: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    infra_healthy: int = 0
    infra_in_fault: int = 0
    latency_s: dict[str, dict[str, float]] = field(default_factory=dict)
    faults: dict[str, float] = field(default_factory=dict)
    recovery_s: dict[str, float | None] = field(default_factory=dict)
    leaks: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


class Soak:
    def __init__(
        self, duration_s: float, workdir: Path, lease_s: float | None = None, docker: bool = False
    ) -> None:
        self.duration_s = duration_s
        self.workdir = workdir
        self.calls: list[Call] = []
        self._lock = threading.Lock()
        self.runtime = Runtime()
        self.redis, self.port = start_redis(workdir / "redis")
        extra: dict[str, str] = {}
        if lease_s is not None:  # a short run uses a short lease, so a kill costs little
            extra = {"CODEREWARD_VISIBILITY_TIMEOUT_S": str(lease_s),
                     "CODEREWARD_LEASE_RENEW_S": str(max(1.0, lease_s / 6)),
                     "CODEREWARD_RESTORE_INTERVAL_S": "2"}  # fmt: skip
        self.env = base_env(
            CODEREWARD_BROKER_URL=f"redis://127.0.0.1:{self.port}/0",
            CODEREWARD_RUNTIME_ROOT=str(self.runtime.root),
            CODEREWARD_WORKERS="2",
            CODEREWARD_REQUEST_TIMEOUT_S="300",
            **extra,
        )
        # worker "a" (the one killed) runs docker cells when asked: its orphaned containers
        # must be removed by the worker started in its place
        self.env_a = dict(self.env, CODEREWARD_SANDBOX="docker") if docker else self.env
        self.docker = docker
        self.workers = [
            start_worker(self.env_a, workdir, "a"),
            start_worker(self.env, workdir, "b"),
        ]
        self.gateway, self.url = start_server(self.env, workdir)
        wait_ready(self.url, 180)
        r = httpx.post(
            self.url + "/v1/problems", json={"problems": [ADD, SOAK_PROBLEM]}, timeout=30
        )
        assert r.status_code == 200, r.text
        # pid -> its identity (comm and start time): pids are reused (pid_max may be 32768)
        self.seen_pids: dict[int, str] = {}
        self.broken: list[tuple[float, float]] = []  # (broken at, mended at + grace)
        self.stop_at = 0.0
        self.t_start = 0.0

    # ------------------------------------------------------------ bookkeeping
    def record(self, kind: str, t0: float, outcome: str, detail: str = "") -> None:
        with self._lock:
            self.calls.append(Call(kind, t0, time.monotonic(), outcome, detail[:200]))

    def in_fault(self, c: Call) -> bool:
        return any(c.t0 < end and c.t1 > start for start, end in self.broken)

    def running(self) -> bool:
        return time.monotonic() < self.stop_at

    @staticmethod
    def tag() -> str:
        return f"{time.time_ns()}-{random.random()}"

    # ------------------------------------------------------------ clients
    def verl_client(self) -> None:
        """One sample = five /run_code calls at once, one per test (verl's pattern)."""
        with cf.ThreadPoolExecutor(len(CASES)) as pool:
            while self.running():
                name = random.choice(list(PROGRAMS))
                code = PROGRAMS[name][0] + f"\n# {self.tag()}"
                list(pool.map(lambda ab: self._verl_case(name, code, *ab), CASES))

    def _verl_case(self, name: str, code: str, a: int, b: int) -> None:
        body = {"compile_timeout": 10, "run_timeout": 10, "code": code, "stdin": f"{a} {b}\n",
                "memory_limit_MB": 1024, "language": "python", "files": {}, "fetch_files": []}  # fmt: skip
        t0 = time.monotonic()
        answer = None
        for attempt in range(3):
            try:
                r = httpx.post(self.url + "/run_code", json=body, timeout=30)
            except httpx.TimeoutException:
                self.record("run_code", t0, "hang", "client timeout (30 s)")
                return
            except httpx.TransportError as exc:
                self.record("run_code", t0, "infra", f"transport: {exc}")
                return
            if r.status_code == 504:
                if attempt < 2:
                    time.sleep(attempt + 1)
                continue
            if r.status_code != 200:
                self.record("run_code", t0, "infra", f"HTTP {r.status_code}")
                return
            answer = r.json()
            break
        if answer is None:
            self.record("run_code", t0, "infra", "504 three times")
            return
        if answer["status"] == "SandboxError":
            self.record("run_code", t0, "infra", answer.get("message", ""))
            return
        expect = PROGRAMS[name][1]
        run = answer.get("run_result") or {}
        if expect is None:
            ok = answer["status"] == "Failed" and run.get("return_code") == 3
        else:
            ok = answer["status"] == "Success" and (run.get("stdout") or "").rstrip("\n") == expect(
                a, b
            )
        self.record("run_code", t0, "ok" if ok else "wrong", json.dumps(answer)[:200])

    def openrlhf_client(self) -> None:
        prompt = TEMPLATE.format(PROMPT)
        while self.running():
            names = [random.choice(list(PROGRAMS)) for _ in range(4)]
            tag = self.tag()
            query = [
                prompt + f"```python\n{PROGRAMS[n][0]}\n# {tag} {i}\n```"
                for i, n in enumerate(names)
            ]
            labels: list[Any] = [77, "", "soak/77", 77.0]
            data = {"query": query, "prompts": [prompt] * 4, "labels": labels}
            t0 = time.monotonic()
            got = None
            tries: list[str] = []  # what each failed try got, at what time of the run
            for _ in range(5):
                at = round(time.monotonic() - self.t_start, 1)
                try:
                    r = httpx.post(self.url + "/compat/openrlhf", json=data, timeout=180)
                    if r.status_code == 200:
                        got = r.json()
                        break
                    tries.append(f"{at} s: {r.status_code} {r.text[:120]}")
                except httpx.TimeoutException:
                    self.record("openrlhf", t0, "hang", "client timeout (180 s)")
                    break
                except httpx.TransportError as exc:
                    tries.append(f"{at} s: {type(exc).__name__}")
                time.sleep(1)
            else:
                self.record("openrlhf", t0, "infra", "5 failed tries: " + "; ".join(tries))
                continue
            if got is None:
                continue
            want = [1.0 if n == "ok" else 0.0 for n in names]
            if len(got["rewards"]) != 4:
                self.record("openrlhf", t0, "lost", str(got))
            else:
                self.record(
                    "openrlhf", t0, "ok" if got["rewards"] == want else "wrong", str(got["rewards"])
                )

    def v1_client(self) -> None:
        with RewardClient(self.url, batch_size=8, max_concurrency=1, timeout_s=300,
                          max_retries=10, backoff_s=0.5, backoff_max_s=5.0) as client:  # fmt: skip
            last: tuple[list[dict], list[str]] | None = None
            while self.running():
                if last is not None and random.random() < 0.3:
                    items, names = last  # the same batch again: answered from the cache
                else:
                    names = [random.choice(list(PROGRAMS)) for _ in range(8)]
                    tag = self.tag()
                    items = [{"problem_id": "add", "sample_id": f"{tag}-{i}",
                              "code": PROGRAMS[n][0] + f"\n# {tag} {i}"} for i, n in enumerate(names)]  # fmt: skip
                    last = (items, names)
                t0 = time.monotonic()
                try:
                    results = client.rewards(items)
                except httpx.TimeoutException:
                    self.record("v1", t0, "hang", "client timeout")
                    continue
                self._check_results("v1", t0, items, names, results)

    def job_client(self) -> None:
        while self.running():
            names = [random.choice(list(PROGRAMS)) for _ in range(6)]
            tag = self.tag()
            items = [{"problem_id": "add", "sample_id": f"{tag}-{i}",
                      "code": PROGRAMS[n][0] + f"\n# job {tag} {i}"} for i, n in enumerate(names)]  # fmt: skip
            t0 = time.monotonic()
            job = self._retry_503(lambda: httpx.post(self.url + "/v1/rewards",
                                                     json={"items": items, "wait": False}, timeout=30))  # fmt: skip
            if job is None or job.status_code != 202:
                self.record("job", t0, "infra", "submit failed")
                continue
            job_id = job.json()["job_id"]
            deadline = time.monotonic() + 300
            state: dict = {}
            while time.monotonic() < deadline:
                r = self._retry_503(lambda: httpx.get(self.url + f"/v1/jobs/{job_id}", timeout=30))
                if r is not None and r.status_code == 200:
                    state = r.json()
                    if state["status"] == "done":
                        break
                time.sleep(0.5)
            if state.get("status") != "done":
                self.record("job", t0, "hang", f"job {job_id} not done: {state}")
                continue
            self._check_results("job", t0, items, names, state["results"])

    def probe(self) -> None:
        """A fresh single item every second: the timeline recoveries are read from."""
        while self.running():
            item = [{"problem_id": "add", "code": PROGRAMS["ok"][0] + f"\n# probe {self.tag()}"}]
            t0 = time.monotonic()
            try:
                r = httpx.post(self.url + "/v1/rewards", json={"items": item}, timeout=120)
                ok = r.status_code == 200 and r.json()["results"][0]["verdict"] == "accepted"
                self.record("probe", t0, "ok" if ok else "infra", r.text[:200])
            except httpx.TimeoutException:
                self.record("probe", t0, "hang", "timeout")
            except httpx.TransportError as exc:
                self.record("probe", t0, "infra", str(exc))
            time.sleep(max(0.0, 1.0 - (time.monotonic() - t0)))

    @staticmethod
    def _retry_503(send: Any) -> httpx.Response | None:
        for _ in range(30):
            try:
                r = send()
            except httpx.TransportError:
                time.sleep(1)
                continue
            if r.status_code != 503:
                return r
            time.sleep(float(r.headers.get("retry-after", 1)))
        return None

    def _check_results(self, kind: str, t0: float, items: list[dict], names: list[str],
                       results: list[dict]) -> None:  # fmt: skip
        ids = [it["sample_id"] for it in items]
        if [r.get("sample_id") for r in results] != ids:
            self.record(kind, t0, "lost", f"{len(results)} results for {len(items)} items")
            return
        verdicts = [r["verdict"] for r in results]
        if "sandbox_error" in verdicts:
            self.record(kind, t0, "infra", str(verdicts))
            return
        want = [VERDICT[n] for n in names]
        self.record(kind, t0, "ok" if verdicts == want else "wrong", f"{verdicts} != {want}")

    # ------------------------------------------------------------ faults
    def kill_worker(self) -> float:
        victim = self.workers[0]
        victim.kill9()
        at = time.monotonic()
        time.sleep(5)
        self.workers[0] = start_worker(self.env_a, self.workdir, f"a-{int(at)}")
        return at

    def restart_redis(self) -> tuple[float, float]:
        self.redis.stop()
        down = time.monotonic()
        time.sleep(3)
        self.redis, _ = start_redis(self.workdir / "redis", self.port)
        return down, time.monotonic()

    def break_runtime(self, for_s: float) -> tuple[float, float]:
        self.runtime.break_()
        at = time.monotonic()
        for w in self.workers[1:] if self.docker else self.workers:
            kill_cells(w.pid)
        time.sleep(for_s)
        self.runtime.repair()
        mended = time.monotonic()
        self.broken.append((at, mended + GRACE_S))
        return at, mended

    # ------------------------------------------------------------ resources
    def sample_pids(self) -> None:
        for p in [self.gateway, *self.workers]:
            for pid in [p.pid, *descendants(p.pid)]:
                ident = _identity(pid)
                if ident:  # a descendant may be gone before it is read
                    self.seen_pids.setdefault(pid, ident)

    def celery_of(self, worker: Proc) -> int:
        """The Celery process under a worker supervisor (its only child)."""
        for pid in descendants(worker.pid):
            if _ppid(pid) == worker.pid:
                return pid
        return worker.pid

    def resources(self) -> dict[str, int]:
        steady = self.celery_of(self.workers[1])
        return {"gateway_rss_kb": _rss_kb(self.gateway.pid), "gateway_fds": _fds(self.gateway.pid),
                "worker_rss_kb": _rss_kb(steady), "worker_fds": _fds(steady)}  # fmt: skip

    def stop(self) -> None:
        for p in [self.gateway, *self.workers, self.redis]:
            p.stop()
        self.runtime.repair()
        self.runtime.remove()


def _identity(pid: int) -> str:
    """comm and start time (clock ticks since boot) of a live process, or "" when gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            head, tail = fh.read().rsplit(")", 1)
        return f"{head.split('(', 1)[1]}@{tail.split()[19]}"
    except (OSError, ValueError, IndexError):
        return ""


def _ppid(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return int(fh.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return -1


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _fds(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def _container_owners() -> list[int] | None:
    """Owner pids of the sandbox containers on this engine (None: no engine here)."""
    try:
        out = subprocess.run(
            ["docker", "ps", "-a", "--filter", "label=codereward.owner",
             "--format", '{{.Label "codereward.owner"}}'],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    pids = []
    for owner in out.stdout.split():
        parts = owner.split("/")
        if len(parts) == 4 and parts[2].isdigit():
            pids.append(int(parts[2]))
    return pids


def _cell_cgroups() -> list[str]:
    base = Path("/sys/fs/cgroup/codereward")
    try:
        return [d.name for d in base.iterdir() if d.is_dir() and d.name.startswith("cell-")]
    except OSError:
        return []


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run(
    duration_s: float, workdir: Path, lease_s: float | None = None, docker: bool = False
) -> Report:
    """Run the soak for ``duration_s`` and return its figures (the checks are the caller's)."""
    soak = Soak(duration_s, workdir, lease_s, docker)
    report = Report(duration_s=duration_s)
    try:
        t_start = soak.t_start = time.monotonic()
        soak.stop_at = t_start + duration_s
        threads = [threading.Thread(target=f, daemon=True) for f in
                   [soak.verl_client, soak.verl_client, soak.openrlhf_client, soak.v1_client,
                    soak.v1_client, soak.job_client, soak.probe]]  # fmt: skip
        for t in threads:
            t.start()

        def at(frac: float) -> None:
            while time.monotonic() < t_start + frac * duration_s:
                soak.sample_pids()
                time.sleep(0.5)

        at(0.15)
        early = soak.resources()
        at(0.25)
        kill_at = soak.kill_worker()
        at(0.45)
        redis_down, redis_up = soak.restart_redis()
        at(0.65)
        broken_at, mended_at = soak.break_runtime(min(20.0, 0.1 * duration_s))
        at(1.0)
        for t in threads:
            t.join(400)
        hung_threads = sum(t.is_alive() for t in threads)
        time.sleep(3)  # let the last replies settle
        late = soak.resources()
        soak.sample_pids()

        rel = lambda t: round(t - t_start, 1)  # noqa: E731
        report.faults = {"worker_sigkill_at_s": rel(kill_at), "redis_down_at_s": rel(redis_down),
                         "redis_up_at_s": rel(redis_up), "runtime_broken_at_s": rel(broken_at),
                         "runtime_mended_at_s": rel(mended_at)}  # fmt: skip
        probes = [c for c in soak.calls if c.kind == "probe"]

        def first_ok_after(t: float) -> float | None:
            done = [c.t1 for c in probes if c.t0 >= t and c.outcome == "ok"]
            return round(min(done) - t, 2) if done else None

        inflight_at_kill = [c.t1 - kill_at for c in soak.calls
                            if c.kind in ("v1", "job", "openrlhf") and c.t0 <= kill_at <= c.t1]  # fmt: skip
        report.recovery_s = {
            "worker_sigkill_first_probe_ok": first_ok_after(kill_at),
            "worker_sigkill_last_inflight_answered": round(max(inflight_at_kill), 1)
            if inflight_at_kill
            else None,
            "redis_restart_first_probe_ok": first_ok_after(redis_up),
            "runtime_mended_first_probe_ok": first_ok_after(mended_at),
        }
        broken_answers = [c.t1 - c.t0 for c in soak.calls
                          if c.kind == "run_code" and broken_at <= c.t0 <= mended_at]  # fmt: skip
        report.recovery_s["runtime_broken_slowest_run_code_answer"] = (
            round(max(broken_answers), 2) if broken_answers else None
        )

        counts: dict[str, int] = {}
        for c in soak.calls:
            counts[c.outcome] = counts.get(c.outcome, 0) + 1
            report.requests[c.kind] = report.requests.get(c.kind, 0) + 1
            if c.outcome == "infra" and c.kind != "probe":  # the probe is a timeline
                if soak.in_fault(c):
                    report.infra_in_fault += 1
                else:
                    report.infra_healthy += 1
        report.outcomes = counts
        report.items = sum({"run_code": 1, "openrlhf": 4, "v1": 8, "job": 6, "probe": 1}[c.kind]
                           for c in soak.calls)  # fmt: skip
        for kind in sorted({c.kind for c in soak.calls}):
            lat = [c.t1 - c.t0 for c in soak.calls if c.kind == kind]
            report.latency_s[kind] = {"p50": round(_percentile(lat, 0.5), 3),
                                      "p99": round(_percentile(lat, 0.99), 3),
                                      "max": round(max(lat), 3)}  # fmt: skip
        report.problems += [f"{c.kind} {c.outcome} at {rel(c.t0)} s: {c.detail}" for c in soak.calls
                            if c.outcome in ("wrong", "hang", "lost")
                            or (c.outcome == "infra" and c.kind != "probe"
                                and not soak.in_fault(c))][:20]  # fmt: skip

        # leaks, with the stack still up: cells within the pools, no orphaned cgroup
        cells = {
            i: sum(comm(p) == "bwrap" for p in descendants(w.pid))
            for i, w in enumerate(soak.workers)
        }
        live = {str(p) for p in soak.seen_pids if Path(f"/proc/{p}").exists()}
        orphan_cgroups = [n for n in _cell_cgroups() if n.split("-")[1] not in live
                          and int(n.split("-")[1]) in soak.seen_pids]  # fmt: skip
        owners = _container_owners()
        report.leaks["orphan_containers"] = (
            None if owners is None
            else sum(1 for o in owners if o in soak.seen_pids and not Path(f"/proc/{o}").exists())
        )  # fmt: skip
        report.leaks |= {"hung_client_threads": hung_threads,
                        "cells_per_worker": list(cells.values()),
                        "cells_allowed_per_worker": 2 * 2 * 2,  # 2 pools x 2 slots, x2: bwrap + its child
                        "orphan_cell_cgroups": len(orphan_cgroups),
                        "early": early, "late": late}  # fmt: skip
    finally:
        soak.stop()
    # a stopped stack's processes exit within seconds; on a loaded machine give them 30 s,
    # and count only the processes seen (same pid and start time), not a pid reused since
    deadline = time.monotonic() + 30
    while True:
        left = [p for p, ident in soak.seen_pids.items() if ident and _identity(p) == ident]
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    report.leaks["processes_left_after_stop"] = len(left)
    owners = _container_owners()
    report.leaks["containers_left_after_stop"] = (
        None if owners is None else sum(1 for o in owners if o in soak.seen_pids)
    )
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=300.0, help="seconds of load")
    parser.add_argument(
        "--lease", type=float, default=None, help="visibility timeout (default: the service's)"
    )
    parser.add_argument("--docker", action="store_true", help="worker a runs docker cells")
    parser.add_argument("--out", type=Path, help="also write the report here (JSON)")
    args = parser.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory(prefix="codereward-soak-") as tmp:
        report = run(args.duration, Path(tmp), args.lease, args.docker)
    text = json.dumps(asdict(report), indent=2)
    print(text)
    if args.out:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
