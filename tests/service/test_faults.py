"""A broken sandbox answers every request promptly, and the service mends by itself.

Embedded gateway on loopback whose runtime root is a symlink the test owns
(``gateway_procs.Runtime``): broken, no cell can start; the running cells are SIGKILLed
too. Every route must answer before its client gives up, with what that client reads
as "our fault, not the program's": ``/run_code`` SandboxError (verl's 30 s timeout is
the client's: compile_timeout + run_timeout + 10), ``/v1/rewards`` sandbox_error with
no reward, ``/submit`` 500 (SandboxFusion), ``/compat/openrlhf`` 503, ``/readyz`` 503.
Mended, the pool's back-off brings cells back without a restart.
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from gateway_procs import ADD, ADD_OK, Runtime, base_env, kill_cells, start_server

VERL_TIMEOUT_S = 10 + 10 + 10  # verl: compile_timeout + run_timeout + API_TIMEOUT


def _run(url: str, code: str, stdin: str = "") -> tuple[int, dict, float]:
    body = {"compile_timeout": 10, "run_timeout": 10, "code": code, "stdin": stdin,
            "memory_limit_MB": 1024, "language": "python", "files": {}, "fetch_files": []}  # fmt: skip
    t0 = time.monotonic()
    r = httpx.post(url + "/run_code", json=body, timeout=VERL_TIMEOUT_S)
    return r.status_code, r.json(), time.monotonic() - t0


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Runtime, object]]:
    work = tmp_path_factory.mktemp("faults")
    runtime = Runtime()
    env = base_env(CODEREWARD_RUNTIME_ROOT=str(runtime.root), CODEREWARD_WORKERS="2")
    proc, url = start_server(env, work)
    assert httpx.post(url + "/v1/problems", json={"problems": [ADD]}).status_code == 200
    yield url, runtime, proc
    runtime.repair()
    proc.stop()
    runtime.remove()


def test_a_broken_runtime_answers_every_request_promptly_then_recovers(broken: tuple) -> None:
    url, runtime, proc = broken
    assert _run(url, ADD_OK, "2 3\n")[1]["run_result"]["stdout"] == "5\n"
    runtime.break_()
    assert kill_cells(proc.pid) >= 1

    # 19 concurrent verl-style calls, as in the report: each answered, SandboxError
    with cf.ThreadPoolExecutor(19) as pool:
        answers = list(pool.map(lambda i: _run(url, f"print({i})"), range(19)))
    assert [(code, a["status"]) for code, a, _ in answers] == [(200, "SandboxError")] * 19
    slowest = max(t for _, _, t in answers)
    print(f"\n19 concurrent /run_code on a broken runtime: slowest answer {slowest:.2f} s")

    tag = time.time_ns()
    v1 = httpx.post(url + "/v1/rewards", timeout=VERL_TIMEOUT_S,
                    json={"items": [{"problem_id": "add", "code": f"{ADD_OK}\n# {tag}"}]})  # fmt: skip
    (res,) = v1.json()["results"]
    assert res["verdict"] == "sandbox_error" and res["reward"] is None
    sub = {"dataset": "x", "id": "add", "completion": f"{ADD_OK}\n# s{tag}", "config": {}}
    assert httpx.post(url + "/submit", json=sub, timeout=VERL_TIMEOUT_S).status_code == 500
    orl = {"query": [f"{ADD_OK}\n# o{tag}"], "labels": ["add"]}
    assert httpx.post(url + "/compat/openrlhf", json=orl, timeout=VERL_TIMEOUT_S).status_code == 503
    assert httpx.get(url + "/readyz", timeout=VERL_TIMEOUT_S).status_code == 503

    runtime.repair()
    mended = time.monotonic()
    while True:
        _, answer, _ = _run(url, ADD_OK, "2 3\n")
        if answer["status"] == "Success":
            break
        assert time.monotonic() - mended < 120, answer
        time.sleep(0.2)
    print(f"recovered {time.monotonic() - mended:.2f} s after the runtime was mended")
    again = httpx.post(url + "/v1/rewards", timeout=60,
                       json={"items": [{"problem_id": "add", "code": f"{ADD_OK}\n# {tag}"}]})  # fmt: skip
    assert again.json()["results"][0]["verdict"] == "accepted"
    assert httpx.get(url + "/readyz", timeout=60).status_code == 200


def test_run_code_queues_with_a_bounded_wait_then_answers_504(broken: tuple) -> None:
    """More verl calls than cells: they queue; one whose wait runs out gets 504 (verl
    retries 504 only), never 429, never a hang."""
    url, _, _ = broken
    body = {"compile_timeout": 1, "run_timeout": 8, "language": "python",
            "code": "import time\ntime.sleep(7)\nprint(1)", "stdin": ""}  # fmt: skip

    def call(_: int) -> int:
        return httpx.post(url + "/run_code", json=body, timeout=1 + 8 + 10).status_code

    with cf.ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(call, range(8)))
    # 2 cells, a 6 s budget for the queue: the first wave runs, the rest time out queued
    assert set(codes) <= {200, 504} and codes.count(200) >= 2 and 504 in codes, codes


def test_healthy_run_code_under_load_never_answers_sandbox_error(tmp_path: Path) -> None:
    """The 'Broken pipe' / 'runner died (exit -9)' answers of a healthy server, made
    reproducible: bursts of concurrent /run_code separated by idle gaps longer than anyio's
    idle-thread lifetime (10 s). Cells used to be started on those threads and died with
    them (bwrap's --die-with-parent follows the parent thread); none may fail now."""
    proc, url = start_server(base_env(CODEREWARD_WORKERS="2"), tmp_path)
    try:
        answers: list[tuple[int, dict, float]] = []
        for burst in range(3):
            if burst:
                time.sleep(12)
            with cf.ThreadPoolExecutor(8) as pool:
                answers += pool.map(lambda i: _run(url, ADD_OK, f"{i} {burst}\n"), range(150))
    finally:
        proc.stop()
    bad = [
        (c, a.get("status"), a.get("message"))
        for c, a, _ in answers
        if a.get("status") != "Success"
    ]
    print(f"\n{len(answers)} /run_code in 3 bursts: {len(bad)} not Success")
    assert bad == []
