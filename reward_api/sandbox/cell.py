"""A cell is one warm runner in one sandbox; a pool leases cells to worker threads.

The host never trusts a cell: answers are parsed defensively, a cell that dies, hangs past
its deadline or answers garbage raises ``SandboxError`` and is replaced. A cell is also
replaced after ``recycle_after`` samples and after any anomaly the runner reports.
"""

from __future__ import annotations

import abc
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from reward_api.errors import SandboxBusy, SandboxError
from reward_api.sandbox.runner import FrameBuffer, FrameError

MAX_FRAME_BYTES = 256 << 20
Frame = tuple[bytes, bytes]
"""(type, payload): ``b"J"`` a JSON control message, ``b"P"`` an opaque peer payload."""


class Cell(abc.ABC):
    """One runner process in one sandbox, spoken to in frames (``runner.py``'s protocol)."""

    def __init__(self) -> None:
        self.samples_run = 0
        self.broken = False
        self._frames = FrameBuffer(MAX_FRAME_BYTES)
        self._queued: list[Frame] = []
        self._owed: list[Callable[[dict[str, Any]], bool]] = []
        self._oom_seen = 0
        self.affinity: str | None = None
        """What the cell's last lease was for (a judge: the problem whose tests it holds)."""

    # transport: implemented by each backend
    @abc.abstractmethod
    def _write(self, data: bytes) -> None: ...

    @abc.abstractmethod
    def _read_some(self, timeout_s: float) -> bytes | None:
        """Bytes of the runner's output within ``timeout_s`` (None: none yet); SandboxError at EOF."""

    @abc.abstractmethod
    def fileno(self) -> int:
        """A descriptor that is readable when the runner has written (for a relay's select)."""

    @abc.abstractmethod
    def close(self) -> None:
        """Kill the sandbox and everything in it; idempotent."""

    # resources: implemented by each backend (cgroups of a bwrap cell, or of a container)
    @abc.abstractmethod
    def prepare(self, memory_mb: int) -> None:
        """Set the cell's memory ceiling for the next sample (a no-op when it is unchanged)."""

    @abc.abstractmethod
    def oom_kills(self) -> int:
        """OOM kills inside the cell since it started (0 where the host cannot tell)."""

    def oom_killed(self) -> bool:
        """Whether the OOM killer struck in the cell since the last time this was asked.

        Asked only when a test died by SIGKILL (a memory kill or its own doing), so the
        common path reads no cgroup file."""
        count = self.oom_kills()
        struck = count > self._oom_seen
        self._oom_seen = count
        return struck

    supports_fd_passing = False
    """Whether ``pass_fd`` works: a judge and a candidate then share a socket directly."""

    def pass_fd(self, fd: int) -> None:
        """Give the runner a descriptor (SCM_RIGHTS); only where ``supports_fd_passing``."""
        raise SandboxError(f"{type(self).__name__} cannot receive descriptors")

    def sample_overrides(self) -> dict[str, Any]:
        """Fields a backend sets in every ``sample`` request (the docker cell's process limit)."""
        return {}

    # frames
    def send(self, kind: bytes, payload: bytes) -> None:
        """One frame to the runner; SandboxError (and the cell broken) when it cannot be sent."""
        if self.broken:
            raise SandboxError("cell is broken")
        try:
            self._write(len(payload).to_bytes(4, "big") + kind + payload)
        except OSError as exc:
            self.broken = True
            raise SandboxError(f"cell transport failed: {exc}") from exc

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(b"J", json.dumps(message, separators=(",", ":")).encode())

    def poll(self, timeout_s: float = 0.0) -> list[Frame]:
        """Complete frames available within ``timeout_s`` (maybe none)."""
        if self._queued:
            out, self._queued = self._queued, []
            return out
        try:
            data = self._read_some(timeout_s)
            if data:
                self._frames.feed(data)
            return self._frames.frames()
        except FrameError as exc:
            self.broken = True
            raise SandboxError(f"runner sent a bad frame: {exc}") from exc
        except SandboxError:
            self.broken = True
            raise
        except OSError as exc:
            self.broken = True
            raise SandboxError(f"cell transport failed: {exc}") from exc

    def recv(self, deadline: float) -> Frame:
        """The next frame, or SandboxError at the (monotonic) deadline."""
        while True:
            frames = self.poll(max(0.0, min(deadline - time.monotonic(), 1.0)))
            if frames:
                first, rest = frames[0], frames[1:]
                self._queued = rest + self._queued
                return first
            if time.monotonic() >= deadline:
                self.broken = True
                raise SandboxError("runner did not answer in time")

    def recv_json(self, deadline: float) -> dict[str, Any]:
        """The next control message (peer frames are not expected here)."""
        kind, payload = self.recv(deadline)
        if kind != b"J":
            self.broken = True
            raise SandboxError("runner sent a peer frame outside a relay")
        try:
            answer = json.loads(payload)
        except ValueError as exc:
            self.broken = True
            raise SandboxError(f"runner sent bad JSON: {exc}") from exc
        if not isinstance(answer, dict):
            self.broken = True
            raise SandboxError("runner sent a non-object")
        return answer

    def check(self, answer: dict[str, Any]) -> dict[str, Any]:
        """A final answer: ``ok`` or SandboxError (the cell is then recycled)."""
        if not answer.get("ok"):
            self.broken = True
            raise SandboxError(f"runner error: {answer.get('error')}")
        return answer

    def request(self, message: dict[str, Any], timeout_s: float) -> dict[str, Any]:
        """Send one request that needs no relay and wait for its answer, or raise SandboxError."""
        self.send_json(message)
        return self.check(self.recv_json(time.monotonic() + timeout_s))

    def ping(self, timeout_s: float = 30.0) -> dict[str, Any]:
        return self.request({"op": "ping"}, timeout_s)

    def owe(self, accept: Callable[[dict[str, Any]], bool]) -> None:
        """An answer the runner still owes (a session closed without waiting for it); it is
        read by ``settle`` before the cell's next use, and ``accept`` says whether the cell
        may be used again."""
        self._owed.append(accept)

    def settle(self, timeout_s: float = 30.0) -> None:
        """Read the answers owed; SandboxError (and the cell broken) if one is not accepted."""
        deadline = time.monotonic() + timeout_s
        while self._owed:
            answer = self.recv_json(deadline)
            if "ev" in answer:
                continue  # an event that raced the closing request
            accept = self._owed.pop(0)
            if not answer.get("ok") or not accept(answer):
                self.broken = True
                raise SandboxError(f"the cell did not end its last session cleanly: {answer}")


CellFactory = Callable[[], Cell]


class CellPool:
    """At most ``size`` warm cells, leased one at a time; thread-safe.

    A lease may name an affinity (``prefer``): an idle cell whose last lease had the same
    one is taken first (a judge keeps a problem's test code warm).

    Nothing waits without a deadline. A lease waits at most ``timeout_s`` (default
    ``max_wait_s``) and then raises ``SandboxError``. Cells start on their own threads, so
    a start that hangs never holds a caller past its deadline. When a start fails, the
    waiters are woken and the pool turns to rebuilding: one thread retries the start with
    exponential back-off (``backoff_s`` doubling up to ``backoff_max_s``) while every lease
    that would need a new cell fails at once with ``SandboxError`` (a broken sandbox answers
    promptly instead of piling up waiters); the first cell that starts again ends the
    rebuild, and the pool serves as before without anyone restarting it.
    """

    def __init__(
        self,
        factory: CellFactory,
        size: int,
        recycle_after: int,
        max_wait_s: float = 900.0,
        backoff_s: float = 0.5,
        backoff_max_s: float = 10.0,
    ) -> None:
        if size < 1:
            raise ValueError("pool size must be >= 1")
        self._factory = factory
        self.size = size
        self.recycle_after = recycle_after
        self.max_wait_s = max_wait_s
        self.backoff_s = backoff_s
        self.backoff_max_s = backoff_max_s
        self._idle: list[Cell] = []
        self._count = 0  # cells alive or starting
        self._leased = 0
        self._cond = threading.Condition()
        self._closed = False
        self.cells_started = 0
        self.start_failures = 0
        """Consecutive failed starts; non-zero while the pool is rebuilding."""
        self.last_start_error = ""
        self._to_start = 0
        self._starter: threading.Thread | None = None

    @property
    def healthy(self) -> bool:
        """False while cells cannot start (the pool is rebuilding with back-off)."""
        return self.start_failures == 0

    @contextmanager
    def lease(self, prefer: str | None = None, timeout_s: float | None = None) -> Iterator[Cell]:
        """A cell for one sample; it goes back to the pool, or is replaced if it misbehaved."""
        cell = self._acquire(prefer, self.max_wait_s if timeout_s is None else timeout_s)
        try:
            yield cell
        except BaseException:
            cell.broken = True
            raise
        finally:
            if prefer is not None:
                cell.affinity = prefer
            self._release(cell)

    def _acquire(self, prefer: str | None, timeout_s: float) -> Cell:
        deadline = time.monotonic() + timeout_s
        while True:
            with self._cond:
                while True:
                    if self._closed:
                        raise SandboxError("pool is closed")
                    if self._idle:
                        cell = self._pick(prefer)
                        self._leased += 1
                        break
                    if self.start_failures and self._leased == 0:
                        # No cell can start and none will come back: answer now.
                        raise SandboxError(
                            f"sandbox cells cannot start ({self.start_failures} failed "
                            f"starts; rebuilding with back-off): {self.last_start_error}"
                        )
                    if self._count < self.size and not self.start_failures:
                        self._request_start()
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise SandboxBusy(f"no sandbox cell was free within {timeout_s:g} s")
                    self._cond.wait(left)
            if self._settled(cell):
                return cell

    def _request_start(self) -> None:
        """Count one more cell and have the starter thread start it (lock held)."""
        self._count += 1
        self._to_start += 1
        if self._starter is None:
            self._starter = threading.Thread(
                target=self._starter_loop, name="cell-starter", daemon=True
            )
            self._starter.start()
        self._cond.notify_all()

    def _starter_loop(self) -> None:
        """The one thread that starts this pool's cells, for the pool's whole life.

        Why one long-lived thread: a cell dies with the thread that started it
        (``--die-with-parent`` is PR_SET_PDEATHSIG, which follows the parent *thread*), so
        a cell started on a short-lived thread (an anyio or executor worker that exits
        when idle) would be SIGKILLed under a later sample ("runner died (exit -9)").
        On a failed start the waiters are woken, the other pending starts are dropped
        and this one is retried with back-off until it succeeds or the pool closes.
        """
        while True:
            with self._cond:
                while not self._closed and self._to_start == 0:
                    self._cond.wait()
                if self._closed:
                    self._count -= self._to_start
                    self._to_start = 0
                    self._cond.notify_all()
                    return
            try:
                cell = self._factory()
            except Exception as exc:  # any failure to start is the sandbox's, never a verdict
                with self._cond:
                    self.start_failures += 1
                    self.last_start_error = f"{type(exc).__name__}: {exc}"[:300]
                    self._count -= self._to_start - 1  # keep one start: the rebuild
                    self._to_start = 1
                    self._cond.notify_all()
                    n = self.start_failures
                    delay = min(self.backoff_max_s, self.backoff_s * 2 ** min(n - 1, 20))
                    wake_at = time.monotonic() + delay
                    while not self._closed and time.monotonic() < wake_at:
                        self._cond.wait(wake_at - time.monotonic())
                continue
            with self._cond:
                self._to_start -= 1
                self.cells_started += 1
                self.start_failures = 0
                if not self._closed:
                    self._idle.append(cell)
                    self._cond.notify_all()
                    continue
                self._count -= 1
            cell.close()

    def _pick(self, prefer: str | None) -> Cell:
        if prefer is not None:
            for i in range(len(self._idle) - 1, -1, -1):
                if self._idle[i].affinity == prefer:
                    return self._idle.pop(i)
        return self._idle.pop()

    def _forget(self) -> None:
        """A cell is gone (closed, or it never started): make room and wake the waiters."""
        with self._cond:
            self._count -= 1
            self._cond.notify_all()

    def _settled(self, cell: Cell) -> bool:
        """A cell from the idle list with its owed answers read; False (it is closed) if it
        did not end its last session cleanly."""
        try:
            cell.settle()
            return True
        except SandboxError:
            with self._cond:
                self._leased -= 1
            cell.close()
            self._forget()
            return False

    def _release(self, cell: Cell) -> None:
        cell.samples_run += 1
        with self._cond:
            self._leased -= 1
        if self._closed or cell.broken or cell.samples_run >= self.recycle_after:
            cell.close()
            self._forget()
            return
        with self._cond:
            self._idle.append(cell)
            # all: the starter thread waits on the same condition, and a notify that woke
            # it alone left a waiting lease asleep beside an idle cell until its deadline
            self._cond.notify_all()

    def warm(self, n: int | None = None, timeout_s: float = 120.0) -> None:
        """Start cells ahead of demand (up to n, default the pool size) and wait for them;
        SandboxError when they cannot start."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            want = min(n or self.size, self.size)
            while self._count < want:
                self._request_start()
            while len(self._idle) < want and not self._closed:
                if self.start_failures:
                    raise SandboxError(f"sandbox cells cannot start: {self.last_start_error}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SandboxError(f"cells did not start within {timeout_s:g} s")
                self._cond.wait(left)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
            self._cond.notify_all()
        for cell in idle:
            cell.close()
            self._forget()
