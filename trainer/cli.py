"""``codereward train CONFIG [--dry-run] [--set key.sub=value ...]``.

``register(subparsers)`` adds the ``train`` command to the gateway's CLI. Parsing and
validating the config import no torch; torch and transformers are imported inside the
command only after validation, and never with ``--dry-run``. ``python -m trainer`` runs the
same command standalone.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add ``train`` to an ``argparse`` sub-parsers object."""
    p = subparsers.add_parser(
        "train",
        help="post-train a policy with OAPL (or GRPO) against the verifier",
        description="Run the OAPL trainer described by a TOML config.",
    )
    p.add_argument("config", help="TOML config (sections: run, model, data, rollout, ...)")
    p.add_argument("--dry-run", action="store_true", help="validate and print the resolved config")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override a config key, e.g. --set algo.lr=1e-5 (repeatable; TOML values)",
    )
    p.set_defaults(func=run_train)


def run_train(args: argparse.Namespace) -> int:
    """The ``train`` command: validate, then (unless --dry-run) train."""
    from pydantic import ValidationError

    from trainer.config import load_config

    try:
        cfg = load_config(args.config, args.overrides)
    except (OSError, ValueError, ValidationError) as exc:
        print(f"codereward train: invalid config: {exc}", file=sys.stderr)
        return 2
    if args.dry_run:
        print(cfg.resolved_toml(), end="")
        return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    from trainer.train import train  # torch is imported from here on

    result = train(cfg)
    print(json.dumps({"step": result["step"], "evals": result["evals"]}))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Standalone entry: ``python -m trainer train CONFIG``."""
    parser = argparse.ArgumentParser(prog="python -m trainer")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))
