"""What `lockin serve` runs: every feature's router combined, and the routes of the app."""

from __future__ import annotations

import pytest
from gidgethub import sansio

from bot.features import ROUTER
from bot.runtime.settings import Settings
from bot.server.app import create_app
from tests.fakegithub import FakeGitHub
from tests.support.server import settings_for


@pytest.mark.parametrize(
    ("event", "action"),
    [
        ("pull_request", "opened"),
        ("pull_request", "synchronize"),
        ("issue_comment", "created"),
        ("check_suite", "requested"),
        ("check_run", "rerequested"),
        ("push", None),
        ("installation", "deleted"),
        ("installation", "suspend"),
        ("installation_repositories", "removed"),
    ],
)
def test_the_combined_router_handles_each_subscribed_event(event: str, action: str | None) -> None:
    data = {"action": action} if action else {}
    assert ROUTER.fetch(sansio.Event(data, event=event, delivery_id="d"))


def test_events_nobody_handles_are_not_routed() -> None:
    for event, action in [("pull_request", "labeled"), ("star", "created")]:
        assert not ROUTER.fetch(sansio.Event({"action": action}, event=event, delivery_id="d"))


def routes(settings: Settings) -> set[str]:
    return {resource.canonical for resource in create_app(settings).router.resources()}


async def test_configured_app_routes(fake_github: FakeGitHub) -> None:
    assert routes(settings_for(fake_github)) == {
        "/",  # the front door: the organisation pages, through sign-in
        "/healthz",
        "/readyz",
        "/metrics",
        "/api/github/webhooks",
        "/badge/{owner}/{repo}.svg",
        "/api/repos/{owner}/{repo}/history",
        "/signin",
        "/signin/callback",
        "/signin/done",
        "/signout",
        "/orgs",
        "/orgs/{org}",
        "/orgs/{org}.csv",
        "/orgs/{org}.json",
        "/orgs/{org}/{repo}",
        "/static/orgs",
    }


def test_unconfigured_app_serves_the_setup_page_instead() -> None:
    unconfigured = routes(Settings.from_env({}, env_file=None))
    assert {"/", "/setup", "/healthz", "/readyz", "/api/github/webhooks"} <= unconfigured
    assert "/badge/{owner}/{repo}.svg" not in unconfigured
