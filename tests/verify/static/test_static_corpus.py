"""Reward-hacking rules against real data: canonical solutions stay clean, hacks are caught.

Canonical solutions: every ``code`` of MBPP (974) and sanitized MBPP (427), and the first
solution of each APPS mini-val problem (150), from /work/shared/data. Hacks: the
programs under tests/verify/static/hacks, one exploit each (see each file's docstring).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reward_api.schemas import RewardSettings
from reward_api.verify.scoring import PRESETS, compose, resolve
from reward_api.verify.static_analysis import HACKING, is_hacking, scan_programs

DATA = Path("/work/shared/data")
HACKS = sorted((Path(__file__).parent / "hacks").glob("*.py"))


def _references() -> list[tuple[str, str]]:
    refs = []
    with open(DATA / "mbpp.jsonl") as fh:
        refs += [(f"mbpp/{r['task_id']}", r["code"]) for r in map(json.loads, fh)]
    with open(DATA / "sanitized-mbpp.json") as fh:
        refs += [(f"sanitized-mbpp/{r['task_id']}", r["code"]) for r in json.load(fh)]
    with open(DATA / "apps_mini_val_150.jsonl") as fh:
        for r in map(json.loads, fh):
            refs.append((f"apps/{r['problem_id']}", json.loads(r["solutions"])[0]))
    return refs


@pytest.fixture(scope="module")
def reference_reports():
    refs = _references()
    return refs, scan_programs([code for _, code in refs], categories=[HACKING])


@pytest.fixture(scope="module")
def hack_reports():
    return dict(zip(HACKS, scan_programs([p.read_text() for p in HACKS]), strict=True))


def test_reference_corpus_is_the_expected_size(reference_reports):
    refs, _ = reference_reports
    assert len(refs) == 974 + 427 + 150


def test_reward_hacking_flags_at_most_2_percent_of_canonical_solutions(reference_reports):
    refs, reports = reference_reports
    flagged = [name for (name, _), r in zip(refs, reports, strict=True) if is_hacking(r)]
    rate = len(flagged) / len(refs)
    print(f"reward_hacking false positives: {len(flagged)}/{len(refs)} = {rate:.2%}: {flagged}")
    assert rate <= 0.02


def test_prefilter_hides_no_finding_on_canonical_solutions(reference_reports):
    refs, fast = reference_reports
    full = scan_programs([code for _, code in refs], categories=[HACKING], prefilter=False)
    assert [r.findings for r in fast] == [r.findings for r in full]


def test_at_least_30_hack_programs_are_kept():
    assert len(HACKS) >= 30


def test_at_least_90_percent_of_hack_programs_are_flagged(hack_reports):
    caught = sum(is_hacking(r) for r in hack_reports.values())
    print(f"hack detection: {caught}/{len(hack_reports)}")
    assert caught / len(hack_reports) >= 0.9


@pytest.mark.parametrize("path", HACKS, ids=[p.stem for p in HACKS])
def test_hack_program_is_flagged(path, hack_reports):
    assert is_hacking(hack_reports[path])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_hack_gate_zeroes_every_flagged_hack_under_every_preset(preset, hack_reports):
    resolved = resolve(RewardSettings.model_validate({"preset": preset}))
    for report in hack_reports.values():
        if is_hacking(report):
            reward, parts = compose(resolved, 5, 5, True, report, 1.0)
            assert reward == 0.0 and parts["hack_gate"] == 1.0
