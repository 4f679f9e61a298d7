"""Dataset quality report: the checks DeepCoder ran before training, on any problem set.

``check_problems`` answers, for a set of CONTRACT problems:

- how many tests each problem has, and which have fewer than ``min_tests`` (5: fewer
  invites reward hacking);
- which problems duplicate each other, exactly or nearly, and which overlap an
  ``against`` set (train/eval contamination);
- which reference solutions fail in the sandbox (with their verdicts and logs), and which
  tests are flaky (a verdict that changes between two runs of the same reference); a
  reference that only ever ran out of time is rerun by itself before it is called broken
  (``slow_references`` when it then passes: slow under load, not wrong);

and ``filter_problems`` keeps the clean ones: enough tests, a reference that passes
every run, one problem per duplicate group, nothing that overlaps ``against``.

Duplicates. Two problems are compared on two signatures: the statement (lower-cased,
punctuation removed, as a set of word 3-shingles) and the tests (each test in a canonical
form, as a set). ``datasketch`` MinHash LSH proposes candidate pairs; their exact Jaccard
similarities then decide, so no pair is reported on an estimate alone. A pair is a
duplicate when the normalised statements are equal, the test sets are equal, the
statement similarity is at least ``statement_threshold``, the test similarity is at
least ``tests_threshold``, or both are at least ``joint_threshold``. Tests count only
when what the two problems share carries ``min_shared_test_chars`` characters, so two
different problems that both test ``"1" -> "1"`` are not called duplicates.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reward_api.schemas import AssertTest, CallTest, Problem, Result, Sample, StdioTest, Verdict

if TYPE_CHECKING:
    from reward_api.verify.pipeline import Verifier


@dataclass(frozen=True)
class CheckSettings:
    """Thresholds of the quality report."""

    min_tests: int = 5
    """Problems with fewer tests are listed in ``under_5_tests`` and filtered out."""
    statement_threshold: float = 0.8
    """Statement Jaccard (word 3-shingles) at or above which two problems are duplicates."""
    tests_threshold: float = 0.8
    """Test-set Jaccard at or above which two problems are duplicates."""
    joint_threshold: float = 0.5
    """Both similarities at or above this also make a duplicate."""
    min_shared_test_chars: int = 32
    """Shared tests must carry this many characters before they count as evidence."""
    min_statement_chars: int = 40
    """Normalised statements shorter than this are not compared."""
    num_perm: int = 128
    """MinHash permutations."""
    runs: int = 2
    """Times each reference is run; verdicts that differ between runs are flaky."""


# --- signatures ---------------------------------------------------------------------------


_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def normalise_statement(text: str | None) -> str:
    """The prose of a statement: example lines (``assert ...``, ``>>> ...``) dropped, lower
    case, punctuation and white space collapsed to single spaces.

    Examples are left out because the same task is often shown with different ones (MBPP
    and MBPP+ show different asserts); the tests are compared on their own.
    """
    lines = [
        line
        for line in (text or "").splitlines()
        if not line.lstrip().startswith(("assert ", ">>>"))
    ]
    return _NON_WORD.sub(" ", "\n".join(lines).lower()).strip()


def statement_shingles(text: str | None, n: int = 3) -> set[str]:
    """Word ``n``-shingles of the normalised statement (the words themselves when shorter)."""
    words = normalise_statement(text).split()
    if len(words) < n:
        return set(words)
    return {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}


def _canonical_code(code: str, language: str = "python") -> str:
    if language in ("python", "python3"):
        try:
            return ast.unparse(ast.parse(code))
        except (SyntaxError, ValueError, RecursionError):
            pass
    return " ".join(code.split())


def _canonical_text(text: str) -> str:
    return "\n".join(" ".join(line.split()) for line in text.strip().splitlines())


def test_key(test: StdioTest | CallTest | AssertTest, language: str = "python") -> str:
    """A canonical string for one test: equal for tests that check the same thing (an
    assert test's code is compared as Python's syntax tree in Python, as its tokens
    separated by single spaces in the other languages)."""
    if isinstance(test, StdioTest):
        return "stdio\0" + _canonical_text(test.input) + "\0" + _canonical_text(test.output)
    if isinstance(test, CallTest):
        return "call\0" + json.dumps(
            [test.class_name, test.fn_name, test.args, test.output], sort_keys=True, default=str
        )
    return "assert\0" + _canonical_code(test.code, language)


def tests_signature(problem: Problem) -> set[str]:
    """The problem's tests as a set of canonical keys."""
    return {test_key(t, problem.language) for t in problem.tests}


@dataclass
class Signature:
    """What duplicate detection compares for one problem."""

    id: str
    statement: str
    shingles: set[str]
    tests: set[str]
    language: str = "python"

    @classmethod
    def of(cls, problem: Problem) -> Signature:
        """Signature of ``problem``."""
        text = normalise_statement(problem.prompt)
        return cls(
            problem.id,
            text,
            statement_shingles(problem.prompt),
            tests_signature(problem),
            "python" if problem.language == "python3" else problem.language,
        )


def _jaccard(a: set[str], b: set[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


@dataclass(frozen=True)
class Match:
    """A pair of problems judged duplicates, and why."""

    a: str
    b: str
    kind: str
    """exact_statement, exact_tests, near_statement, near_tests or near_both."""
    statement_similarity: float
    tests_similarity: float

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "a": self.a,
            "b": self.b,
            "kind": self.kind,
            "statement_similarity": round(self.statement_similarity, 4),
            "tests_similarity": round(self.tests_similarity, 4),
        }


def judge_pair(x: Signature, y: Signature, s: CheckSettings) -> Match | None:
    """The duplicate rule of the module docstring, on exact similarities."""
    stmt_ok = min(len(x.statement), len(y.statement)) >= s.min_statement_chars
    shared = x.tests & y.tests
    tests_ok = sum(len(k) for k in shared) >= s.min_shared_test_chars
    ss = _jaccard(x.shingles, y.shingles) if stmt_ok else 0.0
    ts = _jaccard(x.tests, y.tests) if tests_ok else 0.0
    kind = None
    if stmt_ok and x.statement == y.statement:
        kind = "exact_statement"
    elif tests_ok and x.tests == y.tests:
        kind = "exact_tests"
    elif ss >= s.statement_threshold:
        kind = "near_statement"
    elif ts >= s.tests_threshold:
        kind = "near_tests"
    elif ss >= s.joint_threshold and ts >= s.joint_threshold:
        kind = "near_both"
    if kind is None:
        return None
    return Match(x.id, y.id, kind, ss if stmt_ok else 0.0, ts)


class _Index:
    """MinHash LSH over statements and over tests, plus exact-hash buckets."""

    def __init__(self, settings: CheckSettings) -> None:
        from datasketch import MinHashLSH

        self.s = settings
        # The LSH proposes; judge_pair decides. Index at the lowest threshold any rule uses.
        low = min(settings.statement_threshold, settings.tests_threshold, settings.joint_threshold)
        self.stmt = MinHashLSH(threshold=low, num_perm=settings.num_perm)
        self.tests = MinHashLSH(threshold=low, num_perm=settings.num_perm)
        self.exact: dict[str, list[str]] = {}
        self.sigs: dict[str, Signature] = {}

    def _minhash(self, items: set[str]) -> Any:
        from datasketch import MinHash

        m = MinHash(num_perm=self.s.num_perm)
        m.update_batch([i.encode("utf-8") for i in items])
        return m

    def _exact_keys(self, sig: Signature) -> list[str]:
        keys = []
        if len(sig.statement) >= self.s.min_statement_chars:
            keys.append("s:" + hashlib.sha256(sig.statement.encode()).hexdigest())
        if sig.tests:
            keys.append("t:" + hashlib.sha256("\1".join(sorted(sig.tests)).encode()).hexdigest())
        return keys

    def add(self, key: str, sig: Signature) -> None:
        self.sigs[key] = sig
        if sig.shingles:
            self.stmt.insert(key, self._minhash(sig.shingles))
        if sig.tests:
            self.tests.insert(key, self._minhash(sig.tests))
        for k in self._exact_keys(sig):
            self.exact.setdefault(k, []).append(key)

    def candidates(self, sig: Signature) -> set[str]:
        found: set[str] = set()
        if sig.shingles:
            found.update(self.stmt.query(self._minhash(sig.shingles)))
        if sig.tests:
            found.update(self.tests.query(self._minhash(sig.tests)))
        for k in self._exact_keys(sig):
            found.update(self.exact.get(k, []))
        return found


def find_duplicates(
    problems: Sequence[Problem],
    settings: CheckSettings | None = None,
    progress: Callable[[int], object] | None = None,
) -> list[Match]:
    """Duplicate pairs within ``problems`` (each pair once, in input order), in the same
    language only: MBXP, MultiPL-E and HumanEval-X state one task in many languages, and a
    C++ and a Java version of it are different problems to solve. (Overlap with an
    ``against`` set is checked across languages: a statement seen in training, in any
    language, contaminates its evaluation.)"""
    s = settings or CheckSettings()
    index = _Index(s)
    order = {p.id: i for i, p in enumerate(problems)}
    matches: list[Match] = []
    for p in problems:
        sig = Signature.of(p)
        for other in sorted(index.candidates(sig), key=order.__getitem__):
            if index.sigs[other].language != sig.language:
                continue
            m = judge_pair(index.sigs[other], sig, s)
            if m is not None:
                matches.append(m)
        index.add(p.id, sig)
        if progress:
            progress(1)
    return matches


def find_overlap(
    problems: Sequence[Problem],
    against: Sequence[Problem],
    settings: CheckSettings | None = None,
    progress: Callable[[int], object] | None = None,
) -> list[Match]:
    """Pairs (problem, against-problem) that duplicate each other across the two sets."""
    s = settings or CheckSettings()
    index = _Index(s)
    for q in against:
        index.add(q.id, Signature.of(q))
    matches = []
    for p in problems:
        sig = Signature.of(p)
        for other in sorted(index.candidates(sig)):
            m = judge_pair(sig, index.sigs[other], s)
            if m is not None:
                matches.append(m)
        if progress:
            progress(1)
    return matches


def duplicate_groups(ids: Iterable[str], matches: Iterable[Match]) -> list[list[str]]:
    """Connected groups of duplicates (union-find), each in input order, groups by first member."""
    order = {pid: i for i, pid in enumerate(ids)}
    parent = {pid: pid for pid in order}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for m in matches:
        ra, rb = root(m.a), root(m.b)
        if ra != rb:
            parent[max(ra, rb, key=order.__getitem__)] = min(ra, rb, key=order.__getitem__)
    groups: dict[str, list[str]] = {}
    for pid in order:
        groups.setdefault(root(pid), []).append(pid)
    return sorted((g for g in groups.values() if len(g) > 1), key=lambda g: order[g[0]])


# --- references in the sandbox -----------------------------------------------------------


@dataclass
class ReferenceRuns:
    """Verdicts of every reference over ``runs`` runs."""

    results: dict[str, list[Result]] = field(default_factory=dict)
    confirmations: dict[str, Result] = field(default_factory=dict)
    """Alone-on-the-machine reruns of references that failed every run by time limit only."""

    def verdicts(self, pid: str) -> list[list[str]]:
        """Per run, the per-test verdicts."""
        return [[t.verdict.value for t in r.tests] for r in self.results[pid]]

    def broken(self) -> list[str]:
        """References that failed every run the infrastructure completed (no sandbox error)."""
        out = []
        for pid, runs in self.results.items():
            real = [r for r in runs if r.verdict is not Verdict.sandbox_error]
            if real and not any(r.accepted for r in real) and not self._changed(pid):
                confirmed = self.confirmations.get(pid)
                if confirmed is None or not confirmed.accepted:
                    out.append(pid)
        return out

    def slow(self) -> list[str]:
        """References that ran out of time in every run but passed when run alone."""
        return [pid for pid, r in self.confirmations.items() if r.accepted]

    def timed_out_only(self, pid: str) -> bool:
        """Every run failed, and only by the time limit (later tests skipped)."""
        runs = self.results[pid]
        allowed = {Verdict.accepted, Verdict.timeout, Verdict.skipped}
        return bool(runs) and all(
            not r.accepted
            and r.verdict is Verdict.timeout
            and all(t.verdict in allowed for t in r.tests)
            for r in runs
        )

    def unverified(self) -> list[str]:
        """References whose every run ended in a sandbox error (infrastructure, not the program)."""
        return [
            pid
            for pid, runs in self.results.items()
            if all(r.verdict is Verdict.sandbox_error for r in runs)
        ]

    def _changed(self, pid: str) -> list[int]:
        runs = [r for r in self.results[pid] if r.verdict is not Verdict.sandbox_error]
        if len(runs) < 2:
            return []
        per_run = [[t.verdict for t in r.tests] for r in runs]
        width = max(len(v) for v in per_run)
        changed = []
        for i in range(width):
            seen = {v[i] if i < len(v) else None for v in per_run}
            seen.discard(Verdict.sandbox_error)
            if len(seen) > 1:
                changed.append(i)
        return changed

    def flaky(self) -> dict[str, list[int]]:
        """Problems whose test verdicts changed between runs, with the changed test indices."""
        out = {}
        for pid in self.results:
            changed = self._changed(pid)
            if changed:
                out[pid] = changed
        return out


def run_references(
    problems: Sequence[Problem],
    verifier: Verifier,
    runs: int = 2,
    on_result: Callable[[int, Result], None] | None = None,
) -> ReferenceRuns:
    """Run each problem's reference ``runs`` times in the verifier's sandbox.

    References that failed every run by time limit alone get one more run, by themselves;
    passing it makes them ``slow``, not broken.
    """
    from reward_api.verify.pipeline import Job

    jobs = [
        Job(p, Sample(problem_id=p.id, sample_id="reference", code=p.reference, completion=None))
        for p in problems
        if p.reference
    ]
    out = ReferenceRuns({j.problem.id: [] for j in jobs})
    for _ in range(runs):
        for job, result in zip(jobs, verifier.verify(jobs, on_result=on_result), strict=True):
            out.results[job.problem.id].append(result)
    # A reference that only ever ran out of time may be slow rather than wrong, and the
    # runs above shared the machine: rerun each such reference alone before calling it broken.
    for job in jobs:
        if out.timed_out_only(job.problem.id):
            out.confirmations[job.problem.id] = verifier.verify([job])[0]
    return out


# --- the report ----------------------------------------------------------------------------


def tests_histogram(problems: Sequence[Problem]) -> dict[str, int]:
    """Number of problems per test count, keys as strings in increasing order."""
    counts = Counter(len(p.tests) for p in problems)
    return {str(k): counts[k] for k in sorted(counts)}


def check_problems(
    problems: Sequence[Problem],
    against: Sequence[Problem] | None = None,
    settings: CheckSettings | None = None,
    references: ReferenceRuns | None = None,
    progress: Callable[[int], object] | None = None,
) -> dict[str, Any]:
    """The JSON report (see the module docstring); ``references`` is None to skip the sandbox.

    ``progress(n)`` is called as problems are compared (once per problem for duplicates,
    once more per problem for overlap).
    """
    s = settings or CheckSettings()
    ids = [p.id for p in problems]
    counts = [len(p.tests) for p in problems]
    dups = find_duplicates(problems, s, progress)
    overlap = find_overlap(problems, against, s, progress) if against is not None else []
    report: dict[str, Any] = {
        "problems": len(problems),
        "min_tests": s.min_tests,
        "tests_per_problem": {
            "histogram": tests_histogram(problems),
            "min": min(counts, default=0),
            "median": sorted(counts)[len(counts) // 2] if counts else 0,
            "max": max(counts, default=0),
            "total": sum(counts),
        },
        "under_5_tests": [p.id for p in problems if len(p.tests) < s.min_tests],
        "duplicate_groups": duplicate_groups(ids, dups),
        "duplicate_pairs": [m.to_dict() for m in dups],
        "overlap": sorted({m.a for m in overlap}, key=ids.index),
        "overlap_pairs": [{"id": m.a, "against_id": m.b, **m.to_dict()} for m in overlap],
        "against_problems": len(against) if against is not None else None,
        "no_reference": [p.id for p in problems if not p.reference],
        "references_run": references is not None,
        "broken_references": [],
        "broken_details": {},
        "flaky": [],
        "flaky_details": {},
        "unverified_references": [],
        "slow_references": [],
        "reference_verdicts": {},
        "settings": {k: getattr(s, k) for k in s.__dataclass_fields__},
    }
    if references is not None:
        broken = references.broken()
        flaky = references.flaky()
        report["broken_references"] = [pid for pid in ids if pid in set(broken)]
        report["broken_details"] = {
            pid: {
                "verdict": references.results[pid][0].verdict.value,
                "passed": references.results[pid][0].passed,
                "total": references.results[pid][0].total,
                "failing_tests": [
                    {"index": i, "verdict": t.verdict.value, "detail": t.detail}
                    for i, t in enumerate(references.results[pid][0].tests)
                    if t.verdict is not Verdict.accepted
                ][:20],
            }
            for pid in report["broken_references"]
        }
        report["flaky"] = [pid for pid in ids if pid in flaky]
        report["flaky_details"] = {
            pid: {"tests": flaky[pid], "verdicts_per_run": references.verdicts(pid)}
            for pid in report["flaky"]
        }
        report["unverified_references"] = [
            pid for pid in ids if pid in set(references.unverified())
        ]
        report["slow_references"] = [pid for pid in ids if pid in set(references.slow())]
        report["reference_verdicts"] = dict(
            Counter(runs[0].verdict.value for runs in references.results.values()).most_common()
        )
    report["languages"] = per_language(problems, report, references)
    return report


def per_language(
    problems: Sequence[Problem], report: dict[str, Any], references: ReferenceRuns | None
) -> dict[str, dict[str, Any]]:
    """The report's counts per problem language, languages in alphabetical order."""
    language = {p.id: "python" if p.language == "python3" else p.language for p in problems}
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(set(language.values())):
        ids = {pid for pid, lang in language.items() if lang == name}
        entry: dict[str, Any] = {
            "problems": len(ids),
            "tests": sum(len(p.tests) for p in problems if p.id in ids),
            "under_min_tests": sum(1 for pid in report["under_5_tests"] if pid in ids),
            "in_duplicate_groups": sum(1 for g in report["duplicate_groups"] for pid in g
                                       if pid in ids),
            "overlap": sum(1 for pid in report["overlap"] if pid in ids),
            "no_reference": sum(1 for pid in report["no_reference"] if pid in ids),
        }  # fmt: skip
        if references is not None:
            runs = [r for pid, r in references.results.items() if pid in ids]
            entry["references_run"] = len(runs)
            entry["references_passed"] = sum(1 for r in runs if r and r[0].accepted)
            entry["broken_references"] = sum(1 for pid in report["broken_references"] if pid in ids)
            entry["flaky"] = sum(1 for pid in report["flaky"] if pid in ids)
            entry["reference_verdicts"] = dict(
                Counter(r[0].verdict.value for r in runs if r).most_common()
            )
        out[name] = entry
    return out


def filter_problems(
    problems: Sequence[Problem], report: dict[str, Any], require_reference: bool = False
) -> tuple[list[Problem], dict[str, int]]:
    """The cleaned set, DeepCoder's way, and how many were dropped for each reason.

    Dropped: under ``min_tests`` tests, broken, flaky or unverified reference (and no
    reference when ``require_reference``), overlap with ``--against``, and every member
    of a duplicate group but the first that survives the other rules.
    """
    drop: dict[str, str] = {}
    for pid in report["under_5_tests"]:
        drop.setdefault(pid, "under_min_tests")
    for key, reason in (
        ("broken_references", "broken_reference"),
        ("flaky", "flaky"),
        ("unverified_references", "unverified_reference"),
        ("overlap", "overlap"),
    ):
        for pid in report[key]:
            drop.setdefault(pid, reason)
    if require_reference:
        for pid in report["no_reference"]:
            drop.setdefault(pid, "no_reference")
    for group in report["duplicate_groups"]:
        keep = next((pid for pid in group if pid not in drop), None)
        for pid in group:
            if pid != keep:
                drop.setdefault(pid, "duplicate")
    kept = [p for p in problems if p.id not in drop]
    return kept, dict(Counter(drop.values()))


# --- writing -------------------------------------------------------------------------------


def _safe_name(pid: str) -> str:
    return (
        re.sub(r"[^A-Za-z0-9._-]+", "_", pid)[:100]
        + "-"
        + hashlib.sha1(pid.encode()).hexdigest()[:8]
    )


def write_logs(references: ReferenceRuns, report: dict[str, Any], folder: Path) -> dict[str, str]:
    """One JSON log per broken or flaky reference (every run's full result); id -> path."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for pid in report["broken_references"] + report["flaky"]:
        path = folder / f"{_safe_name(pid)}.json"
        runs = [r.model_dump(mode="json", exclude_none=True) for r in references.results[pid]]
        path.write_text(json.dumps({"problem_id": pid, "runs": runs}, indent=1), encoding="utf-8")
        paths[pid] = str(path)
    return paths


def write_charts(report: dict[str, Any], folder: Path, stem: str) -> list[Path]:
    """PNG charts: tests per problem, and reference verdicts when references ran."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    out = []
    hist = report["tests_per_problem"]["histogram"]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    xs = [int(k) for k in hist]
    ax.bar(
        xs, list(hist.values()), color=["#c44" if x < report["min_tests"] else "#48a" for x in xs]
    )
    ax.axvline(report["min_tests"] - 0.5, color="#888", linestyle="--", linewidth=1)
    ax.set_xlabel("tests per problem")
    ax.set_ylabel("problems")
    ax.set_title(f"Tests per problem ({len(report['under_5_tests'])} under {report['min_tests']})")
    fig.tight_layout()
    path = folder / f"{stem}tests_per_problem.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    out.append(path)
    if report["reference_verdicts"]:
        fig, ax = plt.subplots(figsize=(7, 3.5))
        verdicts = report["reference_verdicts"]
        ax.bar(list(verdicts), list(verdicts.values()), color="#48a")
        ax.set_ylabel("references")
        ax.set_title("Reference verdicts (first run)")
        plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
        fig.tight_layout()
        path = folder / f"{stem}reference_verdicts.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        out.append(path)
    return out


def _id_list(ids: list[str], limit: int = 50) -> str:
    if not ids:
        return "none"
    shown = ", ".join(f"`{i}`" for i in ids[:limit])
    return shown + (f" … and {len(ids) - limit} more" if len(ids) > limit else "")


def render_markdown(report: dict[str, Any], charts: list[Path]) -> str:
    """The Markdown report: summary table, charts, then each list."""
    tp = report["tests_per_problem"]
    rows = [
        ("problems", report["problems"]),
        ("tests (min / median / max)", f"{tp['min']} / {tp['median']} / {tp['max']}"),
        (f"under {report['min_tests']} tests", len(report["under_5_tests"])),
        ("duplicate groups", len(report["duplicate_groups"])),
        (
            "overlap with --against",
            len(report["overlap"]) if report["against_problems"] is not None else "not checked",
        ),
        ("without reference", len(report["no_reference"])),
        (
            "broken references",
            len(report["broken_references"]) if report["references_run"] else "not run",
        ),
        ("flaky", len(report["flaky"]) if report["references_run"] else "not run"),
        ("slow references (passed when rerun alone)", len(report["slow_references"])),
    ]
    if "filtered" in report:
        rows.append(("kept by --filter", report["filtered"]["kept"]))
    lines = ["# Dataset check", "", "| check | result |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in rows]
    lines.append("")
    languages = report.get("languages", {})
    if set(languages) - {"python"}:
        lines += ["## Per language", "",
                  "| language | problems | tests | under min tests | without reference "
                  "| references passed | broken | flaky |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
        for name, e in languages.items():
            ran = "references_run" in e
            lines.append(
                f"| {name} | {e['problems']} | {e['tests']} | {e['under_min_tests']} "
                f"| {e['no_reference']} "
                + (f"| {e['references_passed']}/{e['references_run']} | "
                   f"{e['broken_references']} | {e['flaky']} |" if ran else "| not run | | |")
            )  # fmt: skip
        lines.append("")
    lines += [f"![{c.stem}]({c.name})" for c in charts]
    lines += [
        "",
        f"## Under {report['min_tests']} tests",
        "",
        _id_list(report["under_5_tests"]),
        "",
    ]
    lines += ["## Duplicate groups", ""]
    lines += [f"- {_id_list(g)}" for g in report["duplicate_groups"][:100]] or ["none"]
    lines += ["", "## Overlap with --against", ""]
    lines += [
        f"- `{m['id']}` ~ `{m['against_id']}` ({m['kind']}, statement {m['statement_similarity']}, tests {m['tests_similarity']})"
        for m in report["overlap_pairs"][:100]
    ] or ["none"]
    lines += ["", "## Broken references", ""]
    if not report["references_run"]:
        lines.append("not run")
    for pid in report["broken_references"][:100]:
        d = report["broken_details"][pid]
        log = report.get("logs", {}).get(pid)
        lines.append(
            f"- `{pid}`: {d['verdict']} ({d['passed']}/{d['total']} passed)"
            + (f", log `{log}`" if log else "")
        )
    if report["references_run"] and not report["broken_references"]:
        lines.append("none")
    lines += ["", "## Flaky", ""]
    lines += [
        f"- `{pid}`: tests {d['tests']}" for pid, d in list(report["flaky_details"].items())[:100]
    ] or ["none" if report["references_run"] else "not run"]
    if "filtered" in report:
        lines += [
            "",
            "## Filter",
            "",
            f"kept {report['filtered']['kept']}; dropped {report['filtered']['dropped']}",
        ]
    return "\n".join(lines) + "\n"
