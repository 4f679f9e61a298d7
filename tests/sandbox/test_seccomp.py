"""The docker cell's seccomp filter (``reward_api.sandbox.seccomp``) on this kernel, without
Docker: installed in a child process by the runner's installer, then asked every system
call number by ``seccomp_probe`` (no call is made). tests/docker/test_seccomp.py holds it
equal to the engine's default profile; here, what it promises in its own words."""

from __future__ import annotations

import json
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from reward_api.sandbox.seccomp import ALLOWED, MSEAL, NEW_SYSCALLS_FROM, cell_filter

pytestmark = pytest.mark.skipif(
    platform.machine() != "x86_64", reason="the cell's filter is written for x86-64 only"
)
ROOT = Path(__file__).resolve().parents[2]
FILTERED_PROBE = """
import ctypes, json, sys
from reward_api.sandbox import runner, seccomp
assert runner._install_seccomp(ctypes.CDLL(None, use_errno=True), seccomp.cell_filter("x86_64"))
from tests.sandbox import seccomp_probe
print(json.dumps(seccomp_probe.probe()))
"""


@pytest.fixture(scope="module")
def answers() -> dict[str, str]:
    out = subprocess.run([sys.executable, "-c", FILTERED_PROBE], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=120)  # fmt: skip
    return dict(json.loads(out.stdout))


def test_mseal_and_every_listed_call_are_allowed(answers: dict[str, str]) -> None:
    assert answers[f"{MSEAL}/0"] == "allow"
    refused = [n for n in ALLOWED.values() if answers.get(f"{n}/0", "allow") != "allow"]
    assert refused == []


def test_unlisted_calls_are_eperm_and_newer_ones_enosys(answers: dict[str, str]) -> None:
    for name, nr in {"mount": 165, "unshare": 272, "setns": 308, "bpf": 321, "keyctl": 250,
                     "perf_event_open": 298, "userfaultfd": 323, "fsopen": 430}.items():  # fmt: skip
        assert answers[f"{nr}/0"] == "EPERM", name
    assert answers["435/0"] == "ENOSYS"  # clone3: the C library falls back to clone
    newer = [n for n in range(NEW_SYSCALLS_FROM, 600) if n not in (MSEAL, 335, 336)]
    assert {answers[f"{n}/0"] for n in newer} == {"ENOSYS"}


def test_namespaces_and_exec_personas_are_refused(answers: dict[str, str]) -> None:
    assert answers["56/0"] == answers[f"56/{0x3D0F00}"] == "allow"  # a thread
    for flag in (0x20000, 0x2000000, 0x4000000, 0x8000000, 0x10000000, 0x20000000, 0x40000000):
        assert answers[f"56/{flag}"] == "EPERM", hex(flag)
    assert answers[f"135/{0xFFFFFFFF}"] == answers["135/8"] == "allow"
    assert answers[f"135/{0x400000}"] == answers[f"135/{1 << 32}"] == "EPERM"  # READ_IMPLIES_EXEC


def test_the_x32_abi_is_refused(answers: dict[str, str]) -> None:
    x32 = {v for k, v in answers.items() if int(k.split("/")[0]) & 0x40000000}
    assert x32 == {"EPERM"}


def test_another_architecture_keeps_the_engine_profile() -> None:
    assert cell_filter("aarch64") is None
