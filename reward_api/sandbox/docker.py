"""The ``docker`` backend: the warm runner as pid 1 of a hardened, throw-away container.

Threat model. Candidate programs are hostile. Each cell is one container started from
``policy.docker_image`` (contract: ``sandbox_images/README.md``) that keeps them from:

- the network: ``network_mode="none"``, a network namespace with loopback only.
- host files and secrets: no host mounts at all (the image carries the runner, so nothing
  of the host is bound in, and no Docker socket); the root filesystem is read-only; the only
  writable places are a size-limited tmpfs ``/tmp`` and ``/dev/shm``, wiped by the runner
  after every sample. The environment is exactly ``policy.environment`` (the command is
  ``env -i``, so not even Docker's ``HOSTNAME`` leaks in).
- host processes and privilege: own pid, ipc, uts and mount namespaces; uid and gid 65534;
  ``cap_drop=ALL`` and ``no-new-privileges``, so setuid files inside gain nothing. The
  runner is the container's pid 1: the kernel drops signals sent to a namespace's init from
  inside it, so a program cannot kill the runner that reports on it.
- other samples: one sample at a time per cell; after each test every process but the
  runner dies (``kill(-1)``); the cell is replaced after ``recycle_after_samples`` samples
  and at once after any anomaly (the pool closes a ``broken`` cell).
- the kernel's less used system calls: the cell's own seccomp filter (``seccomp``): what
  Docker's default profile allows a container without capabilities, plus ``mseal`` (which
  the C/C++ assert harness seals with, and which the default answers ENOSYS), and no i386
  or x32 calls. The engine's filter is off (``seccomp=unconfined``): the container's first
  process installs ours, then execs the runner, so every process of the cell runs under it.
  On an engine of another architecture the engine's default profile stays.
- resources: per test the runner's rlimits and wall clock (as in the process backend, but
  for processes: see ``request``); per container a memory ceiling (the test's limit plus
  ``cell_memory_overhead_mb``, which also bounds the tmpfs pages), a pids ceiling
  (``max_procs``, threads included) and a CPU quota (``cell_cpus``).

Not covered: kernel exploits (containers share the host kernel; ``docker_runtime="runsc"``
puts gVisor's user-space kernel in between, at a cost measured in sandbox_images/README.md),
and CPU cache side channels. Containers run as host uid 65534 (no user-namespace remapping
unless the engine has ``userns-remap``): an escape lands as ``nobody``, shared with other
cells, which is why the process limit is the cgroup's and not ``RLIMIT_NPROC``.

Transport: the runner's stdin and stdout through the engine's attach stream (one hijacked
connection per cell; stdout frames carry Docker's 8-byte multiplexing header, removed
here). The container is created with ``stdin_once`` and ``auto_remove``: if this process
dies without cleaning up (even SIGKILL), the engine sees the attach connection close, the
runner reads EOF and exits, and the engine removes the container. On top of that every
container carries labels naming its owner, so ``factory`` removes orphans whose owner
process is gone, and containers are removed on ``close``, at exit and on SIGINT/SIGTERM.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import select
import signal
import socket
import struct
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from reward_api.errors import SandboxError, SandboxUnavailable
from reward_api.sandbox import seccomp
from reward_api.sandbox.cell import Cell
from reward_api.sandbox.policy import SandboxPolicy

RUNNER_SOURCE = Path(__file__).with_name("runner.py")
RUNNER_PATH = "/opt/codereward/runner.py"
RUNNER_LABEL = "codereward.runner.sha256"
UNLIMITED_NPROC = 1 << 20  # RLIMIT_NPROC inside: the cgroup's pids limit is the bound
_MUX = struct.Struct(">BxxxL")  # stream type (1 stdout, 2 stderr), payload size
_STDOUT = 1

_client_lock = threading.Lock()
_client: Any = None
_machine: str | None = None  # the engine's architecture, asked once
_live_lock = threading.Lock()
_live: dict[str, DockerCell] = {}
_closing = threading.Event()
_inflight = [0]  # container creations sent to the engine and not yet registered
_removals: set[threading.Thread] = set()  # background removals of closed cells
_hooks_installed = False


def _docker_client() -> Any:
    """One shared engine client (requests' pool is thread-safe); SandboxUnavailable if none."""
    global _client
    with _client_lock:
        if _client is None:
            import docker
            from docker.errors import DockerException

            try:
                client = docker.from_env(timeout=120)
                client.ping()
            except DockerException as exc:
                raise SandboxUnavailable(
                    f"the Docker engine is not reachable ({exc}): start dockerd, or set "
                    "DOCKER_HOST, or use --sandbox process"
                ) from None
            _client = client
        return _client


def _engine_machine() -> str:
    """The engine's architecture (``docker info``), which the cell's filter is written for."""
    global _machine
    if _machine is None:
        _machine = str(_docker_client().info().get("Architecture") or "")
    return _machine


def _proc_start(pid: int) -> str | None:
    """A process's start time in clock ticks since boot (tells a reused pid apart)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def _owner() -> str:
    """This process, as a label: host name, pid namespace, pid and start time."""
    try:
        ns = os.readlink("/proc/self/ns/pid")
    except OSError:
        ns = "?"
    return f"{socket.gethostname()}/{ns}/{os.getpid()}/{_proc_start(os.getpid())}"


def _owner_alive(owner: str) -> bool | None:
    """Whether the process named by an owner label lives; None when it is not ours to say."""
    try:
        host, ns, pid, start = owner.split("/")
    except ValueError:
        return None
    mine = _owner().split("/")
    if host != mine[0] or ns != mine[1]:
        return None  # another host or pid namespace: its own reaper handles it
    return _proc_start(int(pid)) == start


def remove_orphans(policy: SandboxPolicy) -> int:
    """Remove containers with our label whose owner process is gone; return how many."""
    # the low-level list carries the labels; ``containers.list`` would inspect each one
    # after listing, and a container that auto-removes in between raised NotFound
    removed = 0
    for c in _docker_client().api.containers(all=True, filters={"label": policy.label}):
        owner = (c.get("Labels") or {}).get("codereward.owner", "")
        if _owner_alive(owner) is False:
            _remove(c["Id"])
            removed += 1
    return removed


def _remove(container_id: str) -> None:
    """Kill and remove one container; gone already is fine."""
    from docker.errors import APIError, NotFound

    try:
        _docker_client().api.remove_container(container_id, force=True)
    except NotFound:
        pass
    except APIError as exc:
        if "already in progress" not in str(exc) and exc.status_code != 404:
            raise


def remove_all_live() -> None:
    """Remove every container this process started (exit and signals); no new ones after.

    Creations already sent to the engine are waited for (briefly), then every container
    labelled with this process as owner is removed, registered with a cell or not.
    """
    _closing.set()
    deadline = time.monotonic() + 5.0
    while _inflight[0] and time.monotonic() < deadline:
        time.sleep(0.01)  # the creating thread runs meanwhile and removes its own container
    with _live_lock:
        cells = list(_live.values())
    for cell in cells:
        cell.close()
    wait_removals(10.0)
    if _client is None:
        return
    from docker.errors import DockerException

    try:
        mine = _client.api.containers(
            all=True, quiet=True, filters={"label": f"codereward.owner={_owner()}"}
        )
        for c in mine:
            _remove(c["Id"])
    except DockerException:
        pass


def _on_signal(previous: Any) -> Callable[[int, FrameType | None], None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        remove_all_live()
        if callable(previous):
            previous(signum, frame)
        elif previous == signal.SIG_DFL:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

    return handler


def _install_hooks() -> None:
    """atexit, SIGINT and SIGTERM remove our containers, then do what they did before."""
    global _hooks_installed
    if _hooks_installed:
        return
    _hooks_installed = True
    atexit.register(remove_all_live)
    if threading.current_thread() is not threading.main_thread():
        return  # signal handlers can only be set from the main thread; atexit still runs
    for signum in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(signum)
        if previous is signal.SIG_IGN:
            continue
        signal.signal(signum, _on_signal(previous))


def check_available(policy: SandboxPolicy) -> None:
    """Raise SandboxUnavailable with a fix when the engine, image or runtime is missing."""
    from docker.errors import ImageNotFound

    client = _docker_client()
    try:
        image = client.images.get(policy.docker_image)
    except ImageNotFound:
        raise SandboxUnavailable(
            f"sandbox image {policy.docker_image} is missing: run 'make images'"
        ) from None
    want = hashlib.sha256(RUNNER_SOURCE.read_bytes()).hexdigest()
    have = (image.labels or {}).get(RUNNER_LABEL)
    if have != want:
        raise SandboxUnavailable(
            f"sandbox image {policy.docker_image} carries another runner.py than this "
            f"codereward (label {RUNNER_LABEL}={have}): rebuild it with 'make images'"
        )
    if policy.docker_runtime:
        runtimes = sorted((client.info().get("Runtimes") or {}).keys())
        if policy.docker_runtime not in runtimes:
            raise SandboxUnavailable(
                f"OCI runtime {policy.docker_runtime!r} is not registered with the Docker "
                f"engine (it has: {', '.join(runtimes)}); install it (gVisor: runsc install) "
                "and restart dockerd, or unset docker_runtime"
            )


class DockerCell(Cell):
    """One hardened container whose pid 1 is the warm runner."""

    @classmethod
    def factory(cls, policy: SandboxPolicy) -> Callable[[], DockerCell]:
        check_available(policy)
        _install_hooks()
        _closing.clear()
        remove_orphans(policy)
        return lambda: cls(policy)

    def __init__(self, policy: SandboxPolicy) -> None:
        super().__init__()
        if _closing.is_set():
            raise SandboxError("the docker backend is shutting down")
        self.policy = policy
        self.container_id: str | None = None
        self._sock: socket.socket | None = None
        self._raw = bytearray()  # multiplexed bytes not yet split into frames
        self._out = bytearray()  # the runner's stdout, demultiplexed
        self._memory_mb = 512
        self._cgroup_memory: Path | None = None
        self._closed = threading.Lock()
        try:
            self._start()
            self.python_version = str(self.ping(timeout_s=60).get("python"))
        except BaseException:
            self.close()
            raise

    def _container_config(self, api: Any) -> dict[str, Any]:
        """The engine's create body. detach=False with stdin_open makes StdinOnce true."""
        p = self.policy
        memory = (self._memory_mb + p.cell_memory_overhead_mb) << 20
        # PWD as bubblewrap sets it for the process backend, so programs see the same env
        env = [f"{k}={v}" for k, v in sorted({"PWD": "/tmp", **p.environment}.items())]
        command = [p.python, "-I", "-B", RUNNER_PATH]
        security = ["no-new-privileges"]
        prog = seccomp.cell_filter(_engine_machine())
        if prog is not None:  # ours in place of the engine's: see the seccomp module
            command = seccomp.boot_command(p.python, prog, command)
            security.append("seccomp=unconfined")
        host = api.create_host_config(
            network_mode="none",
            ipc_mode="private",
            read_only=True,
            # exec allowed, as in the process backend and plain execution: Python can make
            # any system call without exec, so noexec would cost parity and buy nothing
            tmpfs={
                "/tmp": f"rw,exec,nosuid,nodev,size={p.tmp_mb}m,mode=1777",
                "/dev/shm": f"rw,exec,nosuid,nodev,size={p.shm_mb}m,mode=1777",
            },
            cap_drop=["ALL"],
            security_opt=security,
            pids_limit=p.max_procs,
            mem_limit=memory,
            memswap_limit=memory,
            # no oom_score_adj for the runner: lowering it needs CAP_SYS_RESOURCE, which an
            # engine may lack (runc then cannot start the container); each test raises its
            # own score to the maximum instead, so the OOM killer takes tests first
            nano_cpus=int(p.cell_cpus * 1e9),
            auto_remove=True,
            log_config={"type": "none", "config": {}},
            runtime=p.docker_runtime or None,
        )
        return api.create_container_config(
            image=p.docker_image,
            command=["/usr/bin/env", "-i", *env, *command],
            environment=dict(p.environment),
            labels={
                p.label: "1",
                "codereward.pid": str(os.getpid()),
                "codereward.owner": _owner(),
            },
            user=f"{p.sandbox_uid}:{p.sandbox_uid}",
            working_dir="/tmp",
            hostname="sandbox",
            stdin_open=True,
            detach=False,
            tty=False,
            network_disabled=True,
            host_config=host,
            runtime=p.docker_runtime or None,
        )

    def _start(self) -> None:
        from docker.errors import DockerException

        api = _docker_client().api
        try:
            with _live_lock:
                _inflight[0] += 1
            try:
                created = api.create_container_from_config(self._container_config(api))
                self.container_id = cid = str(created["Id"])
            finally:
                with _live_lock:
                    _inflight[0] -= 1
                    if self.container_id is not None:
                        _live[self.container_id] = self
            if _closing.is_set():  # a signal arrived while we were creating it
                raise SandboxError("the docker backend is shutting down")
            raw = api.attach_socket(cid, params={"stdin": 1, "stdout": 1, "stream": 1})
            self._keep = raw  # the response object owns the connection
            self._sock = raw._sock if hasattr(raw, "_sock") else raw
            self._sock.setblocking(True)
            api.start(cid)
        except DockerException as exc:
            raise SandboxError(f"could not start a sandbox container: {exc}") from exc

    def sample_overrides(self) -> dict[str, Any]:
        """The process limit is the container's pids cgroup, not RLIMIT_NPROC.

        Without a user namespace RLIMIT_NPROC counts every process of host uid 65534, in all
        containers at once, so one sample's fork bomb would starve its neighbours. The
        container's pids limit (``policy.max_procs``, the runner included, as RLIMIT_NPROC
        counts it in the process backend's own namespace) bounds each cell alone instead.
        """
        return {"max_procs": UNLIMITED_NPROC}

    # ---------------------------------------------------------------- transport
    def _write(self, data: bytes) -> None:
        if self._sock is None:
            raise SandboxError("cell is closed")
        self._sock.sendall(data)

    def _read_some(self, timeout_s: float) -> bytes | None:
        sock = self._sock
        if sock is None:
            raise SandboxError("cell is closed")
        if not self._out:
            ready, _, _ = select.select([sock], [], [], timeout_s)
            if ready:
                chunk = sock.recv(1 << 20)
                if not chunk:
                    raise SandboxError("runner died (the container's stream closed)")
                self._raw += chunk
                self._demux()
        data = bytes(self._out)
        self._out.clear()
        return data or None

    def fileno(self) -> int:
        if self._sock is None:
            raise SandboxError("cell is closed")
        return self._sock.fileno()

    def _demux(self) -> None:
        raw, pos = self._raw, 0
        while len(raw) - pos >= _MUX.size:
            kind, size = _MUX.unpack_from(raw, pos)
            if len(raw) - pos - _MUX.size < size:
                break
            if kind == _STDOUT:
                self._out += raw[pos + _MUX.size : pos + _MUX.size + size]
            pos += _MUX.size + size
        del raw[:pos]

    # ---------------------------------------------------------------- limits
    def prepare(self, memory_mb: int) -> None:
        """Set the container's memory ceiling when the limit changes."""
        if memory_mb != self._memory_mb and self.container_id is not None:
            from docker.errors import DockerException

            memory = (memory_mb + self.policy.cell_memory_overhead_mb) << 20
            try:
                _docker_client().api.update_container(
                    self.container_id, mem_limit=memory, memswap_limit=memory
                )
            except DockerException as exc:
                self.broken = True
                raise SandboxError(f"could not set the container's memory: {exc}") from exc
            self._memory_mb = memory_mb

    def oom_kills(self) -> int:
        """OOM kills in the container's memory cgroup (0 when the host cannot see it)."""
        path = self._cgroup_memory_file()
        if path is None:
            return 0
        try:
            text = path.read_text()
        except OSError:
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def _cgroup_memory_file(self) -> Path | None:
        if self._cgroup_memory is None and self.container_id is not None:
            self._cgroup_memory = _find_cgroup_memory_file(self.container_id)
        return self._cgroup_memory

    # ---------------------------------------------------------------- end
    def close(self) -> None:
        """Kill and remove the container; idempotent, safe from a signal handler.

        In normal operation the removal (about 0.1 s in the engine) runs on a background
        thread, so a worker recycling a cell moves on at once; ``wait_removals`` joins them
        and so does interpreter exit (they are not daemon threads). Once the backend is
        shutting down (exit, signals) removal is synchronous.
        """
        self.broken = True
        if not self._closed.acquire(blocking=False):
            return
        sock, self._sock = self._sock, None
        if sock is not None:
            try:
                sock.close()
            except OSError:
                pass
        cid = self.container_id
        if cid is None:
            return
        if _closing.is_set():
            _remove_quietly(cid)
            return
        thread = threading.Thread(target=_remove_quietly, args=(cid,), name=f"rm-{cid[:12]}")
        with _live_lock:
            _removals.add(thread)
        thread.start()


def _remove_quietly(cid: str) -> None:
    """Remove one container and forget it; a failure leaves it to auto_remove."""
    from docker.errors import DockerException

    try:
        _remove(cid)
    except DockerException:
        pass  # auto_remove takes it once the runner sees stdin close
    finally:
        with _live_lock:
            _live.pop(cid, None)
            _removals.discard(threading.current_thread())


def wait_removals(timeout_s: float = 30.0) -> None:
    """Wait until the containers of closed cells are gone."""
    deadline = time.monotonic() + timeout_s
    while True:
        with _live_lock:
            pending = list(_removals)
        if not pending or time.monotonic() > deadline:
            return
        pending[0].join(max(0.0, deadline - time.monotonic()))


def _find_cgroup_memory_file(container_id: str) -> Path | None:
    """memory.oom_control (v1) or memory.events (v2) of a container, where this host sees it."""
    root = Path("/sys/fs/cgroup")
    candidates = [
        root / "memory/docker" / container_id / "memory.oom_control",
        root / f"memory/system.slice/docker-{container_id}.scope/memory.oom_control",
        root / "docker" / container_id / "memory.events",
        root / f"system.slice/docker-{container_id}.scope/memory.events",
    ]
    for path in candidates:
        if path.exists():
            return path
    return None
