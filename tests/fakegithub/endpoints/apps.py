"""The App itself: installation tokens, manifest conversion, rate-limit overview, and GitHub's
meta information (the addresses webhooks come from)."""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING

from aiohttp import web

from ..state import iso
from .common import Call, error, handles, not_found, reply

if TYPE_CHECKING:
    from ..server import FakeGitHub


@handles("apps/get-authenticated")
async def get_app(fake: FakeGitHub, call: Call) -> web.Response:
    return reply(fake.shapes.app())


@handles("apps/create-installation-access-token")
async def create_token(fake: FakeGitHub, call: Call) -> web.Response:
    installation = fake.installations.get(int(call.params["installation_id"]))
    if installation is None:
        return not_found()
    if installation.suspended:
        return error(403, "This installation has been suspended")
    token = fake.issue_token(installation.id)
    requested = (call.json or {}).get("permissions")
    body = {
        "token": token.value,
        "expires_at": iso(token.expires_at),
        "permissions": requested or fake.shapes.app()["permissions"],
        "repository_selection": "all",
    }
    return reply(body, 201)


@handles("apps/delete-token")
async def delete_token(fake: FakeGitHub, call: Call) -> web.Response:
    """Revoke a user's token (the client's credentials were checked as basic auth)."""
    token = (call.json or {}).get("access_token")
    if call.params["client_id"] != fake.oauth_client_id or token not in fake.user_tokens:
        return not_found()
    del fake.user_tokens[token]
    fake.revoked_user_tokens.append(token)
    return web.Response(status=204)


@handles("apps/create-from-manifest")
async def convert_manifest(fake: FakeGitHub, call: Call) -> web.Response:
    if call.params["code"] not in fake.manifest_codes:
        return not_found()
    fake.manifest_codes.discard(call.params["code"])  # codes are single use
    app = fake.shapes.app()
    body = {
        **app,
        "client_secret": secrets.token_hex(20),
        "webhook_secret": secrets.token_hex(20),
        "pem": fake.private_key_pem,
    }
    return reply(body, 201)


@handles("rate-limit/get")
async def rate_limit(fake: FakeGitHub, call: Call) -> web.Response:
    bucket = fake.bucket_for(call.token)
    core = {"limit": bucket.limit, "remaining": bucket.remaining, "reset": bucket.reset}
    core["used"] = bucket.used
    search = {"limit": 30, "remaining": 30, "reset": int(time.time()) + 60, "used": 0}
    return reply({"rate": core, "resources": {"core": core, "search": search}})


@handles("meta/get")
async def meta(fake: FakeGitHub, call: Call) -> web.Response:
    return reply({"verifiable_password_authentication": False, "hooks": list(fake.hook_ranges)})


@handles("apps/list-repos-accessible-to-installation")
async def list_installation_repos(fake: FakeGitHub, call: Call) -> web.Response:
    assert call.token is not None  # the route needs an installation token
    repos = [r for r in fake.repos.values() if r.installation_id == call.token.installation_id]
    page, links = call.page(sorted(repos, key=lambda r: r.full_name))
    body = {"total_count": len(repos), "repositories": [fake.shapes.repo(r) for r in page]}
    return reply(body, headers=links)
