"""``codereward serve`` and ``codereward worker``: the service's command-line entry points.

Both parse their arguments and the ``CODEREWARD_*`` settings first and import FastAPI,
uvicorn or Celery only after, so ``codereward --help`` stays fast. ``serve`` refuses a
non-loopback bind without API keys. Run this module directly (``python -m
reward_api.service.cli serve``) to use these commands without the main CLI.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any


def register(subparsers: Any) -> None:
    """Add ``serve`` and ``worker`` to the ``codereward`` command line."""
    s = subparsers.add_parser("serve", help="the HTTP reward service (embedded or broker mode)")
    s.add_argument("--host", help="bind address (default 127.0.0.1, or CODEREWARD_HOST)")
    s.add_argument("--port", type=int, help="bind port (default 8000, or CODEREWARD_PORT)")
    s.set_defaults(func=cmd_serve)
    w = subparsers.add_parser("worker", help="a Celery worker for broker mode")
    w.add_argument("--queues", help="comma-separated queues (default: python)")
    w.add_argument("--concurrency", type=int, help="task threads (default 2)")
    w.add_argument(
        "--foreground",
        action="store_true",
        help="run Celery in this process, without the restarting supervisor",
    )
    w.set_defaults(func=cmd_worker)


def _settings(overrides: dict[str, Any]) -> Any:
    from pydantic import ValidationError

    from reward_api.errors import InputError
    from reward_api.service.settings import ServiceSettings

    try:
        return ServiceSettings(**{k: v for k, v in overrides.items() if v is not None})
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err.get("loc", ())) or "settings"
        raise InputError(f"settings: {loc}: {err.get('msg')}") from None


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the gateway under uvicorn until interrupted."""
    from reward_api.errors import InputError

    settings = _settings({"host": args.host, "port": args.port})
    try:
        settings.check_bind()
    except ValueError as exc:
        raise InputError(str(exc)) from None
    import uvicorn

    from reward_api.service.app import create_app

    mode = "embedded" if settings.embedded else "broker"
    print(
        f"codereward: serving on http://{settings.host}:{settings.port} ({mode} mode, "
        f"{'API keys required' if settings.key_list() else 'no API keys'})",
        file=sys.stderr,
    )
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=5,
    )
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    """Run a Celery worker consuming the language queues, restarted if it dies."""
    from reward_api.errors import InputError

    settings = _settings({"queues": args.queues, "worker_concurrency": args.concurrency})
    if settings.embedded:
        raise InputError("worker needs CODEREWARD_BROKER_URL (a Redis URL)")
    if not args.foreground:
        argv = [sys.executable, "-m", "reward_api.service.cli", "worker", "--foreground"]
        argv += ["--queues", settings.queues, "--concurrency", str(settings.worker_concurrency)]
        return supervise(argv)
    from reward_api.service.tasks import run_worker

    run_worker(settings, settings.queues, settings.worker_concurrency)
    return 0


def supervise(argv: list[str]) -> int:
    """Run ``argv`` and start it again whenever it exits on its own.

    Why: a Celery worker that loses Redis while holding an unacknowledged task can stop
    with "Unrecoverable error" inside kombu's channel close; its task is safe in Redis's
    unacked set, so starting a fresh worker is the whole repair. SIGTERM and SIGINT are
    passed to the worker and end the loop.
    """
    import signal
    import subprocess
    import time

    stopping = False
    child: subprocess.Popen[bytes] | None = None

    def forward(signum: int, _: object) -> None:
        nonlocal stopping
        stopping = True
        if child is not None and child.poll() is None:
            child.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    delay_s = 1.0
    while True:
        started = time.monotonic()
        child = subprocess.Popen(argv)
        rc = child.wait()
        if stopping:
            return 0
        if rc == 2:
            return rc  # bad settings: restarting cannot help
        if time.monotonic() - started > 60:
            delay_s = 1.0
        print(f"codereward: worker exited ({rc}); restarting in {delay_s:.0f}s", file=sys.stderr)
        time.sleep(delay_s)
        delay_s = min(delay_s * 2, 30.0)


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry: ``python -m reward_api.service.cli serve|worker``."""
    from reward_api.errors import InputError

    parser = argparse.ArgumentParser(prog="codereward-service")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        print(f"codereward: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
