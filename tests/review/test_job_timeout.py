"""A job stopped at JOB_TIMEOUT completes its check run as failed, every time.

The deadline has one owner (bot.runtime.dispatch.run_job) and the cleanup that completes the
run is shielded from the cancellation. A race lost once in many runs would leave a required
check `in_progress` for good, so the case is run twenty times, concurrently, through the real
server against the fake GitHub, whose answer to the files listing never comes in time. A
deadline striking before the run exists creates it already failed: the required check never
goes missing."""

from __future__ import annotations

from typing import Any

from bot.review.check_writer import ERROR_TITLE
from bot.server.app import create_app
from tests.fakegithub import FakeGitHub
from tests.fakegithub.state import PullRequest, Repo
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

    # Wherever the deadline struck (on a loaded machine, some jobs are stopped before they
    # reach the stuck request), each pull request has one run, completed as failed.
    for pr in prs:
        [run] = bot.runs(repo, pr.head_sha)
        assert (run.status, run.conclusion) == ("completed", "failure")
        assert run.output["title"] == ERROR_TITLE
        assert "JOB_TIMEOUT" in run.output["summary"]
    assert fake_github.contract_errors == []


async def test_a_job_stopped_before_its_run_exists_still_reports_failure(
    fake_github: FakeGitHub, aiohttp_client: Any
) -> None:
    # The deadline strikes while the configuration is read, before a run is created: the
    # required check must not go missing (GitHub never redelivers by itself).
    bot, repo, pr = await _kernel_pr(fake_github, aiohttp_client, job_timeout=1.0)
    fake_github.fail("GET", r"/contents/\.github/lockin\.yml", kind="timeout", times=1)

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert (run.status, run.conclusion) == ("completed", "failure")
    assert run.output["title"] == ERROR_TITLE
    assert "JOB_TIMEOUT" in run.output["summary"]
    assert [h["status"] for h in run.history] == ["completed"]  # created so, in one write
    assert not fake_github.requests_to("GET", r"/pulls/\d+/files$")
    assert fake_github.contract_errors == []


async def test_a_stopped_jobs_failed_write_is_read_again_before_it_is_resent(
    fake_github: FakeGitHub, aiohttp_client: Any
) -> None:
    # GitHub answers the cleanup's completing PATCH with a 502: whether it was applied is
    # unknown, and another job may have completed the run meanwhile, so the cleanup reads
    # the run before it writes again (a blind resend could put the error over a count).
    bot, repo, pr = await _kernel_pr(fake_github, aiohttp_client, job_timeout=2.0)
    fake_github.fail("GET", r"/pulls/\d+/files$", kind="timeout", times=1)
    fake_github.fail("PATCH", r"/check-runs/\d+$", status=502, times=1)

    await bot.pr_event(repo, pr, "opened")
    await bot.settle()

    [run] = bot.runs(repo, pr.head_sha)
    assert (run.status, run.output["title"]) == ("completed", ERROR_TITLE)
    trail = [
        r.method
        for r in fake_github.requests
        if r.path.rstrip("/").endswith(f"/check-runs/{run.id}") and r.method in ("GET", "PATCH")
    ]
    assert trail == ["GET", "PATCH", "GET", "PATCH"]
    assert fake_github.contract_errors == []


async def _kernel_pr(
    fake_github: FakeGitHub, aiohttp_client: Any, *, job_timeout: float
) -> tuple[Bot, Repo, PullRequest]:
    """The server with a short JOB_TIMEOUT, and a pull request adding a kernel; a request a
    test makes time out is held far longer than the job may take."""
    fake_github.timeout_delay = 120.0
    settings = settings_for(fake_github, job_timeout=job_timeout, request_timeout=120.0)
    bot = Bot(fake_github, await aiohttp_client(create_app(settings)))
    repo = new_repo(fake_github)
    repo.commit({"csrc/k.cu": KERNEL}, branch="feature", message="a kernel")
    return bot, repo, repo.open_pr(head_branch="feature", body="A change")
