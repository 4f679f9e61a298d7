"""Expected outputs computed by running a trusted reference over argument lists.

EvalPlus (HumanEval+, MBPP+) ships inputs without outputs: the expected value of each
input is whatever the canonical solution returns. ``run_reference`` computes them in a
separate ``python3 -I`` process per problem, with a per-call alarm, an address-space
limit and a wall-clock limit for the whole process. Only trusted references from the
dataset run here, never model output; this is not a sandbox.

Each output comes back as plain JSON (tuples become lists, as call tests compare them).
An input whose output is not JSON-representable (a set, a custom object, NaN) or whose
call raised is reported, not guessed: the caller counts it and builds no test from it.
``call_tests`` then turns (args, output) pairs into tests: exact ``call`` tests, or, for
float outputs, ``assert abs(f(*args) - expected) <= tol`` because call tests compare with
exact equality.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from reward_api.schemas import AssertTest, CallTest, StdioTest

Test = StdioTest | CallTest | AssertTest

_CHILD = r"""
import json, os, resource, signal, sys, io

job = json.loads(sys.stdin.read())
out = os.fdopen(os.dup(1), "w")
sys.stdout = io.StringIO()
mem = job["memory_mb"] * 1024 * 1024
try:
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
except (ValueError, OSError):
    pass
sys.setrecursionlimit(100000)

class _Alarm(Exception):
    pass

def _on_alarm(signum, frame):
    raise _Alarm()

signal.signal(signal.SIGALRM, _on_alarm)

def plain(v):
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        if not all(isinstance(k, str) for k in v):
            raise TypeError("dict with non-string keys")
        return {k: plain(x) for k, x in v.items()}
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise TypeError("non-finite float")
        return v
    raise TypeError(type(v).__name__)

ns = {"__name__": "__oracle__"}
try:
    exec(compile(job["code"], "<reference>", "exec"), ns)
    fn = ns[job["fn_name"]]
except BaseException as e:
    out.write(json.dumps({"fatal": type(e).__name__ + ": " + str(e)[:200]}) + "\n")
    out.flush()
    sys.exit(0)
for i, args in enumerate(job["inputs"]):
    signal.setitimer(signal.ITIMER_REAL, job["call_s"])
    try:
        value = fn(*args)
        signal.setitimer(signal.ITIMER_REAL, 0)
    except BaseException as e:
        signal.setitimer(signal.ITIMER_REAL, 0)
        rec = {"i": i, "status": "error", "detail": type(e).__name__}
    else:
        try:
            rec = {"i": i, "status": "ok", "value": plain(value)}
            json.dumps(rec, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as e:
            rec = {"i": i, "status": "unjsonable", "detail": str(e)[:80]}
    sys.stdout = io.StringIO()
    out.write(json.dumps(rec) + "\n")
    out.flush()
"""


@dataclass(frozen=True)
class OracleOutput:
    """The reference's answer to one input: ``status`` is ok, error, unjsonable or missing."""

    status: str
    value: Any = None
    detail: str = ""


def run_reference(
    code: str,
    fn_name: str,
    inputs: list[list[Any]],
    *,
    call_s: float = 5.0,
    total_s: float = 120.0,
    memory_mb: int = 2048,
) -> list[OracleOutput]:
    """Call ``fn_name(*args)`` of ``code`` for every args list; one result per input, in order."""
    job = {
        "code": code,
        "fn_name": fn_name,
        "inputs": inputs,
        "call_s": call_s,
        "memory_mb": memory_mb,
    }
    try:
        proc = subprocess.run(
            [sys.executable, "-I", "-c", _CHILD],
            input=json.dumps(job),
            capture_output=True,
            text=True,
            timeout=total_s,
        )
        stdout = proc.stdout
    except subprocess.TimeoutExpired as e:
        raw = e.stdout or b""
        stdout = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    results = [OracleOutput("missing", detail="reference process ended early")] * len(inputs)
    for line in stdout.splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "fatal" in rec:
            return [OracleOutput("error", detail=rec["fatal"])] * len(inputs)
        results[rec["i"]] = OracleOutput(rec["status"], rec.get("value"), rec.get("detail", ""))
    return results


def run_many(
    jobs: list[tuple[str, str, list[list[Any]]]], *, workers: int = 2, **kwargs: Any
) -> list[list[OracleOutput]]:
    """``run_reference`` for many (code, fn_name, inputs) jobs, ``workers`` processes at a time."""
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(pool.map(lambda j: run_reference(*j, **kwargs), jobs))


def _is_float_scalar(v: Any) -> bool:
    return isinstance(v, float) and math.isfinite(v)


def call_tests(
    fn_name: str,
    inputs: list[list[Any]],
    outputs: list[OracleOutput],
    *,
    atol: float = 0.0,
    counts: Counter[str] | None = None,
) -> list[Test]:
    """Tests from (args, reference output) pairs; unusable outputs are counted, not kept.

    Float outputs get an absolute tolerance of ``max(atol, 1e-6)``, as EvalPlus grades
    them; everything else is an exact ``call`` test.
    """
    counts = counts if counts is not None else Counter()
    tests: list[Test] = []
    for args, out in zip(inputs, outputs, strict=True):
        if out.status != "ok":
            counts[f"inputs_dropped:{out.status}"] += 1
            continue
        numeric = isinstance(out.value, (int, float)) and not isinstance(out.value, bool)
        if _is_float_scalar(out.value) or (atol > 0 and numeric):
            tol = max(atol, 1e-6)
            call = f"{fn_name}({', '.join(repr(a) for a in args)})"
            tests.append(AssertTest(code=f"assert abs({call} - {out.value!r}) <= {tol!r}"))
            counts["float_tolerance_asserts"] += 1
        else:
            tests.append(CallTest(fn_name=fn_name, args=args, output=out.value))
    return tests
