"""Signing users in with GitHub (the OAuth web flow of a GitHub App) and what they may see.

https://docs.github.com/en/apps/creating-github-apps/authenticating-with-a-github-app/generating-a-user-access-token-for-a-github-app

1. The browser goes to ``{web}/login/oauth/authorize?client_id&redirect_uri&state``.
2. GitHub sends it back to ``redirect_uri?code&state``; the code is exchanged at
   ``{web}/login/oauth/access_token`` for a user access token (GitHub answers 200 with an
   ``error`` field when the code is bad or used).
3. With that token, ``GET /user/installations`` and
   ``GET /user/installations/{id}/repositories`` list exactly the installations of this App
   and the repositories in them that the user can access: that list, and nothing the user
   says, decides what they see.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import quote, urlencode

import aiohttp

from bot.github.errors import GitHubError
from bot.github.transport import API_VERSION

if TYPE_CHECKING:
    from bot.github.client import GitHub

#: Installations and repositories read per user at most: a bound on one sign-in's requests.
MAX_INSTALLATIONS = 100
MAX_REPOSITORIES = 3000
EXCHANGE_SECONDS = 10.0


class OAuthError(Exception):
    """The code could not be exchanged (bad, expired or used code; wrong client secret)."""


@dataclass(frozen=True, slots=True)
class UserAccess:
    """Who signed in and what GitHub says they can read through this App."""

    login: str
    repositories: frozenset[str]  # "owner/name", lower case
    owners: frozenset[str]  # the accounts of those installations, lower case
    # Each repository's installation and visibility, as GitHub listed it.
    installation_of: Mapping[str, int] = field(default_factory=dict)
    private: frozenset[str] = frozenset()


def authorize_url(web_url: str, client_id: str, redirect_uri: str, state: str) -> str:
    query = urlencode({"client_id": client_id, "redirect_uri": redirect_uri, "state": state})
    return f"{web_url.rstrip('/')}/login/oauth/authorize?{query}"


async def exchange_code(
    session: aiohttp.ClientSession,
    web_url: str,
    *,
    client_id: str,
    client_secret: str,
    code: str,
    redirect_uri: str,
) -> str:
    """The user access token for ``code``."""
    form = {
        "client_id": client_id,
        "client_secret": client_secret,
        "code": code,
        "redirect_uri": redirect_uri,
    }
    try:
        async with session.post(
            f"{web_url.rstrip('/')}/login/oauth/access_token",
            data=form,
            headers={"Accept": "application/json"},
            timeout=aiohttp.ClientTimeout(total=EXCHANGE_SECONDS),
        ) as response:
            if response.status != 200:
                raise OAuthError(f"GitHub answered {response.status}")
            answer = await response.json(content_type=None)
    except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
        raise OAuthError(f"GitHub could not be asked: {type(exc).__name__}") from None
    token = answer.get("access_token") if isinstance(answer, dict) else None
    if not isinstance(token, str) or not token:
        reason = answer.get("error") if isinstance(answer, dict) else None
        raise OAuthError(str(reason or "no access token in GitHub's answer"))
    return token


async def revoke_token(
    session: aiohttp.ClientSession,
    api_url: str,
    *,
    client_id: str,
    client_secret: str,
    token: str,
) -> bool:
    """Revoke a user's token at GitHub (on sign-out): ``DELETE
    /applications/{client_id}/token``, authenticated as the App's OAuth client. True when
    GitHub revoked it or no longer knew it (404, 422); False when GitHub could not be asked."""
    url = f"{api_url.rstrip('/')}/applications/{quote(client_id, safe='')}/token"
    try:
        async with session.delete(
            url,
            json={"access_token": token},
            headers={
                "Accept": "application/vnd.github+json",
                "Authorization": _basic(client_id, client_secret),
                "X-GitHub-Api-Version": API_VERSION,
            },
            timeout=aiohttp.ClientTimeout(total=EXCHANGE_SECONDS),
        ) as response:
            return response.status in (204, 404, 422)
    except (aiohttp.ClientError, TimeoutError):
        return False


def _basic(user: str, password: str) -> str:
    # By hand: aiohttp's BasicAuth is deprecated, its successor absent from older versions.
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


async def user_access(gh: GitHub) -> UserAccess:
    """What the user behind ``gh`` (a user client) can read through this App."""
    user = await gh.getitem("/user")
    login = user.get("login") if isinstance(user, dict) else None
    if not isinstance(login, str):
        raise GitHubError("GET /user answered without a login")
    repositories: set[str] = set()
    owners: set[str] = set()
    installation_of: dict[str, int] = {}
    private: set[str] = set()
    installations = 0
    async for installation in gh.getiter("/user/installations", iterable_key="installations"):
        installations += 1
        if installations > MAX_INSTALLATIONS:
            break
        account = (installation.get("account") or {}).get("login")
        url = "/user/installations/{installation_id}/repositories"
        async for repo in gh.getiter(
            url, {"installation_id": installation["id"]}, iterable_key="repositories"
        ):
            name = str(repo["full_name"]).lower()
            repositories.add(name)
            installation_of[name] = int(installation["id"])
            if repo.get("private", True):
                private.add(name)
            if len(repositories) >= MAX_REPOSITORIES:
                break
        if isinstance(account, str):
            owners.add(account.lower())
    return UserAccess(
        login, frozenset(repositories), frozenset(owners), installation_of, frozenset(private)
    )
