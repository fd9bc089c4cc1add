"""`repository` events keep the badge truthful at once: made private, deleted, renamed or
transferred, the repository's public badge goes; made public again, it comes back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from gidgethub.routing import Router

from bot.features import census, repository
from bot.server.app import create_app
from tests.fakegithub import FakeGitHub, Repo
from tests.recount.conftest import KERNEL, Bot
from tests.support.server import settings_for
from tests.support.webhooks import load_example, overlay

BADGE = "/badge/octo-org/kernels.svg"


@pytest.fixture
async def bot(fake_github: FakeGitHub, aiohttp_client: Any) -> AsyncIterator[Bot]:
    """The census on push (which makes the badge) and the repository events."""
    router = Router(census.router, repository.router)
    client = await aiohttp_client(create_app(settings_for(fake_github), router=router))
    yield Bot(fake_github, client)
    assert fake_github.contract_errors == []


def repository_event(bot: Bot, repo: Repo, action: str, example: str) -> dict[str, Any]:
    payload = load_example(example)
    payload["repository"] = overlay(payload["repository"], bot.fake.shapes.repo(repo))
    payload["sender"] = overlay(payload["sender"], bot.fake.shapes.user(repo.owner))
    payload["installation"] = {"id": repo.installation_id, "node_id": "MDIzOkluc3RhbGxhdGlvbjE="}
    payload["action"] = action
    return payload


async def send(bot: Bot, event: str, payload: dict[str, Any]) -> None:
    assert await bot.deliver(event, payload) == 202
    await bot.settle()


async def test_a_repository_made_private_loses_its_badge_at_once(bot: Bot, repo: Repo) -> None:
    await bot.push(repo, {"csrc/more.cu": KERNEL})
    assert (await bot.client.get(BADGE)).status == 200

    await send(
        bot, "repository", repository_event(bot, repo, "privatized", "repository.privatized.1")
    )
    response = await bot.client.get(BADGE)
    assert response.status == 404
    assert ">unknown</text>" in await response.text()

    await send(
        bot, "repository", repository_event(bot, repo, "publicized", "repository.publicized.1")
    )
    assert (await bot.client.get(BADGE)).status == 200


@pytest.mark.parametrize(
    ("action", "example", "changes", "now"),
    [
        ("deleted", "repository.privatized.1", None, "octo-org/kernels"),
        (
            "renamed",
            "repository.renamed.1",
            {"repository": {"name": {"from": "kernels"}}},
            "octo-org/kernels-2",
        ),
        (
            "transferred",
            "repository.transferred.1",
            {"owner": {"from": {"organization": {"login": "octo-org"}}}},
            "octo-elsewhere/kernels",
        ),
    ],
)
async def test_the_old_name_loses_its_badge_when_the_repository_goes_or_moves(
    bot: Bot, repo: Repo, action: str, example: str, changes: dict[str, Any] | None, now: str
) -> None:
    await bot.push(repo, {"csrc/more.cu": KERNEL})
    assert (await bot.client.get(BADGE)).status == 200
    payload = repository_event(bot, repo, action, example)
    if changes is not None:
        payload["changes"] = changes
    payload["repository"]["full_name"] = now
    await send(bot, "repository", payload)
    assert (await bot.client.get(BADGE)).status == 404
