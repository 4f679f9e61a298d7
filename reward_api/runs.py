"""One-off program runs: code + stdin -> stdout, stderr, exit status (SandboxFusion /run_code).

No grading happens here: the caller (verl's sandbox_fusion reward) compares stdout with
its expected output itself, so nothing expected ever reaches us. The run uses the same
sandbox cells, runner protocol and policy as verification (``reward_api.sandbox``): one
``sample`` request holding a single stdio test. What is protected is therefore exactly
what the sandbox protects; a run's stdout is returned to the caller who sent the code.
"""

from __future__ import annotations

from typing import Any

from reward_api.errors import InfrastructureError
from reward_api.pipeline import Verifier

MAX_STDERR_CHARS = 2000


def run_stdio(
    verifier: Verifier, code: str, stdin: str, time_s: float, memory_mb: int
) -> dict[str, Any]:
    """Run ``code`` once on ``stdin`` in a cell of the verifier's pool.

    Returns ``stdout``, ``stderr`` (tail), ``exit_code`` (None when killed), ``time_s`` and
    ``limit`` (``timeout``, ``output_limit`` or None), or ``{"error": ...}`` when the
    sandbox itself failed.
    """
    message = {
        "op": "sample",
        "program": code,
        "setup": None,
        "tests": [{"kind": "stdio", "input": stdin}],
        "time_s": time_s,
        "memory_mb": memory_mb,
        "max_output_bytes": verifier.settings.max_output_bytes,
        "stop_on_first_failure": True,
    }
    try:
        with verifier.pool.lease() as cell:
            prepare = getattr(cell, "prepare", None)
            if prepare is not None:
                prepare(memory_mb)
            answer = cell.request(message, timeout_s=time_s + 30)
            if answer.get("anomaly"):
                cell.broken = True
    except InfrastructureError as exc:
        return {"error": f"sandbox failed: {exc}"}
    tests = answer.get("tests")
    if not isinstance(tests, list) or not tests or not isinstance(tests[0], dict):
        return {"error": "sandbox answered without a test report"}
    t = tests[0]
    return {
        "stdout": str(t.get("stdout", "")),
        "stderr": str(t.get("stderr_tail", ""))[-MAX_STDERR_CHARS:],
        "exit_code": t.get("exit_code"),
        "time_s": t.get("time_s"),
        "limit": t.get("limit"),
    }
