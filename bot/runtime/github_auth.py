"""The GitHub App's credentials and client options, as the settings give them (the web app
and `lockin worker` alike)."""

from __future__ import annotations

from typing import Any

import aiohttp

from bot.github.auth import AppAuth
from bot.github.retry import RetryPolicy
from bot.runtime.logs import REDACTOR
from bot.runtime.metrics import Metrics
from bot.runtime.settings import Settings


def auth_options(settings: Settings, metrics: Metrics) -> dict[str, Any]:
    """AppAuth's keyword arguments from the settings (the server and `lockin worker`)."""
    return {
        "policy": RetryPolicy(
            attempts=settings.retry_attempts,
            backoff=settings.retry_backoff,
            secondary_wait=settings.secondary_rate_limit_wait,
            max_rate_limit_wait=settings.max_rate_limit_wait,
        ),
        "observer": metrics,
        "write_interval": settings.write_interval,
        "request_timeout": settings.request_timeout,
        "on_secret": REDACTOR.add,
    }


def github_auth(settings: Settings, session: aiohttp.ClientSession, metrics: Metrics) -> AppAuth:
    assert settings.app_id
    assert settings.private_key
    return AppAuth(
        settings.app_id,
        settings.private_key,
        settings.github_api_url,
        session,
        **auth_options(settings, metrics),
    )
