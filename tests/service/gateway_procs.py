"""Real processes for the gateway tests (helpers; fixtures are in conftest.py): uvicorn servers, redis-server, Celery workers.

Everything listens on 127.0.0.1 on free ports. Tests that stop Redis use their own
``redis-server`` (never the machine's 6379). Every process is started in its own session
and stopped by its process group id.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import redis

ROOT = Path(__file__).resolve().parents[2]
KEY = "test-key-" + secrets.token_hex(12)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def base_env(**overrides: str) -> dict[str, str]:
    keep = ("CODEREWARD_RUNTIME_ROOT", "CODEREWARD_SANDBOX")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODEREWARD_") or k in keep}
    env["PYTHONPATH"] = str(ROOT)
    env.setdefault("CODEREWARD_WORKERS", "2")
    env.update(overrides)
    return env


class Proc:
    """A child process in its own session; stop() and kill9() act on its process group."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log
        self._fh = open(log, "ab")
        self.popen = subprocess.Popen(
            argv, env=env, cwd=ROOT, stdout=self._fh, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill9(self) -> None:
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.popen.wait(10)

    def stop(self) -> None:
        if self.alive():
            try:
                os.killpg(self.popen.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.popen.wait(10)
            except subprocess.TimeoutExpired:
                self.kill9()
        else:
            try:  # children of a dead leader may remain in the group
                os.killpg(self.popen.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._fh.close()

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]


def start_redis(workdir: Path, port: int | None = None) -> tuple[Proc, int]:
    """A private redis-server with an append-only file, so a restart loses nothing."""
    port = port or free_port()
    workdir.mkdir(parents=True, exist_ok=True)
    argv = [
        "redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir),
        "--appendonly", "yes", "--appendfsync", "always", "--save", "", "--protected-mode", "yes",
    ]  # fmt: skip
    proc = Proc(argv, dict(os.environ), workdir / f"redis-{port}.log")
    client = redis.Redis(port=port, socket_connect_timeout=0.5)
    deadline = time.monotonic() + 15
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline or not proc.alive():
                raise RuntimeError("redis-server did not start:\n" + proc.tail()) from None
            time.sleep(0.05)
    client.close()
    return proc, port


def start_server(env: dict[str, str], logdir: Path) -> tuple[Proc, str]:
    """``codereward serve`` (via the service CLI's own main) on a free loopback port."""
    port = free_port()
    argv = [sys.executable, "-m", "reward_api.service.cli", "serve", "--port", str(port)]
    proc = Proc(argv, env, logdir / f"serve-{port}.log")
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or not proc.alive():
            proc.stop()
            raise RuntimeError("gateway did not start:\n" + proc.tail())
        time.sleep(0.1)


def start_worker(env: dict[str, str], logdir: Path, name: str) -> Proc:
    argv = [sys.executable, "-m", "reward_api.service.cli", "worker", "--concurrency", "2"]
    return Proc(argv, env, logdir / f"worker-{name}.log")


def wait_ready(url: str, timeout_s: float = 90) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        r = httpx.get(url + "/readyz", timeout=5)
        if r.status_code == 200:
            return r.json()
        if time.monotonic() > deadline:
            raise RuntimeError(f"not ready: {r.text}")
        time.sleep(0.2)


def auth(key: str = KEY) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


# ---------------------------------------------------------------- problems used by the tests

ADD = {
    "id": "add",
    "tests": [
        {"type": "stdio", "input": f"{a} {b}\n", "output": f"{a + b}\n"}
        for a, b in [(1, 2), (3, 4), (10, -5), (0, 0), (7, 8)]
    ],
    "limits": {"time_s": 4},
}
SQUARE = {
    "id": "square",
    "tests": [{"type": "call", "fn_name": "sq", "args": [n], "output": n * n} for n in range(5)],
    "limits": {"time_s": 4},
}
FEW = {"id": "few", "tests": [{"type": "assert", "code": "assert f() == 1"}]}

ADD_OK = "a, b = map(int, input().split())\nprint(a + b)"
ADD_WRONG = "a, b = map(int, input().split())\nprint(a - b)"
SQ_OK = "def sq(n):\n    return n * n"


# ---------------------------------------------------------------- faults


def real_runtime_root() -> Path:
    """The sandbox runtime the machine has (CODEREWARD_RUNTIME_ROOT, else the default)."""
    from reward_api.verify.settings import VerifierSettings

    return Path(os.environ.get("CODEREWARD_RUNTIME_ROOT") or VerifierSettings().runtime_root)


class Runtime:
    """A runtime root behind a symlink the test owns, so it can break it and mend it.

    Broken, the link points at an empty directory: new cells cannot start (bwrap finds no
    interpreter), as when an operator's upgrade leaves the runtime unusable. Cells already
    running keep the tree they bound; ``kill_cells`` ends those of a process too. It lives
    in its own world-readable directory: cells start as uid 65534, which must reach it.
    """

    def __init__(self) -> None:
        import tempfile

        workdir = Path(tempfile.mkdtemp(prefix="codereward-runtime-"))
        workdir.chmod(0o755)
        self.workdir = workdir
        self.root = workdir / "runtime"
        self._empty = workdir / "empty"
        self._empty.mkdir(exist_ok=True)
        self._point(real_runtime_root())

    def _point(self, target: Path) -> None:
        tmp = self.root.with_name("runtime.new")
        if tmp.is_symlink():
            tmp.unlink()
        tmp.symlink_to(target)
        os.replace(tmp, self.root)

    def break_(self) -> None:
        self._point(self._empty)

    def repair(self) -> None:
        self._point(real_runtime_root())

    def remove(self) -> None:
        import shutil

        shutil.rmtree(self.workdir, ignore_errors=True)


def descendants(pid: int) -> list[int]:
    """Every live process below ``pid`` (from /proc's parent links)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as fh:
            return fh.read().strip()
    except OSError:
        return ""


def kill_cells(pid: int) -> int:
    """SIGKILL the sandbox cells (bwrap) below ``pid``; how many were killed."""
    n = 0
    for c in descendants(pid):
        if comm(c) == "bwrap":
            try:
                os.kill(c, signal.SIGKILL)
                n += 1
            except ProcessLookupError:
                pass
    return n
