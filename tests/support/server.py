"""Settings for running the real server against the fake GitHub in tests."""

from __future__ import annotations

from typing import Any

from bot.runtime.settings import Settings
from tests.fakegithub import FakeGitHub

SECRET = "It's a Secret to Everybody"
# Quick retries, and no spacing between writes unless a test asks for it. Jobs are not
# retried unless a test asks (`job_retry_delays`), so each test sees only its deliveries.
# The trend store is in memory unless a test names a file (nothing written to the working
# directory), and there is no back-fill (background downloads) unless a test asks.
FAST = {
    "retry_backoff": 0.01,
    "write_interval": 0.0,
    "secondary_rate_limit_wait": 0.2,
    "db_path": ":memory:",
    "history_backfill_points": 0,
    "job_retry_delays": (),
    # Request-counting tests would see the start-up sweep's reads (tested on its own).
    "recover_stale_runs": False,
    # One engine worker per app: tests classify a few files, and each app starts its own.
    "analysis_processes": 1,
}


def settings_for(fake: FakeGitHub, **overrides: Any) -> Settings:
    """The App's settings for this fake GitHub, with the test defaults above."""
    values: dict[str, Any] = {
        "app_id": str(fake.app_id),
        "private_key": fake.private_key_pem,
        "webhook_secret": SECRET,
        "github_api_url": fake.url,
        **FAST,
        **overrides,
    }
    return Settings(**values)
