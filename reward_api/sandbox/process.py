"""The ``process`` backend: a warm runner in Linux namespaces made by bubblewrap.

Threat model. Candidate programs are hostile. This backend is built to keep them from:

- the network: a new network namespace with only loopback; nothing routes out, and the
  host's loopback (where Redis or the gateway listen) is another namespace.
- host files and secrets: the mount namespace holds only the runtime root (read-only), a
  private ``/proc``, a minimal read-only ``/dev``, private tmpfs ``/tmp`` and ``/dev/shm``
  of fixed sizes, and the runner script (read-only). The environment is cleared and set
  from the policy.
- host processes: a new pid namespace (the program sees only its cell); ipc and uts too.
- privilege: a new user namespace with one unprivileged uid (65534) and no capabilities;
  when the service runs as root, the cell itself is started as host uid 65534 (setpriv), so
  even an escape from the namespaces lands as ``nobody``. ``--new-session`` stops TIOCSTI.
- other samples: a cell runs one sample at a time; after every test all processes but the
  runner die (``kill(-1)``); after every sample ``/tmp`` and ``/dev/shm`` are wiped (their
  modes restored), System V IPC objects are removed, and anything left over recycles the
  cell; the kernel's keyrings (``@u`` and ``@us`` outlive every process of the uid) are
  refused by the runner's seccomp filter, as docker's default profile refuses them; the runner itself is non-dumpable, so a program cannot read its fds or ptrace it.
- the pass signal: the test's code and expected values live in a judge cell (or on the
  host); the candidate only answers calls, on a socket to the judge's child that the host
  hands the two runners over each cell's fd channel (SCM_RIGHTS), so no frame of the
  program's ever crosses the host.
- resources: per test, rlimits on address space, CPU seconds, file size, open files,
  message queues and processes (counted per user namespace), a wall clock and an output
  cap enforced by the runner; per cell, when the host lets us write cgroups (root on
  cgroup v1 or v2), a memory ceiling above the tmpfs sizes, a pids ceiling and a CPU quota
  (``cell_cpus``), so a neighbour's spinners cannot starve a cell. Tests raise their own
  ``oom_score_adj`` so the OOM killer takes them, never the runner.

Not covered: kernel exploits (namespaces share the host kernel: use the docker backend with
gVisor, ``docker_runtime = "runsc"``, for that), CPU cache side channels, and denial of
service through the host's own limits when cgroups are unavailable. The runner is the
namespace's init (pid 1), which the kernel shields from signals sent from inside the
namespace, so a program cannot kill it; if a cell dies anyway, the host sees no pass,
retries the sample in a new cell and reports ``sandbox_error`` at last.
"""

from __future__ import annotations

import atexit
import itertools
import os
import select
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from reward_api.errors import SandboxError, SandboxUnavailable
from reward_api.sandbox.cell import Cell
from reward_api.sandbox.policy import SandboxPolicy

RUNNER_SOURCE = Path(__file__).with_name("runner.py")
RUNNER_MOUNT = "/opt/codereward"
_ids = itertools.count()
_runner_dir_lock = threading.Lock()
_runner_dir: str | None = None


def _shared_runner_dir() -> str:
    """A world-readable copy of runner.py (the cell runs as nobody and must read it)."""
    global _runner_dir
    with _runner_dir_lock:
        if _runner_dir is None or not os.path.exists(os.path.join(_runner_dir, "runner.py")):
            _reap_stale_runner_dirs()
            d = tempfile.mkdtemp(prefix=f"{RUNNER_DIR_PREFIX}{os.getpid()}-")
            shutil.copyfile(RUNNER_SOURCE, os.path.join(d, "runner.py"))
            os.chmod(os.path.join(d, "runner.py"), 0o644)
            os.chmod(d, 0o755)
            atexit.register(shutil.rmtree, d, True)
            _reap_stale_cgroups()
            _runner_dir = d
        return _runner_dir


def runner_mount(runtime_root: Path) -> str:
    """Where a cell of ``runtime_root`` binds the runner: ``RUNNER_MOUNT``, or ``/opt`` where
    the root lacks that folder (the runtime is read-only, so the mount point must exist in
    it: build-rootfs makes it)."""
    return RUNNER_MOUNT if (runtime_root / RUNNER_MOUNT.lstrip("/")).is_dir() else "/opt"


def shared_runner_dir() -> Path:
    """The host's copy of the runner that every cell of this process binds read-only at
    ``RUNNER_MOUNT`` (where its runtime root has that folder): what the host writes in it
    later, each cell sees, and none can write (``reward_api.verify.headers``)."""
    return Path(_shared_runner_dir())


RUNNER_DIR_PREFIX = "codereward-runner-"


def _reap_stale_runner_dirs() -> None:
    """Remove the runner copies of processes that died without their atexit (killed, or a
    child ended by ``os._exit``): each is named after the pid that made it, and one per
    such process was left in the host's tmp."""
    tmp = Path(tempfile.gettempdir())
    try:
        found = list(tmp.glob(RUNNER_DIR_PREFIX + "*-*"))
    except OSError:
        return
    for d in found:
        pid = d.name[len(RUNNER_DIR_PREFIX) :].split("-", 1)[0]
        try:
            mine = d.is_dir() and not d.is_symlink() and d.stat().st_uid == os.getuid()
        except OSError:
            continue
        if mine and pid.isdigit() and int(pid) != os.getpid() and not Path(f"/proc/{pid}").exists():
            shutil.rmtree(d, ignore_errors=True)


def _reap_stale_cgroups() -> None:
    """Remove empty cell cgroups left by processes that died without closing their cells."""
    for base in (Path("/sys/fs/cgroup/codereward"), Path("/sys/fs/cgroup/memory/codereward"),
                 Path("/sys/fs/cgroup/pids/codereward"), Path("/sys/fs/cgroup/cpu/codereward")):  # fmt: skip
        try:
            names = [d.name for d in base.iterdir() if d.is_dir()]
        except OSError:
            continue
        for name in names:
            parts = name.split("-")
            if len(parts) == 3 and parts[1].isdigit() and not Path(f"/proc/{parts[1]}").exists():
                try:
                    (base / name).rmdir()
                except OSError:
                    pass


class _Cgroups:
    """Per-cell cgroups (v1 or v2) when writable; otherwise nothing."""

    def __init__(self, name: str) -> None:
        self.dirs: dict[str, Path] = {}
        if os.geteuid() != 0:
            return
        root = Path("/sys/fs/cgroup")
        if (root / "cgroup.controllers").exists():  # v2
            base = root / "codereward"
            try:
                base.mkdir(exist_ok=True)
                (root / "cgroup.subtree_control").write_text("+memory +pids +cpu")
                (base / "cgroup.subtree_control").write_text("+memory +pids +cpu")
                d = base / name
                d.mkdir()
                self.dirs = {"memory": d, "pids": d, "cpu": d}
                self.v2 = True
            except OSError:
                self.dirs = {}
            return
        self.v2 = False
        for ctl in ("memory", "pids", "cpu"):
            try:
                d = root / ctl / "codereward" / name
                d.mkdir(parents=True)
                self.dirs[ctl] = d
            except OSError:
                pass

    def procs_files(self) -> list[str]:
        return sorted({str(d / "cgroup.procs") for d in self.dirs.values()})

    def set_memory(self, limit_bytes: int) -> None:
        d = self.dirs.get("memory")
        if d is None:
            return
        name = "memory.max" if getattr(self, "v2", False) else "memory.limit_in_bytes"
        try:
            (d / name).write_text(str(limit_bytes))
        except OSError:
            pass

    def set_cpus(self, cpus: float) -> None:
        """A CPU quota of ``cpus`` cores (CFS bandwidth), so spinners stay in their cell."""
        d = self.dirs.get("cpu")
        if d is None:
            return
        period = 100_000
        quota = max(1000, int(cpus * period))
        try:
            if getattr(self, "v2", False):
                (d / "cpu.max").write_text(f"{quota} {period}")
            else:
                (d / "cpu.cfs_period_us").write_text(str(period))
                (d / "cpu.cfs_quota_us").write_text(str(quota))
        except OSError:
            pass

    def set_pids(self, n: int) -> None:
        d = self.dirs.get("pids")
        if d is not None:
            try:
                (d / "pids.max").write_text(str(n))
            except OSError:
                pass

    def oom_kills(self) -> int:
        d = self.dirs.get("memory")
        if d is None:
            return 0
        try:
            if getattr(self, "v2", False):
                text = (d / "memory.events").read_text()
            else:
                text = (d / "memory.oom_control").read_text()
        except OSError:
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def remove(self) -> None:
        for d in set(self.dirs.values()):
            for _ in range(50):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def check_available(policy: SandboxPolicy) -> None:
    """Raise SandboxUnavailable with a fix when this host cannot run the backend."""
    if shutil.which("bwrap") is None:
        raise SandboxUnavailable("bubblewrap (bwrap) is not installed: run 'make system-deps'")
    py = policy.runtime_root / policy.python.lstrip("/")
    if not py.exists():
        raise SandboxUnavailable(
            f"sandbox runtime missing at {policy.runtime_root}: run 'make runtime' "
            "(or set CODEREWARD_RUNTIME_ROOT)"
        )


class ProcessCell(Cell):
    """A bubblewrap sandbox running the warm runner."""

    @classmethod
    def factory(cls, policy: SandboxPolicy) -> callable:  # type: ignore[valid-type]
        check_available(policy)
        return lambda: cls(policy)

    def __init__(self, policy: SandboxPolicy) -> None:
        super().__init__()
        self.policy = policy
        self.name = f"cell-{os.getpid()}-{next(_ids)}"
        self.cgroups = _Cgroups(self.name)
        self.cgroups.set_pids(policy.cell_pids_max)
        self.cgroups.set_cpus(policy.cell_cpus)
        self.cgroups.set_memory((512 + policy.cell_memory_overhead_mb) << 20)
        self._memory_mb = 512
        # the fd channel: how the host hands the runner a socket to a judge (SCM_RIGHTS)
        self._fd_sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self._fd_channel = theirs.fileno()
        argv = self._argv()
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                close_fds=True,
                pass_fds=(self._fd_channel,),
                env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
            )
        finally:
            theirs.close()
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        try:
            info = self.ping(timeout_s=60)
        except SandboxError:
            self.close()
            raise
        self.python_version = str(info.get("python"))

    def _argv(self) -> list[str]:
        p = self.policy
        uid = str(p.sandbox_uid)
        self._mount = runner_mount(p.runtime_root)
        bwrap = [
            "bwrap",
            "--unshare-all",
            "--as-pid-1",  # the runner is init: programs in the cell cannot signal it
            "--die-with-parent",
            "--new-session",
            "--hostname", "sandbox",
            "--ro-bind", str(p.runtime_root), "/",
            "--proc", "/proc",
            "--dev", "/dev",
            "--size", str(p.tmp_mb << 20), "--tmpfs", "/tmp",
            "--size", str(p.shm_mb << 20), "--tmpfs", "/dev/shm",
            "--remount-ro", "/dev",  # not recursive: /dev/shm stays writable
            "--ro-bind", _shared_runner_dir(), self._mount,
            "--uid", uid,
            "--gid", uid,
            "--clearenv",
            "--chdir", "/tmp",
        ]  # fmt: skip
        for key, value in sorted(p.environment.items()):
            bwrap += ["--setenv", key, value]
        bwrap += [
            p.python,
            "-I",
            "-B",
            f"{self._mount}/runner.py",
            "--fd-channel",
            str(self._fd_channel),
        ]
        if os.geteuid() != 0:
            return bwrap
        drop = [
            "setpriv",
            f"--reuid={uid}",
            f"--regid={uid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
        ]
        # before dropping privileges: join the cell's cgroups, and, where the host grants
        # CAP_SYS_RESOURCE, take the runner out of the OOM killer's reach (inherited). Each
        # test raises its own score to the maximum either way, so the killer takes tests.
        steps = [f'echo $$ > "{f}"' for f in self.cgroups.procs_files()]
        steps.append("echo -999 2>/dev/null > /proc/self/oom_score_adj")
        return ["/bin/sh", "-c", f'{"; ".join(steps)}; exec "$@"', "sh", *drop, *bwrap]

    def prepare(self, memory_mb: int) -> None:
        """Set the cell's memory ceiling for the next sample, when it changes."""
        if memory_mb != self._memory_mb:
            self.cgroups.set_memory((memory_mb + self.policy.cell_memory_overhead_mb) << 20)
            self._memory_mb = memory_mb

    def oom_kills(self) -> int:
        return self.cgroups.oom_kills()

    def _write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self._in, view)
            view = view[n:]

    def _read_some(self, timeout_s: float) -> bytes | None:
        ready, _, _ = select.select([self._out], [], [], timeout_s)
        if not ready:
            if self.proc.poll() is not None:
                raise SandboxError(f"runner died (exit {self.proc.returncode})")
            return None
        chunk = os.read(self._out, 1 << 20)
        if not chunk:
            raise SandboxError(f"runner died (exit {self.proc.poll()})")
        return chunk

    def fileno(self) -> int:
        return self._out

    supports_fd_passing = True

    def pass_fd(self, fd: int) -> None:
        try:
            socket.send_fds(self._fd_sock, [b"F"], [fd])
        except OSError as exc:
            self.broken = True
            raise SandboxError(f"could not pass a descriptor to the runner: {exc}") from exc

    def close(self) -> None:
        self.broken = True
        proc = getattr(self, "proc", None)
        if proc is not None and proc.poll() is None:
            proc.kill()  # --die-with-parent takes the whole namespace down with bwrap
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                try:
                    if stream is not None:
                        stream.close()
                except OSError:
                    pass
        self.cgroups.remove()
        sock = getattr(self, "_fd_sock", None)
        if sock is not None:
            sock.close()
