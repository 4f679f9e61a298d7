"""The gateway in embedded mode over a real uvicorn: results, cache, jobs, auth, errors."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
from gateway_procs import ADD, ADD_OK, ADD_WRONG, SQ_OK, SQUARE, auth, base_env


def _strip(result: dict) -> dict:
    """Fields that legitimately differ between two runs: timings, the cache flag, and
    nulls (``codereward verify`` writes results with ``exclude_none``)."""
    out = {k: v for k, v in result.items() if k not in ("cached", "tests") and v is not None}
    out["test_verdicts"] = [t["verdict"] for t in result.get("tests", [])]
    return out


def test_results_over_http_equal_codereward_verify(embedded: str, tmp_path: Path) -> None:
    hello = {
        "id": "hello",
        "tests": [{"type": "assert", "code": "assert greet('a') == 'hi a'"}],
        "limits": {"time_s": 1},
    }
    programs = [
        ("add", f"Here you go:\n```python\n{ADD_OK}\n```"),
        ("add", ADD_WRONG),
        ("add", "raise SystemExit(3)"),
        ("add", "def broken(:"),
        ("add", ""),
        ("hello", "import time\ntime.sleep(30)"),
        ("square", SQ_OK),
        ("square", "def sq(n):\n    return n + n"),
        ("hello", "def greet(x):\n    return 'hi ' + x"),
        ("hello", "def greet(x):\n    return x"),
    ]
    tag = time.time_ns()
    samples = [
        {"problem_id": pid, "sample_id": f"s{i}", "completion": f"{code}\n# {tag}"}
        for i, (pid, code) in enumerate(programs)
    ]
    (tmp_path / "p.jsonl").write_text("".join(json.dumps(p) + "\n" for p in (ADD, SQUARE, hello)))
    (tmp_path / "s.jsonl").write_text("".join(json.dumps(s) + "\n" for s in samples))
    cli = subprocess.run(
        [sys.executable, "-m", "reward_api.cli", "verify", "p.jsonl", "s.jsonl", "-o", "r.jsonl",
         "-q", "--workers", "1"],
        cwd=tmp_path, env=base_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert cli.returncode == 0, cli.stderr
    expected = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    r = httpx.post(embedded + "/v1/problems", json={"problems": [hello]}, headers=auth())
    assert r.status_code == 200
    r = httpx.post(embedded + "/v1/rewards", json={"items": samples}, headers=auth(), timeout=300)
    assert r.status_code == 200, r.text
    over_http = r.json()["results"]
    assert [_strip(x) for x in over_http] == [_strip(x) for x in expected]
    verdicts = [x["verdict"] for x in over_http]
    assert verdicts[:2] == ["accepted", "wrong_answer"] and "timeout" in verdicts


def test_repeat_is_served_from_cache_and_cheaper(embedded: str) -> None:
    code = "import time\ntime.sleep(0.3)\n" + ADD_OK + f"\n# {time.time_ns()}"
    body = {"items": [{"problem_id": "add", "code": code}]}
    t0 = time.perf_counter()
    first = httpx.post(embedded + "/v1/rewards", json=body, headers=auth(), timeout=60)
    miss_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    second = httpx.post(embedded + "/v1/rewards", json=body, headers=auth(), timeout=60)
    hit_s = time.perf_counter() - t0
    a, b = first.json()["results"][0], second.json()["results"][0]
    assert (a["cached"], b["cached"]) == (False, True)
    assert a["reward"] == b["reward"] == 1.0
    assert hit_s < miss_s / 3  # five tests that each sleep 0.3 s, against a lookup


def test_duplicates_in_one_batch_are_verified_once(embedded: str) -> None:
    code = ADD_OK + f"\n# dup {time.time_ns()}"
    items = [{"problem_id": "add", "code": code, "sample_id": str(i)} for i in range(4)]
    before = _metric(embedded, 'codereward_cache_requests_total{result="miss"}')
    r = httpx.post(embedded + "/v1/rewards", json={"items": items}, headers=auth(), timeout=60)
    results = r.json()["results"]
    assert [x["sample_id"] for x in results] == ["0", "1", "2", "3"]
    assert [x["cached"] for x in results] == [False, True, True, True]
    assert _metric(embedded, 'codereward_cache_requests_total{result="miss"}') == before + 1


def test_wait_false_returns_202_and_a_job_that_completes(embedded: str) -> None:
    items = [
        {"problem_id": "add", "code": ADD_OK + f"\n# job {i} {time.time_ns()}"} for i in range(3)
    ]
    r = httpx.post(embedded + "/v1/rewards", json={"items": items, "wait": False}, headers=auth())
    assert r.status_code == 202
    job_id = r.json()["job_id"]
    deadline = time.monotonic() + 60
    while True:
        job = httpx.get(f"{embedded}/v1/jobs/{job_id}", headers=auth()).json()
        assert job["total"] == 3 and 0 <= job["completed"] <= 3
        if job["status"] == "done" or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert job["status"] == "done"
    assert [x["verdict"] for x in job["results"]] == ["accepted"] * 3
    assert httpx.get(f"{embedded}/v1/jobs/nope", headers=auth()).status_code == 404


def test_missing_or_wrong_key_gets_401(embedded: str) -> None:
    body = {"items": [{"problem_id": "add", "code": ADD_OK}]}
    assert httpx.post(embedded + "/v1/rewards", json=body).status_code == 401
    wrong = httpx.post(embedded + "/v1/rewards", json=body, headers=auth("x" * 40))
    assert wrong.status_code == 401
    assert wrong.headers["www-authenticate"] == "Bearer"
    assert httpx.get(embedded + "/v1/problems/add").status_code == 401
    assert httpx.post(embedded + "/run_code", json={"code": "print(1)"}).status_code == 401


def test_malformed_body_gets_422_naming_the_field(embedded: str) -> None:
    bad = {"items": [{"problem_id": "add", "code": ADD_OK}, {"problem_id": "add"}]}
    r = httpx.post(embedded + "/v1/rewards", json=bad, headers=auth())
    assert r.status_code == 422
    assert r.json()["message"].startswith("items.1")
    r = httpx.post(
        embedded + "/v1/rewards",
        json={"items": [{"problem_id": "nope", "code": "x"}]},
        headers=auth(),
    )
    assert r.status_code == 422 and "items.0.problem_id" in r.json()["message"]
    r = httpx.post(embedded + "/v1/rewards", content=b"{not json", headers=auth())
    assert r.status_code == 422


def test_problem_registry_warns_below_five_tests(embedded: str) -> None:
    few = {"id": "few2", "tests": [{"type": "stdio", "input": "", "output": "1"}]}
    r = httpx.post(embedded + "/v1/problems", json={"problems": [few, ADD]}, headers=auth())
    assert r.status_code == 200
    body = r.json()
    assert body["registered"] == 2 and len(body["warnings"]) == 1 and "few2" in body["warnings"][0]
    got = httpx.get(embedded + "/v1/problems/few2", headers=auth())
    assert got.status_code == 200 and got.json()["tests"][0]["output"] == "1"
    assert httpx.get(embedded + "/v1/problems/absent", headers=auth()).status_code == 404


def test_health_ready_metrics_and_openapi(embedded: str) -> None:
    assert httpx.get(embedded + "/healthz").json()["status"] == "ok"
    ready = httpx.get(embedded + "/readyz", timeout=30)
    assert ready.status_code == 200 and ready.json()["checks"] == {"sandbox": True}
    text = httpx.get(embedded + "/metrics").text
    for name in (
        "codereward_request_seconds_bucket",
        "codereward_stage_seconds_bucket",
        "codereward_verdicts_total",
        "codereward_cache_hit_ratio",
        "codereward_queue_depth",
    ):
        assert name in text, name
    spec = httpx.get(embedded + "/openapi.json").json()
    for path in ("/v1/rewards", "/v1/jobs/{job_id}", "/v1/problems", "/compat/openrlhf"):
        assert path in spec["paths"]
    item = spec["components"]["schemas"]["RewardItem"]["properties"]
    assert all(p.get("description") for p in item.values())


def _metric(url: str, name: str) -> float:
    for line in httpx.get(url + "/metrics").text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return 0.0


def test_a_problem_with_a_bad_checker_gets_422_naming_the_field(embedded: str) -> None:
    tests = [{"type": "stdio", "input": "", "output": "1"}]
    for checker, why in (({"language": "cobol", "code": "x"}, "unsupported checker language"),
                         ({"language": "python", "code": "def ("}, "does not compile")):  # fmt: skip
        bad = {"id": "chk", "tests": tests, "checker": checker}
        r = httpx.post(embedded + "/v1/problems", json={"problems": [bad]}, headers=auth())
        assert r.status_code == 422, r.text
        assert "checker" in r.json()["message"] and why in r.json()["message"]
