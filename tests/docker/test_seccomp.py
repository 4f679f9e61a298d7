"""The docker cell's own seccomp filter (``reward_api.sandbox.seccomp``): ``mseal`` works in a
cell, so the C/C++ assert harness's seal holds there, and no other system call is allowed
that the engine's default profile refuses a container without capabilities.

The exploit the seal stops (tests/sandbox/adversarial/test_languages_native_round3.py): a C
program made the RELRO page of the GOT writable again with ``mprotect`` and stored a
function of its own, answering 0, in the slot of ``strcmp``, so every ``strcmp(rev(x),
"...") == 0`` of the test held. Under Docker's default profile ``mseal`` is ENOSYS, nothing
was sealed, and the execution accepted it (only the hack gate paid it 0).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from reward_api import Job, Problem, Sample, Verdict, Verifier
from reward_api.errors import SandboxError
from reward_api.sandbox.docker import DockerCell
from reward_api.sandbox.policy import SandboxPolicy
from reward_api.sandbox.seccomp import MSEAL
from tests.sandbox import seccomp_probe
from tests.sandbox.adversarial.test_languages_native_round3 import (
    GOT_RELRO,
    STRCMP,
    STRCMP_HONEST,
)

pytestmark = pytest.mark.docker
POLICY = SandboxPolicy()
PROBE = Path(seccomp_probe.__file__).read_text()
SEAL = r"""
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
page = libc.mmap(None, 4096, 3, 0x22, -1, 0)  # PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS
sealed = libc.syscall(462, ctypes.c_void_p(page), ctypes.c_size_t(4096), ctypes.c_ulong(0))
print("mseal", sealed, errno.errorcode.get(ctypes.get_errno(), "0") if sealed else "0")
again = libc.mprotect(ctypes.c_void_p(page), ctypes.c_size_t(4096), 1)
print("mprotect", again, errno.errorcode.get(ctypes.get_errno()) if again else "0")
print([line for line in open("/proc/1/status") if line.startswith("Seccomp:")][0].split())
"""


@pytest.fixture(scope="module")
def cell() -> Iterator[DockerCell]:
    c = DockerCell.factory(POLICY)()
    yield c
    c.close()


def _in_cell(cell: DockerCell, program: str) -> str:
    """A Python program's stdout, run as a sample's program in a cell."""
    request = {"op": "sample", "program": program, "setup": None, "time_s": 30,
               "memory_mb": 256, "max_output_bytes": 1 << 20,
               "tests": [{"kind": "stdio", "input": ""}], **cell.sample_overrides()}  # fmt: skip
    report = cell.request(request, 90)["tests"][0]
    assert report.get("exit_code") == 0, report
    return str(report["stdout"])


def _under_engine_default(program: str) -> str:
    """A Python program's stdout in a container of the same image, user and capabilities
    under the engine's own default seccomp profile (what cells had before)."""
    out = subprocess.run(
        ["docker", "run", "--rm", "-i", "--network", "none", "--cap-drop", "ALL",
         "--security-opt", "no-new-privileges", "--user", f"{POLICY.sandbox_uid}:{POLICY.sandbox_uid}",
         "--entrypoint", "", POLICY.docker_image, POLICY.python, "-I", "-B", "-"],
        input=program, capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    return out.stdout


def test_mseal_seals_a_mapping_in_a_cell(cell: DockerCell) -> None:
    lines = _in_cell(cell, SEAL).splitlines()
    assert lines[0] == "mseal 0 0", lines  # not ENOSYS, as under the engine's default
    assert lines[1] == "mprotect -1 EPERM", lines  # the seal holds
    assert lines[2] == "['Seccomp:', '2']", lines  # the runner itself runs filtered


def test_the_cell_filter_answers_as_the_engine_default_but_mseal(cell: DockerCell) -> None:
    """Every system call number of the x86-64 ABI (and ``clone``, ``personality`` and
    ``socket`` with their first argument varied) is answered in a cell exactly as in a
    container under the engine's default profile (allowed, EPERM or ENOSYS), but ``mseal``;
    the x32 ABI is refused altogether. The probe makes no call: see ``seccomp_probe``."""
    ours = json.loads(_in_cell(cell, PROBE))
    theirs = json.loads(_under_engine_default(PROBE))
    assert ours.keys() == theirs.keys()
    weaker = sorted(k for k in ours if ours[k] == "allow" != theirs[k])
    assert weaker == [f"{MSEAL}/0"], f"allowed in a cell, refused by the engine: {weaker}"
    x32 = {k for k in ours if int(k.split("/")[0]) >= seccomp_probe.X32}
    assert {ours[k] for k in x32} == {"EPERM"}
    differ = sorted(k for k in ours if k not in x32 and ours[k] != theirs[k])
    assert differ == [f"{MSEAL}/0"], [(k, ours[k], theirs[k]) for k in differ]


def test_a_c_program_that_mprotects_the_relro_got_fails_in_a_cell(verifier: Verifier) -> None:
    """The execution refuses the GOT exploit itself (it dies writing its sealed page), not
    only the hack gate; the honest program beside it is accepted."""
    problem = Problem.model_validate({"id": "strcmp", **STRCMP})
    results = verifier.verify(
        [
            Job(problem, Sample(problem_id="strcmp", code=GOT_RELRO)),
            Job(problem, Sample(problem_id="strcmp", code=STRCMP_HONEST)),
        ]
    )
    assert results[0].verdict == Verdict.runtime_error, results[0]
    assert results[1].verdict == Verdict.accepted, results[1]


def test_a_cell_whose_filter_is_refused_never_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """A filter the kernel refuses (here one that never returns) stops the container's first
    process before the runner: the cell fails to start with the reason, never runs unfiltered."""
    from reward_api.sandbox import seccomp

    monkeypatch.setattr(seccomp, "cell_filter", lambda machine: bytes(8))  # one ``ld``, no ``ret``
    with pytest.raises(SandboxError, match="seccomp filter could not be installed"):
        DockerCell.factory(POLICY)()
