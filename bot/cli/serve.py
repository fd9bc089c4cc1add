"""``lockin serve`` and ``lockin worker``: the GitHub App's server and its Redis worker,
loaded on demand so that a plain install (no ``app`` extra) has the rest of the CLI."""

from __future__ import annotations

import argparse

from bot import DISTRIBUTION
from bot.cli.common import UsageError
from bot.cli.help import add_command


def add_server_parsers(commands: argparse._SubParsersAction) -> None:
    # late: only `serve --help` lists the settings
    from bot.runtime.settings import documented

    width = max(len(name) for name, _ in documented())
    settings = "\n".join(f"  {name:<{width}}  {default}" for name, default in documented())
    add_command(
        commands,
        "serve",
        help="run the GitHub App's webhook server (the `app` extra)",
        description="Run the GitHub App's webhook server. Settings come from the environment, "
        "then from a .env file in the working directory; without APP_ID, PRIVATE_KEY and "
        "WEBHOOK_SECRET it serves the page that registers the App.",
        examples=["BASE_URL=https://lockin.example.com lockin serve"],
        exits={
            1: "it cannot listen on HOST:PORT",
            2: "a setting below is invalid, or the App's credentials are incomplete",
        },
        extra_epilog=f"settings (environment variables):\n{settings}",
    )
    add_command(
        commands,
        "worker",
        help="run a background worker on the Redis queue (the `redis` extra)",
        examples=["REDIS_URL=redis://localhost:6379 lockin worker"],
        exits={2: "a setting is invalid, or REDIS_URL or the App's credentials are missing"},
        extra_epilog="settings: those of `lockin serve --help`; REDIS_URL is required",
    )


def serve(command: str) -> int:
    # Imported here: a plain install (no `app` extra) has the CLI but not the server stack.
    try:
        if command == "serve":
            # late: the server stack is the `app` extra
            from bot.server.main import serve as run
        else:
            # late: the worker needs the `redis` extra
            from bot.worker import main as run
    except ModuleNotFoundError as exc:
        extra = "redis" if command == "worker" else "app"
        raise UsageError(
            f"lockin {command} needs the App's dependencies ({exc.name} is missing): "
            f"pip install '{DISTRIBUTION}[{extra}]'"
        ) from None
    return run() or 0
