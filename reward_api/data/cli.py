"""Command-line adapters for datasets: ``data convert``, ``data check`` and ``eval``.

``register(subparsers)`` adds the commands to ``codereward``; each parses its arguments,
calls ``reward_api.data.converters``, ``reward_api.data.check`` or ``reward_api.data.passk``,
and writes files. Reports go to ``-o``: a path ending in ``.json`` names the JSON report
(the Markdown report and the PNG charts go beside it, with its stem); any other path is a
folder that receives ``report.json``, ``report.md``, the charts and the logs.
Bad input raises ``InputError`` (exit status 2 from ``codereward``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from reward_api.errors import InputError
from reward_api.schemas import Problem


def report_paths(out: str, default_stem: str = "report") -> tuple[Path, Path, Path, str]:
    """(json path, markdown path, folder for charts and logs, chart file prefix) for ``-o``."""
    path = Path(out)
    if path.suffix.lower() == ".json":
        stem = path.stem
        return path, path.with_suffix(".md"), path.parent, f"{stem}-"
    return path / f"{default_stem}.json", path / f"{default_stem}.md", path, ""


def row_json(row: Any) -> str:
    """One JSONL line; unset optional fields left out, but a call test's ``output: null`` kept."""
    if not isinstance(row, Problem):
        return str(row.model_dump_json(exclude_none=True))
    data = {k: v for k, v in row.model_dump(mode="json").items() if v is not None}
    for test in data["tests"]:
        if test.get("class_name", 0) is None:
            del test["class_name"]
    return json.dumps(data, ensure_ascii=False)


def _write_jsonl(path: str | Path, rows: list[Any]) -> None:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    with p.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(row_json(row) + "\n")


def _verifier(args: argparse.Namespace) -> Any:
    from reward_api.verify.pipeline import Verifier, VerifierSettings

    overrides: dict[str, Any] = {"sandbox": args.sandbox}
    if args.workers:
        overrides["workers"] = args.workers
    return Verifier(VerifierSettings(**overrides))


def cmd_convert(args: argparse.Namespace) -> int:
    """``data convert FORMAT INPUT -o PROBLEMS.jsonl [--samples SAMPLES.jsonl]``."""
    from reward_api.data.converters import SourceError, convert

    try:
        problems, samples, report = convert(args.format, args.input)
    except (SourceError, OSError) as e:
        raise InputError(str(e)) from None
    _write_jsonl(args.output, problems)
    if args.samples:
        _write_jsonl(args.samples, samples)
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=1), encoding="utf-8")
    counts = ", ".join(f"{k} {v}" for k, v in report["counts"].items())
    print(
        f"converted {report['records']} {args.format} records: {report['problems']} problems, "
        f"{report['tests']} tests, {report['samples']} samples, {len(report['skipped'])} skipped"
        + (f" ({counts})" if counts else ""),
        file=sys.stderr,
    )
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """``data check PROBLEMS [--against OTHER] [-o REPORT] [--filter OUT]``."""
    from tqdm import tqdm

    from reward_api.data import check as data_check
    from reward_api.jsonl import load_problems

    problems = list(load_problems(args.problems).values())
    against = list(load_problems(args.against).values()) if args.against else None
    settings = data_check.CheckSettings(min_tests=args.min_tests, runs=args.runs)
    references = None
    if not args.no_run:
        with_ref = sum(1 for p in problems if p.reference)
        bar = tqdm(
            total=with_ref * settings.runs,
            desc="references",
            unit="run",
            file=sys.stderr,
            disable=args.quiet,
        )
        with _verifier(args) as verifier:
            references = data_check.run_references(
                problems, verifier, settings.runs, on_result=lambda i, r: bar.update(1)
            )
        bar.close()
    steps = len(problems) * (2 if against is not None else 1)
    bar = tqdm(total=steps, desc="duplicates", unit="problem", file=sys.stderr, disable=args.quiet)
    report = data_check.check_problems(problems, against, settings, references, bar.update)
    bar.close()
    json_path, md_path, folder, prefix = report_paths(args.output or "data-check")
    if references is not None:
        report["logs"] = data_check.write_logs(references, report, folder / f"{prefix}logs")
    if args.filter:
        kept, dropped = data_check.filter_problems(problems, report, args.require_reference)
        _write_jsonl(args.filter, kept)
        report["filtered"] = {"path": args.filter, "kept": len(kept), "dropped": dropped}
    charts = data_check.write_charts(report, folder, prefix)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(report, indent=1), encoding="utf-8")
    md_path.write_text(data_check.render_markdown(report, charts), encoding="utf-8")
    languages = ", ".join(f"{k} {v['problems']}" for k, v in report["languages"].items())
    print(
        f"checked {report['problems']} problems ({languages}): {len(report['under_5_tests'])} under "
        f"{settings.min_tests} tests, {len(report['duplicate_groups'])} duplicate groups, "
        f"{len(report['overlap'])} overlapping, {len(report['broken_references'])} broken "
        f"references, {len(report['flaky'])} flaky; report {json_path}",
        file=sys.stderr,
    )
    return 0


def _parse_ks(text: str) -> list[int]:
    try:
        ks = sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise InputError(f"--k {text!r}: expected comma-separated integers") from None
    if not ks or ks[0] < 1:
        raise InputError(f"--k {text!r}: every k must be at least 1")
    return ks


def cmd_eval(args: argparse.Namespace) -> int:
    """``eval PROBLEMS SAMPLES [--k 1,5,10] [-o REPORT]``."""
    from tqdm import tqdm

    from reward_api.data import passk as evaluation
    from reward_api.jsonl import load_problems, load_samples

    ks = _parse_ks(args.k)
    problems = load_problems(args.problems)
    samples = load_samples(args.samples, problems)
    bar = tqdm(total=len(samples), desc="eval", unit="sample", file=sys.stderr, disable=args.quiet)
    with _verifier(args) as verifier:
        report, results = evaluation.evaluate(
            list(problems.values()), samples, ks, verifier, on_result=lambda i, r: bar.update(1)
        )
    bar.close()
    table = evaluation.render_table(report)
    print(table)
    if args.output:
        json_path, md_path, folder, prefix = report_paths(args.output, "eval")
        png = evaluation.write_curve(report, folder / f"{prefix}pass_at_k.png")
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(report, indent=1), encoding="utf-8")
        md_path.write_text(f"# pass@k\n\n{table}\n![pass@k]({png.name})\n", encoding="utf-8")
    if args.results:
        _write_jsonl(args.results, results)
    return 0


def _sandbox_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--sandbox", choices=("process", "docker"), default="process")
    p.add_argument("--workers", type=int, default=0, help="parallel cells (default: all cores)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def register(subparsers: Any) -> None:
    """Add ``data convert``, ``data check`` and ``eval`` to the ``codereward`` parser."""
    from reward_api.data.converters import FORMATS

    data = subparsers.add_parser("data", help="convert and check datasets")
    sub = data.add_subparsers(dest="data_command", required=True)

    c = sub.add_parser("convert", help="convert a public dataset file to problems JSONL")
    c.add_argument("format", choices=sorted(FORMATS), help="source format")
    c.add_argument(
        "input", help="JSON, JSONL or Parquet file or folder, or owner/name[:config][@split]"
    )
    c.add_argument("-o", "--output", required=True, help="problems JSONL to write")
    c.add_argument("--samples", help="also write the source's solutions as samples JSONL")
    c.add_argument("--report", help="write the conversion report (JSON) here")
    c.set_defaults(func=cmd_convert)

    k = sub.add_parser("check", help="quality report: tests, duplicates, overlap, references")
    k.add_argument("problems", help="problems JSONL")
    k.add_argument(
        "--against", help="another problem set (e.g. the evaluation set) to check overlap with"
    )
    k.add_argument("-o", "--output", help="report folder, or REPORT.json (default: data-check/)")
    k.add_argument("--filter", metavar="OUT", help="write the cleaned problems JSONL here")
    k.add_argument("--min-tests", type=int, default=5, help="fewer tests than this is flagged")
    k.add_argument("--runs", type=int, default=2, help="runs per reference (flaky detection)")
    k.add_argument("--no-run", action="store_true", help="skip running references in the sandbox")
    k.add_argument(
        "--require-reference",
        action="store_true",
        help="--filter drops problems without a reference",
    )
    _sandbox_args(k)
    k.set_defaults(func=cmd_check)

    e = subparsers.add_parser("eval", help="pass@k of samples against problems")
    e.add_argument("problems", help="problems JSONL")
    e.add_argument("samples", help="samples JSONL (several per problem)")
    e.add_argument("--k", default="1,5,10", help="comma-separated k values (default 1,5,10)")
    e.add_argument("-o", "--output", help="report folder, or REPORT.json")
    e.add_argument("--results", help="also write the per-sample results JSONL here")
    _sandbox_args(e)
    e.set_defaults(func=cmd_eval)
