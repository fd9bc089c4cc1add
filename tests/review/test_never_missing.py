"""A check run for every pull-request head lockin is asked to check, whatever GitHub does,
and lockin's own retries once GitHub answers again (GitHub never redelivers by itself).

Driven by signed deliveries to the real server against the fake GitHub, with each of the
PR check's reads made to fail for good in turn."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.review.check_writer import ERROR_TITLE
from bot.runtime.jobs import LocalJobQueue
from bot.server.app import create_app
from bot.server.keys import SERVICES
from tests.fakegithub import FakeGitHub, PullRequest, Repo
from tests.review.conftest import RETRY_ATTEMPTS, Bot
from tests.review.test_pr_check import (
    KERNEL,
    RECORD,
    SECOND_KERNEL,
    new_repo,
    open_pr,
    record,
)
from tests.server.conftest import until
from tests.support.server import settings_for
from tests.support.webhooks import pull_request_event

FOR_GOOD = 10_000
#: lockin's own retries of a job, quick for the tests (production: 60,300,1800 s).
DELAYS = (0.05, 0.05)


class RetryingBot(Bot):
    @property
    def queue(self) -> LocalJobQueue:
        queue = self.client.server.app[SERVICES].queue
        assert isinstance(queue, LocalJobQueue)
        return queue

    async def settle(self) -> None:
        """Wait until every delivery and every retry scheduled for it has run."""
        while True:
            await self.queue.join()
            if not self.queue.pending_retries():
                return
            await asyncio.sleep(0.01)

    def metric(self, outcome: str) -> float:
        metrics = self.client.server.app[SERVICES].metrics
        value = metrics.registry.get_sample_value(
            "lockin_job_retries_total", {"event": "pull_request", "outcome": outcome}
        )
        return value or 0.0


@pytest.fixture
async def bot(fake_github: FakeGitHub, aiohttp_client: Any) -> AsyncIterator[RetryingBot]:
    settings = settings_for(
        fake_github, retry_attempts=RETRY_ATTEMPTS, workers=2, job_retry_delays=DELAYS
    )
    client = await aiohttp_client(create_app(settings))
    yield RetryingBot(fake_github, client)
    assert fake_github.contract_errors == []


def kernel_pr(bot: Bot) -> tuple[Repo, PullRequest]:
    repo = new_repo(bot.fake, {RECORD: record(scope=["docs/**"])})
    return repo, open_pr(repo, {"csrc/scale.cu": KERNEL})


# Each read the PR check makes, as (method, path regex) of the fake GitHub.
READS = {
    "pull request": ("GET", r"/pulls/\d+$"),
    "configuration": ("GET", r"/contents/\.github/lockin\.yml$"),
    "our earlier runs": ("GET", r"/commits/[0-9a-f]+/check-runs$"),
    "changed files": ("GET", r"/pulls/\d+/files$"),
    "blobs": ("GET", r"/git/blobs/"),
    "commit messages": ("GET", r"/pulls/\d+/commits$"),
    "decision records": ("GET", r"/contents/docs/decisions$"),
}


@pytest.mark.parametrize("read", list(READS))
async def test_each_read_failing_for_good_still_leaves_a_failed_run(
    bot: RetryingBot, read: str
) -> None:
    repo, pr = kernel_pr(bot)
    method, path = READS[read]
    bot.fake.fail(method, path, status=502, times=FOR_GOOD)

    await bot.pr_event(repo, pr, "opened")

    runs = bot.runs(repo, pr.head_sha)
    assert runs, f"no check run when the {read} could not be read"
    assert all(run.status == "completed" for run in runs)
    assert {run.conclusion for run in runs} == {"failure"}
    assert runs[-1].output["title"] == ERROR_TITLE
    assert "502" in runs[-1].output["summary"]
    assert runs[-1].name == "lockin"
    # Every delivery and retry gave up the same way, and nothing claimed success.
    assert bot.metric("scheduled") == len(DELAYS)
    assert bot.metric("exhausted") == 1
    assert not bot.sticky(repo, pr.number)


async def test_the_run_keeps_the_configured_name_when_a_later_read_fails(bot: RetryingBot) -> None:
    repo = new_repo(bot.fake, {".github/lockin.yml": "check_name: gpu-lock-in\n"})
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    bot.fake.fail("GET", READS["our earlier runs"][1], status=503, times=FOR_GOOD)

    await bot.pr_event(repo, pr, "opened")

    assert {run.name for run in bot.runs(repo, pr.head_sha)} == {"gpu-lock-in"}


@pytest.mark.parametrize("read", ["pull request", "configuration", "blobs"])
async def test_once_github_answers_again_the_retry_ends_with_the_right_conclusion(
    bot: RetryingBot, read: str
) -> None:
    repo, pr = kernel_pr(bot)
    method, path = READS[read]
    bot.fake.fail(method, path, status=502, times=RETRY_ATTEMPTS)  # the delivery's job only

    await bot.pr_event(repo, pr, "opened")

    runs = bot.runs(repo, pr.head_sha)
    assert runs[0].conclusion == "failure"
    assert runs[0].output["title"] == ERROR_TITLE
    latest = runs[-1]
    assert latest.status == "completed"
    assert latest.conclusion == "failure"
    assert "without a compute-API decision" in latest.output["title"]
    assert len(bot.sticky(repo, pr.number)) == 1
    assert bot.metric("scheduled") == 1
    assert bot.metric("exhausted") == 0


async def test_check_run_creation_failing_is_retried_until_the_run_exists(
    bot: RetryingBot,
) -> None:
    repo, pr = kernel_pr(bot)
    # A POST is not repeated by the client (it may have been applied): each attempt of the
    # job makes one; the delivery and the first retry fail, the second retry gets through.
    bot.fake.fail("POST", r"/check-runs$", status=502, times=2)

    await bot.pr_event(repo, pr, "opened")

    [run] = [r for r in bot.runs(repo, pr.head_sha) if r.output["title"] != ERROR_TITLE]
    assert run.status == "completed"
    assert "without a compute-API decision" in run.output["title"]
    assert bot.metric("scheduled") == 2


async def test_a_retry_is_dropped_when_the_head_moved_on(bot: RetryingBot) -> None:
    repo, pr = kernel_pr(bot)
    event = pull_request_event(bot.fake, repo, pr, "opened")  # names the first head
    newer = repo.push_to_pr(pr.number, {"csrc/shift.cu": SECOND_KERNEL})
    bot.fake.fail("GET", READS["changed files"][1], status=502, times=RETRY_ATTEMPTS)

    assert await bot.deliver("pull_request", event) == 202
    await bot.settle()

    # The delivery checked the current head and failed; its retry found the head it was
    # for gone, and left the newer head to that head's own delivery.
    assert bot.metric("scheduled") == 1
    assert bot.metric("dropped") == 1
    assert [r.output["title"] for r in bot.runs(repo, newer)] == [ERROR_TITLE]


async def test_a_retry_is_dropped_when_the_pull_request_closed(
    fake_github: FakeGitHub, aiohttp_client: Any
) -> None:
    # A retry long enough after the failure for the test to close the PR in between: the
    # test and the server share one event loop, so the close always comes first.
    settings = settings_for(fake_github, retry_attempts=RETRY_ATTEMPTS, job_retry_delays=(2.0,))
    bot = RetryingBot(fake_github, await aiohttp_client(create_app(settings)))
    repo, pr = kernel_pr(bot)
    bot.fake.fail("GET", READS["changed files"][1], status=502, times=RETRY_ATTEMPTS)

    assert await bot.deliver("pull_request", pull_request_event(bot.fake, repo, pr, "opened"))
    await until(lambda: bot.queue.pending_retries() == 1, "the retry scheduled")
    pr.state = "closed"
    await bot.settle()

    assert bot.metric("dropped") == 1
    assert [r.output["title"] for r in bot.runs(repo, pr.head_sha)] == [ERROR_TITLE]


async def test_what_a_retry_cannot_fix_is_not_retried(bot: RetryingBot) -> None:
    repo, pr = kernel_pr(bot)
    bot.fake.fail("GET", r"/repos/octo/ml/pulls/\d+$", status=404, times=FOR_GOOD)
    await bot.pr_event(repo, pr, "opened")
    invalid = new_repo_named(bot.fake, "octo/other", {".github/lockin.yml": "enforcement: x\n"})
    pr2 = open_pr(invalid, {"csrc/scale.cu": KERNEL})
    await bot.pr_event(invalid, pr2, "opened")

    assert bot.metric("scheduled") == 0
    assert not bot.runs(repo)  # a pull request GitHub says is gone gets no run
    [run] = bot.runs(invalid, pr2.head_sha)
    assert run.conclusion == "failure"
    assert "lockin.yml" in run.output["title"]


def new_repo_named(fake: FakeGitHub, name: str, files: dict[str, str]) -> Repo:
    return fake.add_repo(name, files={"README.md": "# ml\n", **files})
