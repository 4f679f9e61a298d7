"""A worker SIGKILLed mid-batch costs about a lease, not the old ten-minute timeout.

Real redis-server (private port), two real ``codereward worker`` supervisors and a real
gateway, all with the default lease settings (``visibility_timeout_s`` 60, renewed every
``lease_renew_s`` 5 by live workers, restore sweep every ``restore_interval_s`` 10). The
whole process group of one worker (supervisor, Celery, its cells) is killed with -9 while
it holds part of a 300-item batch; every item must come back exactly once, right, and the
batch must finish within one lease plus two sweeps of its unkilled duration.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest
from gateway_procs import (
    ADD,
    ADD_OK,
    ADD_WRONG,
    base_env,
    start_redis,
    start_server,
    start_worker,
    wait_ready,
)

from reward_api.service.settings import ServiceSettings

N = 300


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    work = tmp_path_factory.mktemp("worker-loss")
    redis_proc, port = start_redis(work / "redis")
    env = base_env(CODEREWARD_BROKER_URL=f"redis://127.0.0.1:{port}/0", CODEREWARD_WORKERS="1")
    workers = [start_worker(env, work, "a"), start_worker(env, work, "b")]
    gateway, url = start_server(env, work)
    wait_ready(url)
    r = httpx.post(url + "/v1/problems", json={"problems": [ADD]}, timeout=10)
    assert r.status_code == 200, r.text
    s = {"url": url, "env": env, "work": work, "workers": workers}
    yield s
    for p in [gateway, *s["workers"], redis_proc]:
        p.stop()


def _batch(tag: str) -> list[dict]:
    slow = "import time\ntime.sleep(0.05)\n"
    return [
        {"problem_id": "add", "sample_id": str(i),
         "code": slow + (ADD_OK if i % 3 else ADD_WRONG) + f"\n# {tag} {i}"}
        for i in range(N)
    ]  # fmt: skip


def _check(results: list[dict]) -> None:
    assert [r["sample_id"] for r in results] == [str(i) for i in range(N)]
    want = ["accepted" if i % 3 else "wrong_answer" for i in range(N)]
    assert [r["verdict"] for r in results] == want


def test_a_killed_worker_costs_a_lease_not_ten_minutes(stack: dict) -> None:
    url = stack["url"]
    t0 = time.monotonic()
    base = httpx.post(url + "/v1/rewards", json={"items": _batch(f"base {time.time_ns()}")},
                      timeout=600)  # fmt: skip
    baseline_s = time.monotonic() - t0
    assert base.status_code == 200, base.text
    _check(base.json()["results"])

    victim = stack["workers"][0]
    seen = victim.log.read_text(errors="replace").count("received")
    out: dict = {}

    def send() -> None:
        body = {"items": _batch(f"kill {time.time_ns()}")}
        out["r"] = httpx.post(url + "/v1/rewards", json=body, timeout=600)

    t0 = time.monotonic()
    sender = threading.Thread(target=send)
    sender.start()
    deadline = time.monotonic() + 60
    while victim.log.read_text(errors="replace").count("received") < seen + 2:
        assert time.monotonic() < deadline, "the victim never took a task"
        time.sleep(0.05)
    victim.kill9()
    killed_at = time.monotonic()
    stack["workers"][0] = start_worker(stack["env"], stack["work"], "a2")
    sender.join(600)
    elapsed_s = time.monotonic() - t0
    r = out["r"]
    assert r.status_code == 200, r.text
    _check(r.json()["results"])
    s = ServiceSettings()
    bound_s = s.visibility_timeout_s + 2 * s.restore_interval_s + 2 * baseline_s + 20
    print(f"\nbatch of {N}: {baseline_s:.1f} s unkilled, {elapsed_s:.1f} s with a worker "
          f"killed ({time.monotonic() - killed_at:.1f} s after the kill); bound {bound_s:.0f} s")  # fmt: skip
    assert elapsed_s < bound_s
