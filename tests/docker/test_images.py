"""Each sandbox image folder: its metadata matches what was built, its smoke samples judge right."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from reward_api.schemas import SUPPORTED_LANGUAGES, Problem, Sample
from reward_api.verify.pipeline import Job, Verifier

pytestmark = pytest.mark.docker
IMAGES = Path(__file__).resolve().parents[2] / "sandbox_images"
# the images of languages the verifier judges (tests/languages checks every image's root
# and smoke verdicts through the language recipes)
FOLDERS = sorted(
    p.parent
    for p in IMAGES.glob("*/*/metadata.json")
    if json.loads(p.read_text())["language"] in SUPPORTED_LANGUAGES
)


@pytest.mark.parametrize("folder", FOLDERS, ids=[f"{p.parent.name}-{p.name}" for p in FOLDERS])
def test_smoke_samples_pass_and_fail(folder: Path, verifier: Verifier) -> None:
    meta = json.loads((folder / "metadata.json").read_text())
    problems = {
        p.id: p
        for p in map(
            Problem.model_validate_json,
            (folder / meta["smoke"]["problems"]).read_text().splitlines(),
        )
    }
    for kind, accepted in (("pass", True), ("fail", False)):
        samples = [
            Sample.model_validate_json(s)
            for s in (folder / meta["smoke"][kind]).read_text().splitlines()
        ]
        results = verifier.verify([Job(problems[s.problem_id], s) for s in samples])
        assert [r.accepted for r in results] == [accepted] * len(samples), (kind, results)


def test_built_image_has_the_contracts_python_and_packages() -> None:
    meta = json.loads((IMAGES / "python/3.12/metadata.json").read_text())
    image = meta["offline_build"]["image"]
    code = "import sys, numpy, sortedcontainers, os; print(sys.executable, os.getuid())"
    out = subprocess.run(
        ["docker", "run", "--rm", "--network", "none", "--read-only", image, meta["python"], "-c", code],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    assert out.stdout.split() == [meta["python"], "65534"]
