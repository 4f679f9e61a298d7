"""Plain, unsandboxed execution: the reference semantics and the speed baseline.

``run_plain`` runs each test of a sample in a fresh ``python3 -I`` with no sandbox at all,
the way a naive harness would: the program and its test in one file, the return value of a
``call`` test printed as JSON, ``assert`` code appended after the program. It is trusted
with nothing and protects nothing: never point it at untrusted programs outside tests and
benchmarks. Verdict agreement tests compare the sandbox with it; ``make bench`` times it.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from reward_api.schemas import CallTest, Problem, StdioTest, Verdict
from reward_api.verify.comparators import comparator

_CALL_DRIVER = """
import json as __j, sys as __s
__fn = {target}
__r = __fn(*__j.loads({args!r}))
__s.stdout.write("\\n@@RESULT@@" + __j.dumps(__r, default=repr))
"""


def plain_python() -> str:
    """The interpreter plain runs use: CODEREWARD_PLAIN_PYTHON, /usr/bin/python3, else PATH."""
    env = os.environ.get("CODEREWARD_PLAIN_PYTHON")
    if env:
        return env
    if os.path.exists("/usr/bin/python3"):
        return "/usr/bin/python3"
    found = shutil.which("python3")
    if not found:
        raise RuntimeError("no python3 for plain runs")
    return found


def _script(problem: Problem, program: str, index: int) -> str:
    test = problem.tests[index]
    head = (problem.setup_code or "") + "\n"
    if isinstance(test, StdioTest):
        return head + program
    if isinstance(test, CallTest):
        if test.class_name:
            target = f"{test.class_name}().{test.fn_name}"
        else:
            target = f"(globals().get({test.fn_name!r}) or getattr(Solution(), {test.fn_name!r}))"
        return (
            head + program + "\n" + _CALL_DRIVER.format(target=target, args=json.dumps(test.args))
        )
    return head + program + "\n" + test.code + "\n"


def _limit(memory_mb: int) -> None:
    limit = memory_mb << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit + (64 << 20), limit + (64 << 20)))


def run_plain_test(
    problem: Problem, program: str, index: int, python: str | None = None
) -> Verdict:
    """Verdict of one test run plainly in a fresh interpreter."""
    test = problem.tests[index]
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(_script(problem, program, index))
        path = f.name
    try:
        proc = subprocess.run(
            [python or plain_python(), "-I", path],
            input=test.input.encode() if isinstance(test, StdioTest) else b"",
            capture_output=True,
            timeout=problem.limits.time_s,
            preexec_fn=lambda: _limit(problem.limits.memory_mb),
            cwd=tempfile.gettempdir(),
            env={"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "LANG": "C.UTF-8"},
        )
    except subprocess.TimeoutExpired:
        return Verdict.timeout
    finally:
        Path(path).unlink(missing_ok=True)
    if proc.returncode != 0:
        return (
            Verdict.memory_limit if b"MemoryError" in proc.stderr[-400:] else Verdict.runtime_error
        )
    out = proc.stdout.decode("utf-8", "replace")
    if isinstance(test, StdioTest):
        ok = comparator(problem.compare)(out, test.output)
    elif isinstance(test, CallTest):
        marker = out.rfind("\n@@RESULT@@")
        if marker < 0:
            return Verdict.runtime_error
        try:
            got = json.loads(out[marker + len("\n@@RESULT@@") :])
        except ValueError:
            return Verdict.wrong_answer
        ok = got == json.loads(json.dumps(test.output))
    else:
        ok = True
    return Verdict.accepted if ok else Verdict.wrong_answer


def run_plain(problem: Problem, program: str, python: str | None = None) -> list[Verdict]:
    """Verdicts of every test, each in its own fresh interpreter."""
    return [run_plain_test(problem, program, i, python) for i in range(len(problem.tests))]


_SAMPLE_DRIVER = """
import json as __j, sys as __s, io as __io
__ns = dict(__name__="__main__")
__out = __s.stdout
try:
    exec(compile({setup!r} + "\\n" + {program!r}, "<solution>", "exec"), __ns)
    __ok = True
except BaseException:
    __ok = False
for __t in __j.loads({tests!r}):
    __s.stdout = __io.StringIO()
    try:
        if not __ok:
            raise RuntimeError("program failed")
        if __t["type"] == "assert":
            exec(__t["code"], dict(__ns))
            __r = "ok"
        else:
            __f = __ns.get(__t["fn_name"]) if not __t.get("class_name") else None
            __f = __f or getattr(__ns[__t.get("class_name") or "Solution"](), __t["fn_name"])
            __r = __j.dumps(__f(*__t["args"]), default=repr)
    except BaseException:
        __r = None
    __out.write("\\n@@T@@" + __j.dumps(__r))
"""


def run_plain_sample(problem: Problem, program: str, python: str | None = None) -> list[Verdict]:
    """One fresh interpreter for all call/assert tests of a sample (stdio: one per test).

    The baseline of "running each sample unsandboxed in a fresh interpreter".
    """
    verdicts: dict[int, Verdict] = {}
    batched = [i for i, t in enumerate(problem.tests) if not isinstance(t, StdioTest)]
    for i, t in enumerate(problem.tests):
        if isinstance(t, StdioTest):
            verdicts[i] = run_plain_test(problem, program, i, python)
    if batched:
        tests = json.dumps([problem.tests[i].model_dump() for i in batched])
        script = _SAMPLE_DRIVER.format(setup=problem.setup_code or "", program=program, tests=tests)
        timeout = problem.limits.time_s * len(batched)
        try:
            proc = subprocess.run(
                [python or plain_python(), "-I", "-c", script],
                capture_output=True,
                timeout=timeout,
                preexec_fn=lambda: _limit(problem.limits.memory_mb),
                cwd=tempfile.gettempdir(),
                env={"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "LANG": "C.UTF-8"},
            )
            parts = proc.stdout.decode("utf-8", "replace").split("\n@@T@@")[1:]
        except subprocess.TimeoutExpired:
            parts = []
        for k, i in enumerate(batched):
            if k >= len(parts):
                verdicts[i] = Verdict.timeout if not parts else Verdict.runtime_error
                continue
            got = json.loads(parts[k])
            test = problem.tests[i]
            if got is None:
                verdicts[i] = Verdict.runtime_error
            elif isinstance(test, CallTest):
                ok = json.loads(got) == json.loads(json.dumps(test.output))
                verdicts[i] = Verdict.accepted if ok else Verdict.wrong_answer
            else:
                verdicts[i] = Verdict.accepted
    return [verdicts[i] for i in range(len(problem.tests))]


def run_plain_many(
    pairs: list[tuple[Problem, str]],
    workers: int = 2,
    python: str | None = None,
    per: str = "test",
) -> tuple[list[list[Verdict]], float]:
    """Plain verdicts for many samples on ``workers`` threads, and the wall seconds taken.

    ``per="test"``: a fresh interpreter per test; ``per="sample"``: one per sample.
    """
    run_one = run_plain if per == "test" else run_plain_sample
    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        verdicts = list(pool.map(lambda pair: run_one(pair[0], pair[1], python), pairs))
    return verdicts, time.perf_counter() - t0
