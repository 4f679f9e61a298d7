"""No container of ours outlives ``codereward verify --sandbox docker``, however it ends.

Each test runs the real command in a subprocess on slow samples, waits until its
containers exist (found by the ``codereward.pid`` label), ends it normally, with SIGINT,
with SIGTERM or with SIGKILL, and checks that no container with its label remains.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.docker

CODEREWARD = str(Path(sys.executable).with_name("codereward"))


def _inputs(tmp_path: Path, samples: int) -> tuple[Path, Path]:
    problems = tmp_path / "problems.jsonl"
    problems.write_text(
        json.dumps(
            {
                "id": "slow",
                "tests": [{"type": "stdio", "input": "", "output": "done\n"}] * 3,
                "limits": {"time_s": 5},
            }
        )
        + "\n"
    )
    lines = [
        {
            "problem_id": "slow",
            "sample_id": str(i),
            "code": f"import time\ntime.sleep(0.4)\nprint('done')  # {i}\n",
        }
        for i in range(samples)
    ]
    sample_file = tmp_path / "samples.jsonl"
    sample_file.write_text("".join(json.dumps(s) + "\n" for s in lines))
    return problems, sample_file


def _containers_of(pid: int) -> list[str]:
    out = subprocess.run(
        ["docker", "ps", "-aq", "--filter", f"label=codereward.pid={pid}"],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    return out.stdout.split()


def _start(tmp_path: Path, samples: int) -> subprocess.Popen[bytes]:
    problems, sample_file = _inputs(tmp_path, samples)
    return subprocess.Popen(
        [CODEREWARD, "verify", str(problems), str(sample_file), "--sandbox", "docker",
         "--workers", "2", "-q", "-o", str(tmp_path / "out.jsonl")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        # a shell's background job inherits SIGINT ignored (so does a CI launched with &),
        # and an ignored SIGINT is not ours to clean up after: start from the default
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip


def _wait_for_containers(proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        if _containers_of(proc.pid):
            time.sleep(1.0)  # let it get into the middle of a sample
            return
        time.sleep(0.2)
    pytest.fail("the command started no container in 120 s")


def test_no_container_remains_after_a_normal_exit(tmp_path: Path) -> None:
    proc = _start(tmp_path, samples=2)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err.decode()
    assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 2
    assert _containers_of(proc.pid) == []


@pytest.mark.parametrize(
    "signum", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=["SIGINT", "SIGTERM", "SIGKILL"]
)
def test_no_container_remains_after_a_signal(tmp_path: Path, signum: int) -> None:
    proc = _start(tmp_path, samples=40)
    _wait_for_containers(proc)
    os.kill(proc.pid, signum)
    proc.communicate(timeout=120)
    assert proc.returncode != 0
    if signum == signal.SIGKILL:
        # nothing runs in a killed process: the engine removes the containers itself once
        # their attach streams close (stdin_once + auto_remove); give it a moment
        deadline = time.monotonic() + 30
        while _containers_of(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
    assert _containers_of(proc.pid) == []
