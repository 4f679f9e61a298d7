"""One content hash decides what "the same work" is, for the batch and for the cache."""

from __future__ import annotations

from reward_api import Job, Problem, Sample, Verifier
from reward_api.verify.keys import problem_digest, result_key

TESTS = [
    {"type": "assert", "code": "assert f(1) == 1"},
    {"type": "assert", "code": "assert f(2) == 3"},
]


def test_problems_differing_only_in_metadata_reward_get_their_own_results(
    verifier: Verifier,
) -> None:
    """Same tests, different ``metadata.reward``: one batch must not share their result."""
    fraction = Problem.model_validate(
        {"id": "frac", "tests": TESTS, "metadata": {"reward": {"mode": "fraction"}}}
    )
    strict = Problem.model_validate(
        {"id": "strict", "tests": TESTS, "metadata": {"reward": {"mode": "all_or_nothing"}}}
    )
    code = "def f(x):\n    return x\n"  # passes the first test only
    jobs = [Job(p, Sample(problem_id=p.id, code=code)) for p in (fraction, strict)]
    got = verifier.verify(jobs)
    assert [r.passed for r in got] == [1, 1]
    assert [r.reward for r in got] == [0.5, 0.0]


def test_the_key_ignores_what_cannot_change_a_result() -> None:
    base = {"tests": TESTS, "prompt": "p", "difficulty": "easy", "source": "x"}
    a = Problem.model_validate({"id": "a", **base})
    b = Problem.model_validate({"id": "b", **base, "prompt": "another", "source": "y"})
    c = Problem.model_validate({"id": "c", **base, "metadata": {"reward": {"preset": "hard"}}})
    assert problem_digest(a) == problem_digest(b)
    assert problem_digest(a) != problem_digest(c)
    key = result_key(problem_digest(a), "print(1)", None, "rt")
    assert key == result_key(problem_digest(b), "print(1)", None, "rt")
    assert key != result_key(problem_digest(a), "print(2)", None, "rt")
    assert key != result_key(problem_digest(a), "print(1)", None, "rt2")
