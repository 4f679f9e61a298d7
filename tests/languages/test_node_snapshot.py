"""JavaScript and TypeScript tests start node from the runtime's startup snapshot
(``/usr/lib/codereward/node.blob``, built from sandbox_images/runtime/warm/node-boot.js):
a program must not be able to tell. Each program below runs in a real cell twice, on a
plain ``node main.js`` and from the snapshot, and both runs must print the same and exit
with the same code; what differs between any two starts (the clock, the pid, random
numbers) must still differ. The verifier's own cells start from the snapshot.

The agreement tests (tests/languages/test_agreement.py) compare whole MBXP sample sets the
same way: the sandbox from the snapshot, the plain run on a plain node."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from reward_api.schemas import Problem, Sample
from reward_api.verify import languages
from reward_api.verify.pipeline import Job, Verifier

RUNTIME = Path(__file__).resolve().parents[2] / "sandbox_images" / "runtime"
sys.path.insert(0, str(RUNTIME))
import measure  # noqa: E402
from test_runtimes import _root_or_skip  # noqa: E402

# (name, program, stdin): each prints what a start could change, or exits a way node decides
PROGRAMS = [
    ("argv and module", "console.log(JSON.stringify([process.argv.slice(1), __filename, __dirname,"
     " require.main === module, module.id, typeof require.resolve, process.argv0]));", ""),
    ("globals", "console.log(JSON.stringify([typeof fetch, typeof structuredClone, typeof Buffer,"
     " typeof setImmediate, typeof queueMicrotask, typeof globalThis.process, Object.keys(globalThis).sort()]));", ""),
    ("builtins loaded at run time", "const a = require('assert'), u = require('util'), c = require('crypto');"
     " console.log(u.inspect(new Map([[1, {a: [1, 2]}]])), a.deepStrictEqual([1], [1]) === undefined,"
     " c.createHash('sha256').update('x').digest('hex'), require('lodash').chunk([1, 2, 3], 2));", ""),
    ("module cache", "console.log(JSON.stringify(Object.keys(require.cache).map(k => require('path').basename(k))));", ""),
    ("stdin", "const s = require('fs').readFileSync(0, 'utf8'); console.log(s.trim().split(/\\s+/).map(Number).reduce((a, b) => a + b));",
     "3 4 5\n"),
    ("locale and time zone", "console.log((1234567.891).toLocaleString(), new Intl.NumberFormat().resolvedOptions().locale,"
     " Intl.DateTimeFormat().resolvedOptions().timeZone, new Date(0).toString());", ""),
    ("timers and exit handlers", "setTimeout(() => console.log('timer'), 5); Promise.resolve().then(() => console.log('micro'));"
     " process.on('exit', c => console.log('exit', c)); console.log('sync');", ""),
    ("uncaught exception", "console.log('before'); throw new Error('boom');", ""),
    ("unhandled rejection", "Promise.reject(new Error('r')); setTimeout(() => console.log('never'), 50);", ""),
    ("process.exit", "console.log('x'); process.exit(7);", ""),
    ("exitCode", "process.exitCode = 5; console.log('y');", ""),
    ("stack overflow", "const f = n => f(n + 1) + 1; try { f(0) } catch (e) { console.log(e.constructor.name) }", ""),
    ("strict mode and this", "console.log(this === module.exports, (function () { return this === undefined })());", ""),
    ("a builtin patched by the program", "require('assert').deepStrictEqual = () => {}; console.log(typeof require('assert').deepStrictEqual);"
     " Array.prototype.push = null; console.log(String(Array.prototype.push));", ""),
]  # fmt: skip


def _run(recipe: str, programs: list[tuple[str, str, str]]) -> list[dict]:
    job = {
        "recipe": recipe,
        "timeout_s": 60,
        "programs": [{"source": code, "inputs": [stdin]} for _, code, stdin in programs],
    }
    out = measure.run_sandboxed("javascript", job)["programs"]
    runs = [
        p["runs"][0] if p["runs"] else {"rc": "no run", "stdout": "", "stderr": ""} for p in out
    ]
    work = re.compile(r"/tmp/toolchain-\w+")  # each job's own work folder
    return [
        dict(r, stdout=work.sub("/W", r["stdout"]), stderr=work.sub("/W", r["stderr"]))
        for r in runs
    ]


def test_the_snapshot_is_in_the_runtime_root_and_readable() -> None:
    root = Path(_root_or_skip("javascript"))
    blob = root / languages.NODE_SNAPSHOT.lstrip("/")
    assert blob.is_file() and blob.stat().st_size > 1 << 20
    assert blob.stat().st_mode & 0o004  # the cells run as nobody
    assert (root / "usr/lib/codereward/node-boot.js").read_text() == (
        RUNTIME / "warm" / "node-boot.js"
    ).read_text()


def test_a_program_cannot_tell_the_snapshot_from_a_plain_node() -> None:
    _root_or_skip("javascript")
    plain = _run("javascript-nocheck", PROGRAMS)
    snap = _run("javascript-snapshot", PROGRAMS)
    for (name, _, _), p, s in zip(PROGRAMS, plain, snap, strict=True):
        assert (s["rc"], s["stdout"]) == (p["rc"], p["stdout"]), name
        # node's own messages (a stack trace's last frames aside) and no warning of ours
        assert "user snapshot" not in s["stderr"] and "Warning" not in s["stderr"], name
        if p["rc"] == 0:
            assert s["stderr"] == p["stderr"], name
    rc = {name: r["rc"] for (name, _, _), r in zip(PROGRAMS, snap, strict=True)}
    exits = ("uncaught exception", "unhandled rejection", "process.exit", "exitCode")
    assert [rc[k] for k in exits] == [1, 1, 7, 5]  # the exits are really exercised
    by_name = {name: r["stdout"] for (name, _, _), r in zip(PROGRAMS, snap, strict=True)}
    assert by_name["timers and exit handlers"] == "sync\nmicro\ntimer\nexit 0\n"
    assert by_name["stdin"] == "12\n"


def test_what_differs_between_starts_still_differs_from_the_snapshot() -> None:
    _root_or_skip("javascript")
    code = ("console.log(JSON.stringify([Math.random(), process.pid, require('crypto').randomBytes(8).toString('hex'),"
            " Date.now() > 1.7e12, performance.now() < 5000, typeof process.hrtime.bigint()]));")  # fmt: skip
    runs = [json.loads(r["stdout"]) for r in _run("javascript-snapshot", [("r", code, "")] * 3)]
    for k in range(3):  # the seed, the pid and the entropy are each run's own
        assert len({json.dumps(r[k]) for r in runs}) == 3, (k, runs)
    assert all(r[3:] == [True, True, "bigint"] for r in runs), runs


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_the_verifiers_cells_start_node_from_the_snapshot(
    verifier: Verifier, language: str
) -> None:
    _root_or_skip("javascript")
    code = "console.log(process.execArgv.join(' '));"
    problem = Problem.model_validate({
        "id": "snap", "language": language,
        "tests": [{"type": "stdio", "input": "", "output": f"--snapshot-blob {languages.NODE_SNAPSHOT}"}],
    })  # fmt: skip
    [result] = verifier.verify([Job(problem, Sample(problem_id="snap", code=code))])
    assert result.accepted, [t.detail for t in result.tests]
