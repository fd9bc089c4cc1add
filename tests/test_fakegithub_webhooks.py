"""Helper-made webhook deliveries are shaped like GitHub's (the published payload schema) and
signed as GitHub signs them."""

from __future__ import annotations

import functools
import json
from typing import Any

import jsonschema
import pytest

from tests.fakegithub import CheckRun, FakeGitHub, PullRequest, Repo
from tests.support import webhooks
from tests.support.webhooks import PAYLOAD_SCHEMA


@functools.cache
def _definitions() -> dict[str, Any]:
    return json.loads(PAYLOAD_SCHEMA.read_text())["definitions"]


def schema_errors(event: str, action: str, payload: dict[str, Any]) -> list[str]:
    """Errors against the sub-schema of this event and action (e.g. pull_request$opened)."""
    schema = {"$ref": f"#/definitions/{event}${action}", "definitions": _definitions()}
    validator = jsonschema.Draft7Validator(schema)
    return [f"{list(e.absolute_path)}: {e.message[:200]}" for e in validator.iter_errors(payload)]


@pytest.fixture
def repo(fake_github: FakeGitHub) -> Repo:
    repo = fake_github.add_repo("acme/ml", files={"README.md": "# ml\n"}, installation_id=9)
    repo.commit({"kernels/add.cu": "__global__ void add() {}\n"}, branch="kernel")
    return repo


@pytest.fixture
def pr(repo: Repo) -> PullRequest:
    return repo.open_pr(head_branch="kernel", body="Adds a kernel", user="alice")


@pytest.fixture
def check_run(repo: Repo, pr: PullRequest) -> CheckRun:
    run = CheckRun(
        id=repo.next_check_run_id(),
        name="lockin",
        head_sha=pr.head_sha,
        status="completed",
        conclusion="failure",
        started_at="2024-01-01T00:00:00Z",
        completed_at="2024-01-01T00:00:01Z",
        external_id="",
        details_url=None,
        output={"title": "1 kernel line", "summary": "s"},
        annotations=[],
        actions=[],
        suite_id=repo.suite_id(pr.head_sha),
    )
    repo.check_runs[run.id] = run
    return run


@pytest.mark.parametrize(
    "action", ["opened", "synchronize", "reopened", "ready_for_review", "edited", "closed"]
)
def test_pull_request_payloads(
    fake_github: FakeGitHub, repo: Repo, pr: PullRequest, action: str
) -> None:
    payload = webhooks.pull_request_event(fake_github, repo, pr, action)
    assert schema_errors("pull_request", action, payload) == []
    assert payload["action"] == action
    assert payload["number"] == pr.number
    assert payload["pull_request"]["head"]["sha"] == pr.head_sha
    assert payload["pull_request"]["body"] == "Adds a kernel"
    assert payload["repository"]["full_name"] == "acme/ml"
    assert payload["installation"]["id"] == 9
    assert payload["sender"]["login"] == "alice"


@pytest.mark.parametrize("action", ["submitted", "dismissed"])
def test_pull_request_review_payloads(
    fake_github: FakeGitHub, repo: Repo, pr: PullRequest, action: str
) -> None:
    review = repo.review_pr(pr.number, "bob")
    if action == "dismissed":
        repo.dismiss_review(pr.number, review.id)
    payload = webhooks.pull_request_review_event(fake_github, repo, pr, review, action)
    assert schema_errors("pull_request_review", action, payload) == []
    assert payload["review"]["state"] == ("approved" if action == "submitted" else "dismissed")
    assert payload["review"]["user"]["login"] == "bob"
    assert payload["review"]["commit_id"] == pr.head_sha
    assert payload["pull_request"]["number"] == pr.number
    assert payload["installation"]["id"] == 9


def test_merge_group_payloads(fake_github: FakeGitHub, repo: Repo, pr: PullRequest) -> None:
    base = repo.head()
    head = repo.commit({"kernels/add.cu": "__global__ void add() {}\n"}, message="Add (#1)")
    payload = webhooks.merge_group_event(fake_github, repo, head, base, [pr])
    assert schema_errors("merge_group", "checks_requested", payload) == []
    assert payload["merge_group"]["head_sha"] == head
    assert payload["merge_group"]["base_sha"] == base
    assert payload["merge_group"]["head_ref"].endswith(f"/pr-{pr.number}-{pr.head_sha}")
    assert payload["installation"]["id"] == 9


def test_labels_assignees_and_draft_keep_the_webhook_shape(
    fake_github: FakeGitHub, repo: Repo
) -> None:
    repo.commit({"kernels/mul.cu": "__global__ void mul() {}\n"}, branch="draft")
    pr = repo.open_pr(head_branch="draft", draft=True)
    issue = repo.issues[pr.number]
    issue.labels.append("compute-api-decision")
    issue.assignees += ["bob", "carol"]
    payload = webhooks.pull_request_event(fake_github, repo, pr, "labeled")
    assert schema_errors("pull_request", "labeled", payload) == []
    assert payload["label"]["name"] == "compute-api-decision"
    assert payload["pull_request"]["draft"] is True
    assert payload["pull_request"]["assignee"]["login"] == "bob"
    assert [a["login"] for a in payload["pull_request"]["assignees"]] == ["bob", "carol"]


def test_synchronize_and_edited_carry_what_changed(
    fake_github: FakeGitHub, repo: Repo, pr: PullRequest
) -> None:
    before = pr.head_sha
    after = repo.push_to_pr(pr.number, {"kernels/mul.cu": "__global__ void mul() {}\n"})
    sync = webhooks.pull_request_event(fake_github, repo, pr, "synchronize")
    assert (sync["before"], sync["after"]) == (before, after)
    edited = webhooks.pull_request_event(
        fake_github, repo, pr, "edited", changes={"body": {"from": "old"}}
    )
    assert edited["changes"] == {"body": {"from": "old"}}


def test_fork_pull_request_payload(fake_github: FakeGitHub, repo: Repo) -> None:
    fork = fake_github.add_repo("alice/ml", files={}, fork_of="acme/ml")
    fork.commit({"kernels/mul.cu": "__global__ void mul() {}\n"}, branch="mul")
    pr = repo.open_pr(head_branch="mul", head_repo=fork, user="alice")
    payload = webhooks.pull_request_event(fake_github, repo, pr, "opened")
    assert schema_errors("pull_request", "opened", payload) == []
    assert payload["pull_request"]["head"]["repo"]["full_name"] == "alice/ml"
    assert payload["pull_request"]["head"]["repo"]["fork"] is True
    assert payload["pull_request"]["base"]["repo"]["full_name"] == "acme/ml"
    suite = webhooks.check_suite_event(fake_github, repo, pr.head_sha)
    assert suite["check_suite"]["pull_requests"] == []  # GitHub lists no fork PRs here


@pytest.mark.parametrize("action", ["created", "edited", "deleted"])
def test_issue_comment_payloads(
    fake_github: FakeGitHub, repo: Repo, pr: PullRequest, action: str
) -> None:
    comment = repo.add_comment(pr.number, "/lockin recount", user="maintainer")
    payload = webhooks.issue_comment_event(fake_github, repo, pr, comment, action)
    assert schema_errors("issue_comment", action, payload) == []
    assert payload["comment"]["id"] == comment.id
    assert payload["comment"]["body"] == "/lockin recount"
    assert payload["comment"]["user"]["login"] == "maintainer"
    assert payload["issue"]["number"] == pr.number
    assert "pull_request" in payload["issue"]
    assert payload["installation"]["id"] == 9


def test_bot_comment_payload_says_bot(fake_github: FakeGitHub, repo: Repo, pr: PullRequest) -> None:
    comment = repo.add_comment(pr.number, "<!-- lockin -->", user="lockin[bot]", user_type="Bot")
    payload = webhooks.issue_comment_event(fake_github, repo, pr, comment)
    assert schema_errors("issue_comment", "created", payload) == []
    assert payload["comment"]["user"]["type"] == "Bot"
    assert payload["sender"]["login"] == "lockin[bot]"


@pytest.mark.parametrize("action", ["requested", "rerequested", "completed"])
def test_check_suite_payloads(
    fake_github: FakeGitHub, repo: Repo, pr: PullRequest, action: str
) -> None:
    payload = webhooks.check_suite_event(fake_github, repo, pr.head_sha, action)
    assert schema_errors("check_suite", action, payload) == []
    suite = payload["check_suite"]
    assert suite["head_sha"] == pr.head_sha
    assert suite["head_branch"] == "kernel"
    assert [p["number"] for p in suite["pull_requests"]] == [pr.number]
    assert suite["app"]["id"] == fake_github.app_id


@pytest.mark.parametrize("action", ["created", "completed", "rerequested"])
def test_check_run_payloads(
    fake_github: FakeGitHub, repo: Repo, check_run: CheckRun, action: str
) -> None:
    payload = webhooks.check_run_event(fake_github, repo, check_run, action)
    assert schema_errors("check_run", action, payload) == []
    assert payload["check_run"]["id"] == check_run.id
    assert payload["check_run"]["head_sha"] == check_run.head_sha
    assert payload["check_run"]["app"]["id"] == fake_github.app_id


def test_check_run_requested_action(
    fake_github: FakeGitHub, repo: Repo, check_run: CheckRun
) -> None:
    payload = webhooks.check_run_event(fake_github, repo, check_run, requested_action="recount")
    assert schema_errors("check_run", "requested_action", payload) == []
    assert payload["action"] == "requested_action"
    assert payload["requested_action"] == {"identifier": "recount"}


def test_push_payload(fake_github: FakeGitHub, repo: Repo) -> None:
    before = repo.head()
    repo.commit({"kernels/a.cu": "__global__ void a() {}\n"}, message="add a")
    after = repo.commit({"README.md": None, "b.py": "b\n"}, message="drop readme")
    payload = webhooks.push_event(fake_github, repo, before, after)
    assert schema_errors("push", "event", payload) == []
    assert (payload["ref"], payload["before"], payload["after"]) == (
        "refs/heads/main",
        before,
        after,
    )
    assert [c["message"] for c in payload["commits"]] == ["add a", "drop readme"]
    assert payload["commits"][1]["removed"] == ["README.md"]
    assert payload["commits"][1]["added"] == ["b.py"]
    assert payload["head_commit"]["id"] == after
    assert payload["repository"]["default_branch"] == "main"


@pytest.mark.parametrize("action", ["created", "deleted", "suspend", "unsuspend"])
def test_installation_payloads(fake_github: FakeGitHub, repo: Repo, action: str) -> None:
    payload = webhooks.installation_event(fake_github, 9, action)
    assert schema_errors("installation", action, payload) == []
    assert payload["installation"]["id"] == 9
    assert payload["installation"]["app_id"] == fake_github.app_id
    if "repositories" in payload:
        assert [r["full_name"] for r in payload["repositories"]] == ["acme/ml"]


def test_load_example_returns_a_fresh_copy() -> None:
    first = webhooks.load_example("ping.event.2")
    first["zen"] = "changed"
    assert webhooks.load_example("ping.event.2")["zen"] != "changed"


def test_signature_matches_githubs_documented_example() -> None:
    # The test vector in GitHub's "Validating webhook deliveries" documentation.
    signature = webhooks.sign(b"Hello, World!", "It's a Secret to Everybody")
    assert signature == "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"


def test_webhook_headers() -> None:
    body = b'{"zen": "Keep it logically awesome."}'
    headers = webhooks.webhook_headers("ping", body, "s3cret", delivery="d-1")
    assert headers["X-GitHub-Event"] == "ping"
    assert headers["X-GitHub-Delivery"] == "d-1"
    assert headers["X-Hub-Signature-256"] == webhooks.sign(body, "s3cret")
    assert headers["Content-Type"] == "application/json"
    other = webhooks.webhook_headers("ping", body, "s3cret")
    assert (
        other["X-GitHub-Delivery"]
        != webhooks.webhook_headers("ping", body, "s3cret")["X-GitHub-Delivery"]
    )
