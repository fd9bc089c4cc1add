"""Issues, issue comments and comment reactions."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from aiohttp import web

from ..state import Comment, Issue, iso
from .common import Call, handles, not_found, reply, repo_of, validation_failed

if TYPE_CHECKING:
    from ..server import FakeGitHub

MAX_COMMENT_LENGTH = 65536


@handles("issues/get")
async def get_issue(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    issue = repo.issues.get(int(call.params["issue_number"]))
    return reply(fake.shapes.issue(repo, issue)) if issue else not_found()


def _issue_number(call: Call) -> int | None:
    number = int(call.params["issue_number"])
    return number if number in repo_of(call).issues else None


@handles("issues/list-comments")
async def list_comments(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    if (number := _issue_number(call)) is None:
        return not_found()
    since = call.query.get("since", "")
    comments = [
        c
        for c in sorted(repo.comments.values(), key=lambda c: c.id)
        if c.issue_number == number and c.updated_at >= since
    ]
    page, links = call.page(comments)
    return reply([fake.shapes.comment(repo, c) for c in page], headers=links)


def _comment_too_long(body: str) -> web.Response | None:
    if len(body) > MAX_COMMENT_LENGTH:
        return validation_failed(
            "IssueComment", "data", f"Body is too long (maximum is {MAX_COMMENT_LENGTH} characters)"
        )
    return None


@handles("issues/create-comment")
async def create_comment(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    if (number := _issue_number(call)) is None:
        return not_found()
    body = call.json["body"]
    if rejected := _comment_too_long(body):
        return rejected
    comment = repo.add_comment(number, body, user=fake.bot_login, user_type="Bot", via_app=True)
    shaped = fake.shapes.comment(repo, comment)
    return reply(shaped, 201, headers={"Location": shaped["url"]})


def _comment(call: Call) -> Comment | None:
    return repo_of(call).comments.get(int(call.params["comment_id"]))


@handles("issues/get-comment")
async def get_comment(fake: FakeGitHub, call: Call) -> web.Response:
    comment = _comment(call)
    return reply(fake.shapes.comment(repo_of(call), comment)) if comment else not_found()


@handles("issues/update-comment")
async def update_comment(fake: FakeGitHub, call: Call) -> web.Response:
    comment = _comment(call)
    if comment is None:
        return not_found()
    if rejected := _comment_too_long(call.json["body"]):
        return rejected
    comment.body = call.json["body"]
    comment.updated_at = iso(time.time())
    return reply(fake.shapes.comment(repo_of(call), comment))


@handles("issues/delete-comment")
async def delete_comment(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
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
    reaction, new = repo_of(call).add_reaction(comment.id, call.json["content"], fake.bot_login)
    return reply(fake.shapes.reaction(reaction), 201 if new else 200)


@handles("issues/list-for-repo")
async def list_issues(fake: FakeGitHub, call: Call) -> web.Response:
    """Issues and pull requests (as GitHub lists them, a PR in the state of the PR), most
    recently created first, filtered by state and creator."""
    repo = repo_of(call)
    wanted = call.query.get("state", "open")
    creator = call.query.get("creator")

    def state(issue: Issue) -> str:
        return repo.pulls[issue.number].state if issue.is_pr else issue.state

    issues = [
        issue
        for issue in sorted(repo.issues.values(), key=lambda i: i.id, reverse=True)
        if (wanted == "all" or state(issue) == wanted)
        and (creator is None or issue.user.lower() == creator.lower())
    ]
    page, links = call.page(issues)
    return reply([fake.shapes.issue(repo, i) for i in page], headers=links)


@handles("issues/create")
async def create_issue(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    body = call.json.get("body") or ""
    if rejected := _comment_too_long(body):
        return rejected
    issue = repo.add_issue(
        call.json["title"], body, labels=call.json.get("labels") or [], user=fake.bot_login
    )
    shaped = fake.shapes.issue(repo, issue)
    return reply(shaped, 201, headers={"Location": shaped["url"]})


@handles("issues/update")
async def update_issue(fake: FakeGitHub, call: Call) -> web.Response:
    repo = repo_of(call)
    issue = repo.issues.get(int(call.params["issue_number"]))
    if issue is None:
        return not_found()
    if "body" in call.json:
        if rejected := _comment_too_long(call.json["body"] or ""):
            return rejected
        issue.body = call.json["body"] or ""
    if "title" in call.json:
        issue.title = call.json["title"]
    if "state" in call.json:
        issue.state = call.json["state"]
    return reply(fake.shapes.issue(repo, issue))
