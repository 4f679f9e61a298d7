"""Static analysis of candidate programs: semgrep rules, batched scans, the static score.

This module owns the ``scan`` stage of the pipeline. It turns programs into
``StaticReport``s using the rules shipped in ``reward_api/rules`` (three categories,
each file beside an annotated fixture checked by ``semgrep --test``):

- ``reward_hacking``: code that tries to pass tests without solving the problem
  (early exits, always-equal objects, frame inspection, monkeypatched builtins, reads
  of test data or the environment, skipped tests, printed success markers). Any such
  finding trips the hack gate in ``reward_api.scoring``.
- ``security``: process spawning, network, eval of input, file deletion, ctypes,
  signal handlers, computed imports, pickle.
- ``quality``: bare except, swallowed exceptions, mutable defaults, unreachable code,
  shadowed builtins, ``== None``, ``is`` with literals, wildcard imports.

Engine. The ``semgrep`` command line costs about 2 s a call on this machine whatever the
number of files (Python start-up, rule validation, target discovery), so scanning one
program per call costs seconds per program. A batch is therefore written as files into
one temporary folder and scanned by ONE process. By default that process is the matching
engine itself, ``semgrep-core`` (shipped inside the semgrep wheel), called with the three
rule files merged into one JSON rule file: tens of milliseconds a call instead of two
seconds, with the same rules and the same results. ``engine="cli"`` drives the
``semgrep`` command line instead (the baseline ``bench_static`` measures). Measured
numbers are in ``bench_static``'s output (``make bench``).

``# nosemgrep`` comments are NOT honoured: the programs under scan are adversarial, and a
suppression comment is the cheapest evasion there is. A program the engine cannot
parse gets one ``parse-error`` quality finding, so that a parser gap never passes
silently for a clean scan.

Score. For a program with findings F::

    score = 0                                         if any finding is reward_hacking
    score = max(0, 1 - sum over distinct rules r in F of sev(r) * cat(r))   otherwise

with ``sev`` = ERROR 1.0, WARNING 0.5, INFO 0.2 and ``cat`` = security 0.5, quality 0.2.
A rule counts once however often it fires, so long programs are not penalised for
repeating one idiom. One process spawn costs 0.5, an eval of input 0.25, a bare except
0.1, a shadowed builtin 0.04.

What is not protected: rules see source text only. Code built at run time (``exec`` of
a computed string, ``getattr`` with computed names, encoded payloads) is out of reach of
any static rule; the sandbox and the trusted grader are the real defence, and the
``security`` rules flag the building blocks of such code.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import yaml

from reward_api.schemas import Finding, StaticReport

RULES_DIR = Path(__file__).resolve().parent / "rules"
CATEGORIES = ("reward_hacking", "security", "quality")
HACKING = "reward_hacking"

SEVERITY_WEIGHT = {"ERROR": 1.0, "WARNING": 0.5, "INFO": 0.2}
CATEGORY_WEIGHT = {"security": 0.5, "quality": 0.2}

SCAN_TIMEOUT_S = 120.0
RULE_TIMEOUT_S = 5.0

Engine = Literal["core", "cli"]


class StaticAnalysisError(RuntimeError):
    """The scanner itself failed (missing engine, crash, unreadable output): our fault."""


def rule_files() -> list[Path]:
    """The shipped rule files, one per category."""
    return [RULES_DIR / f"{category}.yaml" for category in CATEGORIES]


@functools.cache
def _semgrep_core() -> str:
    try:
        import semgrep

        bundled = Path(semgrep.__file__).resolve().parent / "bin" / "semgrep-core"
        if bundled.is_file():
            return str(bundled)
    except ImportError:
        pass
    found = shutil.which("semgrep-core")
    if found is None:
        raise StaticAnalysisError("semgrep-core not found: install the 'static' extra")
    return found


@functools.cache
def _semgrep_cli() -> str:
    venv_bin = Path(sys.executable).parent / "semgrep"
    if venv_bin.is_file():
        return str(venv_bin)
    found = shutil.which("semgrep")
    if found is None:
        raise StaticAnalysisError("semgrep not found: install the 'static' extra")
    return found


def load_rules() -> list[dict[str, Any]]:
    """All rules of the three files; each must carry a known ``metadata.category``."""
    rules: list[dict[str, Any]] = []
    for path in rule_files():
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for rule in doc["rules"]:
            category = rule.get("metadata", {}).get("category")
            if category not in CATEGORIES:
                raise StaticAnalysisError(
                    f"rule {rule.get('id')} in {path.name}: bad category {category!r}"
                )
            rules.append(rule)
    return rules


@functools.cache
def _merged_rules() -> tuple[str, dict[str, tuple[str, str, str]]]:
    """One JSON rule file for semgrep-core, cached per content, and id -> (cat, sev, msg)."""
    rules = load_rules()
    text = json.dumps({"rules": rules}, sort_keys=True)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"codereward-rules-{digest}.json"
    if not path.is_file():
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    meta = {
        r["id"]: (r["metadata"]["category"], r["severity"], " ".join(str(r["message"]).split()))
        for r in rules
    }
    return str(path), meta


def score(findings: Sequence[Finding]) -> float:
    """The static score in [0, 1]; the formula is in the module docstring."""
    if any(f.category == HACKING for f in findings):
        return 0.0
    penalty = 0.0
    seen: set[str] = set()
    for f in findings:
        if f.rule_id in seen:
            continue
        seen.add(f.rule_id)
        penalty += SEVERITY_WEIGHT.get(f.severity, 0.5) * CATEGORY_WEIGHT.get(f.category, 0.5)
    return max(0.0, round(1.0 - penalty, 6))


def is_hacking(report: StaticReport | None) -> bool:
    """True when any reward_hacking rule fired."""
    return report is not None and any(f.category == HACKING for f in report.findings)


def scan_programs(programs: Sequence[str], engine: Engine = "core") -> list[StaticReport]:
    """Scan every program with one engine call; one report per program, in order."""
    if not programs:
        return []
    with tempfile.TemporaryDirectory(prefix="codereward-scan-") as tmp:
        names = []
        for i, program in enumerate(programs):
            name = f"p{i:06d}.py"
            Path(tmp, name).write_text(program, encoding="utf-8", errors="surrogateescape")
            names.append(name)
        raw = _run_core(tmp, names) if engine == "core" else _run_cli(tmp)
    return _reports(raw, names, programs)


def scan_program(program: str, engine: Engine = "core") -> StaticReport:
    """Scan one program (one engine call); prefer ``scan_programs`` for batches."""
    return scan_programs([program], engine=engine)[0]


def _run_core(folder: str, names: list[str]) -> dict[str, Any]:
    rules_path, _ = _merged_rules()
    cmd = [
        _semgrep_core(),
        "-rules", rules_path,
        "-lang", "python",
        "-json",
        "-j", "1",
        "-timeout", str(RULE_TIMEOUT_S),
        "-max_target_bytes", "0",
        *names,
    ]  # fmt: skip
    return _run(cmd, cwd=folder)


def _run_cli(folder: str) -> dict[str, Any]:
    cmd = [
        _semgrep_cli(),
        "scan",
        "--json",
        "--metrics=off",
        "--disable-version-check",
        "--disable-nosem",
        "--no-git-ignore",
        "--quiet",
        "--max-target-bytes=0",
        "--timeout", str(int(RULE_TIMEOUT_S)),
        *[arg for path in rule_files() for arg in ("--config", str(path))],
        ".",
    ]  # fmt: skip
    env = dict(os.environ, SEMGREP_SEND_METRICS="off", SEMGREP_ENABLE_VERSION_CHECK="0")
    return _run(cmd, cwd=folder, env=env)


def _run(cmd: list[str], cwd: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    try:
        proc = subprocess.run(
            cmd,
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            timeout=SCAN_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise StaticAnalysisError(f"semgrep failed to run: {exc}") from exc
    # semgrep-core prints progress dots before the JSON document on stdout.
    start = proc.stdout.find('{"')
    if start < 0:
        raise StaticAnalysisError(
            f"semgrep exited {proc.returncode} without JSON: {proc.stderr[-500:]}"
        )
    try:
        doc: dict[str, Any] = json.loads(proc.stdout[start:])
    except json.JSONDecodeError as exc:
        raise StaticAnalysisError(f"semgrep printed bad JSON: {exc}") from exc
    fatal = [
        e
        for e in doc.get("errors", [])
        if _error_path(e) is None and e.get("level", e.get("severity")) == "error"
    ]
    if fatal:
        raise StaticAnalysisError(f"semgrep error: {fatal[0].get('message', fatal[0])}")
    return doc


def _error_path(error: dict[str, Any]) -> str | None:
    path = error.get("path") or error.get("location", {}).get("path")
    if not path or path == "NO FILE INFO YET":
        return None
    return Path(str(path)).name


def _reports(raw: dict[str, Any], names: list[str], programs: Sequence[str]) -> list[StaticReport]:
    _, meta = _merged_rules()
    index = {name: i for i, name in enumerate(names)}
    per_program: list[dict[tuple[str, int], Finding]] = [{} for _ in names]
    for result in raw.get("results", []):
        i = index.get(Path(result["path"]).name)
        if i is None:
            continue
        # The CLI prefixes ids with the config path; the rule's own id is the last part.
        rule_id = str(result["check_id"]).rsplit(".", 1)[-1]
        category, severity, message = meta.get(rule_id, ("quality", "INFO", ""))
        line = int(result["start"]["line"])
        per_program[i].setdefault(
            (rule_id, line),
            Finding(
                rule_id=rule_id, category=category, severity=severity, line=line, message=message
            ),
        )
    for error in raw.get("errors", []):
        name = _error_path(error)
        i = index.get(name) if name else None
        if i is None or not _is_parse_error(error):
            continue
        line = int(
            (error.get("location") or error.get("spans", [{}])[0] or {})
            .get("start", {})
            .get("line", 1)
            or 1
        )
        per_program[i].setdefault(
            ("parse-error", line),
            Finding(
                rule_id="parse-error",
                category="quality",
                severity="INFO",
                line=max(line, 1),
                message="semgrep could not parse this program; it was only partly scanned.",
            ),
        )
    reports = []
    for found in per_program:
        findings = sorted(found.values(), key=lambda f: (f.line, f.rule_id))
        reports.append(StaticReport(findings=findings, score=score(findings)))
    return reports


def _is_parse_error(error: dict[str, Any]) -> bool:
    kind = error.get("error_type") or error.get("type") or ""
    if isinstance(kind, list):
        kind = kind[0] if kind else ""
    return "syntax" in str(kind).lower() or "pars" in str(kind).lower()


def bench_static(n: int = 64, per_call_samples: int = 3) -> dict[str, float]:
    """Milliseconds per program: one engine call for ``n`` programs vs one call each.

    ``batched_ms_per_program`` is the production path (semgrep-core, one call per batch);
    ``per_call_ms_per_program`` is the naive baseline (the semgrep CLI, one call per
    program), timed on ``per_call_samples`` programs because each call costs seconds.
    """
    programs = bench_programs(n)
    _merged_rules()
    scan_programs(programs[:2])  # warm the page cache and the merged rule file
    t0 = time.perf_counter()
    scan_programs(programs)
    batched_core = (time.perf_counter() - t0) * 1000 / n
    t0 = time.perf_counter()
    scan_programs(programs, engine="cli")
    batched_cli = (time.perf_counter() - t0) * 1000 / n
    k = max(1, min(per_call_samples, n))
    t0 = time.perf_counter()
    for program in programs[:k]:
        scan_program(program)
    per_call_core = (time.perf_counter() - t0) * 1000 / k
    t0 = time.perf_counter()
    for program in programs[:k]:
        scan_program(program, engine="cli")
    per_call_cli = (time.perf_counter() - t0) * 1000 / k
    return {
        "n": float(n),
        "batched_ms_per_program": round(batched_core, 2),
        "per_call_ms_per_program": round(per_call_cli, 2),
        "batched_cli_ms_per_program": round(batched_cli, 2),
        "per_call_core_ms_per_program": round(per_call_core, 2),
    }


def bench_programs(n: int) -> list[str]:
    """``n`` varied, realistic programs (stdio, function style, some with findings)."""
    bodies = [
        "import sys\nn = int(input())\nprint(sum(int(x) for x in input().split()[:n]))\n",
        "def add(a, b):\n    return a + b\n",
        "def f(xs, acc=[]):\n    try:\n        return max(xs)\n    except:\n        return None\n",
        "import os\n\ndef g(x):\n    os.system('ls')\n    return x\n",
        "class A:\n    def __eq__(self, o):\n        return True\n",
        (
            "from collections import deque\n\n"
            "def bfs(graph, start):\n"
            "    seen = {start}\n    q = deque([start])\n"
            "    while q:\n        u = q.popleft()\n"
            "        for v in graph.get(u, []):\n"
            "            if v not in seen:\n                seen.add(v)\n                q.append(v)\n"
            "    return seen\n"
        ),
    ]
    return [f"# program {i}\n" + bodies[i % len(bodies)] for i in range(n)]
