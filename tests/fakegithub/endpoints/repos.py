"""Repository metadata, collaborator permissions, contents, git trees and blobs, compare."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from aiohttp import web

from ..gitdata import blob_sha
from ..state import Repo
from .common import Call, error, handles, not_found, reply, repo_of

if TYPE_CHECKING:
    from ..server import FakeGitHub

MAX_CONTENT_INLINE = 1024 * 1024  # contents API inlines files up to 1 MB, larger ones: "none"
MAX_TREE_ENTRIES = 100_000
MAX_COMPARE_FILES = 300
MAX_COMPARE_COMMITS = 250
RAW_MEDIA_TYPES = ("application/vnd.github.raw", "application/vnd.github.v3.raw")
# GitHub's legacy `permission` field folds the five roles into admin/write/read.
ROLE_PERMISSION = {
    "admin": "admin",
    "maintain": "write",
    "write": "write",
    "triage": "read",
    "read": "read",
    "none": "none",
}
ROLE_RANK = ["none", "read", "triage", "write", "maintain", "admin"]


@handles("repos/get")
async def get_repo(fake: FakeGitHub, call: Call) -> web.Response:
    return reply(fake.shapes.repo(repo_of(call), full=True))


@handles("repos/get-collaborator-permission-level")
async def collaborator_permission(fake: FakeGitHub, call: Call) -> web.Response:
    login = call.params["username"]
    role = repo_of(call).collaborators.get(login, "none")
    rank = ROLE_RANK.index(role)
    user = fake.shapes.user(login) | {
        "permissions": {
            name: rank >= ROLE_RANK.index(level)
            for name, level in [
                ("pull", "read"),
                ("triage", "triage"),
                ("push", "write"),
                ("maintain", "maintain"),
                ("admin", "admin"),
            ]
        },
        "role_name": role,
    }
    return reply({"permission": ROLE_PERMISSION[role], "role_name": role, "user": user})


def _file_response(call: Call, data: bytes, body: dict[str, Any]) -> web.Response:
    if call.wants(RAW_MEDIA_TYPES):
        return web.Response(body=data, content_type="application/vnd.github.raw")
    inline = len(data) <= MAX_CONTENT_INLINE
    encoded = base64.encodebytes(data).decode() if inline else ""
    return reply(
        body | {"size": len(data), "encoding": "base64" if inline else "none", "content": encoded}
    )


@handles("repos/get-content")
async def get_content(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    ref = call.query.get("ref") or repo.default_branch
    sha = repo.resolve(ref)
    if sha is None:
        return error(404, f"No commit found for the ref {ref}")
    path = call.params["path"].strip("/")
    commit = repo.store.commits[sha]
    if path in commit.files:
        data = commit.files[path]
        item = _content_item(fake, repo, path, "file", blob_sha(data), len(data), ref)
        return _file_response(call, data, item)
    entries = dict(repo.store.walk_tree(commit.tree_sha))
    if path not in entries:
        return not_found()
    listing = [
        _content_item(
            fake,
            repo,
            p,
            entry.type.replace("blob", "file").replace("tree", "dir"),
            entry.sha,
            len(repo.store.blobs[entry.sha]) if entry.type == "blob" else 0,
            ref,
        )
        for p, entry in entries.items()
        if p.rpartition("/")[0] == path
    ]
    return reply(listing)


def _content_item(
    fake: FakeGitHub, repo: Repo, path: str, kind: str, sha: str, size: int, ref: str
) -> dict[str, Any]:
    name = path.rsplit("/", 1)[-1]
    links = fake.shapes.content_links(repo, path, sha, ref, kind)
    return {"type": kind, "size": size, "name": name, "path": path, "sha": sha, **links}


@handles("git/get-blob")
async def get_blob(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    sha = call.params["file_sha"]
    data = repo.store.blobs.get(sha)
    if data is None:
        return not_found()
    if call.wants(RAW_MEDIA_TYPES):
        return web.Response(body=data, content_type="application/vnd.github.raw")
    return reply(
        {
            "sha": sha,
            "node_id": base64.b64encode(f"0:Blob{sha}".encode()).decode(),
            "url": f"{fake.url}/repos/{repo.full_name}/git/blobs/{sha}",
            "size": len(data),
            "content": base64.encodebytes(data).decode(),
            "encoding": "base64",
        }
    )


@handles("git/get-ref")
async def get_ref(fake: FakeGitHub, call: Call) -> web.Response:
    # Branches only (the fake keeps no tags); a deleted branch is 404, as on GitHub.
    repo = repo_of(call)
    ref = call.params["ref"]
    sha = repo.branches.get(ref.removeprefix("heads/")) if ref.startswith("heads/") else None
    if sha is None:
        return not_found()
    api = f"{fake.url}/repos/{repo.full_name}/git"
    return reply(
        {
            "ref": f"refs/{ref}",
            "node_id": base64.b64encode(f"0:Ref{repo.id}:{ref}".encode()).decode(),
            "url": f"{api}/refs/{ref}",
            "object": {"type": "commit", "sha": sha, "url": f"{api}/commits/{sha}"},
        }
    )


@handles("git/get-tree")
async def get_tree(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    wanted = call.params["tree_sha"]
    tree_sha = wanted if wanted in repo.store.trees else None
    if tree_sha is None:
        commit_sha = repo.resolve(wanted)
        if commit_sha is None:
            return not_found()
        tree_sha = repo.store.commits[commit_sha].tree_sha
    # Any value of `recursive` asks for the whole tree, as GitHub documents.
    if "recursive" in call.query:
        walked = repo.store.walk_tree(tree_sha)
    else:
        walked = [(e.name, e) for e in repo.store.trees[tree_sha]]
    api = f"{fake.url}/repos/{repo.full_name}/git"
    tree = []
    for path, entry in walked[:MAX_TREE_ENTRIES]:
        item: dict[str, Any] = {
            "path": path,
            "mode": entry.mode,
            "type": entry.type,
            "sha": entry.sha,
        }
        if entry.type == "blob":
            item["size"] = len(repo.store.blobs[entry.sha])
        item["url"] = f"{api}/{entry.type}s/{entry.sha}"
        tree.append(item)
    return reply(
        {
            "sha": tree_sha,
            "url": f"{api}/trees/{tree_sha}",
            "tree": tree,
            "truncated": len(walked) > MAX_TREE_ENTRIES,
        }
    )


def _split_side(repo: Repo, fake: FakeGitHub, side: str) -> tuple[Repo, str]:
    """`ref` or `owner:ref` (a fork in the same network), as the compare API accepts."""
    if ":" not in side:
        return repo, side
    owner, ref = side.split(":", 1)
    fork = next(
        (r for r in fake.repos.values() if r.owner == owner and r.store is repo.store), repo
    )
    return fork, ref


@handles("repos/compare-commits-with-basehead")
async def compare(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    if "..." not in call.params["basehead"]:
        return not_found()
    base_side, head_side = call.params["basehead"].split("...", 1)
    base_repo, base_ref = _split_side(repo, fake, base_side)
    head_repo, head_ref = _split_side(repo, fake, head_side)
    base, head = base_repo.resolve(base_ref), head_repo.resolve(head_ref)
    if base is None or head is None:
        return not_found()
    store = repo.store
    merge_base = store.merge_base(base, head) or base
    ahead = store.commits_between(base, head)
    behind = store.commits_between(head, base)
    if base == head:
        status = "identical"
    elif not behind:
        status = "ahead"
    elif not ahead:
        status = "behind"
    else:
        status = "diverged"
    # Unpaginated, GitHub lists the first 250 commits; paginated, the files come on page 1 only.
    paginated = "page" in call.query or "per_page" in call.query
    page, links = call.page(ahead) if paginated else (ahead[:MAX_COMPARE_COMMITS], {})
    first_page = int(call.query.get("page", 1)) == 1
    files = repo.diff(merge_base, head)[:MAX_COMPARE_FILES] if first_page else []
    html = f"https://github.com/{repo.full_name}/compare/{call.params['basehead']}"
    body = {
        "url": f"{fake.url}/repos/{repo.full_name}/compare/{call.params['basehead']}",
        "html_url": html,
        "permalink_url": f"https://github.com/{repo.full_name}/compare/{base}...{head}",
        "diff_url": f"{html}.diff",
        "patch_url": f"{html}.patch",
        "base_commit": fake.shapes.commit(repo, store.commits[base]),
        "merge_base_commit": fake.shapes.commit(repo, store.commits[merge_base]),
        "status": status,
        "ahead_by": len(ahead),
        "behind_by": len(behind),
        "total_commits": len(ahead),
        "commits": [fake.shapes.commit(repo, c) for c in page],
        "files": [fake.shapes.diff_entry(repo, f, head) for f in files],
    }
    return reply(body, headers=links)


@handles("repos/list-commits")
async def list_commits(fake: FakeGitHub, call: Call) -> web.Response:
    """Commits reachable from ``sha`` (a branch or commit; default: the default branch),
    newest first, along first parents."""
    repo = repo_of(call)
    sha = repo.resolve(call.query.get("sha") or repo.default_branch)
    if sha is None:
        return not_found()
    chain = []
    while sha:
        commit = repo.store.commits[sha]
        chain.append(commit)
        sha = commit.parents[0] if commit.parents else None
    page, links = call.page(chain)
    return reply([fake.shapes.commit(repo, c) for c in page], headers=links)
