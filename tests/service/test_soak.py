"""The soak, short: mixed real-client traffic with faults injected (``soak.py`` says what).

CI runs it for ``CODEREWARD_SOAK_S`` seconds (default 150) with a 20 s lease, so a
killed worker's chunk comes back within the run; ``make soak`` runs it for minutes with
the service's own lease, and with ``CODEREWARD_SOAK_DOCKER=1`` the worker that is killed
runs docker cells (its orphaned containers must be removed by its successor). The
figures are printed and written to ``$CODEREWARD_SOAK_REPORT`` when set.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

import soak


def test_soak_no_hang_no_loss_no_wrong_verdict_no_leak(tmp_path: Path) -> None:
    duration_s = float(os.environ.get("CODEREWARD_SOAK_S", "150"))
    lease = os.environ.get("CODEREWARD_SOAK_LEASE_S", "20")
    docker = os.environ.get("CODEREWARD_SOAK_DOCKER", "") == "1"
    report = soak.run(duration_s, tmp_path, float(lease) if lease else None, docker)
    text = json.dumps(asdict(report), indent=2)
    print("\n" + text)
    if os.environ.get("CODEREWARD_SOAK_REPORT"):
        Path(os.environ["CODEREWARD_SOAK_REPORT"]).write_text(text)
    out = report.outcomes
    assert out.get("hang", 0) == 0, report.problems
    assert out.get("lost", 0) == 0, report.problems
    assert out.get("wrong", 0) == 0, report.problems
    assert report.infra_healthy == 0, report.problems
    assert all(report.requests.get(k, 0) > 0 for k in ("run_code", "openrlhf", "v1", "job"))
    assert report.recovery_s["runtime_mended_first_probe_ok"] is not None
    assert report.recovery_s["redis_restart_first_probe_ok"] is not None
    leaks = report.leaks
    assert leaks["hung_client_threads"] == 0
    assert all(n <= leaks["cells_allowed_per_worker"] for n in leaks["cells_per_worker"])
    assert leaks["orphan_cell_cgroups"] == 0
    assert leaks["processes_left_after_stop"] == 0
    assert leaks["orphan_containers"] in (0, None)
    assert leaks["containers_left_after_stop"] in (0, None)
    early, late = leaks["early"], leaks["late"]
    assert late["gateway_fds"] <= early["gateway_fds"] + 32
    assert late["worker_fds"] <= early["worker_fds"] + 32
    assert late["gateway_rss_kb"] <= early["gateway_rss_kb"] * 1.3 + 30_000
    assert late["worker_rss_kb"] <= early["worker_rss_kb"] * 1.3 + 30_000
