"""The compose stack end to end: up with docker-compose v1, a batch over HTTP, down, no leftovers.

Needs the locally built images (``make service-image``, which also builds the sandbox
image). The stack runs under its own project name and a free loopback port, so it does
not collide with a stack someone else has up on this machine.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.docker

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = shutil.which("docker-compose") or "docker-compose"
PROBLEM = {
    "id": "add",
    "tests": [
        {"type": "stdio", "input": "3 4\n", "output": "7\n"},
        {"type": "call", "fn_name": "add", "args": [2, 5], "output": 7},
    ],
}
GOOD = (
    "import sys\n\ndef add(a, b):\n    return a + b\n\n"
    "if __name__ == '__main__':\n    d = sys.stdin.read().split()\n"
    "    if d:\n        print(add(int(d[0]), int(d[1])))\n"
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _compose(
    env: dict[str, str], *args: str, check: bool = True
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [COMPOSE, "-f", str(ROOT / "compose.yaml"), *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=check,
    )  # fmt: skip


def _docker_ids(*filters: str) -> list[str]:
    argv = ["docker", "ps", "-aq"]
    for f in filters:
        argv += ["--filter", f]
    return subprocess.run(
        argv, capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()


@pytest.fixture(scope="module")
def stack() -> Iterator[dict[str, str]]:
    for image in ("codereward/service:latest", "codereward/sandbox-python:3.11"):
        if subprocess.run(["docker", "image", "inspect", image], capture_output=True).returncode:
            pytest.fail(f"image {image} is missing: run 'make service-image'", pytrace=False)
    key = secrets.token_urlsafe(24)
    project = f"crtest{os.getpid()}"
    env = {
        **os.environ,
        "COMPOSE_PROJECT_NAME": project,
        "CODEREWARD_API_KEYS": key,
        "CODEREWARD_PORT": str(_free_port()),
        "CODEREWARD_WORKERS": "1",
    }
    up = _compose(env, "up", "-d", check=False)
    try:
        assert up.returncode == 0, up.stderr
        url = f"http://127.0.0.1:{env['CODEREWARD_PORT']}"
        deadline = time.monotonic() + 240
        while True:
            try:
                if httpx.get(f"{url}/readyz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                logs = _compose(env, "logs", "--tail", "40", check=False).stdout
                pytest.fail(f"the stack did not become ready in 240 s:\n{logs}")
            time.sleep(2)
        worker = _docker_ids(f"label=com.docker.compose.project={project}",
                             "label=com.docker.compose.service=worker")  # fmt: skip
        yield {"url": url, "key": key, "project": project, "worker": worker[0][:12], **env}
    finally:
        down = _compose(env, "down", "-v", "--remove-orphans", "-t", "30", check=False)
        assert down.returncode == 0, down.stderr


def test_compose_refuses_to_start_without_api_keys() -> None:
    env = {k: v for k, v in os.environ.items() if k != "CODEREWARD_API_KEYS"}
    out = _compose(env, "config", "-q", check=False)
    assert out.returncode != 0
    assert "CODEREWARD_API_KEYS" in out.stderr


def test_a_batch_is_verified_over_http_by_a_docker_worker(stack: dict[str, str]) -> None:
    body = {
        "items": [
            {"problem": PROBLEM, "code": GOOD, "sample_id": "good"},
            {"problem": PROBLEM, "code": "print('PASSED')\n", "sample_id": "marker"},
            {"problem": PROBLEM, "code": "while True:\n    pass\n", "sample_id": "loop"},
        ],
        "wait": True,
    }
    headers = {"Authorization": f"Bearer {stack['key']}"}
    r = httpx.post(f"{stack['url']}/v1/rewards", json=body, headers=headers, timeout=180)
    assert r.status_code == 200, r.text
    results = r.json()["results"]
    assert [x["sample_id"] for x in results] == ["good", "marker", "loop"]
    assert [x["verdict"] for x in results] == ["accepted", "wrong_answer", "timeout"]
    assert results[0]["reward"] == 1.0
    # the worker ran them in sandbox containers of its own, on the host's engine
    assert any(
        stack["worker"] in owner
        for owner in subprocess.run(
            ["docker", "ps", "--filter", "label=codereward.sandbox",
             "--format", '{{ .Label "codereward.owner" }}'],
            capture_output=True, text=True, check=True,
        ).stdout.split()
    )  # fmt: skip


def test_unauthenticated_calls_are_refused(stack: dict[str, str]) -> None:
    r = httpx.post(f"{stack['url']}/v1/rewards", json={"items": []}, timeout=30)
    assert r.status_code == 401


def test_down_leaves_no_container_behind(stack: dict[str, str]) -> None:
    _compose(stack, "down", "-v", "--remove-orphans", "-t", "30")
    assert _docker_ids(f"label=com.docker.compose.project={stack['project']}") == []
    deadline = time.monotonic() + 30  # the worker's sandboxes: removed on its warm shutdown
    while True:
        owners = subprocess.run(
            ["docker", "ps", "-a", "--filter", "label=codereward.sandbox",
             "--format", '{{ .Label "codereward.owner" }}'],
            capture_output=True, text=True, check=True,
        ).stdout.split()  # fmt: skip
        if not any(stack["worker"] in o for o in owners) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert not any(stack["worker"] in o for o in owners)
