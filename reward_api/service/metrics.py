"""Prometheus metrics of the gateway, one registry per app so tests can build many apps.

Names (all prefixed ``codereward_``): ``request_seconds`` (histogram by route, method,
status), ``stage_seconds`` (histogram by spine stage: ``auth``, ``resolve``, ``cache``,
``queue``, ``verify``, ``respond``; the stage names are the spine's), ``verdicts_total``
(counter by verdict), ``cache_requests_total`` (counter by ``hit``/``miss``),
``cache_hit_ratio`` (gauge, hits over lookups since start), ``queue_depth`` (gauge: items
waiting, read from the broker at scrape time in broker mode) and ``inflight_items``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from reward_api.schemas import Result

LATENCY_BUCKETS = (
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300,
)  # fmt: skip


class Metrics:
    """The gateway's instruments; ``render()`` is the /metrics body."""

    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.request_seconds = Histogram(
            "codereward_request_seconds",
            "HTTP request latency",
            ["route", "method", "status"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.stage_seconds = Histogram(
            "codereward_stage_seconds",
            "Time per gateway spine stage",
            ["stage"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.verdicts = Counter(
            "codereward_verdicts", "Results returned, by verdict", ["verdict"], registry=r
        )
        self.cache_requests = Counter(
            "codereward_cache_requests", "Result-cache lookups", ["result"], registry=r
        )
        self.cache_hit_ratio = Gauge(
            "codereward_cache_hit_ratio", "Cache hits over lookups since start", registry=r
        )
        self.cache_hit_ratio.set_function(self._hit_ratio)
        self.queue_depth = Gauge("codereward_queue_depth", "Items waiting for a worker", registry=r)
        self.inflight_items = Gauge(
            "codereward_inflight_items", "Items being verified for this gateway", registry=r
        )
        self._hits = 0
        self._lookups = 0
        self._queue_depth_fn: Callable[[], float] | None = None

    def _hit_ratio(self) -> float:
        return self._hits / self._lookups if self._lookups else 0.0

    def count_cache(self, hits: int, misses: int) -> None:
        """Record one batch's cache lookups."""
        self._hits += hits
        self._lookups += hits + misses
        if hits:
            self.cache_requests.labels("hit").inc(hits)
        if misses:
            self.cache_requests.labels("miss").inc(misses)

    def count_results(self, results: list[Result]) -> None:
        """Count the verdicts of a response."""
        for r in results:
            self.verdicts.labels(r.verdict.value).inc()

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        """Time one spine stage under its own name."""
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.stage_seconds.labels(name).observe(time.perf_counter() - t0)

    def set_queue_depth_source(self, fn: Callable[[], float]) -> None:
        """Read queue depth at scrape time; ``fn`` must not raise (broker down: last value)."""
        self._queue_depth_fn = fn

    def render(self) -> bytes:
        """The Prometheus text exposition."""
        if self._queue_depth_fn is not None:
            self.queue_depth.set(self._queue_depth_fn())
        return generate_latest(self.registry)
