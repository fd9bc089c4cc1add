"""The organisation pages through the real server: sign-in against the fake GitHub's OAuth
endpoints, data from the store the bot's own pushes filled, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest
from aiohttp.test_utils import TestClient

from tests.fakegithub import FakeGitHub
from tests.recount.conftest import Bot
from tests.review.test_pr_check import KERNEL
from tests.store.conftest import postgres_cluster, start_app, store_of, url

__all__ = ["postgres_cluster", "start_app", "url"]

MODEL = "import torch\n\nmodel = torch.nn.Linear(4, 4)\n"


def oauth(fake: FakeGitHub) -> dict[str, Any]:
    return {
        "github_client_id": fake.oauth_client_id,
        "github_client_secret": fake.oauth_client_secret,
        "github_web_url": fake.url,
    }


@pytest.fixture
def acme(fake_github: FakeGitHub) -> FakeGitHub:
    """Organisation acme (installation 1): kernels and models, which alice can read, and a
    private secret she cannot; organisation other (installation 2), which bob can read."""
    fake = fake_github
    fake.add_repo("acme/kernels", files={"csrc/scale.cu": KERNEL, "model.py": MODEL})
    fake.add_repo("acme/models", files={"model.py": MODEL})
    fake.add_repo("acme/secret", files={"csrc/secret.cu": KERNEL}, private=True)
    fake.add_repo("other/tools", files={"csrc/tool.cu": KERNEL}, installation_id=2)
    fake.add_user("alice", {"acme/kernels", "acme/models"})
    fake.add_user("bob", {"other/tools"})
    return fake


async def sign_in(
    client: TestClient, fake: FakeGitHub, login: str, target: str = "/orgs"
) -> aiohttp.ClientResponse:
    """Follow the whole web flow as a browser does; the last answer (our redirect after the
    callback, followed). ``client.callback`` keeps the callback's own answer."""
    fake.sign_in_as(login)
    start = await client.get(f"/signin?next={target}", allow_redirects=False)
    assert start.status == 302, await start.text()
    authorize = start.headers["Location"]
    async with aiohttp.ClientSession() as github:  # the browser visiting GitHub
        approved = await github.get(authorize, allow_redirects=False)
        assert approved.status == 302
        back = urlsplit(approved.headers["Location"])
    callback = await client.get(f"{back.path}?{back.query}", allow_redirects=False)
    assert callback.status == 302, await callback.text()
    client.callback = callback  # type: ignore[attr-defined]
    return await client.get(callback.headers["Location"])


async def count_everything(bot: Bot, fake: FakeGitHub) -> None:
    """A push to each repository's default branch: the census, its point, its dashboard."""
    for name in sorted(fake.repos):
        repo = fake.repos[name]
        await bot.push(repo, {"docs/notes.md": f"notes of {name}\n"})
    await store_of(bot).idle()  # points are written in the background
