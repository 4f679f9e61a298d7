"""Trainer config: TOML plus overrides, unknown keys rejected, dry-run without torch."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from pydantic import ValidationError

from trainer.config import load_config, parse_override

REPO = Path(__file__).resolve().parents[2]

MINIMAL = """
[model]
path = "m"
[data]
problems = "p.jsonl"
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "train.toml"
    path.write_text(text)
    return path


def test_minimal_config_fills_defaults(tmp_path):
    cfg = load_config(_write(tmp_path, MINIMAL))
    assert cfg.algo.loss == "oapl"
    assert cfg.rollout.group_size == 8


def test_unknown_key_in_a_section_is_rejected(tmp_path):
    with pytest.raises(ValidationError, match="lrr"):
        load_config(_write(tmp_path, MINIMAL + "[algo]\nlrr = 0.1\n"))


def test_unknown_section_is_rejected(tmp_path):
    with pytest.raises(ValidationError, match="optimiser"):
        load_config(_write(tmp_path, MINIMAL + "[optimiser]\nlr = 0.1\n"))


def test_unknown_override_is_rejected(tmp_path):
    with pytest.raises(ValidationError):
        load_config(_write(tmp_path, MINIMAL), ["rollout.nope=1"])


def test_overrides_are_typed_toml_values(tmp_path):
    cfg = load_config(
        _write(tmp_path, MINIMAL),
        ["optim.lr=1e-5", "rollout.engine=vllm", "eval.ks=[1, 2]", "log.tensorboard=false"],
    )
    assert cfg.optim.lr == 1e-5
    assert cfg.rollout.engine == "vllm"
    assert cfg.eval.ks == [1, 2]
    assert cfg.log.tensorboard is False


def test_bad_value_is_rejected(tmp_path):
    with pytest.raises(ValidationError):
        load_config(_write(tmp_path, MINIMAL), ["rollout.group_size=1"])


def test_override_without_equals_is_an_error():
    with pytest.raises(ValueError):
        parse_override("algo.lr")


def test_resolved_toml_round_trips(tmp_path):
    cfg = load_config(_write(tmp_path, MINIMAL), ['reward.reward_settings={mode = "fraction"}'])
    again = load_config(_write(tmp_path, cfg.resolved_toml()))
    assert again == cfg
    assert tomllib.loads(cfg.resolved_toml())["reward"]["reward_settings"] == {"mode": "fraction"}


def test_dry_run_validates_without_importing_torch(tmp_path):
    path = _write(tmp_path, MINIMAL)
    code = (
        "import sys\n"
        "from trainer.cli import main\n"
        f"rc = main(['train', {str(path)!r}, '--dry-run', '--set', 'optim.lr=0.5'])\n"
        "assert rc == 0, rc\n"
        "heavy = [m for m in ('torch', 'transformers', 'vllm') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert "lr = 0.5" in proc.stdout


def test_dry_run_reports_an_invalid_config(tmp_path):
    from trainer.cli import main

    assert main(["train", str(_write(tmp_path, MINIMAL + "[run]\nstep = 3\n")), "--dry-run"]) == 2


def test_codereward_cli_with_train_registered_imports_no_torch():
    code = (
        "import sys\n"
        "from reward_api.cli import build_parser\n"
        "parser = build_parser()\n"
        "args = parser.parse_args(['train', 'x.toml', '--dry-run'])\n"
        "assert args.func.__module__ == 'trainer.cli'\n"
        "heavy = [m for m in ('torch', 'transformers', 'vllm') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr


def test_example_config_is_valid():
    cfg = load_config(REPO / "trainer" / "example.toml")
    assert cfg.rollout.engine == "vllm" and cfg.reward.source == "http"


def test_moved_keys_name_their_new_place(tmp_path):
    with pytest.raises(ValidationError, match=r"algo.lr is now optim.lr"):
        load_config(_write(tmp_path, MINIMAL + "[algo]\nlr = 0.1\n"))
    with pytest.raises(ValidationError, match=r"run.dtype is now run.compute_dtype"):
        load_config(_write(tmp_path, MINIMAL + '[run]\ndtype = "bfloat16"\n'))


def test_optimizer_defaults_are_the_oapl_reference(tmp_path):
    cfg = load_config(_write(tmp_path, MINIMAL))
    o = cfg.optim
    assert (o.lr, o.betas, o.eps, o.weight_decay) == (1e-6, (0.9, 0.95), 1e-10, 1e-8)
    assert (o.schedule, o.warmup_ratio, o.min_lr_ratio, o.grad_clip) == ("cosine", 0.02, 0.05, 1.0)
    assert (cfg.algo.beta_value, cfg.algo.beta_kl) == (1.0, 1e-3)
    assert cfg.run.compute_dtype == "float32"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (['data.system_prompt="be brief"'], "chat_template"),
        (["rollout.devices=[1]"], "placement"),
        (['rollout.placement="separate"', "rollout.devices=[1, 2]"], "tensor-parallel"),
        (
            ['rollout.engine="vllm"', 'rollout.placement="separate"', "rollout.sleep_level=1"],
            "colocated",
        ),
        (['rollout.weight_sync="nccl"'], "separate"),
        (['rollout.placement="separate"', 'rollout.weight_sync="ipc"'], "colocated"),
        (['rollout.engine="vllm"', "rollout.sleep_level=2"], "sync_every_steps = 1"),
    ],
)
def test_placement_and_prompt_rules(tmp_path, overrides, message):
    with pytest.raises(ValidationError, match=message):
        load_config(_write(tmp_path, MINIMAL), overrides)


def test_separate_vllm_on_its_own_devices_is_valid(tmp_path):
    cfg = load_config(
        _write(tmp_path, MINIMAL),
        ['rollout.engine="vllm"', 'rollout.placement="separate"', "rollout.devices=[1]",
         'rollout.weight_sync="nccl"', 'run.device="cuda:0"', 'run.strategy="fsdp"'],
    )  # fmt: skip
    assert cfg.rollout.devices == [1]
