"""Pull requests, their files and commits, and the diff media type."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from aiohttp import web

from ..diffs import FileChange, is_binary
from ..gitdata import blob_sha
from ..state import PullRequest
from .common import Call, error, handles, not_found, reply, repo_of

if TYPE_CHECKING:
    from ..server import FakeGitHub

MAX_PR_FILES = 3000
MAX_DIFF_FILES = 300
MAX_PR_COMMITS = 250
DIFF_MEDIA_TYPES = ("application/vnd.github.diff", "application/vnd.github.v3.diff")


def _pull(call: Call) -> PullRequest | None:
    return repo_of(call).pulls.get(int(call.params["pull_number"]))


def _shown_change(pr: PullRequest, change: FileChange) -> FileChange:
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
    return replace(change, **pr.listed_as.get(change.filename, {}))


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


def git_diff(pr: PullRequest) -> str:
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
    page, links = call.page(files)
    repo = repo_of(call)
    return reply([fake.shapes.diff_entry(repo, f, pr.head_sha) for f in page], headers=links)


@handles("pulls/list-commits")
async def list_pull_commits(fake: FakeGitHub, call: Call) -> web.Response:
    pr = _pull(call)
    if pr is None:
        return not_found()
    commits = pr.commits()[:MAX_PR_COMMITS]
    page, links = call.page(commits)
    return reply([fake.shapes.commit(pr.base_repo, c) for c in page], headers=links)


@handles("pulls/list-reviews")
async def list_pull_reviews(fake: FakeGitHub, call: Call) -> web.Response:
    pr = _pull(call)
    if pr is None:
        return not_found()
    page, links = call.page(pr.reviews)
    repo = repo_of(call)
    return reply([fake.shapes.review(repo, pr, r) for r in page], headers=links)
