"""Expected outputs computed by running a trusted reference over argument lists.

EvalPlus (HumanEval+, MBPP+) ships inputs without outputs: the expected value of each
input is whatever the canonical solution returns. ``run_reference`` computes them in a
separate Python process per problem (no user site, no current directory on the path, a
bare environment), twice under two hash seeds, with a per-call alarm, an address-space
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

import ast
import json
import math
import os
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from reward_api.schemas import AssertTest, CallTest, StdioTest

Test = StdioTest | CallTest | AssertTest

CHILD_SCRIPT = Path(__file__).with_name("oracle_child.py")
"""The program that runs one reference over its inputs, in its own process."""


@dataclass(frozen=True)
class OracleOutput:
    """The reference's answer to one input: ``status`` is ok, error, unjsonable or missing."""

    status: str
    value: Any = None
    detail: str = ""
    plain: bool = True
    """``value`` is the output as plain JSON (else only ``literal`` represents it)."""
    literal: str | None = None
    """``repr`` of the output when ``ast.literal_eval`` gives it back exactly."""
    args_literal: str | None = None
    """``repr`` of the shaped argument tuple, when argument shapes were given."""
    sorted_literal: str | None = None
    """For a list or tuple output, the literal of its sorted elements (when sortable)."""
    order_free: bool = False
    """The reference's element order depends on the hash seed: compare ``sorted`` outputs."""
    truthy: bool | None = None
    """For an object nothing represents (a ``re.Match``), its truth value."""


def _run_child(job: dict[str, Any], hash_seed: int, total_s: float) -> list[OracleOutput | None]:
    n = len(job["inputs"])
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONHASHSEED": str(hash_seed)}
    try:
        proc = subprocess.run(
            # -s -P rather than -I: -I would ignore PYTHONHASHSEED, which must vary here.
            [sys.executable, "-s", "-P", str(CHILD_SCRIPT)],
            input=json.dumps(job),
            capture_output=True,
            text=True,
            timeout=total_s,
            env=env,
            cwd=tempfile.gettempdir(),
        )
        stdout = proc.stdout
    except subprocess.TimeoutExpired as e:
        raw = e.stdout or b""
        stdout = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    results: list[OracleOutput | None] = [None] * n
    for line in stdout.splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "fatal" in rec:
            return [OracleOutput("error", detail=rec["fatal"])] * n
        results[rec["i"]] = OracleOutput(
            rec["status"],
            rec.get("value"),
            rec.get("detail", ""),
            plain=rec.get("plain", True),
            literal=rec.get("repr"),
            args_literal=rec.get("args_repr"),
            sorted_literal=rec.get("sorted_repr"),
            truthy=rec.get("truthy"),
        )
    return results


def _run_once(job: dict[str, Any], hash_seed: int, total_s: float) -> list[OracleOutput]:
    """All inputs; when the process dies or runs out of time, the input it was on is
    marked ``missing`` and a fresh process resumes after it."""
    n = len(job["inputs"])
    results: list[OracleOutput | None] = [None] * n
    start = 0
    while start < n:
        part = _run_child({**job, "inputs": job["inputs"][start:]}, hash_seed, total_s)
        for i, r in enumerate(part):
            results[start + i] = r
        done = next((i for i, r in enumerate(part) if r is None), len(part))
        if done == len(part):
            break
        results[start + done] = OracleOutput("missing", detail="reference process ended early")
        start += done + 1
    return [r or OracleOutput("missing") for r in results]


def _merge(first: OracleOutput, second: OracleOutput, order_free: bool) -> OracleOutput:
    """One answer from two runs under different hash seeds."""
    if first.status != "ok" or second.status != "ok":
        return first if first.status != "ok" else second
    if order_free and first.sorted_literal is not None:
        if first.sorted_literal == second.sorted_literal:
            return replace(first, order_free=True)
        return OracleOutput("unstable", detail="output differs between runs")
    if (first.literal, first.value) == (second.literal, second.value):
        return first
    return OracleOutput("unstable", detail="output differs between runs")


def run_reference(
    code: str,
    fn_name: str,
    inputs: list[list[Any]],
    *,
    call_s: float = 5.0,
    total_s: float = 120.0,
    memory_mb: int = 2048,
    shapes: list[Shape | None] | None = None,
) -> list[OracleOutput]:
    """Call ``fn_name(*args)`` of ``code`` for every args list; one result per input, in order.

    ``shapes`` (one per argument, from ``literal_shape``) turn JSON lists back into the
    tuples and sets the function was written for, before the call. The reference runs
    twice, under two hash seeds: when the order of its list or tuple outputs changes with
    the seed (``tuple(set_of_strings)``), order is not part of the answer, and those outputs
    are compared sorted (``order_free``); any other output that changes is ``unstable``.
    """
    job = {
        "shapes": shapes or [],
        "code": code,
        "fn_name": fn_name,
        "inputs": inputs,
        "call_s": call_s,
        "memory_mb": memory_mb,
        "max_nodes": MAX_OUTPUT_NODES,
    }
    first = _run_once(job, 0, total_s)
    second = _run_once(job, 1, total_s)
    order_free = any(
        a.status == b.status == "ok"
        and a.literal != b.literal
        and a.sorted_literal is not None
        and a.sorted_literal == b.sorted_literal
        for a, b in zip(first, second, strict=True)
    )
    return [_merge(a, b, order_free) for a, b in zip(first, second, strict=True)]


def run_many(
    jobs: list[tuple[str, str, list[list[Any]]]],
    *,
    workers: int = 2,
    shapes: list[list[Shape | None] | None] | None = None,
    **kwargs: Any,
) -> list[list[OracleOutput]]:
    """``run_reference`` for many (code, fn_name, inputs) jobs, ``workers`` processes at a time."""
    per_job = shapes or [None] * len(jobs)
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(
            pool.map(
                lambda js: run_reference(*js[0], shapes=js[1], **kwargs),
                zip(jobs, per_job, strict=True),
            )
        )


Shape = dict[str, Any]


def literal_shape(node: ast.expr) -> Shape | None:
    """The container shape of a literal argument: which JSON lists are really tuples or sets.

    ``None`` where JSON already says everything (scalars, and lists and dicts holding no
    tuple or set).
    """
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        items = [literal_shape(e) for e in node.elts]
        kind = {ast.Tuple: "tuple", ast.List: "list", ast.Set: "set"}[type(node)]
        if kind == "list" and not any(_needs_shaping(i) for i in items):
            return None
        shape: Shape = {"t": kind}
        if kind == "tuple" and any(s and s["t"] in ("tuple", "deep_tuple") for s in items):
            return {"t": "deep_tuple"}  # nested tuples of any depth (Mbpp/580)
        if kind == "tuple":
            shape["items"] = items
        shape["e"] = items[0] if items else None
        return shape
    if isinstance(node, ast.Dict):
        values = [literal_shape(v) for v in node.values]
        return {"t": "dict", "e": values[0]} if any(_needs_shaping(v) for v in values) else None
    is_complex = isinstance(node, ast.Constant) and isinstance(node.value, complex)
    if is_complex or (isinstance(node, ast.BinOp) and _complex_literal(node)):
        return {"t": "complex"}  # JSON stored it as a string such as "1j"
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return {"t": "number"}  # only acted on when JSON holds a string ("0" beside "1j")
    return None


def _needs_shaping(shape: Shape | None) -> bool:
    if not shape:
        return False
    if shape["t"] in ("tuple", "deep_tuple", "set", "complex"):
        return True
    return any(_needs_shaping(s) for s in [shape.get("e"), *shape.get("items", [])])


def _complex_literal(node: ast.BinOp) -> bool:
    try:
        return isinstance(ast.literal_eval(node), complex)
    except (ValueError, TypeError, SyntaxError):
        return False


def shapes_needed(shapes: list[Shape | None] | None, inputs: list[list[Any]]) -> bool:
    """Whether ``shapes`` change any of ``inputs``: tuples, sets, complex numbers, or numbers
    that JSON stored as strings (``"(1+2j)"`` where the assertion passes ``1``)."""
    if not shapes:
        return False
    if any(_needs_shaping(s) for s in shapes):
        return True
    numeric = [j for j, s in enumerate(shapes) if s and s["t"] == "number"]
    return any(j < len(args) and isinstance(args[j], str) for args in inputs for j in numeric)


def call_shapes(code: str, fn_name: str) -> list[Shape | None] | None:
    """Argument shapes of the first ``fn_name(...)`` call in ``code`` (an assertion), if any
    argument is a tuple or a set somewhere."""
    try:
        module = ast.parse(code)
    except SyntaxError:
        return None
    for node in ast.walk(module):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == fn_name
        ):
            if any(isinstance(a, ast.Starred) for a in node.args):
                return None
            shapes = [literal_shape(a) for a in node.args]
            return shapes if any(shapes) else None
    return None


def py_literal(v: Any) -> str:
    """Python source for a JSON value; ``repr`` except non-finite floats (``float('inf')``)."""
    if isinstance(v, float) and not math.isfinite(v):
        return f"float({repr(v)!r})"
    if isinstance(v, list):
        return "[" + ", ".join(py_literal(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k!r}: {py_literal(x)}" for k, x in v.items()) + "}"
    return repr(v)


MAX_OUTPUT_NODES = 500_000
"""Outputs with more values than this are dropped: too large to grade (and to store) well."""


def _too_large(v: Any, limit: int = MAX_OUTPUT_NODES) -> bool:
    stack, seen = [v], 0
    while stack:
        x = stack.pop()
        seen += 1
        if seen > limit:
            return True
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, dict):
            stack.extend(x.values())
    return False


def _is_float_scalar(v: Any) -> bool:
    return isinstance(v, float) and math.isfinite(v)


def call_tests(
    fn_name: str,
    inputs: list[list[Any]],
    outputs: list[OracleOutput],
    *,
    atol: float = 0.0,
    counts: Counter[str] | None = None,
    truthiness: bool = False,
) -> list[Test]:
    """Tests from (args, reference output) pairs; unusable outputs are counted, not kept.

    Plain JSON arguments and outputs make exact ``call`` tests. Tuple or set arguments
    (given ``shapes``), or outputs only a Python literal represents (a set, a tuple that
    must stay one), make ``assert fn(<args>) == <output>`` tests, which the host checks
    like MBPP's own (reward_api.verify.plans). Float outputs get an absolute tolerance of ``max(atol, 1e-6)``, as
    EvalPlus grades them. Outputs whose order the reference leaves to the hash seed are
    compared sorted: ``assert sorted(fn(<args>)) == <sorted output>``. With ``truthiness``
    (the source itself grades by ``assert f(x)``), outputs nothing represents are graded by
    their truth value.
    """
    counts = counts if counts is not None else Counter()
    tests: list[Test] = []
    for args, out in zip(inputs, outputs, strict=True):
        if truthiness and out.status == "ok" and out.plain and out.value is None:
            # re.match-style functions: None is "no match", graded by truth value too
            out = replace(out, status="unjsonable", truthy=False)
        if out.status == "unjsonable" and truthiness and out.truthy is not None:
            # The source grades this function by truth value (`assert f(x)`, `assert not
            # f(x)`), and it returns objects such as re.Match: grade the truth value.
            call = f"{fn_name}({', '.join(py_literal(a) for a in args)})"
            tests.append(AssertTest(code=f"assert {'' if out.truthy else 'not '}bool({call})"))
            counts["truthiness_asserts"] += 1
            continue
        if out.status != "ok":
            counts[f"inputs_dropped:{out.status}"] += 1
            continue
        if _too_large(out.value) or len(out.literal or "") > 8 * MAX_OUTPUT_NODES:
            counts["inputs_dropped:too_large"] += 1
            continue
        if out.args_literal is not None:
            arg_text = out.args_literal[1:-1].rstrip(",")
        else:
            arg_text = ", ".join(py_literal(a) for a in args)
        call = f"{fn_name}({arg_text})"
        numeric = isinstance(out.value, (int, float)) and not isinstance(out.value, bool)
        if out.order_free and out.sorted_literal is not None:
            tests.append(AssertTest(code=f"assert sorted({call}) == {out.sorted_literal}"))
            counts["order_free_asserts"] += 1
        elif out.plain and (_is_float_scalar(out.value) or (atol > 0 and numeric)):
            tol = max(atol, 1e-6)
            tests.append(AssertTest(code=f"assert abs({call} - {out.value!r}) <= {tol!r}"))
            counts["float_tolerance_asserts"] += 1
        elif out.plain and out.args_literal is None:
            tests.append(CallTest(fn_name=fn_name, args=args, output=out.value))
        elif out.literal is not None:
            tests.append(AssertTest(code=f"assert {call} == {out.literal}"))
            counts["literal_asserts"] += 1
        else:
            counts["inputs_dropped:unrepresentable"] += 1
    return tests
