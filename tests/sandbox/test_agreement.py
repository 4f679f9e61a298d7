"""The sandbox agrees with plain, unsandboxed execution on references and their mutants.

Mutants are made by small AST edits of reference solutions (an operator or a constant
changed), the kind of near-miss programs a model writes; per sample, acceptance by the
sandbox must equal acceptance by a plain ``python3 -I`` run of the same tests.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any

import pytest

from reward_api.bench.unsandboxed import run_plain_many
from reward_api.data.converters import convert
from reward_api.schemas import AssertTest, Sample
from reward_api.verify.pipeline import Job

DATA = Path(
    os.environ.get(
        "CODEREWARD_SHARED_DATA", Path(__file__).resolve().parents[3] / "shared" / "data"
    )
)
SETS = {
    "mbpp": ("mbpp", "mbpp.jsonl", 0),
    "mbpp_sanitized": ("mbpp_sanitized", "sanitized-mbpp.json", 1),
    "apps": ("apps", "apps_mini_val_150.jsonl", 2),
}
_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
         ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.Mult: ast.Add}  # fmt: skip


def mutate(code: str, which: int) -> str | None:
    """The program with its ``which``-th mutable operator or int constant changed."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    sites = [n for n in ast.walk(tree) if isinstance(n, ast.BinOp | ast.Compare)
             or (isinstance(n, ast.Constant) and type(n.value) is int)]  # fmt: skip
    if not sites:
        return None
    node = sites[which % len(sites)]
    if isinstance(node, ast.BinOp) and type(node.op) in _SWAP:
        node.op = _SWAP[type(node.op)]()
    elif isinstance(node, ast.Compare) and type(node.ops[0]) in _SWAP:
        node.ops[0] = _SWAP[type(node.ops[0])]()
    elif isinstance(node, ast.Constant):
        node.value = node.value + 1
    else:
        return None
    return ast.unparse(tree)


@pytest.mark.parametrize("name", sorted(SETS))
def test_sandbox_agrees_with_plain_execution(name, verifier):
    fmt, filename, seed = SETS[name]
    problems, samples, _ = convert(fmt, str(DATA / filename))
    by_id = {p.id: p for p in problems}
    refs = {}
    for s in samples:
        refs.setdefault(s.problem_id, s.code)
    chosen = sorted(refs)[seed::12][:14]
    jobs = []
    for pid in chosen:
        problem = by_id[pid].model_copy(update={"tests": by_id[pid].tests[:6]})
        programs = [refs[pid]] + [m for k in (1, 5) if (m := mutate(refs[pid], k + seed))]
        jobs += [
            Job(problem, Sample(problem_id=pid, sample_id=str(i), code=c))
            for i, c in enumerate(programs)
        ]
    results = verifier.verify(jobs)
    plain, _ = run_plain_many([(j.problem, j.sample.code or "") for j in jobs], per="test")
    disagreements = [
        (j.problem.id, j.sample.sample_id, r.verdict.value, [v.value for v in pv])
        for j, r, pv in zip(jobs, results, plain, strict=True)
        if r.accepted != all(v.value == "accepted" for v in pv)
        and "timeout" not in [v.value for v in pv]
    ]
    assert len(jobs) >= 30
    assert disagreements == []


def _whole_check(problem: Any, entry: str) -> Any:
    """The problem's asserts as one HumanEval-style ``check(candidate)`` test (the judge's)."""
    body = "\n".join(
        "    " + t.code.replace(f"{entry}(", "candidate(")
        for t in problem.tests
        if t.type == "assert"
    )
    test = f"def check(candidate):\n{body}\n\ncheck({entry})\n"
    return problem.model_copy(update={"tests": [AssertTest(code=test)]})


def test_judged_tests_agree_with_plain_execution(verifier):
    """HumanEval's shape: the whole check function runs in the judge, the program is called."""
    problems, samples, _ = convert("mbpp", str(DATA / "mbpp.jsonl"))
    by_id = {p.id: p for p in problems}
    jobs = []
    for s in samples[3::25]:
        problem = by_id[s.problem_id]
        names = [n.name for n in ast.parse(s.code or "").body if isinstance(n, ast.FunctionDef)]
        if not names:
            continue
        judged = _whole_check(problem, names[-1] if len(names) == 1 else names[0])
        for i, code in enumerate([s.code] + [m for k in (1, 4) if (m := mutate(s.code or "", k))]):
            jobs.append(Job(judged, Sample(problem_id=judged.id, sample_id=str(i), code=code)))
    results = verifier.verify(jobs)
    plain, _ = run_plain_many([(j.problem, j.sample.code or "") for j in jobs], per="test")
    disagreements = [
        (j.problem.id, j.sample.sample_id, r.verdict.value, [v.value for v in pv])
        for j, r, pv in zip(jobs, results, plain, strict=True)
        if r.accepted != all(v.value == "accepted" for v in pv)
        and "timeout" not in [v.value for v in pv]
    ]
    assert len(jobs) >= 60
    assert sum(r.accepted for r in results) >= len(jobs) // 4
    assert disagreements == []
