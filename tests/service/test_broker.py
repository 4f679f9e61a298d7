"""Broker mode: a real redis-server, real Celery workers and a real gateway on loopback.

The Redis here is private (its own port and append-only file) because these tests kill
workers and stop Redis.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis
from gateway_procs import (
    ADD,
    ADD_OK,
    ADD_WRONG,
    SQ_OK,
    SQUARE,
    base_env,
    start_redis,
    start_server,
    start_worker,
    wait_ready,
)

from reward_api.client import RewardClient

ONE = {"id": "one", "tests": [{"type": "stdio", "input": "2 3\n", "output": "5"}]}


class Stack:
    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.redis, self.port = start_redis(workdir / "redis")
        self.env = base_env(
            CODEREWARD_BROKER_URL=f"redis://127.0.0.1:{self.port}/0",
            CODEREWARD_TASK_CHUNK_SIZE="2",
            CODEREWARD_TASK_SOFT_TIME_LIMIT_S="40",
            CODEREWARD_TASK_TIME_LIMIT_S="45",
            CODEREWARD_VISIBILITY_TIMEOUT_S="6",
            CODEREWARD_LEASE_RENEW_S="1",
            CODEREWARD_RESTORE_INTERVAL_S="1",
            CODEREWARD_WORKERS="1",
            CODEREWARD_REQUEST_TIMEOUT_S="120",
        )
        self.workers = [start_worker(self.env, workdir, "a"), start_worker(self.env, workdir, "b")]
        self.gateway, self.url = start_server(self.env, workdir)
        wait_ready(self.url)

    def restart_redis(self) -> None:
        self.redis, _ = start_redis(self.workdir / "redis", self.port)

    def stop(self) -> None:
        for p in [self.gateway, *self.workers, self.redis]:
            p.stop()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    s = Stack(tmp_path_factory.mktemp("broker"))
    r = httpx.post(s.url + "/v1/problems", json={"problems": [ADD, SQUARE, ONE]}, timeout=10)
    assert r.status_code == 200, r.text
    yield s
    s.stop()


def test_broker_mode_verifies_and_caches(stack: Stack) -> None:
    tag = time.time_ns()
    items = [
        {"problem_id": "add", "code": ADD_OK + f"\n# {tag}"},
        {"problem_id": "add", "code": ADD_WRONG + f"\n# {tag}"},
        {"problem_id": "square", "code": SQ_OK + f"\n# {tag}"},
    ]
    r = httpx.post(stack.url + "/v1/rewards", json={"items": items}, timeout=120)
    assert r.status_code == 200, r.text
    first = r.json()["results"]
    assert [x["verdict"] for x in first] == ["accepted", "wrong_answer", "accepted"]
    assert [x["reward"] for x in first] == [1.0, 0.0, 1.0]
    again = httpx.post(stack.url + "/v1/rewards", json={"items": items}, timeout=120).json()
    assert [x["cached"] for x in again["results"]] == [True, True, True]
    ready = httpx.get(stack.url + "/readyz").json()
    assert ready["checks"] == {"broker": True, "worker": True, "sandbox": True}


def test_worker_killed_mid_batch_every_item_gets_exactly_one_result(stack: Stack) -> None:
    tag = time.time_ns()
    slow = "import time\ntime.sleep(0.5)\n" + ADD_OK
    items = [
        {"problem_id": "one", "code": slow + f"\n# kill {tag} {i}", "sample_id": str(i)}
        for i in range(8)
    ]
    out: dict = {}

    def send() -> None:
        out["r"] = httpx.post(stack.url + "/v1/rewards", json={"items": items}, timeout=120)

    victim = stack.workers[0]
    received_before = victim.log.read_text(errors="replace").count("received")
    sender = threading.Thread(target=send)
    sender.start()
    deadline = time.monotonic() + 30
    while (
        victim.log.read_text(errors="replace").count("received") == received_before
    ):  # it holds part of the batch
        assert time.monotonic() < deadline, "the victim never got a task"
        time.sleep(0.05)
    time.sleep(0.3)  # inside the chunk: each sample sleeps 0.5 s
    victim.kill9()
    sender.join(120)
    stack.workers[0] = start_worker(stack.env, stack.workdir, "a2")
    r = out["r"]
    assert r.status_code == 200, r.text
    results = r.json()["results"]
    assert [x["sample_id"] for x in results] == [str(i) for i in range(8)]
    assert [x["verdict"] for x in results] == ["accepted"] * 8


def test_a_task_longer_than_the_visibility_timeout_runs_once(stack: Stack) -> None:
    """Live workers renew their leases, so a long task is never handed to a second one."""
    long = {
        "id": "long",
        "tests": [{"type": "stdio", "input": "2 3\n", "output": "5"}],
        "limits": {"time_s": 30},
    }
    httpx.post(stack.url + "/v1/problems", json={"problems": [long]}, timeout=10)
    tag = time.time_ns()
    code = f"import time\ntime.sleep(14)\n{ADD_OK}\n# long {tag}"
    received = sum(w.log.read_text(errors="replace").count("received") for w in stack.workers)
    r = httpx.post(stack.url + "/v1/rewards", json={"items": [{"problem_id": "long", "code": code}]},
                   timeout=120)  # fmt: skip
    assert r.status_code == 200 and r.json()["results"][0]["verdict"] == "accepted", r.text
    time.sleep(2)
    after = sum(w.log.read_text(errors="replace").count("received") for w in stack.workers)
    assert after == received + 1


def test_redis_down_gives_503_and_readyz_fails_then_resumes(stack: Stack) -> None:
    tag = time.time_ns()
    # A job in flight when Redis goes away: its worker is inside the 1.5 s program.
    slow = "import time\ntime.sleep(1.5)\n" + ADD_OK
    queued = [{"problem_id": "one", "code": slow + f"\n# queued {tag}"}]
    job = httpx.post(
        stack.url + "/v1/rewards", json={"items": queued, "wait": False}, timeout=10
    ).json()["job_id"]
    time.sleep(0.5)
    stack.redis.stop()
    body = {"items": [{"problem_id": "add", "code": ADD_OK + f"\n# outage {tag}"}]}
    down = httpx.post(stack.url + "/v1/rewards", json=body, timeout=30)
    assert down.status_code == 503 and int(down.headers["retry-after"]) >= 1
    assert httpx.get(stack.url + "/readyz", timeout=30).status_code == 503
    assert httpx.get(stack.url + f"/v1/jobs/{job}", timeout=30).status_code == 503

    # A client that retries on 503 rides out the outage.
    got: dict = {}
    client = RewardClient(stack.url, max_retries=30, backoff_s=0.2, backoff_max_s=1.0)
    t = threading.Thread(target=lambda: got.setdefault("r", client.rewards(body["items"])))
    t.start()
    time.sleep(1.0)
    stack.restart_redis()
    t.join(120)
    client.close()
    assert got["r"][0]["verdict"] == "accepted"
    wait_ready(stack.url)
    deadline = time.monotonic() + 60
    while True:
        state = httpx.get(stack.url + f"/v1/jobs/{job}", timeout=10).json()
        if state["status"] == "done" or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert state["status"] == "done" and state["results"][0]["verdict"] == "accepted"
    assert all(w.alive() for w in stack.workers)  # supervisors outlive the outage


def test_a_chunk_taken_off_its_queue_by_a_worker_that_died_is_published_again(
    stack: Stack,
) -> None:
    """kombu's Redis transport pops a message (BRPOP) before it records it as held, so a
    worker killed in between loses it for good. Here the workers are down and the test
    takes the message off the queue itself, as such a worker would. While the chunk
    waits in its queue it is never published twice; once it is gone unclaimed, the
    waiting request publishes it again and gets its answer."""
    client = redis.Redis(port=stack.port)
    for w in stack.workers:
        w.kill9()
    client.delete("python")
    tag = time.time_ns()
    out: dict = {}
    item = {"problem_id": "add", "code": ADD_OK + f"\n# lost {tag}"}

    def send() -> None:
        out["r"] = httpx.post(stack.url + "/v1/rewards", json={"items": [item]}, timeout=120)

    sender = threading.Thread(target=send)
    sender.start()
    deadline = time.monotonic() + 30
    while client.llen("python") == 0:
        assert time.monotonic() < deadline, "the gateway never published"
        time.sleep(0.05)
    time.sleep(12)  # two checks and more (LOST_CHECK_EVERY_S): it is queued, not lost
    assert client.llen("python") == 1
    assert client.rpop("python") is not None  # the dying worker's BRPOP
    deadline = time.monotonic() + 40
    while client.llen("python") == 0:
        assert time.monotonic() < deadline, "the lost chunk was never published again"
        time.sleep(0.1)
    assert client.llen("python") == 1
    stack.workers = [start_worker(stack.env, stack.workdir, f"{n}-lost") for n in "ab"]
    sender.join(120)
    r = out["r"]
    assert r.status_code == 200, r.text
    assert r.json()["results"][0]["verdict"] == "accepted"
    assert "publishing 1 lost chunk(s)" in stack.gateway.log.read_text(errors="replace")


def test_a_wait_false_job_survives_its_gateway(stack: Stack) -> None:
    """The gateway that drove a job is SIGKILLed; a new one adopts the job from Redis."""
    tag = time.time_ns()
    slow = "import time\ntime.sleep(1)\n" + ADD_OK
    items = [{"problem_id": "one", "code": slow + f"\n# adopt {tag} {i}", "sample_id": str(i)}
             for i in range(6)]  # fmt: skip
    r = httpx.post(stack.url + "/v1/rewards", json={"items": items, "wait": False}, timeout=30)
    assert r.status_code == 202, r.text
    job = r.json()["job_id"]
    time.sleep(1.0)
    stack.gateway.kill9()
    stack.gateway, stack.url = start_server(stack.env, stack.workdir)
    deadline = time.monotonic() + 120
    while True:
        state = httpx.get(stack.url + f"/v1/jobs/{job}", timeout=10).json()
        if state["status"] == "done" or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert state["status"] == "done", state
    assert [x["sample_id"] for x in state["results"]] == [str(i) for i in range(6)]
    assert [x["verdict"] for x in state["results"]] == ["accepted"] * 6


def test_run_code_runs_on_a_worker(stack: Stack) -> None:
    body = {"code": "print(input() * 2)", "stdin": "ab\n", "language": "python", "run_timeout": 5}
    r = httpx.post(stack.url + "/run_code", json=body, timeout=60)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "Success" and r.json()["run_result"]["stdout"] == "abab\n"


def test_run_code_on_a_worker_holds_the_compile_to_compile_timeout(stack: Stack) -> None:
    # a fresh program (no cached build): g++ takes far longer than 10 ms on <iostream>
    code = f"#include <iostream>\nint main() {{ std::cout << 1; }}\n// {secrets.token_hex(8)}\n"
    body = {"code": code, "language": "cpp", "compile_timeout": 0.01, "run_timeout": 5}
    r = httpx.post(stack.url + "/run_code", json=body, timeout=60)
    assert r.status_code == 200, r.text
    assert r.json()["compile_result"]["status"] == "TimeLimitExceeded", r.json()


def test_chunk_replies_are_not_left_behind(stack: Stack) -> None:
    """Collected replies are deleted; those of a killed gateway (above) expire."""
    client = redis.Redis(port=stack.port)
    left = list(client.scan_iter("cr:reply:*"))
    assert all(0 < client.ttl(k) <= 3600 for k in left)
    assert len(left) <= 3  # the chunks of the job whose gateway was killed
    client.close()
