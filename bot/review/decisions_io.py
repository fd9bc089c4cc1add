"""Decision records as the gate needs them: the PR's links resolved, and the records on the
default branch that cover paths by scope.

A linked path is read at the PR head (a PR may add its own record, which counts once its
owner approves: bot.review.approvals_io) or on the default branch when the policy requires
it; an issue link is read through the issues API. Reading never judges: the gate
(bot.policy) decides which requirement a record misses.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING
from urllib.parse import quote

from bot.github.contents import BlobReader, file_contents
from bot.github.errors import NotFound
from bot.policy.config import Policy
from bot.policy.decisions import (
    DecisionError,
    DecisionRecord,
    DecisionRef,
    find_links,
    issue_record,
    parse_decision,
    parse_ref,
    read_records,
)
from bot.policy.gate import LinkedDecision

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.payloads import PullRequest
    from bot.github.refs import RepoRef

#: Links followed per PR, and records read from the decisions folder: bounds the requests a
#: description full of links (or a folder of thousands of files) can cost.
MAX_LINKS = 20
MAX_RECORDS = 200
#: Commits GitHub lists for a pull request at most.
MAX_PR_COMMITS = 250
_RECORD_SUFFIXES = (".md", ".markdown")


async def pr_link_texts(gh: GitHub, pr: PullRequest) -> list[str]:
    """The PR description and every commit message (links may be commit trailers).

    ``pulls/{n}/commits`` lists at most 250 commits; a longer PR's commits are paged
    through the compare API instead (its first page also carries up to 300 files, so the
    cheaper listing is kept for the usual PR)."""
    repo = pr.pull.repo
    texts = [pr.body]
    if pr.commits <= MAX_PR_COMMITS:
        pages = gh.getiter(f"/repos/{repo.full_name}/pulls/{pr.number}/commits")
    else:
        basehead = f"{pr.base_sha}...{pr.head_sha}"
        pages = gh.getiter(f"/repos/{repo.full_name}/compare/{basehead}", iterable_key="commits")
    async for commit in pages:
        texts.append(commit["commit"]["message"])
    return texts


async def linked_decisions(
    gh: GitHub,
    texts: list[str],
    *,
    repo: RepoRef,
    head_sha: str,
    default_branch: str,
    policy: Policy,
) -> list[LinkedDecision]:
    linked: list[LinkedDecision] = []
    for raw in find_links(*texts)[:MAX_LINKS]:
        ref = parse_ref(raw, owner=repo.owner, repo=repo.name, folder=policy.decisions.folder)
        if ref.kind == "invalid":
            linked.append(LinkedDecision(ref.raw, None, ref.reason))
        elif ref.kind == "issue":
            linked.append(await _issue(gh, repo, ref))
        else:
            on_default = policy.decisions.require_default_branch
            at = default_branch if on_default else head_sha
            where = f"the default branch ({default_branch})" if on_default else "the PR head"
            linked.append(await _file(gh, repo, ref, at, where))
    return linked


async def _file(gh: GitHub, repo: RepoRef, ref: DecisionRef, at: str, where: str) -> LinkedDecision:
    path = str(ref.value)
    data = await file_contents(gh, repo, path, at)
    if data is None:
        return LinkedDecision(ref.raw, None, f"{path} does not exist on {where}")
    try:
        return LinkedDecision(ref.raw, parse_decision(ref.raw, data, path=path), None)
    except DecisionError as error:
        return LinkedDecision(ref.raw, None, f"{path}: {error}")


async def _issue(gh: GitHub, repo: RepoRef, ref: DecisionRef) -> LinkedDecision:
    try:
        issue = await gh.getitem(f"/repos/{repo.full_name}/issues/{ref.value}")
    except NotFound:
        return LinkedDecision(ref.raw, None, f"issue #{ref.value} does not exist")
    if "pull_request" in issue:
        return LinkedDecision(ref.raw, None, f"#{ref.value} is a pull request, not an issue")
    try:
        record = issue_record(
            ref.raw,
            body=issue.get("body"),
            labels=[label["name"] for label in issue.get("labels", [])],
            assignees=[user["login"] for user in issue.get("assignees") or []],
            state=issue.get("state", "open"),
            title=issue.get("title"),
        )
    except DecisionError as error:
        return LinkedDecision(ref.raw, None, str(error))
    return LinkedDecision(ref.raw, record, None)


async def recorded_decisions(
    gh: GitHub, reader: BlobReader, *, repo: RepoRef, default_branch: str, policy: Policy
) -> tuple[list[DecisionRecord], list[str]]:
    """The records in the decisions folder on the default branch, and one line per file
    that cannot be read (shown in the output: a broken record covers nothing)."""
    folder = policy.decisions.folder
    try:
        listing = await gh.getitem(
            f"/repos/{repo.full_name}/contents/{quote(folder)}?ref={quote(default_branch, safe='')}"
        )
    except NotFound:
        return [], []
    if not isinstance(listing, list):
        return [], []
    entries = [
        entry
        for entry in listing
        if entry.get("type") == "file" and entry["name"].lower().endswith(_RECORD_SUFFIXES)
    ][:MAX_RECORDS]
    blobs = await reader.blobs({entry["sha"] for entry in entries})
    return read_records(
        (posixpath.join(folder, entry["name"]), blobs[entry["sha"]]) for entry in entries
    )
