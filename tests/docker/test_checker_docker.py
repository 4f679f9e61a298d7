"""A problem's checker on the docker backend: its checker cells are containers of the
checker's own image (codereward/sandbox-python, codereward/sandbox-cpp with testlib.h), never
the candidate's; the verdicts are the process backend's (tests/verify/test_checker.py)."""

from __future__ import annotations

import pytest

from reward_api.schemas import Problem, Sample, Verdict
from reward_api.verify.pipeline import Job, Verifier
from tests.verify.test_checker import (
    ALL_IN_FIRST,
    OFF_BY_ONE,
    SUM_CHECKER,
    SUM_TESTLIB,
    SWAPPED,
    TESTS,
)

pytestmark = pytest.mark.docker


@pytest.mark.parametrize(("language", "code"), [("python", SUM_CHECKER), ("cpp", SUM_TESTLIB)])
def test_a_checker_decides_in_its_own_container(verifier: Verifier, language: str, code: str):
    p = Problem.model_validate(
        {"id": "d", "tests": TESTS, "checker": {"language": language, "code": code}}
    )
    codes = [
        SWAPPED,
        ALL_IN_FIRST,
        OFF_BY_ONE,
        "import sys; sys.stdout.buffer.write(b'\\0' * 9999)",
    ]
    results = verifier.verify([Job(p, Sample(problem_id="d", code=c)) for c in codes])
    assert [r.verdict for r in results] == [Verdict.accepted, Verdict.accepted,
                                            Verdict.wrong_answer, Verdict.wrong_answer]  # fmt: skip
    assert verifier.checker_pool(language) is not verifier.pool
    assert verifier.checker_pool(language).cells_started >= 1
