"""One handler per REST operation of the contract, keyed by GitHub's operationId.

Handlers see an authenticated, contract-checked request (`Call`) and answer as GitHub does,
including its documented limits (3,000 PR files, 300 files for the diff media type, 65,536
characters per comment, 50 annotations per request).
"""

from __future__ import annotations

import base64
import gzip
import io
import json
import secrets
import tarfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from aiohttp import web

from .diffs import FileChange, is_binary
from .gitdata import blob_sha
from .paging import paginate
from .state import CheckRun, Repo, iso

if TYPE_CHECKING:
    from .auth import Token
    from .server import FakeGitHub

MAX_PR_FILES = 3000
MAX_DIFF_FILES = 300
MAX_PR_COMMITS = 250
MAX_COMMENT_LENGTH = 65536
MAX_CONTENT_INLINE = 1024 * 1024  # contents API inlines files up to 1 MB, larger ones: "none"
MAX_TREE_ENTRIES = 100_000
RAW_MEDIA_TYPES = ("application/vnd.github.raw", "application/vnd.github.v3.raw")
DIFF_MEDIA_TYPES = ("application/vnd.github.diff", "application/vnd.github.v3.diff")
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


@dataclass
class Call:
    request: web.Request
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    repo: Repo | None
    token: Token | None

    @property
    def accept(self) -> str:
        return self.request.headers.get("Accept", "")

    def wants(self, media_types: tuple[str, ...]) -> bool:
        return any(media in self.accept for media in media_types)


Handler = Callable[["FakeGitHub", Call], Awaitable[web.Response]]
HANDLERS: dict[str, Handler] = {}


def handles(operation_id: str) -> Callable[[Handler], Handler]:
    def register(func: Handler) -> Handler:
        HANDLERS[operation_id] = func
        return func

    return register


def reply(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(
        body=json.dumps(body).encode(),
        status=status,
        headers=headers,
        content_type="application/json",
        charset="utf-8",
    )


def error(code: int, message: str, **extra: Any) -> web.Response:
    return reply(
        {"message": message, "documentation_url": "https://docs.github.com/rest", **extra}, code
    )


def not_found() -> web.Response:
    return error(404, "Not Found", status="404")


def validation_failed(resource: str, field: str, message: str) -> web.Response:
    errors = [{"resource": resource, "code": "custom", "field": field, "message": message}]
    return error(422, "Validation Failed", errors=errors)


def _repo(call: Call) -> Repo:
    assert call.repo is not None  # the server resolves the repository of every /repos route
    return call.repo


# -- the app, its tokens and manifests ------------------------------------------------------------
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


# -- repositories and git data --------------------------------------------------------------------
@handles("repos/get")
async def get_repo(fake: FakeGitHub, call: Call) -> web.Response:
    return reply(fake.shapes.repo(_repo(call), full=True))


@handles("repos/get-collaborator-permission-level")
async def collaborator_permission(fake: FakeGitHub, call: Call) -> web.Response:
    login = call.params["username"]
    role = _repo(call).collaborators.get(login, "none")
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
    repo = _repo(call)
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
    repo = _repo(call)
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


@handles("git/get-tree")
async def get_tree(fake: FakeGitHub, call: Call) -> web.Response:
    repo = _repo(call)
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
    repo = _repo(call)
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
    page, links = paginate(
        ahead, call.query, fake.url + call.request.path, default=250, maximum=250
    )
    html = f"https://github.com/{repo.full_name}/compare/{call.params['basehead']}"
    files = repo.diff(merge_base, head)[:MAX_DIFF_FILES]
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


@handles("repos/download-tarball-archive")
async def tarball_redirect(fake: FakeGitHub, call: Call) -> web.Response:
    repo = _repo(call)
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


# -- pull requests --------------------------------------------------------------------------------
def _pull(call: Call) -> Any:
    return _repo(call).pulls.get(int(call.params["pull_number"]))


def _shown_change(pr: Any, change: FileChange) -> FileChange:
    """Drop the patch where the test says GitHub omits it (too large, or binary)."""
    if change.filename in pr.binary:
        return FileChange(
            change.filename, change.status, change.sha, 0, 0, None, change.previous_filename
        )
    if change.filename in pr.patch_omitted:
        return FileChange(
            change.filename,
            change.status,
            change.sha,
            change.additions,
            change.deletions,
            None,
            change.previous_filename,
        )
    return change


@handles("pulls/get")
async def get_pull(fake: FakeGitHub, call: Call) -> web.Response:
    pr = _pull(call)
    if pr is None:
        return not_found()
    if call.wants(DIFF_MEDIA_TYPES):
        files = pr.files()
        if len(files) > MAX_DIFF_FILES:
            return error(
                406,
                f"Sorry, the diff exceeded the maximum number of files ({MAX_DIFF_FILES})."
                " Consider using 'List pull requests files' API or locally cloning the"
                " repository instead.",
                errors=[{"resource": "PullRequest", "field": "diff", "code": "too_large"}],
            )
        return web.Response(text=git_diff(pr), content_type="application/vnd.github.diff")
    return reply(fake.shapes.pull(pr))


def git_diff(pr: Any) -> str:
    """The PR as `git diff` prints it (the diff media type)."""
    store = pr.base_repo.store
    old_files = store.commits[pr.merge_base].files
    new_files = store.commits[pr.head_sha].files
    chunks = []
    for change in pr.files():
        old_path = change.previous_filename or change.filename
        old = old_files.get(old_path, b"")
        new = new_files.get(change.filename, b"")
        lines = [f"diff --git a/{old_path} b/{change.filename}"]
        if change.status == "added":
            lines.append("new file mode 100644")
        elif change.status == "removed":
            lines.append("deleted file mode 100644")
        elif change.status == "renamed":
            lines += [f"rename from {old_path}", f"rename to {change.filename}"]
        if old != new:
            mode = " 100644" if change.status in ("modified", "renamed") else ""
            lines.append(f"index {blob_sha(old)[:7]}..{blob_sha(new)[:7]}{mode}")
            a = "/dev/null" if change.status == "added" else f"a/{old_path}"
            b = "/dev/null" if change.status == "removed" else f"b/{change.filename}"
            if is_binary(old) or is_binary(new):
                lines.append(f"Binary files {a} and {b} differ")
            elif change.patch:
                lines += [f"--- {a}", f"+++ {b}", change.patch]
        chunks.append("\n".join(lines))
    return "\n".join(chunks) + "\n"


@handles("pulls/list-files")
async def list_pull_files(fake: FakeGitHub, call: Call) -> web.Response:
    pr = _pull(call)
    if pr is None:
        return not_found()
    files = [_shown_change(pr, c) for c in pr.files()[:MAX_PR_FILES]]
    page, links = paginate(files, call.query, fake.url + call.request.path)
    repo = _repo(call)
    return reply([fake.shapes.diff_entry(repo, f, pr.head_sha) for f in page], headers=links)


@handles("pulls/list-commits")
async def list_pull_commits(fake: FakeGitHub, call: Call) -> web.Response:
    pr = _pull(call)
    if pr is None:
        return not_found()
    commits = pr.commits()[:MAX_PR_COMMITS]
    page, links = paginate(commits, call.query, fake.url + call.request.path)
    return reply([fake.shapes.commit(pr.base_repo, c) for c in page], headers=links)


# -- issues, comments and reactions ---------------------------------------------------------------
@handles("issues/get")
async def get_issue(fake: FakeGitHub, call: Call) -> web.Response:
    repo = _repo(call)
    issue = repo.issues.get(int(call.params["issue_number"]))
    return reply(fake.shapes.issue(repo, issue)) if issue else not_found()


@handles("issues/list-comments")
async def list_comments(fake: FakeGitHub, call: Call) -> web.Response:
    repo = _repo(call)
    number = int(call.params["issue_number"])
    if number not in repo.issues:
        return not_found()
    since = call.query.get("since", "")
    comments = [
        c
        for c in sorted(repo.comments.values(), key=lambda c: c.id)
        if c.issue_number == number and c.updated_at >= since
    ]
    page, links = paginate(comments, call.query, fake.url + call.request.path)
    return reply([fake.shapes.comment(repo, c) for c in page], headers=links)


def _comment_too_long(body: str) -> web.Response | None:
    if len(body) > MAX_COMMENT_LENGTH:
        return validation_failed(
            "IssueComment", "data", f"Body is too long (maximum is {MAX_COMMENT_LENGTH} characters)"
        )
    return None


@handles("issues/create-comment")
async def create_comment(fake: FakeGitHub, call: Call) -> web.Response:
    repo = _repo(call)
    number = int(call.params["issue_number"])
    if number not in repo.issues:
        return not_found()
    body = call.json["body"]
    if rejected := _comment_too_long(body):
        return rejected
    comment = repo.add_comment(number, body, user=fake.bot_login, user_type="Bot", via_app=True)
    shaped = fake.shapes.comment(repo, comment)
    return reply(shaped, 201, headers={"Location": shaped["url"]})


def _comment(call: Call) -> Any:
    return _repo(call).comments.get(int(call.params["comment_id"]))


@handles("issues/get-comment")
async def get_comment(fake: FakeGitHub, call: Call) -> web.Response:
    comment = _comment(call)
    return reply(fake.shapes.comment(_repo(call), comment)) if comment else not_found()


@handles("issues/update-comment")
async def update_comment(fake: FakeGitHub, call: Call) -> web.Response:
    comment = _comment(call)
    if comment is None:
        return not_found()
    if rejected := _comment_too_long(call.json["body"]):
        return rejected
    comment.body = call.json["body"]
    comment.updated_at = iso(time.time())
    return reply(fake.shapes.comment(_repo(call), comment))


@handles("issues/delete-comment")
async def delete_comment(fake: FakeGitHub, call: Call) -> web.Response:
    repo = _repo(call)
    comment = _comment(call)
    if comment is None:
        return not_found()
    del repo.comments[comment.id]
    repo.reactions = [r for r in repo.reactions if r.comment_id != comment.id]
    return web.Response(status=204)


@handles("reactions/create-for-issue-comment")
async def create_reaction(fake: FakeGitHub, call: Call) -> web.Response:
    comment = _comment(call)
    if comment is None:
        return not_found()
    reaction, new = _repo(call).add_reaction(comment.id, call.json["content"], fake.bot_login)
    return reply(fake.shapes.reaction(reaction), 201 if new else 200)


# -- check runs -----------------------------------------------------------------------------------
def _apply_check_run_fields(run: CheckRun, fields: dict[str, Any]) -> web.Response | None:
    """Apply create/update fields as GitHub does; return a 422 when GitHub would refuse them."""
    for name in ("name", "details_url", "external_id", "started_at", "completed_at"):
        if name in fields:
            setattr(run, name, fields[name])
    if "actions" in fields:
        run.actions = list(fields["actions"])
    if "conclusion" in fields:
        run.conclusion = fields["conclusion"]
        run.status = "completed"  # a conclusion completes the run, as on GitHub
    elif "status" in fields:
        run.status = fields["status"]
    if run.status == "completed" and run.conclusion is None:
        return validation_failed("CheckRun", "conclusion", "Conclusion required if completed")
    if run.status == "completed" and run.completed_at is None:
        run.completed_at = iso(time.time())
    if output := fields.get("output"):
        run.output |= {k: output[k] for k in ("title", "summary", "text") if k in output}
        run.annotations.extend(output.get("annotations", []))  # appended, never replaced
    run.history.append(run.snapshot())
    return None


@handles("checks/create")
async def create_check_run(fake: FakeGitHub, call: Call) -> web.Response:
    repo = _repo(call)
    head_sha = call.json["head_sha"]
    if head_sha not in repo.store.commits:
        return validation_failed("CheckRun", "head_sha", f"No commit found for SHA: {head_sha}")
    run = CheckRun(
        id=repo.next_check_run_id(),
        name=call.json["name"],
        head_sha=head_sha,
        status="queued",
        conclusion=None,
        started_at=iso(time.time()),
        completed_at=None,
        external_id="",
        details_url=None,
        output={},
        annotations=[],
        actions=[],
        suite_id=repo.suite_id(head_sha),
    )
    if rejected := _apply_check_run_fields(run, call.json):
        return rejected
    repo.check_runs[run.id] = run
    return reply(fake.shapes.check_run(repo, run), 201)


@handles("checks/get")
async def get_check_run(fake: FakeGitHub, call: Call) -> web.Response:
    repo = _repo(call)
    run = repo.check_runs.get(int(call.params["check_run_id"]))
    return reply(fake.shapes.check_run(repo, run)) if run else not_found()


@handles("checks/update")
async def update_check_run(fake: FakeGitHub, call: Call) -> web.Response:
    repo = _repo(call)
    run = repo.check_runs.get(int(call.params["check_run_id"]))
    if run is None:
        return not_found()
    if rejected := _apply_check_run_fields(run, call.json):
        return rejected
    return reply(fake.shapes.check_run(repo, run))


@handles("checks/list-for-ref")
async def list_check_runs(fake: FakeGitHub, call: Call) -> web.Response:
    repo = _repo(call)
    sha = repo.resolve(call.params["ref"])
    if sha is None:
        return validation_failed("Commit", "ref", f"No commit found for SHA: {call.params['ref']}")
    runs = sorted((r for r in repo.check_runs.values() if r.head_sha == sha), key=lambda r: -r.id)
    query = call.query
    if "check_name" in query:
        runs = [r for r in runs if r.name == query["check_name"]]
    if "status" in query:
        runs = [r for r in runs if r.status == query["status"]]
    if "app_id" in query and int(query["app_id"]) != fake.app_id:
        runs = []
    if query.get("filter", "latest") == "latest":
        latest: dict[str, CheckRun] = {}
        for run in runs:
            latest.setdefault(run.name, run)
        runs = list(latest.values())
    page, links = paginate(runs, query, fake.url + call.request.path)
    body = {"total_count": len(runs), "check_runs": [fake.shapes.check_run(repo, r) for r in page]}
    return reply(body, headers=links)
