"""CodeContests (``deepmind/code_contests``) to stdio problems.

Source fields: ``name, description, public_tests, private_tests, generated_tests``
(each ``{"input": [...], "output": [...]}``), ``solutions`` and ``incorrect_solutions``
(``{"language": [...], "solution": [...]}``, language 1 = Python 2, 3 = Python 3),
``difficulty`` (an enum number), ``source``, ``time_limit`` (``{"seconds", "nanos"}``),
``memory_limit_bytes``, ``input_file``, ``output_file``, ``cf_*``.

All three test groups become stdio tests, public first; metadata records how many of
each. Python 3 solutions become samples (the first is the reference). Problems that read
or write named files (``input_file``/``output_file``) cannot be graded over stdio and
are skipped with that reason. Outputs of problems with several valid answers need a
checker this format does not carry; their references may fail.
"""

from __future__ import annotations

from typing import Any

from reward_api.data.converters.conversion import Conversion
from reward_api.schemas import Problem, StdioTest

PYTHON3 = 3

DIFFICULTIES = [
    "UNKNOWN_DIFFICULTY", "EASY", "MEDIUM", "HARD", "HARDER", "HARDEST", "EXTERNAL",
    *[chr(c) for c in range(ord("A"), ord("W"))],
]  # fmt: skip

SOURCES = ["UNKNOWN_SOURCE", "CODECHEF", "CODEFORCES", "HACKEREARTH", "CODEJAM", "ATCODER", "AIZU"]


def _pairs(group: Any) -> list[tuple[str, str]]:
    if not group:
        return []
    if isinstance(group, list):  # a list of {"input", "output"} objects
        return [(str(t["input"]), str(t["output"])) for t in group]
    return list(zip(group.get("input") or [], group.get("output") or [], strict=False))


def _enum(value: Any, names: list[str]) -> str | None:
    if isinstance(value, int) and 0 <= value < len(names):
        return names[value]
    return None if value is None else str(value)


def convert_codecontests(records: list[dict[str, Any]], conv: Conversion) -> None:
    """Public, private and generated tests; Python 3 solutions as samples."""
    for index, rec in enumerate(records):
        pid = str(rec.get("name") or f"codecontests/{index}")
        if rec.get("input_file") or rec.get("output_file"):
            conv.report.skip(pid, "file_io: reads or writes named files")
            continue
        groups = {
            g: _pairs(rec.get(g)) for g in ("public_tests", "private_tests", "generated_tests")
        }
        tests = [StdioTest(input=i, output=o) for g in groups.values() for i, o in g]
        if not tests:
            conv.report.skip(pid, "no_tests")
            continue
        sols = rec.get("solutions") or {}
        if isinstance(sols, list):  # list of {"language", "solution"} objects
            langs = [s.get("language") for s in sols]
            codes = [s.get("solution") for s in sols]
        else:
            langs, codes = sols.get("language") or [], sols.get("solution") or []
        python3 = [c for lang, c in zip(langs, codes, strict=False) if lang == PYTHON3 and c]
        conv.report.count("python2_solutions_skipped", sum(1 for lang in langs if lang == 1))
        tl = rec.get("time_limit") or {}
        time_limit_s = (tl.get("seconds") or 0) + (tl.get("nanos") or 0) / 1e9 if tl else None
        meta: dict[str, Any] = {f"{g}": len(v) for g, v in groups.items()}
        meta.update(
            source=_enum(rec.get("source"), SOURCES),
            time_limit_s=time_limit_s,
            memory_limit_bytes=rec.get("memory_limit_bytes"),
            cf_rating=rec.get("cf_rating"),
            cf_tags=rec.get("cf_tags"),
        )
        p = Problem(
            id=pid,
            prompt=str(rec.get("description") or ""),
            tests=list(tests),
            reference=python3[0] if python3 else None,
            difficulty=_enum(rec.get("difficulty"), DIFFICULTIES),
            source="codecontests",
            metadata={k: v for k, v in meta.items() if v is not None},
        )
        conv.add(p, python3)
