"""No run left open (issue 28), in the embedded mode: a run whose completion GitHub refused
is finished by the timed sweep; a run on a head a push replaced is completed as
`cancelled`, naming the newer head, by the sweep or by the next check that meets it. The
real app and its real features, signed deliveries over HTTP, the fake GitHub on loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.review.check_writer import ERROR_TITLE
from bot.server.app import create_app
from bot.server.keys import SERVICES
from tests.fakegithub import FakeGitHub, PullRequest, Repo
from tests.review.conftest import Bot
from tests.scale.cluster import until
from tests.support.server import settings_for
from tests.support.webhooks import pull_request_event

KERNEL = "__global__ void k(float* x) { x[threadIdx.x] += 1.0f; }\n"
#: The check's verdict PATCH and the PATCH that would complete the run as failed instead.
BOTH_COMPLETIONS = 2

StartBot = Callable[..., Any]


@pytest.fixture
async def start(fake_github: FakeGitHub, aiohttp_client: Any) -> AsyncIterator[StartBot]:
    async def start_bot(**overrides: Any) -> Bot:
        # One attempt per request: a refused completion stays refused.
        settings = settings_for(fake_github, retry_attempts=1, **overrides)
        return Bot(fake_github, await aiohttp_client(create_app(settings)))

    yield start_bot
    assert fake_github.contract_errors == []


def kernel_pr(fake: FakeGitHub) -> tuple[Repo, PullRequest]:
    repo = fake.add_repo("octo/ml", files={"README.md": "# ml\n"})
    repo.commit({"csrc/k.cu": KERNEL}, branch="feature")
    return repo, repo.open_pr(head_branch="feature")


async def left_in_progress(bot: Bot, repo: Repo, pr: PullRequest) -> int:
    """Open the PR while GitHub refuses both ways of completing its run: the run's id."""
    bot.fake.fail("PATCH", r"/check-runs/\d+$", status=502, times=BOTH_COMPLETIONS)
    await bot.pr_event(repo, pr, "opened")
    [run] = bot.runs(repo, pr.head_sha)
    assert run.status == "in_progress"
    return run.id


@pytest.mark.timeout(300)
async def test_a_run_whose_completion_github_refused_is_finished_by_the_sweep(
    start: StartBot,
) -> None:
    bot = await start(job_timeout=15.0, stale_run_sweep_interval=0.5)
    repo, pr = kernel_pr(bot.fake)
    run_id = await left_in_progress(bot, repo, pr)

    run = repo.check_runs[run_id]
    await until(lambda: run.status == "completed", "the sweep finished the run", within=120)
    # Checked again into the same run, with the check's verdict.
    assert [r.id for r in bot.runs(repo, pr.head_sha)] == [run_id]
    assert (run.conclusion, run.output["title"] != ERROR_TITLE) == ("failure", True)
    open_runs = bot.client.server.app[SERVICES].caches.open_runs
    await until(lambda: _none_open(open_runs), "the run is no longer recorded as open")


@pytest.mark.timeout(300)
async def test_a_run_on_a_replaced_head_is_cancelled_by_the_sweep(start: StartBot) -> None:
    bot = await start(job_timeout=15.0, stale_run_sweep_interval=0.5)
    repo, pr = kernel_pr(bot.fake)
    old_head = pr.head_sha
    run = repo.check_runs[await left_in_progress(bot, repo, pr)]
    repo.push_to_pr(pr.number, {"csrc/more.cu": KERNEL})  # no delivery for it (yet)

    await until(lambda: run.status == "completed", "the sweep finished the run", within=120)
    assert run.conclusion == "cancelled"
    assert run.output["title"] == f"Superseded by {pr.head_sha[:7]}"
    assert pr.head_sha in run.output["summary"]
    assert bot.runs(repo, pr.head_sha) == []  # the new head's own delivery checks it
    assert run.head_sha == old_head


async def test_a_check_meeting_a_run_on_a_replaced_head_cancels_it(start: StartBot) -> None:
    bot = await start(stale_run_sweep_interval=3600.0)  # no sweep during the test
    repo, pr = kernel_pr(bot.fake)
    old_head = pr.head_sha
    old_payload = pull_request_event(bot.fake, repo, pr, "opened")
    run = repo.check_runs[await left_in_progress(bot, repo, pr)]
    repo.push_to_pr(pr.number, {"csrc/more.cu": KERNEL})

    # A delivery naming the old head (late, or redelivered) finds the PR moved on.
    assert await bot.deliver("pull_request", old_payload) == 202
    await bot.settle()
    assert run.conclusion == "cancelled"
    assert run.output["title"] == f"Superseded by {pr.head_sha[:7]}"
    # ... and checks the current head, as before.
    [newest] = bot.runs(repo, pr.head_sha)
    assert (newest.status, newest.conclusion) == ("completed", "failure")

    # A force-push back to the old head: the cancelled run is no result, the head is
    # checked again into a run with a verdict.
    pr.head_sha = old_head
    await bot.pr_event(repo, pr, "synchronize")
    verdicts = [r for r in bot.runs(repo, old_head) if r.conclusion != "cancelled"]
    assert [(r.status, r.conclusion) for r in verdicts] == [("completed", "failure")]


async def _none_open(open_runs: Any) -> bool:
    return await open_runs.older_than(0) == []
