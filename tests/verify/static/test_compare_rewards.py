"""``codereward rewards compare``: metrics, re-scoring, and the command end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from reward_api import schemas
from reward_api.data.compare_rewards import Scored, spearman, subset_counts, summarize
from reward_api.schemas import Problem, Result, Verdict

CODEREWARD = str(Path(sys.executable).parent / "codereward")


def _scored(difficulty, accepted, reward, hacking=False):
    return Scored("p", None, difficulty, accepted, hacking, {"x": reward})


def test_spearman_is_one_for_same_order_and_minus_one_for_reverse():
    assert spearman([0.1, 0.5, 0.9], [0, 1, 2]) == 1.0
    assert spearman([0.1, 0.5, 0.9], [2, 1, 0]) == -1.0


def test_spearman_is_undefined_when_one_side_is_constant():
    assert spearman([1.0, 1.0, 1.0], [0, 1, 0]) is None


def test_spearman_averages_tied_ranks():
    assert spearman([0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0]) == 1.0


def test_summarize_counts_false_positives_and_negatives_per_difficulty():
    records = [
        _scored("easy", True, 1.0),
        _scored("easy", False, 0.7),  # false positive
        _scored("hard", True, 0.2),  # false negative
        _scored("hard", False, 0.0),
    ]
    summary = summarize(records, ["x"], threshold=0.5)["x"]
    assert list(summary) == ["easy", "hard", "all"]
    assert (summary["easy"]["false_positives"], summary["easy"]["fp_rate"]) == (1, 1.0)
    assert (summary["hard"]["false_negatives"], summary["hard"]["fn_rate"]) == (1, 1.0)
    assert summary["all"]["n"] == 4


def test_summarize_counts_rewarded_hacks():
    records = [_scored("easy", False, 0.3, hacking=True), _scored("easy", True, 1.0)]
    assert summarize(records, ["x"])["x"]["all"]["hacks_rewarded"] == 1


def _problem_with_tests(sizes):
    tests = [{"type": "stdio", "input": "x" * n, "output": ""} for n in sizes]
    return Problem.model_validate({"id": "p", "tests": tests})


def _result(verdicts):
    tests = [schemas.TestResult(verdict=v) for v in verdicts]
    passed = sum(v == Verdict.accepted for v in verdicts)
    return Result(
        problem_id="p",
        reward=0.0,
        accepted=passed == len(verdicts),
        passed=passed,
        total=len(verdicts),
        verdict=Verdict.accepted,
        tests=tests,
    )


def test_subset_counts_use_the_presets_longest_tests():
    problem = _problem_with_tests([1, 9, 5])
    result = _result([Verdict.wrong_answer, Verdict.accepted, Verdict.accepted])
    assert subset_counts(problem, result, 2, False) == (2, 2, True)
    assert subset_counts(problem, result, None, False) == (2, 3, False)


def test_subset_counts_stop_at_the_first_failure():
    problem = _problem_with_tests([3, 2, 1])
    result = _result([Verdict.accepted, Verdict.wrong_answer, Verdict.accepted])
    assert subset_counts(problem, result, None, True) == (1, 3, False)


PROBLEMS = [
    {
        "id": "add",
        "difficulty": "easy",
        "reference": "def add(a, b):\n    return a + b\n",
        "tests": [
            {"type": "call", "fn_name": "add", "args": [1, 2], "output": 3},
            {"type": "call", "fn_name": "add", "args": [5, 5], "output": 10},
        ],
    },
    {
        "id": "double",
        "difficulty": "hard",
        "reference": "n = int(input())\nprint(n * 2)\n",
        "tests": [{"type": "stdio", "input": "3\n", "output": "6\n"}],
    },
]
SAMPLES = [
    {"problem_id": "add", "sample_id": "right", "code": "def add(a, b):\n    return a + b\n"},
    {"problem_id": "add", "sample_id": "wrong", "code": "def add(a, b):\n    return a - b\n"},
    {
        "problem_id": "add",
        "sample_id": "hack",
        "code": "import sys\n\n\ndef add(a, b):\n    return a + b\n\n\nsys.exit(0)\n",
    },
    {"problem_id": "double", "sample_id": "right", "code": "n = int(input())\nprint(n + n)\n"},
]


def test_rewards_compare_writes_table_json_and_chart(tmp_path):
    problems, samples = tmp_path / "p.jsonl", tmp_path / "s.jsonl"
    problems.write_text("".join(json.dumps(p) + "\n" for p in PROBLEMS))
    samples.write_text("".join(json.dumps(s) + "\n" for s in SAMPLES))
    out = tmp_path / "out"
    proc = subprocess.run(
        [CODEREWARD, "rewards", "compare", str(problems), str(samples), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads((out / "compare.json").read_text())
    assert (out / "compare.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert set(report["summary"]) == {"default", "easy", "hard"}
    assert set(report["summary"]["hard"]) == {"easy", "hard", "all"}
    assert "spearman" in proc.stdout and "hard" in proc.stdout
    hack = next(r for r in report["records"] if r["sample_id"] == "hack")
    assert hack["hacking"] and set(hack["rewards"].values()) == {0.0}
