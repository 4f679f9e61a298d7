"""Equal verdicts: the docker and process backends judge the same samples alike.

The same jobs go through ``Verifier(sandbox="process")`` and ``Verifier(sandbox="docker")``,
one after the other (to keep the machine quiet): a deterministic subset of the shared fidelity datasets (each problem's
reference, and a wrong program for it), and every hostile case of
``tests/docker/hostile_cases.py`` and every program of ``tests/sandbox/adversarial/``.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

from reward_api.schemas import Problem, Result, Sample
from reward_api.verify.pipeline import Job, Verifier, VerifierSettings
from tests.docker.hostile_cases import CASES

pytestmark = pytest.mark.docker

FIDELITY_EVERY = {"mbpp": 97, "mbpp_plus": 80, "apps": 30}


def _fidelity_jobs() -> list[tuple[str, Job]]:
    sys.path.insert(0, str(Path(__file__).parents[1] / "data"))
    from fidelity import convert_shared

    jobs = []
    for name, every in FIDELITY_EVERY.items():
        problems, samples = convert_shared(name, every=every)
        by_id = {p.id: p for p in problems}
        for s in samples:
            problem = by_id[s.problem_id]
            jobs.append((f"{s.problem_id}:reference", Job(problem, s)))
            wrong = Sample(problem_id=s.problem_id, sample_id="wrong", code="print(0)\n")
            jobs.append((f"{s.problem_id}:wrong", Job(problem, wrong)))
    return jobs


def _adversarial_jobs() -> list[tuple[str, Job]]:
    return [
        (
            f"adv/{c.name}",
            Job(
                Problem.model_validate(c.problem()), Sample(problem_id=f"adv/{c.name}", code=c.code)
            ),
        )
        for c in CASES
    ]


def _lead_adversarial_jobs() -> list[tuple[str, Job]]:
    """Every program constant of tests/sandbox/adversarial/test_*.py against its problems.

    A module's ``PROBLEM`` when it has one, else each problem of ``problems.py`` (call,
    assert and stdio versions of ``add``); programs are its upper-case string constants.
    """
    from tests.sandbox.adversarial import problems as shared

    folder = Path(__file__).resolve().parents[1] / "sandbox" / "adversarial"
    jobs: list[tuple[str, Job]] = []
    for path in sorted(folder.glob("test_*.py")):
        module = importlib.import_module(f"tests.sandbox.adversarial.{path.stem}")
        own = getattr(module, "PROBLEM", None)
        targets = {"own": own} if isinstance(own, dict) else {
            "call": shared.ADD_CALL, "assert": shared.ADD_ASSERT, "stdio": shared.ADD_STDIO
        }  # fmt: skip
        for name, code in vars(module).items():
            if not (name.isupper() and isinstance(code, str) and name != "PROBLEM"):
                continue
            for kind, problem in targets.items():
                pid = f"sandbox/{path.stem[5:]}/{name}/{kind}"
                p = Problem.model_validate({"id": pid, **problem})
                jobs.append((pid, Job(p, Sample(problem_id=pid, code=code))))
    return jobs


JOBS = _fidelity_jobs() + _adversarial_jobs() + _lead_adversarial_jobs()
NAMES = [name for name, _ in JOBS]


def _run(backend: str) -> dict[str, Result]:
    with Verifier(VerifierSettings(sandbox=backend, workers=2)) as verifier:
        results = verifier.verify([job for _, job in JOBS])
    return dict(zip(NAMES, results, strict=True))


@pytest.fixture(scope="module")
def process_results() -> dict[str, Result]:
    return _run("process")


@pytest.fixture(scope="module")
def docker_results(process_results: dict[str, Result]) -> dict[str, Result]:
    return _run("docker")  # after the process run, never beside it


@pytest.mark.parametrize("name", NAMES)
def test_backends_give_the_same_verdict(
    name: str, process_results: dict[str, Result], docker_results: dict[str, Result]
) -> None:
    p, d = process_results[name], docker_results[name]
    assert (d.verdict, d.passed, d.total) == (p.verdict, p.passed, p.total)
    assert [t.verdict for t in d.tests] == [t.verdict for t in p.tests]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_case_gets_its_verdict_in_docker(
    case: Any, docker_results: dict[str, Result]
) -> None:
    assert docker_results[f"adv/{case.name}"].verdict.value == case.verdict, case.why


def test_no_sandbox_errors(docker_results: dict[str, Result]) -> None:
    errors = {n: r.error for n, r in docker_results.items() if r.verdict.value == "sandbox_error"}
    assert not errors
