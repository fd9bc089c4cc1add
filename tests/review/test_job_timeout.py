"""A job stopped at JOB_TIMEOUT completes its check run as failed, every time.

The deadline has one owner (bot.runtime.dispatch.run_job) and the cleanup that completes the
run is shielded from the cancellation. A race lost once in many runs would leave a required
check `in_progress` for good, so the case is run twenty times, concurrently, through the real
server against the fake GitHub, whose answer to the files listing never comes in time."""

from __future__ import annotations

from typing import Any

from bot.review.check_writer import ERROR_TITLE
from bot.server.app import create_app
from tests.fakegithub import FakeGitHub
from tests.review.conftest import Bot
from tests.review.test_pr_check import KERNEL, new_repo
from tests.support.server import settings_for
from tests.support.webhooks import pull_request_event

RUNS = 20


async def test_a_timed_out_job_completes_its_run_every_time(
    fake_github: FakeGitHub, aiohttp_client: Any
) -> None:
    # The job's deadline is far beyond the few requests before the stuck one, and far
    # below the stuck request's own wait, so each job is stopped inside that request.
    fake_github.timeout_delay = 120.0
    settings = settings_for(fake_github, workers=RUNS, job_timeout=5.0, request_timeout=120.0)
    bot = Bot(fake_github, await aiohttp_client(create_app(settings)))
    repo = new_repo(fake_github)
    prs = []
    for n in range(RUNS):
        repo.commit({f"csrc/k{n}.cu": KERNEL}, branch=f"f{n}", message="a kernel")
        prs.append(repo.open_pr(head_branch=f"f{n}", body="A change"))
    fake_github.fail("GET", r"/pulls/\d+/files$", kind="timeout", times=RUNS)

    for pr in prs:
        assert await bot.deliver(
            "pull_request", pull_request_event(fake_github, repo, pr, "opened")
        )
    await bot.settle()

    for pr in prs:
        [run] = bot.runs(repo, pr.head_sha)
        assert (run.status, run.conclusion) == ("completed", "failure")
        assert run.output["title"] == ERROR_TITLE
        assert "JOB_TIMEOUT" in run.output["summary"]
    assert len(fake_github.requests_to("GET", r"/pulls/\d+/files$")) == RUNS
    assert fake_github.contract_errors == []
