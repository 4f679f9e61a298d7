"""A cell is one warm runner in one sandbox; a pool leases cells to worker threads.

The host never trusts a cell: answers are parsed defensively, a cell that dies, hangs past
its deadline or answers garbage raises ``SandboxError`` and is replaced. A cell is also
replaced after ``recycle_after`` samples and after any anomaly the runner reports.
"""

from __future__ import annotations

import abc
import json
import queue
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from reward_api.errors import SandboxError
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
    def prepare(self, memory_mb: int) -> int:
        """Set the cell's memory ceiling for the next sample; return the OOM-kill count so far."""

    @abc.abstractmethod
    def oom_kills(self) -> int:
        """OOM kills inside the cell since it started (0 where the host cannot tell)."""

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


CellFactory = Callable[[], Cell]


class CellPool:
    """At most ``size`` warm cells, leased one at a time; thread-safe."""

    def __init__(self, factory: CellFactory, size: int, recycle_after: int) -> None:
        if size < 1:
            raise ValueError("pool size must be >= 1")
        self._factory = factory
        self.size = size
        self.recycle_after = recycle_after
        self._idle: queue.LifoQueue[Cell] = queue.LifoQueue()
        self._count = 0
        self._lock = threading.Lock()
        self._closed = False
        self.cells_started = 0

    def _new_cell(self) -> Cell:
        cell = self._factory()
        with self._lock:
            self.cells_started += 1
        return cell

    @contextmanager
    def lease(self) -> Iterator[Cell]:
        """A cell for one sample; it goes back to the pool, or is replaced if it misbehaved."""
        cell = self._acquire()
        try:
            yield cell
        except BaseException:
            cell.broken = True
            raise
        finally:
            self._release(cell)

    def _acquire(self) -> Cell:
        if self._closed:
            raise SandboxError("pool is closed")
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            pass
        with self._lock:
            grow = self._count < self.size
            if grow:
                self._count += 1
        if grow:
            try:
                return self._new_cell()
            except BaseException:
                with self._lock:
                    self._count -= 1
                raise
        return self._idle.get()

    def _release(self, cell: Cell) -> None:
        cell.samples_run += 1
        if self._closed or cell.broken or cell.samples_run >= self.recycle_after:
            cell.close()
            with self._lock:
                self._count -= 1
            return
        self._idle.put(cell)

    def warm(self, n: int | None = None) -> None:
        """Start cells ahead of demand (up to n, default the pool size)."""
        cells = []
        for _ in range(min(n or self.size, self.size)):
            with self._lock:
                if self._count >= self.size:
                    break
                self._count += 1
            try:
                cells.append(self._new_cell())
            except BaseException:
                with self._lock:
                    self._count -= 1
                raise
        for cell in cells:
            self._idle.put(cell)

    def close(self) -> None:
        self._closed = True
        while True:
            try:
                cell = self._idle.get_nowait()
            except queue.Empty:
                break
            cell.close()
            with self._lock:
                self._count -= 1
