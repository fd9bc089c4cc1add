"""Webhook deliveries as GitHub sends them, pointed at the fake GitHub's repositories.

Each payload starts from a real example in tests/contract/webhook-examples and has the fields
that identify things (repository, PR, head SHA, installation, comment, check run) replaced by
the fake's, keeping every other field and its type as GitHub sends it. `sign` and
`webhook_headers` reproduce GitHub's delivery headers.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import time
import uuid
from pathlib import Path
from typing import Any

from tests.fakegithub import CheckRun, Comment, FakeGitHub, Issue, PullRequest, Repo, Review
from tests.fakegithub.shapes import node_id
from tests.fakegithub.state import iso

EXAMPLES = Path(__file__).resolve().parent.parent / "contract" / "webhook-examples"
PAYLOAD_SCHEMA = EXAMPLES.parent / "webhook-payloads.schema.json"


@functools.cache
def _example(name: str) -> str:
    return (EXAMPLES / f"{name}.json").read_text()


def load_example(name: str) -> dict[str, Any]:
    """A fresh copy of an example payload, e.g. load_example("pull_request.opened.1")."""
    return json.loads(_example(name))


# The example each payload starts from: the first one per event/action that matches the current
# payload schema and carries `installation` (several `.1` examples predate the schema).
TEMPLATES = {
    ("pull_request", "opened"): "pull_request.opened.2",
    ("pull_request", "closed"): "pull_request.closed.1",
    ("pull_request", "reopened"): "pull_request.reopened.1",
    ("pull_request", "ready_for_review"): "pull_request.ready_for_review.2",
    ("pull_request", "synchronize"): "pull_request.synchronize.1",
    ("pull_request_review", "submitted"): "pull_request_review.submitted.2",
    ("pull_request_review", "dismissed"): "pull_request_review.dismissed.1",
    ("merge_group", "checks_requested"): "merge_group.checks_requested.1",
    ("issue_comment", "created"): "issue_comment.created.4",
    ("issue_comment", "edited"): "issue_comment.edited.1",
    ("issues", "edited"): "issues.edited.1",
    ("issues", "deleted"): "issues.deleted.1",
    ("issue_comment", "deleted"): "issue_comment.deleted.1",
    ("check_suite", "requested"): "check_suite.requested.1",
    ("check_suite", "rerequested"): "check_suite.rerequested.1",
    ("check_suite", "completed"): "check_suite.completed.2",
    ("check_run", "created"): "check_run.created.2",
    ("check_run", "completed"): "check_run.completed.1",
    ("check_run", "rerequested"): "check_run.rerequested.1",
    ("check_run", "requested_action"): "check_run.requested_action.1",
    ("push", "event"): "push.event.4",
    ("installation", "created"): "installation.created.1",
    ("installation", "deleted"): "installation.deleted.2",
    ("installation", "suspend"): "installation.suspend.1",
    ("installation", "unsuspend"): "installation.unsuspend.1",
}
# Actions without an example (pull_request edited, labeled, ...) reuse one of the same event.
FALLBACK = {
    "pull_request": "pull_request.opened.2",
    "issue_comment": "issue_comment.created.4",
    "check_suite": "check_suite.requested.1",
    "check_run": "check_run.rerequested.1",
    "installation": "installation.created.1",
}


def _example_for(event: str, action: str) -> dict[str, Any]:
    payload = load_example(TEMPLATES.get((event, action)) or FALLBACK[event])
    payload["action"] = action
    return payload


def overlay(template: Any, ours: Any, user: dict[str, Any] | None = None) -> Any:
    """Our values in the example's shape: keys the example lacks are not added (the payload
    schemas forbid unknown properties) and a value whose JSON type differs keeps the example's
    (push payloads carry timestamps as integers where REST has strings). Where the example has
    no user to copy the shape from (null, or an empty list), `user` (a webhook user) serves."""
    if user is not None and isinstance(ours, dict) and "login" in ours and not template:
        template = user
    if isinstance(template, dict) and isinstance(ours, dict):
        return {k: overlay(v, ours[k], user) if k in ours else v for k, v in template.items()}
    if isinstance(template, list) and isinstance(ours, list):
        return [overlay(template[0] if template else None, item, user) for item in ours]
    if template is None or ours is None or type(template) is type(ours):
        return ours
    return template


def _installation(repo: Repo) -> dict[str, Any]:
    return {
        "id": repo.installation_id,
        "node_id": node_id("Installation", repo.installation_id),
    }


def _common(fake: FakeGitHub, repo: Repo, payload: dict[str, Any], sender: str) -> dict[str, Any]:
    payload["repository"] = overlay(payload["repository"], fake.shapes.repo(repo))
    payload["sender"] = overlay(payload["sender"], fake.shapes.user(sender))
    payload["installation"] = _installation(repo)
    if "organization" in payload:
        payload["organization"] = overlay(
            payload["organization"], {"login": repo.owner, "id": fake.shapes.user(repo.owner)["id"]}
        )
    return payload


def pull_request_event(
    fake: FakeGitHub,
    repo: Repo,
    pr: PullRequest,
    action: str,
    *,
    changes: dict[str, Any] | None = None,
    before: str | None = None,
    sender: str | None = None,
    label: str | None = None,
) -> dict[str, Any]:
    """A pull_request delivery. `edited` carries `changes` (default: the body changed from "");
    `synchronize` carries before/after (before defaults to the head's parent); `labeled` and
    `unlabeled` carry `label` (default: the PR's last label). `closed` and
    `reopened` also set the fake PR's state, as the event implies."""
    if action in ("closed", "reopened"):
        pr.state = repo.issues[pr.number].state = "closed" if action == "closed" else "open"
    payload = _example_for("pull_request", action)
    payload["number"] = pr.number
    payload["pull_request"] = overlay(
        payload["pull_request"], fake.shapes.pull(pr), payload["sender"]
    )
    if action in ("labeled", "unlabeled"):
        labels = repo.issues[pr.number].labels
        payload["label"] = fake.shapes.label(repo, label or labels[-1])
    if action == "edited":
        payload["changes"] = changes if changes is not None else {"body": {"from": ""}}
    if action == "synchronize":
        parents = repo.store.commits[pr.head_sha].parents
        payload["before"] = before or (parents[0] if parents else pr.head_sha)
        payload["after"] = pr.head_sha
    return _common(fake, repo, payload, sender or pr.user)


def pull_request_review_event(
    fake: FakeGitHub, repo: Repo, pr: PullRequest, review: Review, action: str = "submitted"
) -> dict[str, Any]:
    """A pull_request_review delivery for a review the fake holds (submitted, or dismissed
    after `Repo.dismiss_review`); webhooks carry the state in lower case."""
    payload = _example_for("pull_request_review", action)
    payload["pull_request"] = overlay(
        payload["pull_request"], fake.shapes.pull(pr), payload["sender"]
    )
    ours = fake.shapes.review(repo, pr, review)
    ours["state"] = review.state.lower()
    payload["review"] = overlay(payload["review"], ours, payload["sender"])
    return _common(fake, repo, payload, review.user)


def merge_group_event(
    fake: FakeGitHub, repo: Repo, head_sha: str, base_sha: str, prs: list[PullRequest]
) -> dict[str, Any]:
    """A merge_group checks_requested delivery: the queue built ``head_sha`` on ``base_sha``,
    its ref naming the last of ``prs`` as GitHub's gh-readonly-queue refs do."""
    payload = _example_for("merge_group", "checks_requested")
    base = repo.default_branch
    last = prs[-1]
    group = {
        "head_sha": head_sha,
        "head_ref": f"refs/heads/gh-readonly-queue/{base}/pr-{last.number}-{last.head_sha}",
        "base_sha": base_sha,
        "base_ref": f"refs/heads/{base}",
        "head_commit": _head_commit(repo, head_sha),
    }
    payload["merge_group"] = overlay(payload["merge_group"], group)
    return _common(fake, repo, payload, "github-merge-queue[bot]")


def issue_comment_event(
    fake: FakeGitHub,
    repo: Repo,
    pr: PullRequest | Issue,
    comment: Comment,
    action: str = "created",
    *,
    changes: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An issue_comment delivery for a comment on a PR (or an issue). `edited` carries
    `changes` (default: the body changed from "")."""
    payload = _example_for("issue_comment", action)
    issue = repo.issues[pr.number]
    payload["issue"] = overlay(payload["issue"], fake.shapes.issue(repo, issue), payload["sender"])
    if issue.is_pr and "pull_request" not in payload["issue"]:
        payload["issue"]["pull_request"] = fake.shapes.issue(repo, issue)["pull_request"]
    payload["comment"] = overlay(payload["comment"], fake.shapes.comment(repo, comment))
    if action == "edited":
        payload["changes"] = changes if changes is not None else {"body": {"from": ""}}
    return _common(fake, repo, payload, comment.user)


def issues_event(
    fake: FakeGitHub,
    repo: Repo,
    issue: Issue,
    action: str,
    *,
    sender: str,
    changes: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An issues delivery (edited carries `changes`, default: the body changed from "")."""
    payload = _example_for("issues", action)
    payload["issue"] = overlay(payload["issue"], fake.shapes.issue(repo, issue), payload["sender"])
    if action == "edited":
        payload["changes"] = changes if changes is not None else {"body": {"from": ""}}
    return _common(fake, repo, payload, sender)


def _head_commit(repo: Repo, sha: str) -> dict[str, Any]:
    commit = repo.store.commits[sha]
    person = {"name": commit.author, "email": f"{commit.author}@users.noreply.github.com"}
    return {
        "id": sha,
        "tree_id": commit.tree_sha,
        "message": commit.message,
        "timestamp": iso(commit.timestamp),
        "author": person,
        "committer": person,
    }


def _branch_of(repo: Repo, sha: str) -> str | None:
    return next((name for name, head in repo.branches.items() if head == sha), None)


def check_suite_event(
    fake: FakeGitHub,
    repo: Repo,
    head_sha: str,
    action: str = "requested",
    pull_requests: list[PullRequest] | None = None,
) -> dict[str, Any]:
    """A check_suite delivery. `pull_requests` defaults to what GitHub lists: open PRs of this
    repository with that head (never PRs from forks)."""
    payload = _example_for("check_suite", action)
    if pull_requests is None:
        pull_requests = [
            pr
            for pr in repo.pulls.values()
            if pr.head_sha == head_sha and not pr.is_fork and pr.state == "open"
        ]
    commit = repo.store.commits[head_sha]
    suite = {
        "id": repo.suite_id(head_sha),
        "head_sha": head_sha,
        "head_branch": _branch_of(repo, head_sha),
        "before": commit.parents[0] if commit.parents else "0" * 40,
        "after": head_sha,
        "status": "queued" if action != "completed" else "completed",
        "conclusion": None,
        "url": f"{fake.url}/repos/{repo.full_name}/check-suites/{repo.suite_id(head_sha)}",
        "check_runs_url": f"{fake.url}/repos/{repo.full_name}/check-suites/"
        f"{repo.suite_id(head_sha)}/check-runs",
        "pull_requests": [fake.shapes.pull_minimal(pr) for pr in pull_requests],
        "app": fake.shapes.app(),
        "head_commit": _head_commit(repo, head_sha),
    }
    payload["check_suite"] = overlay(payload["check_suite"], suite)
    return _common(fake, repo, payload, "octocat")


def check_run_event(
    fake: FakeGitHub,
    repo: Repo,
    check_run: CheckRun,
    action: str = "rerequested",
    requested_action: str | None = None,
) -> dict[str, Any]:
    """A check_run delivery; `requested_action` is the identifier of the button pressed."""
    if requested_action is not None:
        action = "requested_action"
    payload = _example_for("check_run", action)
    ours = fake.shapes.check_run(repo, check_run)
    ours["check_suite"] = {
        "id": check_run.suite_id,
        "head_sha": check_run.head_sha,
        "head_branch": _branch_of(repo, check_run.head_sha),
        "pull_requests": ours["pull_requests"],
        "app": ours["app"],
        "url": f"{fake.url}/repos/{repo.full_name}/check-suites/{check_run.suite_id}",
    }
    payload["check_run"] = overlay(payload["check_run"], ours)
    if requested_action is not None:
        payload["requested_action"] = {"identifier": requested_action}
    return _common(fake, repo, payload, "octocat")


def push_event(
    fake: FakeGitHub, repo: Repo, before: str, after: str, ref: str | None = None
) -> dict[str, Any]:
    """A push delivery from `before` to `after` (ref defaults to the default branch)."""
    payload = load_example(TEMPLATES["push", "event"])
    store = repo.store
    commits = []
    for commit in store.commits_between(before, after):
        parent = store.commits[commit.parents[0]].files if commit.parents else {}
        head = _head_commit(repo, commit.sha)
        author = {**head["author"], "username": commit.author}
        commits.append(
            {
                **head,
                "distinct": True,
                "url": f"https://github.com/{repo.full_name}/commit/{commit.sha}",
                "author": author,
                "committer": author,
                "added": sorted(p for p in commit.files if p not in parent),
                "removed": sorted(p for p in parent if p not in commit.files),
                "modified": sorted(
                    p for p in commit.files if p in parent and parent[p] != commit.files[p]
                ),
            }
        )
    template = payload["commits"][0] if payload["commits"] else payload["head_commit"]
    payload |= {
        "ref": ref or f"refs/heads/{repo.default_branch}",
        "before": before,
        "after": after,
        "created": False,
        "deleted": False,
        "forced": False,
        "base_ref": None,
        "compare": f"https://github.com/{repo.full_name}/compare/{before[:12]}...{after[:12]}",
        "commits": [overlay(template, c) for c in commits],
        "head_commit": overlay(template, commits[-1]) if commits else None,
    }
    payload["pusher"] = {"name": "octocat", "email": "octocat@users.noreply.github.com"}
    payload = _common(fake, repo, payload, "octocat")
    payload["repository"]["master_branch"] = repo.default_branch  # push payloads carry both
    return payload


def listed_repository(fake: FakeGitHub, repo: Repo) -> dict[str, Any]:
    """A repository as installation events list it (a few fields, not the full object)."""
    return {
        "id": repo.id,
        "node_id": fake.shapes.repo(repo)["node_id"],
        "name": repo.name,
        "full_name": repo.full_name,
        "private": repo.private,
    }


def installation_event(fake: FakeGitHub, installation_id: int, action: str) -> dict[str, Any]:
    """An installation delivery (created, deleted, suspend, unsuspend) for the fake's app."""
    payload = _example_for("installation", action)
    installation = fake.installations[installation_id]
    account = fake.shapes.user(installation.account)
    suspended = action == "suspend"
    payload["installation"] = overlay(
        payload["installation"],
        {
            "id": installation_id,
            "account": account,
            "app_id": fake.app_id,
            "app_slug": fake.app_slug,
            "target_id": account["id"],
            "suspended_at": iso(time.time()) if suspended else None,
            "suspended_by": fake.shapes.user("octocat") if suspended else None,
        },
    )
    repos = [r for r in fake.repos.values() if r.installation_id == installation_id]
    if "repositories" in payload:
        payload["repositories"] = [listed_repository(fake, r) for r in repos]
    payload["sender"] = overlay(payload["sender"], fake.shapes.user("octocat"))
    return payload


def sign(body: bytes, secret: str) -> str:
    """X-Hub-Signature-256 exactly as GitHub computes it: HMAC-SHA256 of the raw body."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def webhook_headers(
    event: str, body: bytes, secret: str, delivery: str | None = None, *, app_id: int = 424242
) -> dict[str, str]:
    """The headers of a GitHub App webhook delivery."""
    return {
        "Content-Type": "application/json",
        "User-Agent": "GitHub-Hookshot/8e03811",
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": delivery or str(uuid.uuid4()),
        "X-GitHub-Hook-ID": "1",
        "X-GitHub-Hook-Installation-Target-ID": str(app_id),
        "X-GitHub-Hook-Installation-Target-Type": "integration",
        "X-Hub-Signature": "sha1=" + hmac.new(secret.encode(), body, hashlib.sha1).hexdigest(),
        "X-Hub-Signature-256": sign(body, secret),
    }
