"""The experiment protocol end to end on its short settings (trainer/experiment/short.toml).

The protocol runs once (a module fixture, a few minutes on a loaded 2-core machine): real
``codereward train`` processes, the real verifier, every arm and stage. The tests check
what the report's claims rest on: equal generation budgets, a sweep that never saw the
held-out problems, offline arms without an engine in training, intervals computed from
the per-seed numbers, determinism, and the written report. Nothing here reads the
committed docs/experiments.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from trainer.experiment import task
from trainer.experiment.config import load_experiment
from trainer.experiment.intervals import paired_difference, t_cdf, t_interval, t_quantile

SHORT = Path(__file__).resolve().parents[2] / "trainer" / "experiment" / "short.toml"
# the fixture's protocol run counts against its first test's timeout: a few minutes here,
# more on a busier machine; the limit only stops a hung run, it is not a speed gate
pytestmark = pytest.mark.timeout(1800)


@pytest.fixture(scope="module")
def short_run(tmp_path_factory) -> dict:
    """The short protocol run once; its raw results, with the folders it used."""
    pytest.importorskip("torch")
    from trainer.experiment.protocol import run_protocol

    root = tmp_path_factory.mktemp("experiment")
    cfg = load_experiment(
        SHORT, [f"out_dir={str(root / 'runs')!r}", f"report_dir={str(root / 'report')!r}"]
    )
    raw = run_protocol(cfg, "pytest tests/trainer/test_experiment.py")
    return {"raw": raw, "cfg": cfg, "root": root}


def test_every_arm_uses_the_same_generation_budget(short_run):
    raw, cfg = short_run["raw"], short_run["cfg"]
    budget = cfg.budget.steps * cfg.budget.groups_per_step * cfg.budget.group_size
    assert raw["generations_per_arm"] == budget
    names = [a["name"] for a in raw["arms"]]
    assert {"grpo", "offline", "offline-online", "reward-static", "reward-similarity"} <= set(names)
    assert {f"oapl-lag{lag}" for lag in cfg.arms.oapl_lags} <= set(names)
    for name, row in raw["summary"]["arms"].items():
        for per_seed in row["cost_per_seed"]:
            assert per_seed["generations"] == budget, name
            assert per_seed["verifier/samples"] == budget, name  # every generation scored once


def test_online_runs_sample_exactly_b_times_g_every_step(short_run):
    cfg = short_run["cfg"]
    run = short_run["root"] / "runs" / "runs" / "grpo" / f"seed{cfg.seeds[0]}"
    rows = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    steps = [r for r in rows if "loss" in r]
    assert len(steps) == cfg.budget.steps
    per_step = cfg.budget.groups_per_step * cfg.budget.group_size
    assert all(r["rollout/samples"] == per_step for r in steps)
    assert [r["cost/generations"] for r in steps] == [
        per_step * (i + 1) for i in range(cfg.budget.steps)
    ]


def test_curves_count_generations_spent_so_far(short_run):
    raw, cfg = short_run["raw"], short_run["cfg"]
    budget = raw["generations_per_arm"]
    for name, per_seed in raw["summary"]["curves"].items():
        for points in per_seed.values():
            gens = [p["generations"] for p in points]
            assert gens[0] == 0 and gens[-1] == budget, (name, gens)
            assert gens == sorted(gens), (name, gens)
    offline = raw["summary"]["curves"]["offline"][str(cfg.seeds[0])]
    assert all(p["generations"] == budget for p in offline[1:])  # its dataset came first


def test_sweep_is_scored_on_validation_never_on_heldout(short_run):
    raw, root = short_run["raw"], short_run["root"]
    assert raw["sweep"]
    for name in raw["sweep"]:
        cfg = tomllib.loads((root / "runs" / "runs" / "sweep" / name / "input.toml").read_text())
        assert cfg["data"]["heldout"].endswith("validation.jsonl")
        assert cfg["run"]["seed"] not in short_run["cfg"].seeds
    chosen = raw["chosen"]["oapl"]
    best = max(
        (p for p in raw["sweep"].values() if p["loss"] == "oapl"),
        key=lambda p: p["validation"]["pass@1"],
    )
    assert (chosen["lr"], chosen["beta"]) == (best["lr"], best["beta"])
    arm_cfg = tomllib.loads(
        (root / "runs" / "runs" / "oapl-lag1" / "seed0" / "input.toml").read_text()
    )
    assert arm_cfg["optim"]["lr"] == chosen["lr"]
    assert arm_cfg["algo"]["beta_kl"] == chosen["beta"]
    assert arm_cfg["data"]["heldout"].endswith("heldout.jsonl")


def test_offline_arm_trains_without_sampling_or_sync(short_run):
    root = short_run["root"]
    run = root / "runs" / "runs" / "offline" / "seed0"
    cost = json.loads((run / "cost.json").read_text())
    assert cost["generations"] == 0  # the dataset was generated before, once
    assert cost["verifier/samples"] == 0  # its rows carry their rewards: scored once
    rows = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    assert not any("sync/logprob_gap" in r for r in rows)
    assert any("offline/passes" in r for r in rows)


def test_intervals_are_t_intervals_over_the_per_seed_finals(short_run):
    raw = short_run["raw"]
    seeds = [str(s) for s in short_run["cfg"].seeds]
    level = short_run["cfg"].eval.confidence
    for name, row in raw["summary"]["arms"].items():
        finals = [raw["summary"]["curves"][name][s][-1]["pass@1"] for s in seeds]
        want = t_interval(finals, level)
        got = row["pass@1"]
        assert got["n"] == len(seeds)
        assert math.isclose(got["mean"], want.mean) and math.isclose(got["low"], want.low)
        assert got["low"] <= got["mean"] <= got["high"]
        for d in ("easy", "hard"):
            assert f"pass@1/{d}" in row


def test_same_seed_gives_the_same_numbers(short_run):
    det = short_run["raw"]["determinism"]
    assert det["rows"] > short_run["cfg"].budget.steps
    assert det["identical"], det["differences"]


def test_report_markdown_json_and_pngs_are_written(short_run):
    folder = short_run["root"] / "report"
    md = (folder / "short.md").read_text()
    assert "pytest tests/trainer/test_experiment.py" in md  # the command that made it
    assert "| grpo |" in md and "| offline-online |" in md
    assert "wall time" in md
    raw = json.loads((folder / "short.json").read_text())
    assert raw["summary"]["arms"].keys() == short_run["raw"]["summary"]["arms"].keys()
    for png in ("short-passk.png", "short-entropy.png", "short-rewards.png"):
        data = (folder / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, png


def test_report_rewrites_from_raw_json_alone(short_run):
    from trainer.experiment.protocol import rewrite_report

    folder = short_run["root"] / "report"
    before = (folder / "short.md").read_text()
    (folder / "short.md").unlink()
    rewrite_report(short_run["cfg"])
    assert (folder / "short.md").read_text() == before


def test_warm_start_does_not_saturate_the_short_task(short_run):
    warm = short_run["raw"]["summary"]["warm"]
    ks = short_run["cfg"].eval.ks
    assert warm[f"pass@{ks[-1]}"]["mean"] < 1.0


def test_t_quantiles_match_tables():
    assert t_quantile(0.975, 1) == pytest.approx(12.7062, abs=1e-3)
    assert t_quantile(0.975, 2) == pytest.approx(4.3027, abs=1e-4)
    assert t_quantile(0.975, 10) == pytest.approx(2.2281, abs=1e-4)
    assert t_cdf(0.0, 3) == pytest.approx(0.5)


def test_paired_difference_removes_the_shared_seed_effect():
    a, b = [0.30, 0.50, 0.70], [0.20, 0.41, 0.59]  # big seed effect, steady gap of ~0.1
    diff = paired_difference(a, b)
    assert diff.low > 0  # paired: the gap is sure
    assert t_interval(a).low < t_interval(b).high  # unpaired intervals overlap


def test_task_splits_share_no_pair_and_references_pass_the_verifier():
    from reward_api import Job, Problem, RewardSettings, Sample, Verifier

    splits = task.make_splits()
    keys = [
        {(p["metadata"]["family"], p["metadata"]["a"], p["metadata"]["b"]) for p in part}
        for part in (splits.train, splits.validation, splits.heldout)
    ]
    assert not (keys[0] & keys[1]) and not (keys[0] & keys[2]) and not (keys[1] & keys[2])
    assert {p["metadata"]["difficulty"] for p in splits.heldout} == {"easy", "hard"}
    problems = splits.validation + splits.heldout
    # families where a constant one off changes (almost) every output
    shifted = ("add", "sub", "mul", "sum", "affine", "affsub", "shift", "lin2")
    wrong = [
        (p, task.program_for(p["metadata"]["family"], p["metadata"]["a"] + 1, p["metadata"]["b"]))
        for p in problems
        if p["metadata"]["family"] in shifted
    ]
    jobs = [
        Job(
            problem=Problem.model_validate(p),
            sample=Sample(problem_id=p["id"], sample_id=f"s{i}", completion=code),
        )
        for i, (p, code) in enumerate([(p, p["reference"]) for p in problems] + wrong)
    ]
    with Verifier() as verifier:
        results = verifier.verify(jobs, reward=RewardSettings(preset="default", hack_gate=False))
    assert all(r.accepted for r in results[: len(problems)])
    assert not any(r.accepted for r in results[len(problems) :])  # a wrong constant fails


def test_cli_dry_run_lists_arms_without_torch():
    code = (
        "import sys; from reward_api.cli import main; "
        f"rc = main(['experiment', {str(SHORT)!r}, '--dry-run']); "
        "assert 'torch' not in sys.modules, 'torch imported'; sys.exit(rc)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    plan = json.loads(out.stdout.strip().splitlines()[-1])
    assert plan["generations_per_arm"] == 2 * 4 * 6
    assert "offline-online" in plan["arms"] and "grpo" in plan["arms"]
