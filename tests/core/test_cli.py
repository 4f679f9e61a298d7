"""``codereward verify``: results in sample order, a summary, clear errors on bad input."""

import json
import subprocess
import sys
from pathlib import Path

CLI = [sys.executable, "-m", "reward_api.cli"]
PROBLEM = {"id": "p", "tests": [{"type": "call", "fn_name": "f", "args": [2], "output": 4}] * 5}


def _write(tmp: Path, name: str, rows: list) -> str:
    path = tmp / name
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return str(path)


def test_verify_writes_results_in_sample_order_and_a_summary(tmp_path):
    problems = _write(tmp_path, "p.jsonl", [PROBLEM])
    samples = _write(tmp_path, "s.jsonl", [
        {"problem_id": "p", "sample_id": "wrong", "code": "def f(x):\n    return x"},
        {"problem_id": "p", "sample_id": "right", "completion": "```python\ndef f(x):\n    return x * x\n```"},
    ])  # fmt: skip
    out = subprocess.run([*CLI, "verify", problems, samples, "-q"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["sample_id"], r["accepted"]) for r in rows] == [("wrong", False), ("right", True)]
    assert "accepted 1/2" in out.stderr and "tests/s" in out.stderr


def test_malformed_sample_names_line_and_field(tmp_path):
    problems = _write(tmp_path, "p.jsonl", [PROBLEM])
    samples = _write(
        tmp_path, "s.jsonl", [{"problem_id": "p", "code": "x=1"}, {"sample_id": "x", "code": "y"}]
    )
    out = subprocess.run([*CLI, "verify", problems, samples], capture_output=True, text=True)
    assert out.returncode == 2
    assert "s.jsonl:2" in out.stderr and "problem_id" in out.stderr


def test_bad_json_line_is_reported_with_its_number(tmp_path):
    problems = _write(tmp_path, "p.jsonl", [PROBLEM, "{not json"])
    samples = _write(tmp_path, "s.jsonl", [{"problem_id": "p", "code": "x=1"}])
    out = subprocess.run([*CLI, "verify", problems, samples], capture_output=True, text=True)
    assert out.returncode == 2 and "p.jsonl:2" in out.stderr


def test_unknown_problem_id_is_an_input_error(tmp_path):
    problems = _write(tmp_path, "p.jsonl", [PROBLEM])
    samples = _write(tmp_path, "s.jsonl", [{"problem_id": "nope", "code": "x=1"}])
    out = subprocess.run([*CLI, "verify", problems, samples], capture_output=True, text=True)
    assert out.returncode == 2 and "unknown problem 'nope'" in out.stderr


def test_bundled_set_verifies(tmp_path):
    root = Path(__file__).resolve().parents[2] / "reward_api" / "data" / "bundled"
    out = subprocess.run(
        [*CLI, "verify", str(root / "problems.jsonl"), str(root / "samples.jsonl"), "-q", "-o", str(tmp_path / "r")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    rows = [json.loads(line) for line in (tmp_path / "r").read_text().splitlines()]
    assert all(r["accepted"] == (r["sample_id"] == "right") for r in rows)
