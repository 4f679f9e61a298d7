"""Each converter on fixture files in its source's real format, references run in the sandbox."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reward_api.data.converters import FORMATS, SourceError, convert
from reward_api.data.converters.livecodebench import decode_tests, encode_tests
from reward_api.schemas import AssertTest, CallTest, Problem, Sample, StdioTest
from reward_api.verify.pipeline import Job

FIXTURES = Path(__file__).parent / "fixtures"

FIXTURE_FILES = {
    "humaneval": "humaneval.jsonl",
    "humaneval_plus": "humaneval_plus.jsonl",
    "mbpp": "mbpp.jsonl",
    "mbpp_sanitized": "sanitized-mbpp.json",
    "mbpp_plus": "mbpp_plus.jsonl",
    "apps": "apps.jsonl",
    "taco": "taco.parquet",
    "codecontests": "codecontests.parquet",
    "livecodebench": "livecodebench.jsonl",
    "leetcodedataset": "leetcodedataset.jsonl",
    "deepcoder": "deepcoder.jsonl",
    "mbxp": "mbxp.jsonl",
    "multipl_e": "multipl_e.jsonl",
    "humaneval_x": "humaneval_x.jsonl",
}


def by_id(problems: list[Problem]) -> dict[str, Problem]:
    return {p.id: p for p in problems}


def test_every_format_has_a_fixture():
    assert set(FIXTURE_FILES) == set(FORMATS)


def test_humaneval_check_split_into_one_test_per_assert():
    problems, _samples, report = convert("humaneval", FIXTURES / "humaneval.jsonl")
    p = by_id(problems)["HumanEval/900"]
    # six asserts, one of them `assert True, ...`, which tests nothing
    assert [t.code for t in p.tests if isinstance(t, AssertTest)][:2] == [
        "assert add_all([]) == 0",
        "assert add_all([1, 2, 3]) == 6",
    ]
    assert len(p.tests) == 5
    assert "METADATA" in (p.setup_code or "")
    assert p.reference and p.reference.startswith("def add_all")
    assert report["counts"] == {"check_split": 1, "check_whole": 1}


def test_humaneval_check_with_a_loop_stays_one_test():
    problems, _, _ = convert("humaneval", FIXTURES / "humaneval.jsonl")
    (test,) = by_id(problems)["HumanEval/901"].tests
    assert isinstance(test, AssertTest) and test.code.rstrip().endswith("check(is_even)")


def test_humaneval_plus_outputs_come_from_the_canonical_solution():
    problems, _, report = convert("humaneval_plus", FIXTURES / "humaneval_plus.jsonl")
    pairs = by_id(problems)["HumanEval/911"]
    calls = [t for t in pairs.tests if isinstance(t, CallTest)]
    assert [t.args for t in calls] == [[0], [1], [3], [5], [7], [2]]
    assert calls[2].output == [[0, 0], [1, 1], [2, 4]]  # tuples become lists
    mean = by_id(problems)["HumanEval/910"]
    # float outputs are compared with a tolerance; mean([]) raises and is dropped, counted
    assert all(isinstance(t, AssertTest) and "<= 1e-06" in t.code for t in mean.tests)
    assert len(mean.tests) == 5
    assert report["counts"]["inputs_dropped:error"] == 1


def test_mbpp_keeps_three_asserts_and_runs_test_setup_code_after_the_program():
    problems, samples, _ = convert("mbpp", FIXTURES / "mbpp.jsonl")
    tree = by_id(problems)["mbpp/9002"]
    assert len(tree.tests) == 3
    assert all(
        isinstance(t, AssertTest) and t.code.startswith("root = Node(1)") for t in tree.tests
    )
    assert tree.setup_code is None
    assert "\r" not in (tree.reference or "")
    assert by_id(problems)["mbpp/9001"].metadata["challenge_test_list"] == [
        "assert larger(10**20, 1) == 10**20"
    ]
    assert [s.sample_id for s in samples] == ["reference", "reference"]


def test_mbpp_sanitized_test_imports_become_setup_code():
    problems, _, _ = convert("mbpp_sanitized", FIXTURES / "sanitized-mbpp.json")
    assert by_id(problems)["mbpp_sanitized/9101"].setup_code == "import math"
    assert by_id(problems)["mbpp_sanitized/9102"].setup_code is None


def test_mbpp_plus_restores_tuple_arguments_from_the_assertion():
    problems, _, report = convert("mbpp_plus", FIXTURES / "mbpp_plus.jsonl")
    common = by_id(problems)["Mbpp/9201"]
    codes = [t.code for t in common.tests if isinstance(t, AssertTest)]
    assert len(codes) == 5  # one per input; the assertion lines are not graded, as in EvalPlus
    assert "assert common((1, 1, 2), (1,)) == (1,)" in codes
    assert common.metadata["argument_shapes"][0]["t"] == "tuple"
    assert report["counts"]["tuple_or_set_arguments"] == 1


def test_mbpp_plus_float_outputs_get_atol_and_failing_inputs_are_counted():
    problems, _, report = convert("mbpp_plus", FIXTURES / "mbpp_plus.jsonl")
    area = by_id(problems)["Mbpp/9202"]
    assert area.metadata["atol"] == 0.0001
    assert "assert abs(circle_area(2.5) - 19.634954084936208) <= 0.0001" in [
        t.code for t in area.tests
    ]
    assert report["counts"]["inputs_dropped:error"] == 1  # negative radius raises


def test_mbpp_plus_outputs_ordered_by_the_hash_seed_are_compared_sorted():
    problems, _, report = convert("mbpp_plus", FIXTURES / "mbpp_plus.jsonl")
    words = by_id(problems)["Mbpp/9204"]
    assert words.tests[0].code == (
        "assert sorted(distinct_words(['apple', 'pear', 'apple', 'fig'])) == ['apple', 'fig', 'pear']"
    )
    assert report["counts"]["order_free_asserts"] >= 3  # ["kiwi"] may keep its order


def test_mbpp_plus_set_outputs_become_literal_asserts():
    problems, _, _ = convert("mbpp_plus", FIXTURES / "mbpp_plus.jsonl")
    chars = by_id(problems)["Mbpp/9203"]
    assert [t.code for t in chars.tests][-1] == "assert chars('aab') == {'a', 'b'}"


def test_apps_stdio_call_and_class_based_problems():
    problems, samples, report = convert("apps", FIXTURES / "apps.jsonl")
    ps = by_id(problems)
    stdio = ps["apps/90001"].tests
    assert all(isinstance(t, StdioTest) for t in stdio)
    assert (stdio[2].input, stdio[2].output) == ("100\n0", "100")  # lists of lines are joined
    vowels = ps["apps/90002"].tests
    assert [t.output for t in vowels] == [2, 0, 5]  # one-element lists unwrapped
    rev = ps["apps/90003"].tests
    assert rev[0].class_name == "Solution" and rev[0].output == [3, 2, 1]  # not wrapped: kept
    assert report["skipped"] == [{"id": "apps/90004", "reason": "no_tests"}]
    assert len([s for s in samples if s.problem_id == "apps/90001"]) == 2


def test_taco_reads_parquet_and_unwraps_codewars_outputs():
    problems, _, _ = convert("taco", FIXTURES / "taco.parquet")
    ps = by_id(problems)
    assert ps["taco/0"].difficulty == "EASY" and len(ps["taco/0"].tests) == 5
    assert [t.output for t in ps["taco/1"].tests] == [[2, 4], [], [10]]


def test_codecontests_uses_all_test_groups_and_python3_solutions_only():
    problems, samples, report = convert("codecontests", FIXTURES / "codecontests.parquet")
    (p,) = problems
    assert len(p.tests) == 6
    assert p.metadata["public_tests"] == 1 and p.metadata["generated_tests"] == 3
    assert p.difficulty == "A" and p.metadata["time_limit_s"] == 2
    assert len(samples) == 2 and all("raw_input" not in (s.code or "") for s in samples)
    assert report["skipped"][0]["reason"].startswith("file_io")


def test_livecodebench_decodes_compressed_private_tests_and_functional_calls():
    problems, samples, _ = convert("livecodebench", FIXTURES / "livecodebench.jsonl")
    ps = by_id(problems)
    assert len(ps["lcb/fx001"].tests) == 4
    fn = ps["lcb/fx002"].tests
    assert all(isinstance(t, CallTest) and t.class_name == "Solution" for t in fn)
    assert fn[0].args == [[1, 5, 3], 2] and fn[0].output == 8
    assert samples == []


def test_livecodebench_refuses_pickles_that_load_globals():
    import base64
    import pickle
    import zlib

    evil = base64.b64encode(zlib.compress(pickle.dumps(Path("x")))).decode()
    with pytest.raises(pickle.UnpicklingError):
        decode_tests(evil)
    tests = [{"input": "1", "output": "2", "testtype": "stdin"}]
    assert decode_tests(encode_tests(tests)) == tests


def test_leetcodedataset_prompt_is_setup_code_and_candidate_is_the_entry_point():
    problems, _samples, _ = convert("leetcodedataset", FIXTURES / "leetcodedataset.jsonl")
    two = by_id(problems)["leetcode/fixture-two-sum"]
    assert len(two.tests) == 5
    assert two.tests[0].code == "assert Solution().twoSum(nums=[2, 7, 11, 15], target=9) == [0, 1]"
    assert "class ListNode" in (two.setup_code or "")
    assert two.difficulty == "Easy" and two.reference and "class Solution" in two.reference


def test_deepcoder_reads_all_three_test_layouts():
    problems, samples, _ = convert("deepcoder", FIXTURES / "deepcoder.jsonl")
    kinds = [[t.type for t in p.tests] for p in problems]
    assert kinds == [["stdio"] * 3, ["stdio"] * 2, ["call"] * 2, ["call"] * 2]
    assert problems[2].tests[0].output == 6  # primeintellect function_call output unwrapped
    assert problems[3].tests[0].class_name == "Solution"
    assert len(samples) == 4


def test_unknown_format_and_wrong_records_are_input_errors(tmp_path):
    with pytest.raises(SourceError, match="unknown format"):
        convert("nope", FIXTURES / "mbpp.jsonl")
    with pytest.raises(SourceError, match="does not look like mbpp"):
        convert("mbpp", FIXTURES / "livecodebench.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"a": 1}\nnot json\n')
    with pytest.raises(SourceError, match=r"bad\.jsonl:2"):
        convert("apps", bad)


def test_hub_name_without_datasets_package_says_so():
    try:
        import datasets  # noqa: F401
    except ImportError:
        with pytest.raises(SourceError, match="datasets"):
            convert("humaneval", "openai/openai_humaneval@test")
    else:
        with pytest.raises(SourceError):
            convert("humaneval", "no-such-owner-xyz/no-such-dataset@test")


def test_fixture_references_and_solutions_pass_in_the_sandbox(verifier):
    jobs = []
    for fmt, name in FIXTURE_FILES.items():
        problems, samples, _ = convert(fmt, FIXTURES / name)
        ps = by_id(problems)
        jobs += [Job(ps[s.problem_id], s) for s in samples]
    results = verifier.verify(jobs)
    failed = {
        (j.problem.id, j.sample.sample_id): (
            r.verdict.value,
            [t.detail for t in r.tests if t.detail],
        )
        for j, r in zip(jobs, results)
        if not r.accepted
    }
    assert failed == {}
    assert len(jobs) == 38  # 28, and HumanEval-X's 10 (MultiPL-E ships no solutions)


def test_a_wrong_program_fails_converted_tests(verifier):
    # the converted tests really test: a wrong answer is rejected for each test kind
    jobs = []
    for fmt, pid, code in [
        ("apps", "apps/90001", "print(0)"),
        ("apps", "apps/90002", "def count_vowels(s):\n    return [0]"),
        ("mbpp", "mbpp/9001", "def larger(a, b):\n    return a"),
        (
            "livecodebench",
            "lcb/fx002",
            "class Solution:\n    def maxSum(self, nums, k):\n        return 0",
        ),
    ]:
        ps = by_id(convert(fmt, FIXTURES / FIXTURE_FILES[fmt])[0])
        jobs.append(Job(ps[pid], Sample(problem_id=pid, code=code)))
    cpp = "#include <bits/stdc++.h>\nint sumDigits(long long n) { return n % 10; }\n"
    ps = by_id(convert("mbxp", FIXTURES / FIXTURE_FILES["mbxp"])[0])
    jobs.append(Job(ps["mbxp/MBCPP/9001"], Sample(problem_id="mbxp/MBCPP/9001", code=cpp)))
    assert [r.accepted for r in verifier.verify(jobs)] == [False] * 5


def test_convert_cli_writes_problems_and_samples(tmp_path):
    from reward_api.cli import main

    out, samples = tmp_path / "p.jsonl", tmp_path / "s.jsonl"
    rc = main(
        [
            "data",
            "convert",
            "apps",
            str(FIXTURES / "apps.jsonl"),
            "-o",
            str(out),
            "--samples",
            str(samples),
        ]
    )
    assert rc == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["apps/90001", "apps/90002", "apps/90003"]
    assert len(samples.read_text().splitlines()) == 4
    assert main(["data", "convert", "apps", str(tmp_path / "missing.jsonl"), "-o", str(out)]) == 2


def test_written_problems_keep_a_null_call_output(tmp_path):
    from reward_api.data.cli import row_json
    from reward_api.jsonl import load_problems

    p = Problem(id="n", tests=[CallTest(fn_name="f", args=[1], output=None)])
    path = tmp_path / "p.jsonl"
    path.write_text(row_json(p) + "\n")
    (test,) = load_problems(path)["n"].tests
    assert isinstance(test, CallTest) and test.output is None
    assert "class_name" not in path.read_text()
