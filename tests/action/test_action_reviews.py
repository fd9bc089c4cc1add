"""The Action reads reviews with the job's token (a record the pull request adds counts once
its owner approves) and runs on merge_group. action.yml runs as a runner runs it, against a
real checkout, with the fake GitHub serving the pull request and its reviews on loopback."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.action.runner import ActionRun, run_action
from tests.action.test_action import EXAMPLES, OWN_PYTHON, Upstream, pull_request_event
from tests.cli.test_cli import KERNEL, RECORD
from tests.fakegithub import FakeGitHub, PullRequest, Repo

OPS_RECORD = "docs/decisions/0002-ops.md"  # owned by @gpu-team (tests/cli/test_cli.RECORD)
LINK = f"Adds a kernel.\n\nCompute-API-Decision: {OPS_RECORD}\n"


@pytest.fixture
def upstream(tmp_path: Path) -> Upstream:
    return Upstream(tmp_path)


@pytest.fixture
def github(fake_github: FakeGitHub) -> tuple[FakeGitHub, Repo, PullRequest]:
    """The pull request as GitHub knows it (by alice), with no review yet."""
    fake_github.add_account("gpu-team")
    repo = fake_github.add_repo("octo/ml", files={"README.md": "# ml\n"})
    repo.commit({"README.md": "# ml 2\n"}, branch="ops")
    return fake_github, repo, repo.open_pr(head_branch="ops", user="alice", body=LINK)


def job(fake: FakeGitHub) -> dict[str, str]:
    token = fake.issue_token(1).value
    return {
        **OWN_PYTHON,
        "GITHUB_TOKEN": token,
        "GITHUB_API_URL": fake.url,
        "GITHUB_REPOSITORY": "octo/ml",
    }


async def run_event(
    upstream: Upstream, name: str, payload: dict, environ: dict[str, str]
) -> ActionRun:
    temp = upstream.tmp / "runner-temp"
    temp.mkdir(exist_ok=True)
    event = upstream.tmp / f"{name}.json"
    event.write_text(json.dumps(payload), encoding="utf-8")
    # In a thread: the fake GitHub answers the Action from this test's event loop.
    return await asyncio.to_thread(
        run_action,
        workspace=upstream.clone(),
        temp=temp,
        event_name=name,
        event_path=event,
        environ=environ,
    )


def pr_payload(upstream: Upstream, head: str, pr: PullRequest) -> dict:
    payload = json.loads(pull_request_event(upstream.tmp, upstream.base, head, LINK).read_text())
    payload["pull_request"]["number"] = pr.number
    return payload


async def test_the_owner_approving_the_pull_request_lets_its_record_count(
    upstream: Upstream, github: tuple[FakeGitHub, Repo, PullRequest]
) -> None:
    fake, repo, pr = github
    head = upstream.branch("ops", {"ops/new.cu": KERNEL, OPS_RECORD: RECORD.format(scope="ops/**")})

    waiting = await run_event(upstream, "pull_request", pr_payload(upstream, head, pr), job(fake))
    assert waiting.code == 1, waiting.stderr
    assert "awaiting an approving review from" in waiting.summary
    assert fake.requests_to("GET", rf"^/repos/octo/ml/pulls/{pr.number}/reviews$")

    repo.review_pr(pr.number, "alice", commit_id=head)  # the author: never counts
    assert (
        await run_event(upstream, "pull_request", pr_payload(upstream, head, pr), job(fake))
    ).code == 1
    repo.review_pr(pr.number, "gpu-team", commit_id=head)
    approved = await run_event(upstream, "pull_request", pr_payload(upstream, head, pr), job(fake))
    assert (approved.code, approved.outputs["verdict"]) == (0, "success"), approved.stderr
    assert fake.contract_errors == []


def merge_group_payload(upstream: Upstream, head: str, number: int) -> dict:
    payload = json.loads(
        (EXAMPLES / "merge_group.checks_requested.1.json").read_text(encoding="utf-8")
    )
    group = payload["merge_group"]
    group["base_sha"], group["head_sha"] = upstream.base, head
    group["base_ref"] = "refs/heads/main"
    group["head_ref"] = f"refs/heads/gh-readonly-queue/main/pr-{number}-{head}"
    return payload


async def test_the_action_runs_on_a_merge_group(
    upstream: Upstream, github: tuple[FakeGitHub, Repo, PullRequest]
) -> None:
    fake, repo, pr = github
    files = {"ops/new.cu": KERNEL, OPS_RECORD: RECORD.format(scope="ops/**")}
    head = upstream.branch(f"gh-readonly-queue/main/pr-{pr.number}", files, f"Ops (#{pr.number})")
    payload = merge_group_payload(upstream, head, pr.number)

    # No token: the group's record awaits approval, and the step fails rather than exit 2.
    offline = await run_event(upstream, "merge_group", payload, OWN_PYTHON)
    assert offline.code == 1, offline.stderr
    assert offline.outputs["verdict"] == "failure"

    # With the token: the description's link and the owner's approval on the PR count.
    repo.review_pr(pr.number, "gpu-team", commit_id=head)
    run = await run_event(upstream, "merge_group", payload, job(fake))
    assert (run.code, run.outputs["verdict"]) == (0, "success"), run.stderr
    assert OPS_RECORD in run.summary
    assert fake.contract_errors == []


async def test_a_merge_group_inside_a_recorded_scope_passes_without_a_token(
    upstream: Upstream,
) -> None:
    head = upstream.branch("gh-readonly-queue/main/pr-7", {"csrc/new.cu": KERNEL}, "Csrc (#7)")
    run = await run_event(
        upstream, "merge_group", merge_group_payload(upstream, head, 7), OWN_PYTHON
    )
    assert (run.code, run.outputs["verdict"]) == (0, "success"), run.stderr
    assert "docs/decisions/0001-csrc.md" in run.summary
