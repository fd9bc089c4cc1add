"""The PR check end to end: signed webhooks over HTTP to the real server app, which talks to
the fake GitHub on loopback. `bot` is the whole arrangement; tests drive it with deliveries and
assert on what the fake recorded."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from bot.server.app import create_app
from bot.server.keys import SERVICES
from tests.fakegithub import CheckRun, Comment, FakeGitHub, PullRequest, Repo
from tests.support.server import SECRET, settings_for
from tests.support.webhooks import pull_request_event, webhook_headers

MARKER = "<!-- lockin:sticky-comment -->"
#: Attempts the bot's client makes per request before it gives up.
RETRY_ATTEMPTS = 3


@dataclass
class Bot:
    fake: FakeGitHub
    client: TestClient

    async def deliver(
        self, event: str, payload: dict[str, Any], delivery: str | None = None
    ) -> int:
        body = json.dumps(payload).encode()
        headers = webhook_headers(
            event, body, SECRET, delivery or str(uuid.uuid4()), app_id=self.fake.app_id
        )
        response = await self.client.post("/api/github/webhooks", data=body, headers=headers)
        return response.status

    async def settle(self) -> None:
        """Wait until every accepted delivery has been worked off."""
        queue = self.client.server.app[SERVICES].queue
        await queue.join()

    async def pr_event(self, repo: Repo, pr: PullRequest, action: str, **kwargs: Any) -> None:
        status = await self.deliver(
            "pull_request", pull_request_event(self.fake, repo, pr, action, **kwargs)
        )
        assert status == 202
        await self.settle()

    def runs(self, repo: Repo, head_sha: str | None = None) -> list[CheckRun]:
        return sorted(
            (r for r in repo.check_runs.values() if head_sha in (None, r.head_sha)),
            key=lambda r: r.id,
        )

    def sticky(self, repo: Repo, number: int) -> list[Comment]:
        return [
            c
            for c in sorted(repo.comments.values(), key=lambda c: c.id)
            if c.issue_number == number and MARKER in c.body and c.user == self.fake.bot_login
        ]


@pytest.fixture
async def bot(fake_github: FakeGitHub, aiohttp_client: Any) -> AsyncIterator[Bot]:
    settings = settings_for(fake_github, retry_attempts=RETRY_ATTEMPTS, workers=2)
    app = create_app(settings)  # the real ROUTER, every feature combined
    client = await aiohttp_client(app)
    yield Bot(fake_github, client)
    assert fake_github.contract_errors == []
