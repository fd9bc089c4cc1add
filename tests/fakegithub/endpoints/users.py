"""A signed-in user's view through the App: who they are, which installations of the App
and which repositories in them they can access (user-to-server tokens only)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from .common import Call, error, handles, not_found, reply

if TYPE_CHECKING:
    from ..server import FakeGitHub


def _user(fake: FakeGitHub, call: Call) -> str | None:
    scheme, _, credential = call.request.headers.get("Authorization", "").partition(" ")
    return fake.user_tokens.get(credential) if scheme.lower() in ("bearer", "token") else None


@handles("users/get-authenticated")
async def get_user(fake: FakeGitHub, call: Call) -> web.Response:
    login = _user(fake, call)
    if login is None:
        return error(401, "Requires authentication")
    return reply(fake.shapes.private_user(login))


@handles("apps/list-installations-for-authenticated-user")
async def list_installations(fake: FakeGitHub, call: Call) -> web.Response:
    login = _user(fake, call)
    if login is None:
        return error(401, "Requires authentication")
    ids = sorted({fake.repos[name].installation_id for name in fake.readable(login)})
    page, links = call.page(ids)
    body = {
        "total_count": len(ids),
        "installations": [fake.shapes.installation(i, fake.installations[i].account) for i in page],
    }
    return reply(body, headers=links)


@handles("apps/list-installation-repos-for-authenticated-user")
async def list_installation_repos(fake: FakeGitHub, call: Call) -> web.Response:
    login = _user(fake, call)
    if login is None:
        return error(401, "Requires authentication")
    installation_id = int(call.params["installation_id"])
    repos = [
        fake.repos[name]
        for name in sorted(fake.readable(login))
        if fake.repos[name].installation_id == installation_id
    ]
    if not repos:
        return not_found()  # GitHub: an installation the user cannot access does not exist
    page, links = call.page(repos)
    body = {
        "total_count": len(repos),
        "repository_selection": "selected",
        "repositories": [fake.shapes.repo(r) for r in page],
    }
    return reply(body, headers=links)
