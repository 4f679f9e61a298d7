"""DeepCoder's training JSONL (``agentica-org/DeepCoder-Preview-Dataset``) to problems.

Source fields: ``problem`` (statement), ``tests`` (a JSON string), ``starter_code``,
``metadata`` (``func_name`` for LiveCodeBench functional problems), and ``solutions``
where a subset ships them. Its subsets store ``tests`` in three layouts, all handled:

- ``taco``: ``{"inputs": [...], "outputs": [...], "fn_name"?}``, graded as APPS/TACO;
- ``primeintellect`` and ``codeforces``: ``[{"type": "stdin_stdout" | "function_call",
  "input", "output", "fn_name"?}]``; function calls pass ``input`` as the argument list,
  graded as TACO;
- ``lcbv5``: ``[{"input", "output", "testtype": "stdin" | "functional"}]`` with
  ``metadata.func_name``, graded as LiveCodeBench.
"""

from __future__ import annotations

import ast
import json
from typing import Any

from reward_api.data.converters import apps, livecodebench
from reward_api.data.converters.apps import build_tests
from reward_api.data.converters.conversion import Conversion
from reward_api.data.converters.livecodebench import case_test
from reward_api.schemas import CallTest, Problem, StdioTest


def _parse(raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return ast.literal_eval(raw)


def deepcoder_tests(
    raw: Any, meta: dict[str, Any], starter: str
) -> tuple[list[StdioTest | CallTest], str]:
    """Contract tests from any of the three DeepCoder ``tests`` layouts, and the harness
    whose rules they follow (``apps`` or ``lcb``)."""
    tests = _parse(raw)
    if isinstance(tests, dict):
        return build_tests(tests, starter)[0], "apps"
    if not isinstance(tests, list) or not tests:
        return [], "apps"
    if any("testtype" in t for t in tests):
        return [
            case_test(t, (t.get("metadata") or {}).get("func_name") or meta.get("func_name"))
            for t in tests
        ], "lcb"
    stdio = [t for t in tests if t.get("type", "stdin_stdout") != "function_call"]
    calls = [t for t in tests if t.get("type") == "function_call"]
    out: list[StdioTest | CallTest] = []
    if stdio:
        io: dict[str, Any] = {
            "inputs": [t["input"] for t in stdio],
            "outputs": [t["output"] for t in stdio],
        }
        out += build_tests(io, starter)[0]
    if calls:
        io = {
            "inputs": [t["input"] for t in calls],
            "outputs": [t["output"] for t in calls],
            "fn_name": calls[0].get("fn_name") or meta.get("func_name"),
        }
        out += build_tests(io, starter)[0]
    return out, "apps"


def convert_deepcoder(records: list[dict[str, Any]], conv: Conversion) -> None:
    """Any DeepCoder subset; solutions, where present, become samples."""
    for index, rec in enumerate(records):
        pid = f"deepcoder/{rec.get('id', rec.get('problem_id', index))}"
        meta = rec.get("metadata") or {}
        if isinstance(meta, str):
            try:
                meta = json.loads(meta)
            except json.JSONDecodeError:
                meta = {}
        starter = rec.get("starter_code") or ""
        try:
            tests, harness = deepcoder_tests(rec.get("tests"), meta, starter)
        except (ValueError, SyntaxError, KeyError, TypeError) as e:
            conv.report.skip(pid, f"bad_tests: {type(e).__name__}: {str(e)[:80]}")
            continue
        if not tests:
            conv.report.skip(pid, "no_tests")
            continue
        raw_solutions = _parse(rec.get("solutions") or []) or []
        solutions = [s for s in raw_solutions if isinstance(s, str) and s.strip()]
        if harness == "apps":
            solutions = [apps.as_program(s) for s in solutions]
        prompt = str(rec.get("problem") or rec.get("question") or "")
        if starter.strip():
            prompt += f"\n\nStarter code:\n{starter.strip()}\n"
        p = Problem(
            id=pid,
            prompt=prompt,
            tests=list(tests),
            reference=solutions[0] if solutions else None,
            setup_code=apps.PRELUDE if harness == "apps" else livecodebench.PRELUDE,
            difficulty=rec.get("difficulty"),
            source="deepcoder",
            metadata={
                "index": index,
                **({"func_name": meta["func_name"]} if meta.get("func_name") else {}),
            },
        )
        conv.add(p, solutions)
