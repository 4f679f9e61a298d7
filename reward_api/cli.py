"""The ``codereward`` command line: ``verify`` here; other commands register themselves.

Every command parses its arguments before importing anything heavy. Bad input exits with
status 2 and a message naming the file, line and field; a run that completed exits 0.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from reward_api.errors import InputError, SandboxUnavailable
from reward_api.schemas import Problem, Result, RewardSettings, Sample

# modules that add their own subcommands with register(subparsers)
COMMAND_MODULES = (
    "reward_api.service_cli",
    "reward_api.data_cli",
    "reward_api.compare_rewards",
    "trainer.cli",
)


def _field_error(where: str, exc: ValidationError) -> InputError:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err.get("loc", ())) or "(object)"
    return InputError(f"{where}: field '{loc}': {err.get('msg')}")


M = TypeVar("M", Problem, Sample)


def _read_models(path: str | Path, model: type[M]) -> Iterator[tuple[int, M]]:
    """(line, validated model) per JSONL line; InputError names the file, line and field."""
    from reward_api.pipeline import load_jsonl

    try:
        for n, obj in load_jsonl(path):
            try:
                yield n, model.model_validate(obj)
            except ValidationError as exc:
                raise _field_error(f"{path}:{n}", exc) from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    except ValueError as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(str(exc)) from None


def load_problems(path: str | Path) -> dict[str, Problem]:
    """Problems by id from a JSONL file; InputError names the line and the field."""
    problems: dict[str, Problem] = {}
    for n, problem in _read_models(path, Problem):
        if problem.id in problems:
            raise InputError(f"{path}:{n}: field 'id': duplicate problem id {problem.id!r}")
        problems[problem.id] = problem
    if not problems:
        raise InputError(f"{path}: no problems")
    return problems


def load_samples(path: str | Path, problems: dict[str, Problem]) -> list[Sample]:
    """Samples in file order; each must name a known problem."""
    samples = []
    for n, sample in _read_models(path, Sample):
        if sample.problem_id not in problems:
            raise InputError(
                f"{path}:{n}: field 'problem_id': unknown problem {sample.problem_id!r}"
            )
        samples.append(sample)
    return samples


def load_reward(spec: str | None) -> RewardSettings | None:
    if spec is None:
        return None
    from reward_api import scoring

    try:
        return scoring.load_reward_settings(spec)
    except (OSError, ValueError) as exc:
        raise InputError(f"--reward {spec}: {exc}") from None


def summary_line(results: list[Result], seconds: float, tests_run: int) -> str:
    n = len(results)
    accepted = sum(r.accepted for r in results)
    rewards = [r.reward for r in results if r.reward is not None]
    mean = sum(rewards) / len(rewards) if rewards else 0.0
    verdicts = Counter(r.verdict.value for r in results)
    counts = ", ".join(f"{k} {v}" for k, v in verdicts.most_common())
    rate = tests_run / seconds if seconds > 0 else 0.0
    return (
        f"verified {n} samples: accepted {accepted}/{n} ({accepted / max(n, 1):.1%}), "
        f"mean reward {mean:.4f}, verdicts: {counts}; {tests_run} tests in {seconds:.2f}s "
        f"({rate:.0f} tests/s)"
    )


def cmd_verify(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from reward_api.pipeline import Job, Verifier, VerifierSettings

    problems = load_problems(args.problems)
    samples = load_samples(args.samples, problems)
    reward = load_reward(args.reward)
    overrides: dict[str, Any] = {"sandbox": args.sandbox}
    if args.workers:
        overrides["workers"] = args.workers
    settings = VerifierSettings(**overrides)
    jobs = [Job(problems[s.problem_id], s) for s in samples]
    t0 = time.perf_counter()
    bar = tqdm(total=len(jobs), desc="verify", unit="sample", file=sys.stderr, disable=args.quiet)
    with Verifier(settings) as verifier:
        results = verifier.verify(jobs, reward, on_result=lambda i, r: bar.update(1))
        tests_run = verifier.tests_run
    bar.close()
    seconds = time.perf_counter() - t0
    lines = "".join(r.model_dump_json(exclude_none=True) + "\n" for r in results)
    if args.output:
        Path(args.output).write_text(lines, encoding="utf-8")
    else:
        sys.stdout.write(lines)
    print(summary_line(results, seconds, tests_run), file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="codereward",
        description="Sandboxed code-verification rewards and an OAPL trainer for code models.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    v = sub.add_parser("verify", help="verify samples against problems in the sandbox")
    v.add_argument("problems", help="problems JSONL (CONTRACT.md)")
    v.add_argument("samples", help="samples JSONL (CONTRACT.md)")
    v.add_argument("-o", "--output", help="results JSONL (default: stdout)")
    v.add_argument("--sandbox", choices=("process", "docker"), default="process")
    v.add_argument("--workers", type=int, default=0, help="parallel cells (default: all cores)")
    v.add_argument("--reward", help="reward preset name or a JSON/TOML settings file")
    v.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    v.set_defaults(func=cmd_verify)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = args.func(args)
    except InputError as exc:
        print(f"codereward: error: {exc}", file=sys.stderr)
        return 2
    except SandboxUnavailable as exc:
        print(f"codereward: sandbox unavailable: {exc}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("codereward: interrupted", file=sys.stderr)
        return 130
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())


def dump_results(results: list[Result]) -> str:
    """Results as JSONL text (used by tests and the bench)."""
    return "".join(json.dumps(r.model_dump(mode="json", exclude_none=True)) + "\n" for r in results)
