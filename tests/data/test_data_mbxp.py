"""MBXP records become problems in their language with the record's test as one assert test."""

from __future__ import annotations

from reward_api.data.converters import convert_records
from reward_api.data.converters.mbxp import mbxp_problem, mbxp_sample

RECORD = {
    "task_id": "MBCPP/2",
    "language": "cpp",
    "prompt": "#include <bits/stdc++.h>\nint twice(int x) {\n",
    "canonical_solution": "    return 2 * x;\n}\n",
    "test": "int main() { assert(twice(2) == 4); }\n",
    "entry_point": "twice",
}


def test_a_record_becomes_a_problem_of_its_language_with_its_test() -> None:
    p = mbxp_problem(RECORD)
    assert p.id == "mbxp/MBCPP/2" and p.language == "cpp" and p.entry_points == ["twice"]
    assert [t.type for t in p.tests] == ["assert"] and p.tests[0].code == RECORD["test"]
    assert p.reference == RECORD["prompt"] + RECORD["canonical_solution"]


def test_a_sample_is_the_prompt_then_the_completion() -> None:
    p = mbxp_problem(RECORD)
    s = mbxp_sample(p, "    return x + x;\n}\n", sample_id="0")
    assert s.code == RECORD["prompt"] + "    return x + x;\n}\n" and s.problem_id == p.id


def test_convert_keeps_the_reference_and_skips_unjudged_languages() -> None:
    other = dict(RECORD, task_id="MBKP/1", language="kotlin")
    problems, samples, report = convert_records("mbxp", [RECORD, dict(RECORD, task_id="MBCPP/3",
                                                canonical_solution=None), other])  # fmt: skip
    assert [p.id for p in problems] == ["mbxp/MBCPP/2", "mbxp/MBCPP/3"]
    assert [s.sample_id for s in samples] == ["reference"]
    assert report["skipped"] == [{"id": "MBKP/1", "reason": "unsupported_language"}]
