"""A run left in progress by a killed embedded server (`lockin serve` without Redis) is
found and finished by the server that replaces it. Real processes against the fake GitHub."""

from __future__ import annotations

import uuid

import pytest

from bot.review.check_writer import ERROR_TITLE
from tests.scale.cluster import Cluster, pr_payload, until
from tests.scale.test_scale_out import open_kernel_pr, repo_with_kernel_pr


@pytest.mark.timeout(240)
async def test_a_run_a_killed_server_left_in_progress_is_finished_by_the_next(
    cluster: Cluster,
) -> None:
    fake = cluster.fake
    cluster.settings |= {"REDIS_URL": "", "REQUEST_TIMEOUT": "120"}  # the embedded mode
    doomed = await cluster.start_web()
    repo, pr = repo_with_kernel_pr(fake)
    # Its GitHub requests wait as long as GitHub makes them wait: the kill lands mid-check.
    fake.timeout_delay = 120
    fake.fail("GET", rf"/pulls/{pr.number}/files", kind="timeout", times=1)

    status, _ = await cluster.deliver(
        doomed, "pull_request", pr_payload(fake, repo, pr, "opened"), str(uuid.uuid4())
    )
    assert status == 202
    await until(
        lambda: fake.requests_to("GET", rf"/pulls/{pr.number}/files"), "the check listing files"
    )
    [left] = repo.check_runs.values()
    assert left.status == "in_progress"
    await doomed.kill()

    cluster.settings["REQUEST_TIMEOUT"] = "5"
    successor = await cluster.start_web()
    # Any delivery from the installation: here another pull request opened.
    other = open_kernel_pr(repo, 2)
    status, _ = await cluster.deliver(
        successor, "pull_request", pr_payload(fake, repo, other, "opened"), str(uuid.uuid4())
    )
    assert status == 202

    await until(lambda: left.status == "completed", "the left run completed", within=120)
    assert successor.logged(f"check run {left.id} on {repo.full_name}#{pr.number} was left")
    runs = [r for r in repo.check_runs.values() if r.head_sha == pr.head_sha]
    assert [r.id for r in runs] == [left.id]  # finished, not replaced
    assert (left.conclusion, left.output["title"] != ERROR_TITLE) == ("failure", True)
    assert fake.contract_errors == []
