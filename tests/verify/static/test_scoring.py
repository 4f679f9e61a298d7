"""Reward presets, settings resolution, DeepCoder test selection, composition, similarity."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reward_api.schemas import Finding, Problem, RewardSettings, StaticReport
from reward_api.verify.scoring import (
    PRESETS,
    RewardSettingsError,
    compose,
    load_reward_settings,
    resolve,
    select_tests,
    similarity,
)


def _settings(**fields):
    return RewardSettings.model_validate(fields)


def _report(*categories):
    findings = [
        Finding(rule_id=f"r{i}", category=c, severity="ERROR", line=1, message="")
        for i, c in enumerate(categories)
    ]
    return StaticReport(findings=findings, score=0.0 if "reward_hacking" in categories else 0.5)


def test_default_preset_is_all_or_nothing_with_hack_gate_and_static_off():
    d = PRESETS["default"]
    assert (d.mode, d.hack_gate, d.static, d.static_weight, d.similarity_weight) == (
        "all_or_nothing",
        True,
        False,
        0.0,
        0.0,
    )


def test_easy_preset_weighs_similarity_and_hard_preset_weighs_static():
    assert PRESETS["easy"].similarity_weight > 0 and PRESETS["easy"].static_weight == 0
    assert PRESETS["hard"].static and PRESETS["hard"].static_weight > 0
    assert PRESETS["hard"].max_tests == 15


def test_resolve_without_settings_gives_the_default_preset():
    assert resolve(None) == PRESETS["default"]


def test_resolve_request_fields_override_problem_defaults_which_override_the_preset():
    resolved = resolve(
        _settings(max_tests=3),
        {"preset": "hard", "max_tests": 7, "mode": "fraction"},
    )
    assert resolved.preset == "hard"
    assert resolved.max_tests == 3
    assert resolved.mode == "fraction"
    assert resolved.static_weight == PRESETS["hard"].static_weight


def test_resolve_explicit_request_preset_beats_problem_default_preset():
    assert resolve(_settings(preset="easy"), {"preset": "hard"}).preset == "easy"


def test_resolve_rejects_an_unknown_preset():
    with pytest.raises(RewardSettingsError):
        resolve(_settings(preset="nope"))


def test_scan_categories_follow_static_and_hack_gate():
    assert PRESETS["hard"].scan_categories == ("reward_hacking", "security", "quality")
    assert PRESETS["default"].scan_categories == ("reward_hacking",)
    assert resolve(_settings(hack_gate=False)).scan_categories == ()


def test_select_tests_keeps_all_in_order_without_a_limit():
    assert select_tests([{"type": "stdio", "input": "x"}] * 4, None) == [0, 1, 2, 3]


def test_select_tests_takes_longest_stdio_inputs_first():
    tests = [{"type": "stdio", "input": "a" * n, "output": ""} for n in (3, 10, 1, 7)]
    assert select_tests(tests, 2) == [1, 3]


def test_select_tests_sizes_call_tests_by_json_args_and_assert_tests_by_code():
    problem = Problem.model_validate(
        {
            "id": "p",
            "tests": [
                {"type": "call", "fn_name": "f", "args": [1], "output": 1},
                {"type": "call", "fn_name": "f", "args": [[1, 2, 3, 4]], "output": 1},
                {"type": "assert", "code": "assert f(1) == 1"},
            ],
        }
    )
    assert select_tests(problem.tests, 2) == [2, 1]


def test_select_tests_breaks_ties_by_original_order():
    tests = [{"type": "stdio", "input": "ab"}] * 3
    assert select_tests(tests, 2) == [0, 1]


def test_compose_all_or_nothing_gives_zero_unless_accepted():
    default = PRESETS["default"]
    assert compose(default, 4, 5, False, None, None)[0] == 0.0
    assert compose(default, 5, 5, True, None, None)[0] == 1.0


def test_compose_fraction_mode_gives_the_pass_rate():
    resolved = resolve(_settings(mode="fraction"))
    assert compose(resolved, 3, 4, False, None, None)[0] == 0.75


def test_compose_mixes_static_score_with_its_weight():
    hard = PRESETS["hard"]
    reward, parts = compose(hard, 5, 5, True, _report("security"), None)
    assert reward == pytest.approx(0.75 * 1.0 + 0.25 * 0.5)
    assert parts["static"] == 0.5 and parts["weight_static"] == 0.25


def test_compose_mixes_similarity_with_its_weight():
    reward, parts = compose(PRESETS["easy"], 0, 5, False, None, 0.8)
    assert reward == pytest.approx(0.25 * 0.8)
    assert parts["similarity"] == 0.8


def test_compose_without_reference_gives_similarity_weight_back_to_execution():
    reward, parts = compose(PRESETS["easy"], 5, 5, True, None, None)
    assert reward == 1.0 and parts["weight_execution"] == 1.0 and "similarity" not in parts


def test_hack_gate_zeroes_an_accepted_program_with_a_hacking_finding():
    reward, parts = compose(PRESETS["easy"], 5, 5, True, _report("reward_hacking"), 1.0)
    assert reward == 0.0 and parts["hack_gate"] == 1.0


def test_hack_gate_off_lets_the_execution_reward_through():
    resolved = resolve(_settings(hack_gate=False))
    assert compose(resolved, 5, 5, True, _report("reward_hacking"), None)[0] == 1.0


def test_reward_parts_explain_the_reward():
    reward, parts = compose(PRESETS["hard"], 5, 5, True, _report("security"), None)
    explained = parts["weight_execution"] * parts["execution"]
    explained += parts["weight_static"] * parts["static"]
    assert parts["reward"] == reward == pytest.approx(explained)


@given(
    passed=st.integers(0, 20),
    extra=st.integers(0, 20),
    ws=st.floats(0, 1),
    wm=st.floats(0, 1),
    sim=st.none() | st.floats(0, 1),
    mode=st.sampled_from(["all_or_nothing", "fraction"]),
)
def test_reward_always_lies_in_unit_interval(passed, extra, ws, wm, sim, mode):
    resolved = resolve(_settings(static_weight=ws, similarity_weight=wm, mode=mode, static=True))
    total = passed + extra
    reward, _ = compose(resolved, passed, total, extra == 0, _report("quality"), sim)
    assert 0.0 <= reward <= 1.0


def test_similarity_of_identical_programs_is_one():
    assert similarity("def f(x):\n    return x\n", "def f(x):\n    return x\n") == 1.0


def test_similarity_ignores_comments_and_layout():
    a = "def f(x):\n    return x + 1\n"
    b = "def f(x):  # add one\n\n    return x+1\n"
    assert similarity(a, b) == 1.0


def test_similarity_of_unrelated_programs_is_low():
    a = "def f(x):\n    return x + 1\n"
    b = "import sys\nfor line in sys.stdin:\n    print(line.strip()[::-1])\n"
    assert similarity(a, b) < 0.3


def test_similarity_works_on_programs_that_do_not_tokenize():
    assert 0.0 < similarity("def f(:\n  '''", "def f(x):\n  return 1\n") < 1.0


def test_load_reward_settings_accepts_a_preset_name():
    assert load_reward_settings("hard").preset == "hard"


def test_load_reward_settings_reads_json(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"preset": "easy", "similarity_weight": 0.5}))
    settings = load_reward_settings(str(path))
    assert (settings.preset, settings.similarity_weight) == ("easy", 0.5)


def test_load_reward_settings_reads_a_reward_table_from_toml(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text('[reward]\npreset = "hard"\nmax_tests = 4\n')
    settings = load_reward_settings(str(path))
    assert (settings.preset, settings.max_tests) == ("hard", 4)


def test_load_reward_settings_rejects_unknown_fields(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"preset": "easy", "bogus": 1}))
    with pytest.raises(RewardSettingsError):
        load_reward_settings(str(path))


def test_load_reward_settings_rejects_a_missing_file_or_preset():
    with pytest.raises(RewardSettingsError):
        load_reward_settings("no-such-preset-or-file")
