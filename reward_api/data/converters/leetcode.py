"""LeetCodeDataset (``newfacade/LeetCodeDataset``) to problems.

Source fields (HumanEval layout): ``task_id`` (title slug), ``question_id, difficulty,
tags, problem_description, starter_code, estimated_date, prompt`` (imports and helper
classes such as ``ListNode``/``TreeNode`` and helpers ``list_node``, ``is_same_list``),
``completion`` (the solution class), ``entry_point`` (``Solution().twoSum``), ``test``
(``def check(candidate): assert ...``), ``input_output``, ``query``, ``response``. An
older layout keeps ``question_id, difficulty, tags`` under ``meta``.

``prompt`` becomes ``setup_code`` (trusted, run before the program); ``check`` is split
into one assert test per assert (``checkfn``) with ``candidate`` replaced by the entry
point; ``completion`` is the reference.
"""

from __future__ import annotations

from typing import Any

from reward_api.data.converters.checkfn import split_check
from reward_api.data.converters.conversion import Conversion
from reward_api.schemas import Problem


def convert_leetcodedataset(records: list[dict[str, Any]], conv: Conversion) -> None:
    """One problem per slug; the completion is the reference sample."""
    for rec in records:
        meta = dict(rec.get("meta") or {})
        pid = f"leetcode/{rec['task_id']}"
        if not rec.get("test") or not rec.get("entry_point"):
            conv.report.skip(pid, "no_tests")
            continue
        tests, test_setup = split_check(rec["test"], rec["entry_point"])
        conv.report.count("check_split" if len(tests) > 1 else "check_whole")
        setup = "\n".join(s for s in (rec.get("prompt") or "", test_setup) if s.strip())
        description = rec.get("problem_description") or meta.get("question_title") or ""
        starter = rec.get("starter_code") or ""
        prompt = description.rstrip()
        if starter.strip():
            prompt += f"\n\nStarter code:\n{starter.strip()}\n"
        if not description:
            prompt = rec.get("query") or meta.get("query") or ""
        completion = rec.get("completion") or None
        p = Problem(
            id=pid,
            prompt=prompt,
            tests=list(tests),
            reference=completion,
            setup_code=setup or None,
            difficulty=rec.get("difficulty") or meta.get("difficulty"),
            source="leetcodedataset",
            metadata={
                "question_id": rec.get("question_id", meta.get("question_id")),
                "tags": rec.get("tags", meta.get("tags")),
                "entry_point": rec["entry_point"],
                "estimated_date": str(
                    rec.get("estimated_date") or meta.get("estimated_date") or ""
                ),
            },
        )
        conv.add(p, [completion] if completion else [])
