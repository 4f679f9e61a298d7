"""Rewards from a running ``codereward serve`` over HTTP; a killed request costs no step.

A real gateway runs in a child process on 127.0.0.1. Between it and the trainer sits a
TCP proxy that resets the first connection after reading the request, as a crashed load
balancer or a killed gateway worker would. The run must still make every step and drop no
group.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

pytest.importorskip("torch")

from trainer.config import TrainConfig
from trainer.problems import write_jsonl
from trainer.rewards import HttpRewards, RewardRequest

REPO = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class KillingProxy:
    """Forwards TCP to ``upstream``; the first ``kill`` connections are reset mid-request."""

    def __init__(self, upstream: int, kill: int = 1) -> None:
        self.upstream, self.kill = upstream, kill
        self.killed = 0
        self.forwarded = 0
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            if self.killed < self.kill:
                self.killed += 1
                conn.recv(65536)  # the request has started arriving: now kill it
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                conn.close()
                continue
            self.forwarded += 1
            up = socket.create_connection(("127.0.0.1", self.upstream))
            for a, b in ((conn, up), (up, conn)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self) -> None:
        self.sock.close()


@pytest.fixture(scope="module")
def serve(tmp_path_factory):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODEREWARD_")}
    for keep in ("CODEREWARD_RUNTIME_ROOT", "CODEREWARD_SANDBOX"):
        if keep in os.environ:
            env[keep] = os.environ[keep]
    env.update({"PYTHONPATH": str(REPO), "CODEREWARD_WORKERS": "2"})
    log = open(tmp_path_factory.mktemp("serve") / "serve.log", "wb")
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "codereward"), "serve", "--port", str(port)],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("codereward serve did not come up")
    yield port
    os.killpg(proc.pid, 15)
    proc.wait(timeout=30)
    log.close()


def test_http_rewards_survive_a_reset_connection(serve, toy_split):
    proxy = KillingProxy(serve, kill=1)
    problem = toy_split[0][0]
    rewards = HttpRewards(f"http://127.0.0.1:{proxy.port}", retry_backoff_s=0.05)
    try:
        scored = rewards.score(
            [
                RewardRequest(problem, problem["reference"], "good"),
                RewardRequest(problem, "def f(x):\n    return None\n", "bad"),
            ]
        )
    finally:
        rewards.close()
        proxy.close()
    assert proxy.killed == 1 and proxy.forwarded >= 1
    assert [s.reward for s in scored] == [1.0, 0.0]
    assert [s.verdict for s in scored] == ["accepted", "wrong_answer"]


def test_killed_reward_request_loses_no_training_step(serve, tmp_path, tiny_model_dir, toy_split):
    from trainer.train import train

    proxy = KillingProxy(serve, kill=2)
    write_jsonl(tmp_path / "train.jsonl", toy_split[0][:4])
    cfg = TrainConfig.model_validate(
        {
            "run": {"out_dir": str(tmp_path / "run"), "steps": 3, "torch_threads": 1},
            "model": {"path": str(tiny_model_dir)},
            "data": {"problems": str(tmp_path / "train.jsonl")},
            "rollout": {"group_size": 4, "prompts_per_batch": 2, "max_new_tokens": 12},
            "reward": {
                "source": "http",
                "url": f"http://127.0.0.1:{proxy.port}",
                "retry_backoff_s": 0.05,
            },
            "algo": {"groups_per_step": 2, "sync_every_steps": 0},
            "optim": {"lr": 1e-3},
            "log": {"tensorboard": False},
            "checkpoint": {"every_steps": 0},
        }
    )
    try:
        result = train(cfg)
    finally:
        proxy.close()
    assert proxy.killed == 2
    assert result["step"] == 3
    rows = [json.loads(x) for x in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows if "loss" in r] == [1, 2, 3]
    assert sum(r.get("rollout/dropped_groups", 0) for r in rows) == 0
