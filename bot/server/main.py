"""`lockin serve`: load settings, print the start-up banner, run the server."""

from __future__ import annotations

import contextlib
import os
import resource
import secrets
import sys
from collections.abc import Mapping
from dataclasses import replace

from aiohttp import web

from bot.runtime.logs import configure_logging
from bot.runtime.settings import Settings, SettingsError
from bot.server.app import create_app

# Seconds to let open HTTP connections finish at shutdown; the job queue drains after.
_CONNECTION_GRACE = 5.0
# The soft limit on open files when the hard one is unlimited (Linux's default nr_open).
_DESCRIPTORS_WITHOUT_HARD_LIMIT = 1_048_576


def serve(environ: Mapping[str, str] | None = None) -> int:
    try:
        settings = Settings.from_env(os.environ if environ is None else environ)
    except SettingsError as exc:
        print(f"lockin: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings.log_format)
    settings = with_setup_token(settings)
    print(banner(settings), file=sys.stderr, flush=True)
    _use_every_file_descriptor()
    try:
        web.run_app(
            create_app(settings),
            host=settings.host,
            port=settings.port,
            access_log=None,
            print=None,
            shutdown_timeout=_CONNECTION_GRACE,
        )
    except OSError as exc:
        print(
            f"lockin: cannot listen on {settings.host}:{settings.port}: {exc.strerror}",
            file=sys.stderr,
        )
        return 1
    return 0


def _use_every_file_descriptor() -> None:
    """Raise the soft limit on open files to the hard one: every connection, stalled or not,
    costs a descriptor, and a sender opening many must not exhaust a default of 1,024 that
    the system would let us exceed."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = _DESCRIPTORS_WITHOUT_HARD_LIMIT if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def with_setup_token(settings: Settings) -> Settings:
    """An unconfigured server's setup page asks for SETUP_TOKEN (bot.server.manifest): one
    made up now when none is set, which the banner prints in the setup link."""
    if settings.configured or settings.setup_token:
        return settings
    sources = {**settings.sources, "setup_token": "generated"}
    return replace(settings, setup_token=secrets.token_urlsafe(24), sources=sources)


def banner(settings: Settings) -> str:
    """Who we are, where GitHub should send webhooks, and where each setting came from."""
    local = f"http://{settings.host}:{settings.port}"
    public = settings.base_url or local
    lines = [f"lockin GitHub App server, App id {settings.app_id or '(none)'}"]
    lines.append(f"  webhook URL   {public}{settings.webhook_path}")
    if settings.base_url is None:
        lines.append("                (set BASE_URL to the public URL GitHub can reach)")
    if not settings.configured:
        # The generated token is shown here, to whoever started the server, and nowhere else.
        token = (
            settings.setup_token
            if settings.sources.get("setup_token") == "generated"
            else "<SETUP_TOKEN>"
        )
        # Listening on every address: the browser on this machine reaches it as localhost.
        host = "localhost" if settings.host in ("0.0.0.0", "::", "") else settings.host
        lines.append(
            f"  not configured: open http://{host}:{settings.port}/setup?token={token} "
            "to register the App, "
            "or set APP_ID, PRIVATE_KEY and WEBHOOK_SECRET"
        )
    lines.append("  settings (value [source: env, file = .env, default]):")
    width = max(len(name) for name in settings.public_view())
    lines += [f"    {name:<{width}}  {shown}" for name, shown in settings.public_view().items()]
    return "\n".join(lines)
