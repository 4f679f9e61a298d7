"""``codereward experiment CONFIG [--jobs N] [--set key.sub=value ...]``.

``register(subparsers)`` adds the ``experiment`` command to the gateway's CLI. The config is
parsed and validated before anything heavy is imported (``--dry-run`` stops there and
prints the arms and the budget); torch arrives with the protocol. ``python -m
trainer.experiment`` runs the same command standalone.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shlex
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add ``experiment`` to an ``argparse`` sub-parsers object."""
    p = subparsers.add_parser(
        "experiment",
        help="train several arms from one warm start at equal generations and report them",
        description="Run the experiment protocol described by a TOML config "
        "(trainer/experiment/full.toml, short.toml).",
    )
    p.add_argument("config", help="experiment TOML (sections: task, budget, sweep, arms, ...)")
    p.add_argument("--jobs", type=int, default=None, help="runs in parallel processes")
    p.add_argument("--dry-run", action="store_true", help="validate; print arms and budget")
    p.add_argument(
        "--report-only",
        action="store_true",
        help="rewrite the report from its raw JSON in report_dir (no run is repeated)",
    )
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a config key, e.g. --set budget.steps=40 (repeatable; TOML values)",
    )
    p.set_defaults(func=run_experiment)


def run_experiment(args: argparse.Namespace) -> int:
    """The ``experiment`` command: validate, then (unless --dry-run) run the protocol."""
    from pydantic import ValidationError

    from trainer.experiment.config import load_experiment

    argv = ["codereward", "experiment", args.config]
    argv += [f"--set={o}" for o in args.overrides]
    if args.jobs is not None:
        args.overrides.append(f"jobs={args.jobs}")
        argv.append(f"--jobs={args.jobs}")
    try:
        cfg = load_experiment(args.config, args.overrides)
    except (OSError, ValueError, ValidationError) as exc:
        print(f"codereward experiment: invalid config: {exc}", file=sys.stderr)
        return 2
    from trainer.experiment.protocol import arms

    if args.dry_run:
        plan = {
            "arms": [a.name for a in arms(cfg)],
            "seeds": cfg.seeds,
            "generations_per_arm": cfg.budget.generations,
        }
        print(json.dumps(plan))
        return 0
    if args.report_only:
        from trainer.experiment.protocol import rewrite_report

        written = rewrite_report(cfg)
        print(json.dumps({k: str(v) for k, v in written.items()}))
        return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # before torch loads: the protocol's imports
    from trainer.experiment.protocol import run_protocol

    raw = run_protocol(cfg, shlex.join(argv))
    print(json.dumps({"report": f"{cfg.report_dir}/{cfg.name}.md", "wall_s": raw["timings_s"]}))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Standalone entry: ``python -m trainer.experiment CONFIG``."""
    parser = argparse.ArgumentParser(prog="python -m trainer.experiment")
    sub = parser.add_subparsers(dest="command", required=True)
    register(sub)
    args = parser.parse_args(["experiment", *(argv if argv is not None else sys.argv[1:])])
    return int(args.func(args))
