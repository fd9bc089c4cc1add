"""A configured server's `/` leads somewhere: the organisation list, through sign-in."""

from __future__ import annotations

from typing import Any

from tests.fakegithub import FakeGitHub
from tests.orgs.conftest import count_everything, oauth, sign_in


async def test_the_front_page_leads_to_sign_in_then_the_organisations(
    acme: FakeGitHub, start_app: Any
) -> None:
    bot = await start_app(**oauth(acme))
    await count_everything(bot, acme)
    front = await bot.client.get("/", allow_redirects=False)
    assert (front.status, front.headers["Location"]) == (302, "/orgs")
    signed_out = await bot.client.get("/orgs", allow_redirects=False)
    assert signed_out.status == 302
    assert signed_out.headers["Location"].startswith("/signin")
    page = await sign_in(bot.client, acme, "alice", "/")
    assert page.status == 200
    assert str(page.url.path) == "/orgs"
    assert "acme" in await page.text()
