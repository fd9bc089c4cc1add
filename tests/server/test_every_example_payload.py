"""Every real GitHub payload in tests/contract/webhook-examples, signed and sent over HTTP to
the real server with every feature's router (bot.features.ROUTER) against the fake GitHub.

Whatever GitHub may send must be answered with the documented status and handled without a
crash: repositories and installations the fake does not know answer 404 or 401, which a
handler must take as a warning, never leaving a worker crashed or a check run in progress.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.server.app import create_app
from bot.server.keys import SERVICES
from tests.fakegithub import FakeGitHub
from tests.support.server import SECRET, settings_for
from tests.support.webhooks import EXAMPLES, webhook_headers

# "pull_request.opened.2" -> the payload as GitHub sent it.
PAYLOADS = {path.stem: path.read_bytes() for path in sorted(EXAMPLES.glob("*.json"))}


def test_the_examples_are_there() -> None:
    assert len(PAYLOADS) >= 50
    events = {name.split(".", 1)[0] for name in PAYLOADS}
    assert events >= {"pull_request", "issue_comment", "check_suite", "installation", "ping"}


@pytest.mark.parametrize("name", PAYLOADS)
async def test_example_payload_is_answered_and_handled(
    name: str, fake_github: FakeGitHub, aiohttp_client: Any, caplog: pytest.LogCaptureFixture
) -> None:
    fake_github.add_repo("octo-org/kernels", files={"README.md": "# kernels\n"})
    client = await aiohttp_client(create_app(settings_for(fake_github, retry_attempts=2)))
    body = PAYLOADS[name]
    event = name.split(".", 1)[0]
    caplog.set_level(logging.DEBUG, logger="lockin")

    response = await client.post(
        "/api/github/webhooks", data=body, headers=webhook_headers(event, body, SECRET)
    )
    await client.server.app[SERVICES].queue.join()

    assert response.status == (200 if event == "ping" else 202), await response.text()
    failures = [
        f"{r.name} {r.levelname}: {r.getMessage()}"
        for r in caplog.records
        if r.levelno >= logging.ERROR or r.exc_info is not None
    ]
    assert failures == []
    stuck = [
        run.id
        for repo in fake_github.repos.values()
        for run in repo.check_runs.values()
        if run.status != "completed"
    ]
    assert stuck == []
    assert fake_github.contract_errors == []
