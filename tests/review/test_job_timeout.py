"""A job stopped by JOB_TIMEOUT completes its check run as failed, every time.

The check is held inside GitHub (the fake keeps the pull request's file list open far
longer than the job may run), so the deadline always fires while the run is in progress and
the cleanup that completes it races the cancellation. Twenty runs, not one: the race this
guards against lost only now and then.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.review.checks import ERROR_TITLE
from bot.server.app import create_app
from tests.fakegithub import FakeGitHub
from tests.review.conftest import Bot
from tests.review.test_pr_check import KERNEL, new_repo, open_pr
from tests.support.server import settings_for

RUNS = 20
#: Long enough to open the run (four quick requests to the fake on loopback); the held
#: request outlasts it by an hour, so the deadline never fires anywhere else.
JOB_TIMEOUT = 1.0
HELD = 3600.0


@pytest.fixture
async def timed_bot(fake_github: FakeGitHub, aiohttp_client: Any) -> AsyncIterator[Bot]:
    fake_github.timeout_delay = HELD
    settings = settings_for(fake_github, job_timeout=JOB_TIMEOUT, request_timeout=HELD, workers=1)
    client = await aiohttp_client(create_app(settings))
    yield Bot(fake_github, client)
    assert fake_github.contract_errors == []


async def test_a_timed_out_job_completes_its_run_as_failed_every_time(timed_bot: Bot) -> None:
    bot = timed_bot
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    files = rf"/pulls/{pr.number}/files"
    bot.fake.fail("GET", files, kind="timeout", times=RUNS)
    for attempt in range(RUNS):
        if attempt:
            repo.push_to_pr(pr.number, {"csrc/scale.cu": KERNEL + f"// {attempt}\n"})
        action = "synchronize" if attempt else "opened"
        await bot.pr_event(repo, pr, action)
        # The job reached the held request: its run was open when the deadline fired.
        assert len(bot.fake.requests_to("GET", files)) == attempt + 1
        [run] = bot.runs(repo, pr.head_sha)
        assert (run.status, run.conclusion) == ("completed", "failure"), attempt
        assert run.output["title"] == ERROR_TITLE
