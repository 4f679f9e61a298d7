"""LiveCodeBench ``code_generation_lite`` to problems.

Source fields: ``question_title, question_content, platform, question_id, contest_id,
contest_date, starter_code, difficulty, public_test_cases, private_test_cases,
metadata``. ``public_test_cases`` is a JSON string; ``private_test_cases`` is a JSON
string or, in the released files, base64 of zlib of a pickle of that JSON string; each
test is ``{"input", "output", "testtype": "stdin" | "functional"}``. ``metadata`` is a
JSON string holding ``func_name`` for functional (LeetCode) problems.

Stdin tests become stdio tests (compared with LiveCodeBench's own rules, the default
``lcb`` comparator). Functional tests become call tests on ``Solution().func_name`` with
one JSON argument per input line, as LiveCodeBench's harness parses them. The pickle is
read with an unpickler that refuses every global, so a crafted file cannot run code: the
payload is only ever a string. LiveCodeBench's harness puts star imports of the standard
library in front of every program (LeetCode starters use ``List`` unimported); ``PRELUDE``
(written for this project) is the problems' ``setup_code`` to the same end. No solutions
ship with this set.
"""

from __future__ import annotations

import base64
import io
import json
import pickle
import zlib
from typing import Any

from reward_api.data.converters.conversion import Conversion
from reward_api.schemas import CallTest, Problem, StdioTest

PRELUDE = """\
import sys, math, re, string, heapq, bisect, itertools, functools, collections, random
from typing import *
from collections import *
from itertools import *
from functools import *
from heapq import *
from bisect import *
from math import sqrt, ceil, floor, gcd, inf, log, log2, comb, factorial, isqrt
"""


class _StringsOnly(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refusing to load {module}.{name}")


def decode_tests(raw: Any) -> list[dict[str, Any]]:
    """LiveCodeBench test cases from their JSON or base64-zlib-pickle-JSON form."""
    if isinstance(raw, list):
        return raw
    if not raw:
        return []
    try:
        tests = json.loads(raw)
    except json.JSONDecodeError:
        payload = zlib.decompress(base64.b64decode(raw.encode("utf-8")))
        tests = _StringsOnly(io.BytesIO(payload)).load()
        if isinstance(tests, (str, bytes)):
            tests = json.loads(tests)
    if not isinstance(tests, list):
        raise ValueError("test cases are not a list")
    return tests


def encode_tests(tests: list[dict[str, Any]]) -> str:
    """The compressed form of ``decode_tests`` (used to write fixtures)."""
    return base64.b64encode(zlib.compress(pickle.dumps(json.dumps(tests)))).decode("ascii")


def functional_test(case: dict[str, Any], func_name: str) -> CallTest:
    """A call test from a functional case: one JSON value per input line."""
    args = [json.loads(line) for line in str(case["input"]).split("\n") if line.strip()]
    return CallTest(
        fn_name=func_name, args=args, output=json.loads(case["output"]), class_name="Solution"
    )


def case_test(case: dict[str, Any], func_name: str | None) -> StdioTest | CallTest:
    """One LiveCodeBench case as a contract test."""
    if case.get("testtype") == "functional":
        if not func_name:
            raise ValueError("functional test without metadata.func_name")
        return functional_test(case, func_name)
    return StdioTest(input=str(case["input"]), output=str(case["output"]))


def convert_livecodebench(records: list[dict[str, Any]], conv: Conversion) -> None:
    """Public then private tests of each question."""
    for rec in records:
        pid = f"lcb/{rec.get('question_id')}"
        try:
            meta = rec.get("metadata") or {}
            meta = json.loads(meta) if isinstance(meta, str) else dict(meta)
            public = decode_tests(rec.get("public_test_cases"))
            private = decode_tests(rec.get("private_test_cases"))
            func_name = meta.get("func_name")
            tests = [case_test(c, func_name) for c in public + private]
        except (ValueError, KeyError, zlib.error, pickle.UnpicklingError) as e:
            conv.report.skip(pid, f"bad_tests: {type(e).__name__}: {str(e)[:80]}")
            continue
        if not tests:
            conv.report.skip(pid, "no_tests")
            continue
        conv.report.count("private_tests", len(private))
        prompt = str(rec.get("question_content") or "")
        starter = rec.get("starter_code") or ""
        if starter.strip():
            prompt += f"\n\nStarter code:\n{starter.strip()}\n"
        p = Problem(
            id=pid,
            prompt=prompt,
            tests=list(tests),
            setup_code=PRELUDE,
            difficulty=rec.get("difficulty"),
            source="livecodebench",
            metadata={
                "title": rec.get("question_title"),
                "platform": rec.get("platform"),
                "contest_id": rec.get("contest_id"),
                "contest_date": str(rec.get("contest_date") or ""),
                "public_tests": len(public),
                "private_tests": len(private),
                **({"func_name": meta["func_name"]} if meta.get("func_name") else {}),
            },
        )
        conv.add(p)
