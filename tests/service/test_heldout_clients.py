"""The held-out suite (``test_heldout_style``) sent the way real clients send it.

A subset of its programs, per language: through a real gateway (the ``embedded`` fixture's ``codereward
serve`` on a free loopback port): ``/run_code`` judged as verl's ``sandbox_fusion`` reward judges it
(one request per hidden test; a pass is ``status == "Success"`` and the stripped stdout
equal to the expected one's), SandboxFusion's ``/submit`` with a CommonOJ row, and
``/v1/rewards`` with the problem inline; and through ``codereward verify`` on JSONL
files. Each exploit must earn 0 and each control 1 on every path; no program's process
may outlive the requests.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from reward_api.verify.languages import COMPILED, default_root
from tests.sandbox.adversarial import heldout_programs as hp
from tests.sandbox.adversarial.test_heldout_style import TABLE, _survivors

ROOT = Path(__file__).resolve().parents[2]
STDIO = {  # language -> (honest, [hacks]) from the suite's tables
    lang: (
        next(iter(TABLE[lang]["stdio"][0].values())),
        [
            c
            for n, c in TABLE[lang]["stdio"][1].items()
            if n in ("hardcode-visible-example", "spoof-passed-and-json", "spoof-passed-json",
                     "answer-on-stderr-exit-1", "kill-parent-and-everyone", "kill-parent",
                     "exit-0-silent", "env-proc-parent-cmdline", "env-and-parent-cmdline")
        ],
    )
    for lang in sorted(TABLE)
}  # fmt: skip
FENCE = {"c": "c", "cpp": "cpp", "java": "java", "javascript": "javascript",
         "typescript": "typescript", "go": "go", "rust": "rust"}  # fmt: skip


@pytest.fixture(scope="module")
def gateway(embedded: str) -> tuple[str, dict[str, str]]:
    """The service tests' embedded gateway (a real ``codereward serve``), with its key."""
    missing = [
        lg for lg in sorted(COMPILED) if not (default_root(lg) / ".codereward-runtime").exists()
    ]
    if missing:
        pytest.skip(f"no runtime root for {missing}: run 'make runtimes'")
    from gateway_procs import auth

    return embedded, auth()


def _verl_reward(url: str, auth: dict[str, str], language: str, code: str) -> float:
    """verl's sandbox_fusion check: every hidden test run on /run_code, compared by verl."""
    for (a, b), want in hp.HIDDEN:
        body = {"code": code, "stdin": f"{a} {b}\n", "language": language,
                "compile_timeout": 60, "run_timeout": 3, "memory_limit_MB": 512,
                "files": {}, "fetch_files": []}  # fmt: skip
        r = httpx.post(url + "/run_code", json=body, headers=auth, timeout=180)
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["status"] != "SandboxError", got
        run = got.get("run_result") or {}
        if got["status"] != "Success" or (run.get("stdout") or "").strip() != str(want):
            return 0.0
    return 1.0


@pytest.mark.parametrize("language", sorted(STDIO))
def test_run_code_as_verl_judges_it(gateway, language: str) -> None:
    url, auth = gateway
    honest, hacks = STDIO[language]
    assert _verl_reward(url, auth, language, honest) == 1.0
    for code in hacks:
        assert _verl_reward(url, auth, language, code) == 0.0, code
    assert _survivors(b"crsurvivor") == []


@pytest.mark.parametrize("language", sorted(STDIO))
def test_submit_commonoj_row(gateway, language: str) -> None:
    url, auth = gateway
    honest, hacks = STDIO[language]
    row = {"id": 0, "content": hp.PROMPT, "test": [
        {"input": {"stdin": f"{a} {b}\n"}, "output": {"stdout": f"{o}\n"}} for (a, b), o in hp.HIDDEN]}  # fmt: skip
    for code, want in [(honest, True)] + [(c, False) for c in hacks]:
        completion = f"Here is my solution.\n```{FENCE[language]}\n{code}\n```\n"
        body = {"dataset": "custom", "id": 0, "completion": completion,
                "config": {"dataset_type": "CommonOJDataset", "language": language,
                           "run_timeout": 3, "provided_data": row}}  # fmt: skip
        r = httpx.post(url + "/submit", json=body, headers=auth, timeout=300)
        assert r.status_code == 200, r.text
        got = r.json()
        assert got["accepted"] is want, (code, got["tests"])
        assert got["extra"]["reward"] == (1.0 if want else 0.0), got["extra"]


def _items(language: str) -> list[tuple[dict, str, bool]]:
    """Per test type, the first control and every exploit of the suite."""
    out = []
    for kind, make in (
        ("stdio", hp.stdio_problem),
        ("call", hp.call_problem),
        ("assert", hp.assert_problem),
    ):
        honest, hacks = TABLE[language][kind]
        problem = {"id": f"heldout-{language}-{kind}", **make(language)}
        out.append((problem, next(iter(honest.values())), True))
        out += [
            (problem, c, False) for n, c in hacks.items() if "bomb" not in n and "include" not in n
        ]
    return out


def test_v1_rewards_with_inline_problems(gateway) -> None:
    url, auth = gateway
    items = [it for lang in sorted(TABLE) for it in _items(lang)]
    body = {
        "items": [
            {"problem": p, "code": c, "sample_id": str(i)} for i, (p, c, _) in enumerate(items)
        ]
    }
    r = httpx.post(url + "/v1/rewards", json=body, headers=auth, timeout=900)
    assert r.status_code == 200, r.text[:500]
    results = r.json()["results"]
    wrong = [
        (p["id"], c[:80], res["verdict"], res["reward"])
        for (p, c, honest), res in zip(items, results, strict=True)
        if (res["reward"] == 1.0) != honest or res["accepted"] != honest
    ]
    assert wrong == []
    assert _survivors(b"crsurvivor") == []


def test_cli_verify(tmp_path: Path) -> None:
    missing = [
        lg for lg in sorted(COMPILED) if not (default_root(lg) / ".codereward-runtime").exists()
    ]
    if missing:
        pytest.skip(f"no runtime root for {missing}: run 'make runtimes'")
    items = [it for lang in ("c", "java", "go", "rust", "typescript") for it in _items(lang)[:4]]
    problems = {p["id"]: p for p, _, _ in items}
    (tmp_path / "p.jsonl").write_text("".join(json.dumps(p) + "\n" for p in problems.values()))
    (tmp_path / "s.jsonl").write_text("".join(
        json.dumps({"problem_id": p["id"], "sample_id": str(i), "code": c}) + "\n"
        for i, (p, c, _) in enumerate(items)))  # fmt: skip
    out = tmp_path / "r.jsonl"
    argv = [sys.executable, "-m", "reward_api.cli", "verify", str(tmp_path / "p.jsonl"),
            str(tmp_path / "s.jsonl"), "-o", str(out), "-q", "--workers", "2"]  # fmt: skip
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    results = {r["sample_id"]: r for r in map(json.loads, out.read_text().splitlines())}
    wrong = [
        (p["id"], c[:80], results[str(i)]["verdict"], results[str(i)]["reward"])
        for i, (p, c, honest) in enumerate(items)
        if (results[str(i)]["reward"] == 1.0) != honest
    ]
    assert wrong == []
