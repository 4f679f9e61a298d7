"""The docker cell itself: hardening as created, clear refusals, orphans, recycling, limits."""

from __future__ import annotations

import json
import subprocess
from dataclasses import replace

import pytest

from reward_api.errors import SandboxUnavailable
from reward_api.sandbox import docker as backend
from reward_api.sandbox import seccomp
from reward_api.sandbox.docker import DockerCell, remove_orphans
from reward_api.sandbox.policy import SandboxPolicy

pytestmark = pytest.mark.docker
POLICY = SandboxPolicy()
ECHO = {"op": "sample", "program": "print(input())", "setup": None, "time_s": 5, "memory_mb": 256,
        "max_output_bytes": 1 << 20, "tests": [{"kind": "stdio", "input": "hi\n"}]}  # fmt: skip


def _inspect(container_id: str) -> dict:
    out = subprocess.run(
        ["docker", "inspect", container_id], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)[0]


@pytest.fixture
def cell():
    c = DockerCell.factory(POLICY)()
    yield c
    c.close()


def test_container_is_created_hardened(cell: DockerCell) -> None:
    info = _inspect(cell.container_id)
    host = info["HostConfig"]
    assert host["NetworkMode"] == "none" and host["ReadonlyRootfs"] is True
    assert host["CapDrop"] == ["ALL"] and "no-new-privileges" in host["SecurityOpt"]
    assert host["PidsLimit"] == POLICY.max_procs and host["Memory"] > 0 and host["NanoCpus"] > 0
    assert host["Binds"] in (None, []) and host.get("Mounts") in (None, []) and not info["Mounts"]
    assert set(host["Tmpfs"]) == {"/tmp", "/dev/shm"} and "size=" in host["Tmpfs"]["/tmp"]
    assert info["Config"]["User"] == "65534:65534"
    assert info["Config"]["Labels"][POLICY.label] == "1"
    assert info["Config"]["Cmd"][-4:] == [
        "/usr/bin/python3",
        "-I",
        "-B",
        "/opt/codereward/runner.py",
    ]
    # the engine's seccomp filter is off only where the first process installs ours
    prog = seccomp.cell_filter(backend._engine_machine())
    cmd = info["Config"]["Cmd"]
    if prog is None:
        assert "-c" not in cmd and not any("seccomp" in o for o in host["SecurityOpt"])
    else:
        assert "seccomp=unconfined" in host["SecurityOpt"]
        assert cmd[cmd.index("-c") + 1 : cmd.index("-c") + 3] == [seccomp.BOOT, prog.hex()]


def test_runner_is_pid_1_and_answers(cell: DockerCell) -> None:
    probe = {
        **ECHO,
        "program": "import os\nprint(open('/proc/1/cmdline').read().split(chr(0))[2:4])",
    }
    report = cell.request(probe, 30)["tests"][0]
    assert "runner.py" in report["stdout"]
    assert cell.request(ECHO, 30)["tests"][0]["stdout"] == "hi\n"


def test_memory_ceiling_follows_the_problem_limit(cell: DockerCell) -> None:
    cell.prepare(1024)
    assert cell.oom_kills() == 0
    memory = _inspect(cell.container_id)["HostConfig"]["Memory"]
    assert memory == (1024 + POLICY.cell_memory_overhead_mb) << 20


def test_close_removes_the_container(cell: DockerCell) -> None:
    cid = cell.container_id
    cell.close()
    backend.wait_removals()
    out = subprocess.run(["docker", "ps", "-aq", "--no-trunc", "--filter", f"id={cid}"],
                         capture_output=True, text=True, check=True)  # fmt: skip
    assert out.stdout.strip() == ""


def test_orphans_of_a_dead_owner_are_removed() -> None:
    dead = f"{backend._owner().rsplit('/', 2)[0]}/999999999/0"
    cid = subprocess.run(
        ["docker", "create", "--label", f"{POLICY.label}=1", "--label", f"codereward.owner={dead}",
         POLICY.docker_image],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    assert remove_orphans(POLICY) >= 1
    assert subprocess.run(["docker", "inspect", cid], capture_output=True).returncode != 0


def test_orphan_removal_is_not_upset_by_containers_that_remove_themselves() -> None:
    """Another process's cells come and go while a pool starts: a container listed by the
    orphan sweep and gone (auto-removed) before it is looked at is no error (it failed a
    pool's start in CI once: docker-py's high-level list inspects each listed container)."""
    import threading

    stop = threading.Event()
    made = [0]

    def churn() -> None:
        while not stop.is_set():
            subprocess.run(
                ["docker", "run", "-d", "--rm", "--label", f"{POLICY.label}=1",
                 "--label", "codereward.owner=elsewhere/x/1/1", POLICY.docker_image, "true"],
                capture_output=True, check=True, timeout=120,
            )  # fmt: skip
            made[0] += 1

    threads = [threading.Thread(target=churn) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        sweeps = 0
        while made[0] < 30:
            remove_orphans(POLICY)  # raised NotFound when a listed container had gone
            sweeps += 1
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert sweeps > 0 and made[0] >= 30


def test_unregistered_oci_runtime_is_refused_with_a_fix() -> None:
    with pytest.raises(SandboxUnavailable, match=r"runsc.*not registered"):
        DockerCell.factory(replace(POLICY, docker_runtime="runsc"))


def test_missing_image_is_refused_with_a_fix() -> None:
    with pytest.raises(SandboxUnavailable, match="make images"):
        DockerCell.factory(replace(POLICY, docker_image="codereward/no-such-image:0"))


def test_a_limit_hit_replaces_the_container() -> None:
    """A sample whose test hit a limit leaves a container that may hold its leftovers: the
    pool starts a fresh one for the next sample; a clean sample keeps its cell warm."""
    from reward_api import Job, Problem, Sample, Verifier, VerifierSettings

    problem = Problem.model_validate(
        {
            "id": "p",
            "limits": {"time_s": 1},
            "tests": [{"type": "stdio", "input": "1\n", "output": "1"}],
        }
    )
    with Verifier(VerifierSettings(sandbox="docker", workers=1)) as verifier:

        def run(code: str) -> str:
            (result,) = verifier.verify([Job(problem, Sample(problem_id="p", code=code))])
            return result.verdict.value

        assert run("print(input())") == "accepted"
        assert run("print(input())\n# again") == "accepted"
        assert verifier.pool.cells_started == 1
        assert run("while True:\n    pass\n") == "timeout"
        assert run("print(input())\n# after") == "accepted"
        assert verifier.pool.cells_started == 2


def test_unreachable_engine_is_refused_with_a_fix(tmp_path) -> None:
    import sys
    from pathlib import Path

    problems = tmp_path / "p.jsonl"
    problems.write_text('{"id": "a", "tests": [{"type": "stdio", "input": "", "output": "1"}]}\n')
    samples = tmp_path / "s.jsonl"
    samples.write_text('{"problem_id": "a", "code": "print(1)"}\n')
    env = {"PATH": "/usr/bin:/bin", "DOCKER_HOST": f"unix://{tmp_path}/no.sock"}
    out = subprocess.run(
        [str(Path(sys.executable).with_name("codereward")), "verify", str(problems), str(samples),
         "--sandbox", "docker", "-q"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert out.returncode == 3
    assert "Docker engine is not reachable" in out.stderr and "start dockerd" in out.stderr
