"""APPS problems with many valid answers become verifiable with a checker (issue 13).

``fixtures/apps_checkers.jsonl`` holds six APPS rows of ``shared/data/apps_mini_val_150.jsonl``
(ids 33, 2023, 2029, 2378, 2398, 2400: their references fail today because APPS ships one
answer of many, ``tests/data/fidelity.py``'s ``KNOWN_BROKEN``), their tests verbatim, the
first three solutions each and the statement cut to its first line. ``checkers/`` holds a
checker per problem, written for this project: Python, and C++ with testlib.h for APPS 33.
The rows go through the project's own APPS converter; the test attaches the checker.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reward_api.data.converters import convert_records
from reward_api.data.converters.sources import read_records
from reward_api.schemas import Problem, Sample, Verdict
from reward_api.verify import languages
from reward_api.verify.pipeline import Job, Verifier

HERE = Path(__file__).parent
FIXTURE = HERE / "fixtures" / "apps_checkers.jsonl"


def _checker(problem_id: str) -> dict[str, str]:
    number = problem_id.split("/")[1]
    path = next((HERE / "checkers").glob(f"apps_{number}.*"))
    return {"language": "cpp" if path.suffix == ".cpp" else "python", "code": path.read_text()}


@pytest.fixture(scope="module")
def apps() -> tuple[dict[str, Problem], list[Sample]]:
    problems, samples, _report = convert_records("apps", read_records(FIXTURE), str(FIXTURE))
    assert sorted(p.id for p in problems) == [
        f"apps/{n}" for n in (2023, 2029, 2378, 2398, 2400, 33)
    ]
    with_checkers = {}
    for p in problems:
        data = p.model_dump(mode="json")
        if (
            _checker(p.id)["language"] == "cpp"
            and not (languages.default_root("cpp") / ".codereward-runtime").exists()
        ):
            pytest.skip("no cpp runtime: make runtimes")
        with_checkers[p.id] = Problem.model_validate({**data, "checker": _checker(p.id)})
    return with_checkers, samples


def test_the_references_fail_without_their_checker(verifier: Verifier, apps) -> None:
    problems, samples = apps
    plain = {pid: p.model_copy(update={"checker": None}) for pid, p in problems.items()}
    references = {s.problem_id: s for s in reversed(samples)}  # the first solution of each
    results = verifier.verify([Job(plain[pid], s) for pid, s in references.items()])
    assert [r.verdict for r in results] == [Verdict.wrong_answer] * len(references)


def test_every_solution_passes_with_its_checker(verifier: Verifier, apps) -> None:
    problems, samples = apps
    assert len(samples) == 18  # three solutions of each problem
    results = verifier.verify([Job(problems[s.problem_id], s) for s in samples])
    assert {s.problem_id: r.verdict for s, r in zip(samples, results, strict=True)
            if r.verdict != Verdict.accepted} == {}  # fmt: skip


# near misses: answers of the right shape that the checkers must refuse
MUTANTS = {
    "apps/2378": """
n = int(input())
for _ in range(n):
    s = input()
    l, r, u, d = (s.count(c) for c in "LRUD")
    lr, ud = min(l, r), min(u, d)
    res = "R" * lr + "L" * lr + "U" * ud + "D" * ud if lr and ud else ("LR" if lr else ("UD" if ud else ""))
    print(len(res))
    print(res)
""",  # the right length, but the route goes back through (0, 0)
    "apps/2400": """
q = int(input())
for _ in range(q):
    n = int(input())
    t = input().split()
    print(1 if len(set(t)) == 1 else 2)
    print(*([1] * n if len(set(t)) == 1 else ([1, 2] * n)[:n]))
""",  # two colours for an odd circle
    "apps/33": """
for _ in range(int(input())):
    n = int(input())
    print(2)
    for i in range(1, n):
        print(i, i + 1)
""",  # the right number, operations that do not reach it
    "apps/2023": "n = int(input())\nprint(*range(1, n + 1))",  # a permutation, not the best one
    "apps/2029": """
n = int(input())
print("YES" if n % 2 else "NO")
if n % 2:
    print(*range(1, 2 * n + 1))
""",  # YES and NO right, the circle in order
    "apps/2398": """
t = int(input())
for _ in range(t):
    n = int(input()); input(); input()
    print(0)
    print()
""",  # no swaps at all
}


def test_a_wrong_answer_fails_its_checker(verifier: Verifier, apps) -> None:
    problems, _samples = apps
    jobs = [Job(problems[pid], Sample(problem_id=pid, code=code)) for pid, code in MUTANTS.items()]
    results = verifier.verify(jobs)
    assert {pid: r.verdict for pid, r in zip(MUTANTS, results, strict=True)} == {
        pid: Verdict.wrong_answer for pid in MUTANTS
    }
