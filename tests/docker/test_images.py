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


@pytest.mark.parametrize("language", ["java", "typescript"])
def test_a_warm_compiler_starts_beside_many_processes_of_the_sandbox_uid(language: str) -> None:
    """Without a user namespace, RLIMIT_NPROC counts every process of the host's sandbox uid
    (65534), in every container and every process-backend cell at once; a warm javac or tsc
    under the cell's own small limit could then not start its threads (in CI: the JVM's
    swallowed "unable to create native thread" made honest Java programs compile errors,
    node's made the server fail to start). The container's pids cgroup bounds it instead."""
    from reward_api.sandbox.policy import SandboxPolicy
    from reward_api.verify.settings import VerifierSettings

    image = SandboxPolicy().docker_image
    crowd = subprocess.run(
        ["docker", "run", "-d", "--rm", "--user", "65534:65534", "--network", "none", image,
         "python3", "-c", "import threading, time\n"
         "for _ in range(300): threading.Thread(target=time.sleep, args=(300,), daemon=True).start()\n"
         "time.sleep(300)\n"],
        capture_output=True, text=True, check=True, timeout=120,
    ).stdout.strip()  # fmt: skip
    try:
        code = {
            "java": "public class Main { public static void main(String[] a) {"
            " System.out.println(6 * 7); } }\n",
            "typescript": "const n: number = 6 * 7;\nconsole.log(n);\n",
        }[language]
        problem = Problem.model_validate(
            {"id": "crowd", "language": language,
             "tests": [{"type": "stdio", "input": "", "output": "42"}]}
        )  # fmt: skip
        with Verifier(VerifierSettings(sandbox="docker", workers=1)) as v:
            (result,) = v.verify([Job(problem, Sample(problem_id="crowd", code=code))])
        assert result.accepted, (result.verdict, result.error, [t.detail for t in result.tests])
    finally:
        subprocess.run(["docker", "rm", "-f", crowd], capture_output=True, timeout=120)
