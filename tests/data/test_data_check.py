"""``data check``: the 5-test rule, planted duplicates and overlap, broken and flaky references."""

from __future__ import annotations

import json
from pathlib import Path

from fidelity import convert_shared

from reward_api.data.check import (
    CheckSettings,
    ReferenceRuns,
    check_problems,
    filter_problems,
    run_references,
)
from reward_api.schemas import AssertTest, Problem, Result, Verdict
from reward_api.schemas import TestResult as OneTest

# MBPP's own near-duplicates (same task, reworded): excluded from the "clean" sets below.
MBPP_TWINS = {
    f"mbpp/{n}"
    for n in (49, 154, 76, 347, 199, 388, 216, 872, 217, 602, 248, 704, 591, 625, 758, 779)
}


def clean_mbpp(every: int = 8) -> list[Problem]:
    problems, _ = convert_shared("mbpp", every=every)
    return [p for p in problems if p.id not in MBPP_TWINS]


def planted(p: Problem, new_id: str, **changes) -> Problem:
    return p.model_copy(update={"id": new_id, **changes})


def test_mbpp_three_test_problems_are_all_flagged():
    problems, _ = convert_shared("mbpp", every=4)
    report = check_problems(problems)
    assert report["under_5_tests"] == [p.id for p in problems]
    assert report["tests_per_problem"]["histogram"] == {"3": len(problems)}


def test_clean_problems_raise_no_alarm():
    problems = [p for p in clean_mbpp(every=2) if p.metadata["task_id"] not in {71, 141, 104, 569}]
    tasks = {p.metadata["task_id"] for p in problems}
    sanitized, _ = convert_shared("mbpp_sanitized")
    # tasks with a twin under another number, in MBPP or in its sanitized rewrite
    twins = {int(t.split("/")[1]) for t in MBPP_TWINS} | {71, 141, 104, 569}
    unrelated = [p for p in sanitized if p.metadata["task_id"] not in tasks | twins]
    report = check_problems(problems, against=unrelated)
    assert report["duplicate_groups"] == []
    assert report["overlap"] == []
    assert len(unrelated) > 150


def test_the_whole_of_mbpp_has_only_its_known_twins_as_duplicates():
    problems, _ = convert_shared("mbpp")
    groups = check_problems(problems)["duplicate_groups"]
    assert {pid for g in groups for pid in g} == MBPP_TWINS


def test_planted_exact_and_near_duplicates_are_found():
    base = clean_mbpp()
    a, b, c, d = base[3], base[10], base[17], base[25]
    # exact copy; same statement with a sentence added and a test dropped; same tests under
    # a new statement; a reworded statement with one test replaced
    exact = planted(a, "planted/exact-copy")
    near_text = planted(
        b, "planted/near-text", prompt=f"{b.prompt}\nMind the edge cases.", tests=b.tests[:2]
    )
    near_tests = planted(
        c, "planted/same-tests", prompt="Implement the function the tests below describe."
    )
    both = planted(
        d,
        "planted/both",
        prompt=(d.prompt or "").replace("function", "routine", 1),
        tests=[*d.tests[:2], AssertTest(code="assert True")],
    )
    report = check_problems([*base, exact, near_text, near_tests, both])
    groups = sorted(sorted(g) for g in report["duplicate_groups"])
    expected = [[a.id, exact.id], [b.id, near_text.id], [c.id, near_tests.id], [d.id, both.id]]
    assert groups == sorted(sorted(g) for g in expected)
    kinds = {m["b"]: m["kind"] for m in report["duplicate_pairs"]}
    assert kinds[exact.id] == "exact_statement" and kinds[near_tests.id] == "exact_tests"


def test_overlap_with_an_evaluation_set_is_found():
    train = clean_mbpp()
    sanitized, _ = convert_shared("mbpp_sanitized")
    by_task = {p.metadata["task_id"]: p for p in sanitized}
    # evaluation set: two sanitized versions of training problems, and unrelated problems
    leaked = [p for p in train if p.metadata["task_id"] in by_task][:2]
    eval_set = [by_task[p.metadata["task_id"]] for p in leaked]
    eval_set += [
        p for p in sanitized if p.metadata["task_id"] not in {q.metadata["task_id"] for q in train}
    ][:30]
    report = check_problems(train, against=eval_set)
    assert report["overlap"] == [p.id for p in leaked]


def _result(verdicts: list[Verdict]) -> Result:
    accepted = all(v is Verdict.accepted for v in verdicts)
    first = next((v for v in verdicts if v is not Verdict.accepted), Verdict.accepted)
    return Result(
        problem_id="x",
        reward=1.0 if accepted else 0.0,
        accepted=accepted,
        passed=sum(v is Verdict.accepted for v in verdicts),
        total=len(verdicts),
        verdict=first,
        tests=[OneTest(verdict=v) for v in verdicts],
    )


def test_reference_runs_classify_broken_flaky_and_infrastructure():
    A, W, T, E = Verdict.accepted, Verdict.wrong_answer, Verdict.timeout, Verdict.sandbox_error
    runs = ReferenceRuns(
        {
            "ok": [_result([A, A]), _result([A, A])],
            "broken": [_result([A, W]), _result([A, W])],
            "flaky": [_result([A, A]), _result([A, T])],
            "infra": [_result([E]), _result([E])],
            "one-infra": [_result([A, W]), _result([E])],
        }
    )
    assert runs.broken() == ["broken", "one-infra"]
    assert runs.flaky() == {"flaky": [1]}
    assert runs.unverified() == ["infra"]


def test_planted_broken_and_flaky_references_are_found_in_the_sandbox(verifier):
    base = clean_mbpp()[:6]
    broken = planted(base[0], "planted/broken", reference="def nothing():\n    return None\n")
    # five tests whose verdict is a coin flip per run: all identical over 4 runs has p ~ 3e-5
    coin = "import os\ndef coin(i):\n    return os.urandom(1)[0] % 2\n"
    flaky = Problem(
        id="planted/flaky",
        prompt="Return 1.",
        tests=[AssertTest(code=f"assert coin({i}) == 1") for i in range(5)],
        reference=coin,
    )
    problems = [*base, broken, flaky]
    refs = run_references(problems, verifier, runs=4)
    report = check_problems(problems, settings=CheckSettings(runs=4), references=refs)
    assert report["broken_references"] == ["planted/broken"]
    assert report["broken_details"]["planted/broken"]["verdict"] == "runtime_error"
    assert report["flaky"] == ["planted/flaky"]


def test_filter_keeps_one_per_group_and_drops_the_rest():
    base = clean_mbpp()[:12]
    dup = planted(base[1], "planted/dup")
    problems = [*base, dup]
    report = check_problems(problems, settings=CheckSettings(min_tests=3))
    report["broken_references"] = [base[2].id]
    kept, dropped = filter_problems(problems, report)
    assert [p.id for p in kept] == [p.id for p in base if p.id != base[2].id]
    assert dropped == {"broken_reference": 1, "duplicate": 1}


def test_check_cli_writes_reports_charts_logs_and_the_filtered_set(tmp_path):
    from reward_api.cli import main

    base = clean_mbpp()[:5]
    broken = planted(base[0], "planted/broken", reference="def f(:\n")
    problems = tmp_path / "p.jsonl"
    problems.write_text("".join(p.model_dump_json() + "\n" for p in [*base, broken]))
    other = tmp_path / "eval.jsonl"
    other.write_text(base[1].model_copy(update={"id": "eval/1"}).model_dump_json() + "\n")
    out, filtered = tmp_path / "report", tmp_path / "clean.jsonl"
    rc = main(
        [
            "data",
            "check",
            str(problems),
            "--against",
            str(other),
            "-o",
            str(out),
            "--filter",
            str(filtered),
            "--min-tests",
            "3",
            "-q",
        ]
    )
    assert rc == 0
    report = json.loads((out / "report.json").read_text())
    for key in (
        "problems",
        "under_5_tests",
        "duplicate_groups",
        "overlap",
        "broken_references",
        "flaky",
    ):
        assert key in report
    assert report["problems"] == 6
    assert report["overlap"] == [base[1].id]
    assert report["broken_references"] == ["planted/broken"]
    assert Path(report["logs"]["planted/broken"]).is_file()
    assert (out / "tests_per_problem.png").read_bytes()[:4] == b"\x89PNG"
    assert "![tests_per_problem](tests_per_problem.png)" in (out / "report.md").read_text()
    kept = [json.loads(line)["id"] for line in filtered.read_text().splitlines()]
    assert kept == [p.id for p in base if p.id != base[1].id]


def test_a_reference_slow_only_under_load_is_slow_not_broken():
    A, T, S = Verdict.accepted, Verdict.timeout, Verdict.skipped
    runs = ReferenceRuns({"slow": [_result([A, T, S]), _result([A, T, S])]})
    assert runs.timed_out_only("slow")
    assert runs.broken() == ["slow"]  # until it is rerun alone
    runs.confirmations["slow"] = _result([A, A, A])
    assert runs.broken() == [] and runs.slow() == ["slow"]


def test_an_endless_reference_stays_broken_after_its_rerun(verifier):
    endless = Problem(
        id="planted/endless",
        tests=[AssertTest(code="assert f() == 1")],
        reference="def f():\n    while True:\n        pass\n",
        limits={"time_s": 1},
    )
    refs = run_references([endless], verifier, runs=1)
    assert "planted/endless" in refs.confirmations
    report = check_problems([endless], references=refs)
    assert report["broken_references"] == ["planted/endless"]
    assert report["slow_references"] == []


def test_statements_are_compared_without_their_examples():
    from reward_api.data.check import normalise_statement

    a = "Write a function to add two numbers.\nassert add(1, 2) == 3\n>>> add(2, 2)\n4"
    assert normalise_statement(a) == "write a function to add two numbers 4"
    train = clean_mbpp()[:20]
    leaked = planted(
        train[5],
        "eval/rewritten-examples",
        prompt=(train[5].prompt or "").split("assert")[0] + "assert something_else(0) == 0\n",
        tests=[AssertTest(code="assert something_else(0) == 0")],
    )
    assert check_problems(train, against=[leaked])["overlap"] == [train[5].id]
