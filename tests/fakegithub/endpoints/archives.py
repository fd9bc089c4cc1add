"""Tarball downloads: the API redirects to an archive host (codeload on GitHub)."""

from __future__ import annotations

import gzip
import io
import secrets
import tarfile
from typing import TYPE_CHECKING
from urllib.parse import quote

from aiohttp import web

from ..state import Repo
from .common import Call, handles, not_found, repo_of

if TYPE_CHECKING:
    from ..server import FakeGitHub


@handles("repos/download-tarball-archive")
async def tarball_redirect(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    ref = call.params["ref"]
    if repo.resolve(ref) is None and ref not in repo.tarballs:
        return not_found()
    # Like codeload.github.com: a short-lived token in the URL stands in for the credentials.
    ticket = secrets.token_urlsafe(16)
    fake.codeload_tickets.add(ticket)
    location = f"{fake.url}/_codeload/{repo.full_name}/legacy.tar.gz/{quote(ref)}?token={ticket}"
    return web.Response(status=302, headers={"Location": location})


async def codeload(fake: FakeGitHub, request: web.Request) -> web.Response:
    """The archive behind the tarball redirect (not part of the REST API)."""
    repo = fake.repos.get(f"{request.match_info['owner']}/{request.match_info['repo']}")
    if repo is None or request.query.get("token") not in fake.codeload_tickets:
        return not_found()
    ref = request.match_info["ref"]
    sha = repo.resolve(ref)
    payload = repo.tarballs.get(sha or ref)
    if payload is None:
        if sha is None:
            return not_found()
        payload = build_tarball(repo, sha)
    name = f"{repo.owner}-{repo.name}-{(sha or ref)[:7]}.tar.gz"
    return web.Response(
        body=payload,
        content_type="application/x-gzip",
        headers={"Content-Disposition": f"attachment; filename={name}"},
    )


def build_tarball(repo: Repo, sha: str) -> bytes:
    """What `git archive` gives codeload: one top folder, a pax header holding the commit id."""
    commit = repo.store.commits[sha]
    top = f"{repo.owner}-{repo.name}-{sha[:7]}"
    out = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=out, mode="wb", compresslevel=6, mtime=commit.timestamp) as gz,
        tarfile.open(
            fileobj=gz, mode="w", format=tarfile.PAX_FORMAT, pax_headers={"comment": sha}
        ) as tar,
    ):
        for path, entry in [(".", None), *repo.store.walk_tree(commit.tree_sha)]:
            info = tarfile.TarInfo(top if path == "." else f"{top}/{path}")
            info.mtime = commit.timestamp
            if entry is None or entry.type == "tree":
                info.type, info.mode = tarfile.DIRTYPE, 0o775
                tar.addfile(info)
            else:
                data = repo.store.blobs[entry.sha]
                info.size, info.mode = len(data), 0o664
                tar.addfile(info, io.BytesIO(data))
    return out.getvalue()
