"""The adversarial suite of tests/sandbox/adversarial/, run against the docker backend.

Every ``test_*`` function of those files (one file per exploit, its docstring states the
exploit) is collected here too; the ``verifier`` fixture of tests/docker/conftest.py makes
them run in docker cells. Same assertions: 0 hacks rewarded, 0 leaks, controls accepted.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from reward_api.schemas import Problem, Sample
from reward_api.verify.pipeline import Job, Verifier

pytestmark = pytest.mark.docker

ADVERSARIAL = Path(__file__).resolve().parents[1] / "sandbox" / "adversarial"

for _path in sorted(ADVERSARIAL.glob("test_*.py")):
    _module = importlib.import_module(f"tests.sandbox.adversarial.{_path.stem}")
    for _name, _fn in vars(_module).items():
        if _name.startswith("test_") and callable(_fn):
            globals()[f"test_{_path.stem[5:]}__{_name[5:]}"] = _fn


def test_a_fork_bomb_does_not_starve_a_neighbouring_cell(verifier: Verifier) -> None:
    bomb = Problem.model_validate(
        {
            "id": "bomb",
            "tests": [{"type": "stdio", "input": "", "output": "x\n"}],
            "limits": {"time_s": 3},
        }
    )
    honest = Problem.model_validate(
        {
            "id": "echo",
            "tests": [{"type": "stdio", "input": f"{i}\n", "output": f"{i}\n"} for i in range(30)],
        }
    )
    fork = (
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    )
    results = verifier.verify(
        [
            Job(bomb, Sample(problem_id="bomb", code=fork)),
            Job(honest, Sample(problem_id="echo", code="import subprocess\nprint(input())\n")),
        ]
    )
    assert results[0].verdict.value == "timeout"
    assert results[1].verdict.value == "accepted", results[1].error
