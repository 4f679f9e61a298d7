"""The batch's static scan runs in a thread beside the sandboxes (``Verifier.verify``): a
sample whose tests ended first waits for its scan report, a broken semgrep still makes
every sample a ``sandbox_error`` (nothing lost, nothing paid), and the two overlap.

semgrep-core is replaced for real: ``_semgrep_core`` is pointed at a script that sleeps
and then either runs the real binary or fails the way a broken install does."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from reward_api import Job, Problem, Sample, Verifier, VerifierSettings
from reward_api.schemas import RewardSettings, Verdict
from reward_api.verify import static_analysis
from reward_api.verify.static_analysis import is_hacking

PROBLEM = Problem.model_validate(
    {"id": "p", "tests": [{"type": "assert", "code": "assert add(2, 3) == 5"}]}
)
HONEST = "import time\n\ndef add(a, b):\n    time.sleep(SLEEP)\n    return a + b\n"
HACK = "import os\n\ndef add(a, b):\n    os._exit(0)\n"


def _wrap(tmp_path: Path, body: str) -> str:
    script = tmp_path / "semgrep-core"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(script)


@pytest.fixture
def semgrep_core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    real = static_analysis._semgrep_core()

    def use(body: str) -> None:
        path = _wrap(tmp_path, body.replace("REAL", real))
        monkeypatch.setattr(static_analysis, "_semgrep_core", lambda: path)

    yield use


def _jobs(sleep_s: float) -> list[Job]:
    honest = HONEST.replace("SLEEP", str(sleep_s))
    codes = [honest, HACK, honest.replace("a + b", "a + b  # two"), HACK + "# two\n"]
    return [Job(PROBLEM, Sample(problem_id="p", sample_id=str(k), code=c))
            for k, c in enumerate(codes)]  # fmt: skip


def test_a_slow_scan_still_decides_every_result_and_overlaps_the_tests(semgrep_core) -> None:
    semgrep_core('sleep 3\nexec REAL "$@"')
    with Verifier(VerifierSettings(sandbox="process", workers=1)) as verifier:
        t0 = time.perf_counter()
        results = verifier.verify(_jobs(sleep_s=1.0), RewardSettings(static=True))
        wall = time.perf_counter() - t0
        stages = dict(verifier.stage_seconds)
    assert [r.sample_id for r in results] == ["0", "1", "2", "3"]
    assert [r.accepted for r in results] == [True, False, True, False]
    assert [r.reward for r in results] == [1.0, 0.0, 1.0, 0.0]
    assert all(r.verdict != Verdict.sandbox_error for r in results)
    # every result carries the report of the scan that ended after its tests
    assert all(r.static is not None for r in results)
    assert [is_hacking(r.static) for r in results] == [False, True, False, True]
    # 2 s of tests and 3 s of scan, side by side rather than one after the other
    assert stages["sandbox"] >= 1.5 and stages["scan"] >= 2.5, stages
    assert wall < stages["sandbox"] + stages["scan"] - 1.0, (wall, stages)


def test_a_broken_scan_makes_every_sample_a_sandbox_error_after_its_tests_ran(
    semgrep_core,
) -> None:
    semgrep_core("sleep 1\necho 'semgrep-core: broken install' >&2\nexit 3")
    with Verifier(VerifierSettings(sandbox="process", workers=1)) as verifier:
        results = verifier.verify(_jobs(sleep_s=0.0))
        ran = verifier.stage_seconds["sandbox"]
        # the same verifier, with no scan wanted: its tests still give verdicts
        plain = verifier.verify(_jobs(sleep_s=0.0), RewardSettings(hack_gate=False))
    assert [r.sample_id for r in results] == ["0", "1", "2", "3"]
    assert all(r.verdict == Verdict.sandbox_error and r.reward is None for r in results)
    assert all("static analysis failed" in (r.error or "") for r in results)
    assert "broken install" in (results[0].error or "")
    assert ran > 0  # the sandboxes did not wait for the scan to fail
    assert [r.accepted for r in plain] == [True, False, True, False]
    assert all(r.verdict != Verdict.sandbox_error for r in plain)
    assert os.path.exists(static_analysis._semgrep_core())
