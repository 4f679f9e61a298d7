"""APPS and TACO to problems: ``input_output`` with ``fn_name`` (call tests) or without (stdio).

Source fields. APPS (``codeparrot/apps``): ``problem_id, question, solutions,
input_output, difficulty, url, starter_code``; ``solutions`` and ``input_output`` are
JSON strings. TACO (``BAAI/TACO``) has the same ``question, solutions, starter_code,
input_output, difficulty, url`` plus ``name, source, tags, skill_types, time_limit,
memory_limit, raw_tags, date, picture_num`` and no id (the row index is used).

How APPS' harness grades, reproduced here:
- stdio: an input or output given as a list of lines is joined with newlines; stdout is
  compared line by line with white space ignored, which is the ``lcb`` comparator.
- call-based: ``fn_name(*inputs[i])``, or ``Solution().fn_name`` when the starter code
  declares ``class Solution``; the arguments are passed exactly as stored (APPS'
  LeetCode problems store strings with their quotes, and their outputs were made that
  way). The harness accepts ``output == expected`` or ``output == expected[0]``: outputs
  are unwrapped when every expected output of the problem is a one-element list (the
  Codewars convention), and kept as they are otherwise.
- the harness puts a block of standard-library imports (``typing.List``, ``collections``,
  ``heapq``, ``math`` ...) in front of every program; solutions rely on it, so it is the
  problems' ``setup_code`` (``PRELUDE``, written for this project; no numpy).
- the harness runs a stdio program inside a function, so solutions may ``return`` at top
  level or use ``nonlocal`` there. A solution that only compiles that way is wrapped in a
  function (``as_program``); every other solution is kept verbatim.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

from reward_api.data.converters.conversion import Conversion
from reward_api.schemas import CallTest, Problem, StdioTest

Tests = list[StdioTest | CallTest]

PRELUDE = """\
import sys, time, math, random, heapq, bisect, itertools, collections, fractions, string, re
from itertools import accumulate, product, permutations, combinations
from collections import Counter, OrderedDict, deque, defaultdict, ChainMap
from functools import lru_cache, reduce
from math import sqrt, sin, cos, tan, ceil, fabs, floor, gcd, exp, log, log2
from typing import List, Tuple, Dict, Set, Optional
from heapq import heappush, heappop, heapify
"""

_FUNCTION_ONLY = (
    "'return' outside function",
    "nonlocal declaration not allowed at module level",
    "no binding for nonlocal",
)


def as_program(code: str) -> str:
    """``code`` itself, or wrapped in a function when only a function body compiles."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(code, "<solution>", "exec")
    except SyntaxError as e:
        if not any(m in str(e.msg) for m in _FUNCTION_ONLY):
            return code
    else:
        return code
    body = "\n".join("    " + line if line.strip() else line for line in code.splitlines())
    return f"def _solution_main():\n{body}\n\n_solution_main()\n"


def _json_field(value: Any) -> Any:
    if isinstance(value, str):
        if not value.strip():
            return None
        return json.loads(value)
    return value


def _text(value: Any) -> str:
    if isinstance(value, list):
        return "\n".join(str(v) for v in value)
    return str(value)


def build_tests(io: dict[str, Any], starter_code: str = "") -> tuple[Tests, str]:
    """Tests from an APPS ``input_output`` object, and their kind (``stdio`` or ``call``)."""
    inputs = list(io.get("inputs") or [])
    outputs = list(io.get("outputs") or [])
    if len(inputs) != len(outputs):
        n = min(len(inputs), len(outputs))
        inputs, outputs = inputs[:n], outputs[:n]
    fn_name = io.get("fn_name")
    if not fn_name:
        return [
            StdioTest(input=_text(i), output=_text(o)) for i, o in zip(inputs, outputs, strict=True)
        ], "stdio"
    class_name = "Solution" if "class Solution" in (starter_code or "") else None
    wrapped = bool(outputs) and all(isinstance(o, list) and len(o) == 1 for o in outputs)
    tests: Tests = []
    for args, out in zip(inputs, outputs, strict=True):
        expected = out[0] if wrapped else out
        tests.append(
            CallTest(
                fn_name=str(fn_name),
                args=list(args) if isinstance(args, list) else [args],
                output=expected,
                class_name=class_name,
            )
        )
    return tests, "call"


def _prompt(question: str, starter_code: str, kind: str) -> str:
    parts = [question.rstrip()]
    if starter_code and starter_code.strip():
        parts.append(f"Starter code:\n{starter_code.strip()}")
    parts.append("Use Call-Based format." if kind == "call" else "Use Standard Input format.")
    return "\n\n".join(parts) + "\n"


def _convert(records: list[dict[str, Any]], conv: Conversion, family: str) -> None:
    for index, rec in enumerate(records):
        raw_id = rec.get("problem_id", rec.get("id", index))
        pid = f"{family}/{raw_id}"
        try:
            io = _json_field(rec.get("input_output"))
            solutions = _json_field(rec.get("solutions")) or []
        except json.JSONDecodeError as e:
            conv.report.skip(pid, f"bad_json: {e.msg}")
            continue
        if not isinstance(io, dict) or not io.get("inputs"):
            conv.report.skip(pid, "no_tests")
            continue
        starter = rec.get("starter_code") or ""
        # APPS decides Solution().fn or fn from the program; the starter code says which.
        raw = [x for x in solutions if isinstance(x, str)] if isinstance(solutions, list) else []
        hint = starter if starter.strip() else (raw[0] if raw else "")
        tests, kind = build_tests(io, hint)
        conv.report.count(f"kind:{kind}")
        meta = {
            k: rec[k]
            for k in ("url", "name", "source", "tags", "skill_types", "time_limit", "memory_limit")
            if rec.get(k) not in (None, "", [])
        }
        meta["index"] = index
        if kind == "call":
            meta["fn_name"] = io["fn_name"]
        solutions = [as_program(s) for s in solutions if isinstance(s, str) and s.strip()]
        p = Problem(
            id=pid,
            prompt=_prompt(rec.get("question") or "", starter, kind),
            tests=list(tests),
            reference=solutions[0] if solutions else None,
            setup_code=PRELUDE,
            difficulty=rec.get("difficulty"),
            source=family,
            metadata=meta,
        )
        if not solutions:
            conv.report.count("no_solutions")
        conv.add(p, solutions)


def convert_apps(records: list[dict[str, Any]], conv: Conversion) -> None:
    """APPS rows (``problem_id`` keeps the APPS id)."""
    _convert(records, conv, "apps")


def convert_taco(records: list[dict[str, Any]], conv: Conversion) -> None:
    """TACO rows (no id field: the row index is the id)."""
    _convert(records, conv, "taco")
