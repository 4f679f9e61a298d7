"""The ``codereward`` command line: ``verify`` here, the other commands in their packages.

``serve`` and ``worker`` (``reward_api.service.cli``), ``data convert|check`` and ``eval``
(``reward_api.data.cli``), ``rewards compare`` (``reward_api.data.compare_rewards``) and
``train`` (``trainer.cli``) and ``experiment`` (``trainer.experiment.cli``) each add their subcommands with ``register(subparsers)``.
Every command parses its arguments before importing anything heavy. Bad input exits with
status 2 and a message naming the file, line and field; a run that completed exits 0;
a sandbox that cannot start exits 3.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import trainer.cli
import trainer.experiment.cli
from reward_api.data import cli as data_cli
from reward_api.data import compare_rewards
from reward_api.errors import InputError, SandboxUnavailable
from reward_api.jsonl import load_problems, load_samples
from reward_api.schemas import Result, RewardSettings, allow_big_ints
from reward_api.service import cli as service_cli

COMMAND_MODULES = (service_cli, data_cli, compare_rewards, trainer.cli, trainer.experiment.cli)


def load_reward(spec: str | None) -> RewardSettings | None:
    if spec is None:
        return None
    from reward_api.verify import scoring

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

    from reward_api.verify.pipeline import Job, Verifier, VerifierSettings

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
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    allow_big_ints()
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
