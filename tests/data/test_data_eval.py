"""pass@k: the stable estimator against the comb formula, and ``codereward eval`` end to end."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reward_api.data.passk import count_results, evaluate, pass_at_k, summarise
from reward_api.schemas import AssertTest, Problem, Sample


def direct(n: int, c: int, k: int) -> float:
    return float(1 - Fraction(comb(n - c, k), comb(n, k)))


@st.composite
def nck(draw):
    n = draw(st.integers(1, 300))
    c = draw(st.integers(0, n))
    k = draw(st.integers(1, n))
    return n, c, k


@settings(max_examples=300, deadline=None)
@given(nck())
def test_pass_at_k_equals_the_comb_formula(case):
    n, c, k = case
    assert abs(pass_at_k(n, c, k) - direct(n, c, k)) <= 1e-9


@settings(max_examples=50, deadline=None)
@given(st.lists(nck(), min_size=1, max_size=12), st.sampled_from([1, 2, 5, 10]))
def test_summary_mean_equals_the_formula_over_problems_with_enough_samples(cases, k):
    counts = {f"p{i}": (n, c) for i, (n, c, _k) in enumerate(cases)}
    report = summarise(counts, [k])
    eligible = [direct(n, c, k) for n, c in counts.values() if n >= k]
    if eligible:
        assert abs(report[f"pass@{k}"] - sum(eligible) / len(eligible)) <= 1e-9
    else:
        assert report[f"pass@{k}"] is None
    assert report["insufficient"][f"pass@{k}"] == [p for p, (n, _c) in counts.items() if n < k]


def test_pass_at_k_edges():
    assert pass_at_k(5, 0, 1) == 0.0
    assert pass_at_k(5, 5, 5) == 1.0
    assert pass_at_k(10, 8, 3) == 1.0  # fewer than k failures: some k-subset always passes
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 4)
    with pytest.raises(ValueError):
        pass_at_k(3, 4, 1)


def test_by_difficulty_and_short_problems_are_reported():
    counts = {"a": (10, 3), "b": (10, 0), "c": (2, 2)}
    report = summarise(counts, [1, 5], {"a": "easy", "b": "hard", "c": "easy"})
    assert report["insufficient"] == {"pass@1": [], "pass@5": ["c"]}
    assert report["problems_counted"] == {"pass@1": 3, "pass@5": 2}
    assert report["by_difficulty"]["easy"]["pass@1"] == pytest.approx((0.3 + 1.0) / 2)
    assert report["by_difficulty"]["easy"]["pass@5"] == pytest.approx(direct(10, 3, 5))
    assert report["n_per_problem"] == {"a": 10, "b": 10, "c": 2}


def problem(pid: str, difficulty: str) -> Problem:
    return Problem(
        id=pid,
        tests=[AssertTest(code=f"assert double({i}) == {2 * i}") for i in range(5)],
        difficulty=difficulty,
    )


RIGHT = "def double(x):\n    return 2 * x\n"
WRONG = "def double(x):\n    return x + 1\n"  # right only for x = 1


def test_evaluate_verifies_in_the_sandbox_and_matches_the_formula(verifier):
    problems = [problem("p1", "easy"), problem("p2", "hard"), problem("p3", "hard")]
    plan = {
        "p1": [RIGHT, WRONG, RIGHT, WRONG, WRONG],
        "p2": [WRONG, WRONG, WRONG, RIGHT, WRONG],
        "p3": [RIGHT, WRONG],
    }
    samples = [
        Sample(problem_id=p, sample_id=str(i), code=c)
        for p, codes in plan.items()
        for i, c in enumerate(codes)
    ]
    report, results = evaluate(problems, samples, [1, 5], verifier)
    assert [r.accepted for r in results] == [c == RIGHT for codes in plan.values() for c in codes]
    assert report["n_per_problem"] == {"p1": 5, "p2": 5, "p3": 2}
    assert report["c_per_problem"] == {"p1": 2, "p2": 1, "p3": 1}
    assert report["pass@1"] == pytest.approx((2 / 5 + 1 / 5 + 1 / 2) / 3, abs=1e-9)
    assert report["pass@5"] == pytest.approx((1.0 + 1.0) / 2, abs=1e-9)
    assert report["insufficient"]["pass@5"] == ["p3"]
    assert set(report["by_difficulty"]) == {"easy", "hard"}


def test_count_results_excludes_sandbox_errors_and_keeps_unsampled_problems():
    from reward_api.schemas import Result, Verdict

    problems = [problem("p1", "easy"), problem("p2", "easy")]
    samples = [Sample(problem_id="p1", code=RIGHT), Sample(problem_id="p1", code=RIGHT)]
    results = [
        Result(
            problem_id="p1", reward=1.0, accepted=True, passed=5, total=5, verdict=Verdict.accepted
        ),
        Result(
            problem_id="p1",
            reward=None,
            accepted=False,
            passed=0,
            total=5,
            verdict=Verdict.sandbox_error,
        ),
    ]
    counts, errors = count_results(problems, samples, results)
    assert counts == {"p1": (1, 1), "p2": (0, 0)}
    assert errors == {"p1": 1}


def test_eval_cli_writes_json_table_and_curve(tmp_path, capsys):
    from reward_api.cli import main

    problems = tmp_path / "p.jsonl"
    problems.write_text(
        "".join(problem(f"p{i}", "easy").model_dump_json() + "\n" for i in range(2))
    )
    samples = tmp_path / "s.jsonl"
    rows = [
        {"problem_id": f"p{i}", "completion": f"```python\n{c}```"}
        for i in range(2)
        for c in (RIGHT, WRONG, WRONG)
    ]
    samples.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "eval.json"
    assert main(["eval", str(problems), str(samples), "--k", "1,2,5", "-o", str(out), "-q"]) == 0
    report = json.loads(out.read_text())
    assert report["pass@1"] == pytest.approx(1 / 3)
    assert report["pass@2"] == pytest.approx(direct(3, 1, 2))
    assert report["pass@5"] is None and report["insufficient"]["pass@5"] == ["p0", "p1"]
    assert (tmp_path / "eval-pass_at_k.png").read_bytes()[:4] == b"\x89PNG"
    assert "| all | 2 |" in capsys.readouterr().out
    assert main(["eval", str(problems), str(samples), "--k", "0"]) == 2
