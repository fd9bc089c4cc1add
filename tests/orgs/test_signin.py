"""Signing in with GitHub: the OAuth web flow against the fake GitHub, sessions that cannot
be forged, replayed after sign-out or kept past their age, and what a user may see decided
by GitHub's answer to their own token."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.server.access import SESSION_COOKIE, SIGNINS
from tests.fakegithub import FakeGitHub
from tests.orgs.conftest import count_everything, oauth, sign_in


async def test_a_user_signs_in_and_lands_on_the_page_asked_for(
    acme: FakeGitHub, start_app: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    bot = await start_app(**oauth(acme))
    await count_everything(bot, acme)

    page = await sign_in(bot.client, acme, "alice", "/orgs/acme")

    assert page.status == 200
    assert str(page.url.path) == "/orgs/acme"
    text = await page.text()
    assert "acme/kernels" in text
    assert "acme/models" in text
    assert "acme/secret" not in text  # private, and alice cannot read it
    assert "Signed in as <strong>alice</strong>" in text
    # The token is GitHub's secret: in no log line and not readable in the cookie.
    [token] = [t for t, login in acme.user_tokens.items() if login == "alice"]
    assert token not in caplog.text
    cookie = bot.client.callback.cookies[SESSION_COOKIE]
    assert token not in cookie.value
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert cookie["path"] == "/"


async def test_a_callback_with_another_state_is_refused(acme: FakeGitHub, start_app: Any) -> None:
    bot = await start_app(**oauth(acme))
    start = await bot.client.get("/signin", allow_redirects=False)
    assert start.status == 302
    forged = await bot.client.get("/signin/callback?code=abc&state=not-the-one")
    assert forged.status == 400
    assert "not for this browser" in await forged.text()
    assert SESSION_COOKIE not in {c.key for c in bot.client.session.cookie_jar}


@pytest.mark.parametrize(
    "target", ["//evil.example/", "https://evil.example/", "/\\evil.example", "/%0d%0aX: y"]
)
async def test_sign_in_never_sends_the_browser_to_another_site(
    acme: FakeGitHub, start_app: Any, target: str
) -> None:
    bot = await start_app(**oauth(acme))
    page = await sign_in(bot.client, acme, "alice", target)
    assert page.url.host == "127.0.0.1"
    assert str(page.url.path) in ("/orgs", target)
    assert "evil" not in str(page.url.raw_host)


async def test_a_forged_cookie_gets_the_sign_in_page(acme: FakeGitHub, start_app: Any) -> None:
    bot = await start_app(**oauth(acme))
    bot.client.session.cookie_jar.update_cookies({SESSION_COOKIE: "gAAAAAforged"})
    page = await bot.client.get("/orgs/acme", allow_redirects=False)
    assert page.status == 302
    assert page.headers["Location"].startswith("/signin?next=/orgs/acme")


async def test_an_expired_session_gets_the_sign_in_page(acme: FakeGitHub, start_app: Any) -> None:
    bot = await start_app(**oauth(acme))
    await sign_in(bot.client, acme, "alice")
    assert (await bot.client.get("/orgs/acme", allow_redirects=False)).status == 200
    signins = bot.client.app[SIGNINS]
    [token] = list(acme.user_tokens)
    old = signins.seal({"sid": "s1", "login": "alice", "token": token}, age=9 * 3600)
    bot.client.session.cookie_jar.clear()
    bot.client.session.cookie_jar.update_cookies({SESSION_COOKIE: old})
    page = await bot.client.get("/orgs/acme", allow_redirects=False)
    assert page.status == 302
    assert page.headers["Location"].startswith("/signin")


async def test_a_cookie_kept_from_before_sign_out_no_longer_works(
    acme: FakeGitHub, start_app: Any
) -> None:
    bot = await start_app(**oauth(acme))
    page = await sign_in(bot.client, acme, "alice", "/orgs/acme")
    kept = bot.client.session.cookie_jar.filter_cookies(page.url)[SESSION_COOKIE].value
    csrf = (await page.text()).split('name="csrf" value="')[1].split('"')[0]

    refused = await bot.client.post("/signout", data={"csrf": "wrong"}, allow_redirects=False)
    assert refused.status == 403
    out = await bot.client.post("/signout", data={"csrf": csrf}, allow_redirects=False)
    assert out.status == 302

    bot.client.session.cookie_jar.clear()
    bot.client.session.cookie_jar.update_cookies({SESSION_COOKIE: kept})
    again = await bot.client.get("/orgs/acme", allow_redirects=False)
    assert again.status == 302
    assert again.headers["Location"].startswith("/signin")


async def test_a_user_of_one_organisation_gets_404_for_another(
    acme: FakeGitHub, start_app: Any
) -> None:
    bot = await start_app(**oauth(acme))
    await count_everything(bot, acme)
    await sign_in(bot.client, acme, "bob")
    for path in ("/orgs/acme", "/orgs/acme.json", "/orgs/acme.csv", "/orgs/acme/kernels"):
        assert (await bot.client.get(path)).status == 404, path
    own = await bot.client.get("/orgs/other.json")
    assert [r["repository"] for r in (await own.json())["repositories"]] == ["other/tools"]


async def test_what_a_user_sees_is_asked_of_github_again_after_five_minutes(
    acme: FakeGitHub, start_app: Any
) -> None:
    bot = await start_app(**oauth(acme))
    await count_everything(bot, acme)
    await sign_in(bot.client, acme, "alice")
    names = [
        r["repository"]
        for r in (await (await bot.client.get("/orgs/acme.json")).json())["repositories"]
    ]
    assert names == ["acme/kernels", "acme/models"]

    acme.add_user("alice", {"acme/kernels"})  # an owner took models away from her
    signins = bot.client.app[SIGNINS]
    start = signins.clock()
    signins.clock = lambda: start + 299
    names = [
        r["repository"]
        for r in (await (await bot.client.get("/orgs/acme.json")).json())["repositories"]
    ]
    assert names == ["acme/kernels", "acme/models"]  # still the answer of five minutes ago
    signins.clock = lambda: start + 301
    names = [
        r["repository"]
        for r in (await (await bot.client.get("/orgs/acme.json")).json())["repositories"]
    ]
    assert names == ["acme/kernels"]
    assert (await bot.client.get("/orgs/acme/models")).status == 404


async def test_without_oauth_credentials_the_page_says_what_to_set(
    acme: FakeGitHub, start_app: Any
) -> None:
    bot = await start_app()
    page = await bot.client.get("/signin")
    assert page.status == 503
    text = await page.text()
    assert "GITHUB_CLIENT_ID" in text
    assert "GITHUB_CLIENT_SECRET" in text
    assert "/signin/callback" in text
    assert (await bot.client.get("/orgs/acme")).status == 503
