"""MBXP (MBCPP, MBJP, MBJSP, MBTSP, MBGP, ...: mbpp translated by AWS) to problems.

Records: ``task_id, language, prompt, test, entry_point, canonical_solution`` (MBGP has
no canonical solutions). A program is ``prompt + completion``: the prompt holds the
includes or imports and the signature, the completion the body. One assert test per
problem, the record's ``test`` (a ``main`` in C++, Go, Java; top-level code in JavaScript
and TypeScript), built after the program as one unit (CONTRACT.md, "Other languages");
the reference is ``prompt + canonical_solution`` where there is one.
"""

from __future__ import annotations

from typing import Any

from reward_api.data.converters.conversion import Conversion
from reward_api.schemas import AssertTest, Problem, Sample, canonical_language


def problem_id(task_id: str) -> str:
    return f"mbxp/{task_id}"


def mbxp_problem(rec: dict[str, Any]) -> Problem:
    """The problem of one MBXP record."""
    language = canonical_language(rec["language"])
    if language is None:
        raise ValueError(f"{rec['task_id']}: language {rec['language']!r} is not judged")
    canonical = rec.get("canonical_solution")
    return Problem(
        id=problem_id(rec["task_id"]),
        language=language,
        prompt=rec["prompt"],
        tests=[AssertTest(code=rec["test"])],
        reference=rec["prompt"] + canonical if canonical else None,
        entry_points=[rec["entry_point"]] if rec.get("entry_point") else None,
        source="mbxp",
        metadata={"task_id": rec["task_id"]},
    )


def mbxp_sample(problem: Problem, completion: str, sample_id: str | None = None) -> Sample:
    """A model's completion (the body after the prompt) as a sample of the whole program."""
    return Sample(
        problem_id=problem.id, sample_id=sample_id, code=(problem.prompt or "") + completion
    )


def convert_mbxp(records: list[dict[str, Any]], conv: Conversion) -> None:
    """Every record whose language is judged; the canonical solution, when present, is
    the reference and the one sample."""
    for rec in records:
        if canonical_language(str(rec.get("language", ""))) is None:
            conv.report.skip(str(rec.get("task_id")), "unsupported_language")
            continue
        p = mbxp_problem(rec)
        conv.report.count(f"language:{p.language}")
        conv.add(p, [p.reference] if p.reference else [])
