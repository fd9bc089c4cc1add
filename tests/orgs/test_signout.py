"""Signing out ends the session for good: the cookie is refused after a restart (the
sign-out is kept in the store, and while the store cannot say no session is accepted), and
the user's token is revoked at GitHub. The real server, restarted on the same database, and
the fake GitHub recording the revocation."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from bot.server.access import SESSION_COOKIE
from tests.fakegithub import FakeGitHub
from tests.orgs.conftest import oauth, sign_in
from tests.recount.conftest import Bot

PAGE = "/orgs/acme"
REVOKE = r"^/applications/[^/]+/token$"


async def signed_in(bot: Bot, fake: FakeGitHub) -> tuple[str, str]:
    """Sign alice in; her session cookie and the CSRF token of her page's forms."""
    page = await sign_in(bot.client, fake, "alice", PAGE)
    assert page.status == 200
    cookie = bot.client.session.cookie_jar.filter_cookies(page.url)[SESSION_COOKIE].value
    csrf = (await page.text()).split('name="csrf" value="')[1].split('"')[0]
    return cookie, csrf


async def sign_out(bot: Bot, csrf: str) -> None:
    out = await bot.client.post("/signout", data={"csrf": csrf}, allow_redirects=False)
    assert out.status == 302
    assert out.headers["Location"] == "/signin/done"


async def present(client: TestClient, cookie: str) -> Any:
    client.session.cookie_jar.clear()
    client.session.cookie_jar.update_cookies({SESSION_COOKIE: cookie})
    return await client.get(PAGE, allow_redirects=False)


async def assert_refused(client: TestClient, cookie: str) -> None:
    page = await present(client, cookie)
    assert page.status == 302
    assert page.headers["Location"].startswith("/signin")


async def test_sign_out_revokes_the_token_at_github_and_holds_after_a_restart(
    acme: FakeGitHub, start_app: Any
) -> None:
    bot = await start_app(**oauth(acme))
    cookie, csrf = await signed_in(bot, acme)
    [token] = [t for t, login in acme.user_tokens.items() if login == "alice"]
    await sign_out(bot, csrf)

    # GitHub was asked, as the App's OAuth client, to revoke exactly that token.
    [revoke] = acme.requests_to("DELETE", REVOKE)
    assert revoke.path == f"/applications/{acme.oauth_client_id}/token"
    assert revoke.json == {"access_token": token}
    client = f"{acme.oauth_client_id}:{acme.oauth_client_secret}".encode()
    assert revoke.headers["Authorization"] == "Basic " + base64.b64encode(client).decode()
    assert revoke.status == 204
    assert acme.revoked_user_tokens == [token]
    await assert_refused(bot.client, cookie)
    await bot.client.close()

    bot = await start_app(**oauth(acme))  # a new process on the same database
    await assert_refused(bot.client, cookie)


async def test_the_sign_out_holds_after_a_restart_when_github_could_not_revoke(
    acme: FakeGitHub, start_app: Any
) -> None:
    bot = await start_app(**oauth(acme))
    other, _ = await signed_in(bot, acme)  # the same user in another browser
    cookie, csrf = await signed_in(bot, acme)
    acme.fail("DELETE", REVOKE, status=503)
    await sign_out(bot, csrf)
    assert acme.revoked_user_tokens == []  # GitHub failed: the token still works there
    await bot.client.close()

    bot = await start_app(**oauth(acme))
    await assert_refused(bot.client, cookie)  # the store kept the sign-out
    page = await present(bot.client, other)  # the other session was not signed out
    assert page.status == 200


async def test_no_session_is_accepted_while_the_store_cannot_say(
    acme: FakeGitHub, aiohttp_client: Any, tmp_path: Path
) -> None:
    from bot.features import ROUTER
    from bot.server.app import create_app
    from tests.support.server import settings_for

    database = tmp_path / "lockin.db"
    settings = settings_for(acme, db_path=str(database), **oauth(acme))
    bot = Bot(acme, await aiohttp_client(create_app(settings, router=ROUTER)))
    cookie, _ = await signed_in(bot, acme)
    await bot.client.close()

    database.write_bytes(b"garbage where the database was\n" * 1024)
    bot = Bot(acme, await aiohttp_client(create_app(settings, router=ROUTER)))
    page = await present(bot.client, cookie)
    assert page.status == 503  # fail closed: never "signed in" on a store that cannot say
    assert page.headers["Retry-After"]
