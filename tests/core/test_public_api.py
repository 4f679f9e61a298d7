"""``reward_api``'s public surface: every exported name resolves, cheaply, and the trainer
uses nothing else of the package."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import reward_api

ROOT = Path(__file__).resolve().parents[2]


def test_every_exported_name_resolves() -> None:
    missing = [name for name in reward_api.__all__ if getattr(reward_api, name, None) is None]
    assert not missing, missing
    assert set(reward_api.__all__) - {"__version__"} == set(reward_api._EXPORTS)


def test_importing_the_package_loads_only_the_schemas_layer() -> None:
    code = (
        "import sys, reward_api\n"
        "heavy = [m for m in ('reward_api.verify.pipeline', 'reward_api.sandbox', 'httpx',"
        " 'fastapi', 'celery', 'torch', 'docker') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
        "from reward_api import Verifier, RewardClient, pass_at_k, Problem\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_unknown_names_raise_attribute_error() -> None:
    try:
        reward_api.NoSuchThing
    except AttributeError as exc:
        assert "NoSuchThing" in str(exc)
    else:
        raise AssertionError("an unknown name resolved")


def test_the_trainer_imports_only_the_public_surface() -> None:
    offenders = []
    for path in sorted((ROOT / "trainer").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            offenders += [
                f"{path.relative_to(ROOT)}: {n}" for n in names if n.startswith("reward_api.")
            ]
    assert not offenders, offenders
