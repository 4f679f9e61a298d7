"""A cell is one warm runner in one sandbox; a pool leases cells to worker threads.

The host never trusts a cell: answers are parsed defensively, a cell that dies, hangs past
its deadline or answers garbage raises ``SandboxError`` and is replaced. A cell is also
replaced after ``recycle_after`` samples and after any anomaly the runner reports.
"""

from __future__ import annotations

import abc
import json
import queue
import struct
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from reward_api.errors import SandboxError

_HDR = struct.Struct(">I")
MAX_FRAME_BYTES = 256 << 20


class Cell(abc.ABC):
    """One runner process in one sandbox, spoken to over framed JSON."""

    def __init__(self) -> None:
        self.samples_run = 0
        self.broken = False

    # transport: implemented by each backend
    @abc.abstractmethod
    def _write(self, data: bytes) -> None: ...

    @abc.abstractmethod
    def _read(self, n: int, deadline: float) -> bytes:
        """Exactly n bytes, or raise SandboxError (EOF, deadline)."""

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

    def request(self, message: dict[str, Any], timeout_s: float) -> dict[str, Any]:
        """Send one request and wait for its answer, or raise SandboxError."""
        if self.broken:
            raise SandboxError("cell is broken")
        body = json.dumps(message, separators=(",", ":")).encode()
        deadline = time.monotonic() + timeout_s
        try:
            self._write(_HDR.pack(len(body)) + body)
            (n,) = _HDR.unpack(self._read(4, deadline))
            if n > MAX_FRAME_BYTES:
                raise SandboxError(f"runner sent an oversized frame ({n} bytes)")
            answer = json.loads(self._read(n, deadline))
        except (OSError, ValueError) as exc:
            self.broken = True
            raise SandboxError(f"cell transport failed: {exc}") from exc
        except SandboxError:
            self.broken = True
            raise
        if not isinstance(answer, dict) or not answer.get("ok"):
            self.broken = True
            detail = answer.get("error") if isinstance(answer, dict) else answer
            raise SandboxError(f"runner error: {detail}")
        return answer

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
