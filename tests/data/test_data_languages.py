"""``data check`` and ``eval`` on problem sets in C++, Java, JavaScript, Go and Rust.

The sets are real MBXP C++ problems (``../shared/data/mbxp``, the first ten with a
reference) and the HumanEval-X fixture (tests/data/fixtures/humaneval_x.jsonl). Both
commands run the references or samples through the real verifier and report their counts
per language beside the totals; duplicates are looked for within a language only.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reward_api.cli import main
from reward_api.data.check import check_problems, find_duplicates
from reward_api.data.converters import convert, convert_records
from reward_api.data.passk import summarise
from reward_api.schemas import Problem

FIXTURES = Path(__file__).parent / "fixtures"
MBCPP = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "mbxp" / "mbcpp_release_v1.2.jsonl"  # fmt: skip


def _mbcpp(n: int) -> list[Problem]:
    with open(MBCPP) as fh:
        records = [json.loads(line) for line in fh]
    problems, _, _ = convert_records("mbxp", records, str(MBCPP))
    return [p for p in problems if p.reference][:n]


def _humaneval_x() -> list[Problem]:
    return convert("humaneval_x", FIXTURES / "humaneval_x.jsonl")[0]


def _write(path: Path, rows: list) -> Path:
    path.write_text("".join(r.model_dump_json() + "\n" for r in rows))
    return path


def test_the_same_task_in_two_languages_is_not_a_duplicate_but_twice_in_one_is() -> None:
    cpp = _mbcpp(1)[0]
    java = cpp.model_copy(update={"id": "java-copy", "language": "java"})
    twin = cpp.model_copy(update={"id": "cpp-copy"})
    pairs = {(m.a, m.b) for m in find_duplicates([cpp, java, twin])}
    assert pairs == {(cpp.id, "cpp-copy")}


def test_the_check_report_counts_each_language() -> None:
    problems = _mbcpp(3) + _humaneval_x()
    report = check_problems(problems)
    assert list(report["languages"]) == ["cpp", "go", "java", "javascript", "rust"]
    assert report["languages"]["cpp"]["problems"] == 5
    assert report["languages"]["go"] == {
        "problems": 2, "tests": 2, "under_min_tests": 2, "in_duplicate_groups": 0,
        "overlap": 0, "no_reference": 0,
    }  # fmt: skip
    assert sum(e["problems"] for e in report["languages"].values()) == report["problems"]


def test_data_check_cli_runs_compiled_references_and_reports_per_language(tmp_path) -> None:
    mbcpp = _mbcpp(10)
    broken = mbcpp[0].model_copy(
        update={"id": "planted/cpp-broken", "reference": "int nothing_here;\n"}
    )
    problems = _write(tmp_path / "p.jsonl", [*mbcpp, *_humaneval_x(), broken])
    out = tmp_path / "report"
    assert main(["data", "check", str(problems), "-o", str(out), "--runs", "1", "-q"]) == 0
    report = json.loads((out / "report.json").read_text())
    langs = report["languages"]
    assert report["problems"] == 21 and sum(e["problems"] for e in langs.values()) == 21
    assert "planted/cpp-broken" in report["broken_references"]
    assert report["broken_details"]["planted/cpp-broken"]["verdict"] == "compile_error"
    for name in ("go", "java", "javascript", "rust"):  # the fixture's references all pass
        assert (langs[name]["references_passed"], langs[name]["broken_references"]) == (2, 0)
    cpp = langs["cpp"]
    assert cpp["problems"] == cpp["references_run"] == 13
    assert cpp["references_passed"] + cpp["broken_references"] == 13
    assert cpp["references_passed"] >= 10  # the 2 fixture references, most of the MBXP ones
    assert sum(cpp["reference_verdicts"].values()) == 13
    markdown = (out / "report.md").read_text()
    assert "## Per language" in markdown and "| rust | 2 | 2 |" in markdown


def test_eval_cli_reports_pass_at_k_per_language(tmp_path, capsys) -> None:
    problems = _humaneval_x()
    samples = []
    for p in problems:
        samples.append({"problem_id": p.id, "code": p.reference})
        # the prompt alone: the function never closes, the program does not build
        samples.append({"problem_id": p.id, "code": p.prompt})
    _write(tmp_path / "p.jsonl", problems)
    (tmp_path / "s.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))
    out = tmp_path / "eval.json"
    rc = main(["eval", str(tmp_path / "p.jsonl"), str(tmp_path / "s.jsonl"), "--k", "1,2",
               "-o", str(out), "-q"])  # fmt: skip
    assert rc == 0
    report = json.loads(out.read_text())
    assert report["pass@1"] == pytest.approx(0.5) and report["pass@2"] == pytest.approx(1.0)
    assert sorted(report["by_language"]) == ["cpp", "go", "java", "javascript", "rust"]
    assert all(e["problems"] == 2 and e["pass@1"] == pytest.approx(0.5)
               for e in report["by_language"].values())  # fmt: skip
    assert report["verdicts"]["accepted"] == 10
    assert "| language: rust | 2 | 0.5000 | 1.0000 |" in capsys.readouterr().out


def test_a_python_only_summary_has_one_language() -> None:
    report = summarise({"a": (2, 1), "b": (2, 2)}, [1], language={"a": "python"})
    assert report["by_language"] == {"python": {"problems": 2, "pass@1": 0.75, "problems@1": 2}}
