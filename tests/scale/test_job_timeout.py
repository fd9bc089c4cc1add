"""With Redis: a job stopped by JOB_TIMEOUT in `lockin worker` completes its check run as
failed, every time (the deadline used to have two owners there, and the second one's
cancellation could cut the cleanup short, leaving the run in progress)."""

from __future__ import annotations

import uuid

import pytest

from bot.review.check_writer import ERROR_TITLE
from tests.scale.cluster import Cluster, pr_payload, until
from tests.scale.test_scale_out import kernel, repo_with_kernel_pr

RUNS = 20


@pytest.mark.timeout(300)
async def test_a_timed_out_job_in_a_worker_completes_its_run_as_failed_every_time(
    cluster: Cluster,
) -> None:
    fake = cluster.fake
    web = await cluster.start_web()
    # The held request outlasts JOB_TIMEOUT by an hour: the deadline fires while the run is open.
    worker = await cluster.start_worker(JOB_TIMEOUT="1", REQUEST_TIMEOUT="3600")
    fake.timeout_delay = 3600
    repo, pr = repo_with_kernel_pr(fake)
    files = rf"/pulls/{pr.number}/files"
    fake.fail("GET", files, kind="timeout", times=RUNS)
    for attempt in range(RUNS):
        if attempt:
            repo.push_to_pr(pr.number, {f"csrc/k{attempt}.cu": kernel(f"k{attempt}")})
        action = "synchronize" if attempt else "opened"
        delivery = str(uuid.uuid4())
        status, _ = await cluster.deliver(
            web, "pull_request", pr_payload(fake, repo, pr, action), delivery
        )
        assert status == 202
        await until(
            lambda d=delivery: worker.logged("job stopped after JOB_TIMEOUT", delivery_id=d),
            f"job {attempt} stopped",
        )
        # Wherever the deadline struck (a loaded machine may stop the job before it reaches
        # the held request), the head has one run, completed as failed.
        [run] = [r for r in repo.check_runs.values() if r.head_sha == pr.head_sha]
        assert (run.status, run.conclusion) == ("completed", "failure"), attempt
        assert run.output["title"] == ERROR_TITLE
