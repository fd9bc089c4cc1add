"""A check run for every head lockin is asked to check, whatever GitHub read fails; and
retries that finish the check by themselves once GitHub answers again.

Driven by signed deliveries to the real server against the fake GitHub, each read failing
"for good" (more times than any retry makes it) unless the test lets it recover.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.retries import LocalRetries
from bot.server.app import create_app
from bot.server.services import SERVICES
from tests.fakegithub import FakeGitHub, PullRequest, Repo
from tests.review.conftest import RETRY_ATTEMPTS, Bot
from tests.review.test_pr_check import KERNEL, SECOND_KERNEL, new_repo, open_pr
from tests.support.server import settings_for
from tests.support.webhooks import pull_request_event

FOR_GOOD = 10_000
ERROR_TITLE = "The check could not finish"


def kernel_pr(bot: Bot, files: int = 1) -> tuple[Repo, PullRequest]:
    """A PR that modifies a kernel (both sides read: compare, tree, blobs) and adds kernel
    lines past the allowance (decision records read)."""
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL, "docs/decisions/README.md": "# ADRs\n"})
    changes: dict[str, str | None] = {"csrc/scale.cu": KERNEL + SECOND_KERNEL}
    changes |= {f"ops/k{i:03d}.cu": KERNEL.replace("scale", f"s{i}") for i in range(files - 1)}
    repo.commit(changes, branch="feature", message="the change")
    # Without its patch the kernel's both versions are read.
    return repo, repo.open_pr(head_branch="feature", patch_omitted={"csrc/scale.cu"})


#: Each GitHub read of the check, as the request the fake makes fail.
READS = {
    "pull request": ("GET", r"/pulls/\d+$"),
    "configuration": ("GET", r"/contents/\.github/lockin\.yml"),
    "files": ("GET", r"/pulls/\d+/files"),
    "compare": ("GET", r"/compare/"),
    "trees": ("GET", r"/git/trees/"),
    "blobs": ("GET", r"/git/blobs/"),
    "decision records": ("GET", r"/contents/docs/decisions"),
}


@pytest.mark.parametrize("read", list(READS))
async def test_each_read_failing_for_good_ends_in_a_failed_run_with_the_reason(
    bot: Bot, read: str
) -> None:
    repo, pr = kernel_pr(bot)
    method, path = READS[read]
    bot.fake.fail(method, path, status=502, times=FOR_GOOD)

    await bot.pr_event(repo, pr, "opened")

    assert bot.fake.requests_to(method, path), f"the {read} was never read"
    [run] = bot.runs(repo, pr.head_sha)
    assert run.name == "lockin"  # the default name, whether or not the config was read
    assert (run.status, run.conclusion) == ("completed", "failure")
    assert run.output["title"] == ERROR_TITLE
    assert "502" in run.output["summary"]
    assert not bot.sticky(repo, pr.number)


async def test_the_tarball_failing_for_good_ends_in_a_failed_run(bot: Bot) -> None:
    repo, pr = kernel_pr(bot, files=120)  # enough reads for the tarballs to pay
    bot.fake.fail("GET", r"/tarball/", status=503, times=FOR_GOOD)

    await bot.pr_event(repo, pr, "opened")

    assert bot.fake.requests_to("GET", r"/tarball/")
    [run] = bot.runs(repo, pr.head_sha)
    assert (run.status, run.conclusion, run.output["title"]) == (
        "completed",
        "failure",
        ERROR_TITLE,
    )
    assert "503" in run.output["summary"]


async def test_a_config_read_failure_uses_the_default_name_not_the_configured_one(
    bot: Bot,
) -> None:
    repo = new_repo(bot.fake, {".github/lockin.yml": "check_name: gpu-gate\n"})
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    bot.fake.fail("GET", READS["configuration"][1], status=500, times=FOR_GOOD)

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert (run.name, run.conclusion) == ("lockin", "failure")


# --- retries -----------------------------------------------------------------------------


class Retrying(Bot):
    async def settle(self) -> None:
        """Until the queue is empty and no retry is waiting (retries are due in ms here)."""
        services = self.client.server.app[SERVICES]
        retries = services.retries
        assert isinstance(retries, LocalRetries)
        while True:
            await services.queue.join()  # type: ignore[union-attr]
            if retries.pending() == 0 and services.queue.depth() == 0:  # type: ignore[union-attr]
                await services.queue.join()  # type: ignore[union-attr]
                if retries.pending() == 0:
                    return
            await asyncio.sleep(0.01)

    async def metric(self, outcome: str) -> float:
        text = await (await self.client.get("/metrics")).text()
        line = f'lockin_job_retries_total{{outcome="{outcome}"}} '
        values = [float(x[len(line) :]) for x in text.splitlines() if x.startswith(line)]
        return values[0] if values else 0.0


@pytest.fixture
async def retrying(fake_github: FakeGitHub, aiohttp_client: Any) -> AsyncIterator[Retrying]:
    settings = settings_for(
        fake_github, retry_attempts=RETRY_ATTEMPTS, workers=2, job_retry_delays=(0.01, 0.02, 0.03)
    )
    client = await aiohttp_client(create_app(settings))
    yield Retrying(fake_github, client)
    assert fake_github.contract_errors == []


#: Each way GitHub fails that a later attempt can fix, as `fake.fail` arguments.
OUTAGES: dict[str, dict[str, Any]] = {
    "5xx": {"status": 502},
    "timeout": {"kind": "timeout"},
    "rate limit past the wait cap": {"kind": "primary", "retry_after": 3600},
}


@pytest.mark.parametrize("outage", list(OUTAGES))
async def test_a_job_github_failed_is_retried_and_ends_with_the_right_conclusion(
    retrying: Retrying, outage: str
) -> None:
    bot = retrying
    bot.fake.timeout_delay = 0.5
    repo, pr = kernel_pr(bot)
    # Every attempt of the delivery itself fails; the first retry meets a GitHub that is back.
    per_attempt = 1 if OUTAGES[outage].get("kind") == "primary" else RETRY_ATTEMPTS
    bot.fake.fail("GET", r"/contents/\.github/lockin\.yml", times=per_attempt, **OUTAGES[outage])

    await bot.pr_event(repo, pr, "opened")

    errored, result = bot.runs(repo, pr.head_sha)
    assert (errored.conclusion, errored.output["title"]) == ("failure", ERROR_TITLE)
    assert result.status == "completed"
    assert result.conclusion == "failure"
    assert "without a compute-API decision" in result.output["title"]
    assert len(bot.sticky(repo, pr.number)) == 1
    assert await bot.metric("scheduled") == 1


async def test_check_run_creation_failing_is_retried_until_the_run_exists(
    retrying: Retrying,
) -> None:
    bot = retrying
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"docs/guide.md": "# Guide\n"})
    # Creating a run is a POST: the client does not repeat it, the job retry does.
    bot.fake.fail("POST", r"/check-runs$", status=502, times=2)

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert (run.status, run.conclusion) == ("completed", "success")
    assert len(bot.fake.requests_to("POST", r"/check-runs$")) == 3
    assert await bot.metric("scheduled") == 2


async def test_retries_stop_after_the_last_delay(retrying: Retrying) -> None:
    bot = retrying
    repo, pr = kernel_pr(bot)
    bot.fake.fail("GET", r"/contents/\.github/lockin\.yml", status=502, times=FOR_GOOD)

    await bot.pr_event(repo, pr, "opened")

    runs = bot.runs(repo, pr.head_sha)
    assert len(runs) == 4  # the delivery and three retries, each reporting failure
    assert all(r.conclusion == "failure" and r.output["title"] == ERROR_TITLE for r in runs)
    assert await bot.metric("scheduled") == 3
    assert await bot.metric("exhausted") == 1


async def test_a_retry_for_a_head_the_pr_moved_on_from_is_dropped(retrying: Retrying) -> None:
    bot = retrying
    repo, pr = kernel_pr(bot)
    old_head, payload = pr.head_sha, pull_request_event(bot.fake, repo, pr, "opened")
    repo.push_to_pr(pr.number, {"docs/more.md": "# More\n"})  # pushed since the event
    bot.fake.fail("GET", r"/contents/\.github/lockin\.yml", status=502, times=RETRY_ATTEMPTS)

    assert await bot.deliver("pull_request", payload) == 202
    await bot.settle()

    assert pr.head_sha != old_head
    assert await bot.metric("scheduled") == 1
    assert await bot.metric("dropped") == 1
    [run] = bot.runs(repo, pr.head_sha)  # the failed attempt's, not redone for an old head
    assert run.output["title"] == ERROR_TITLE


async def test_a_retry_for_a_closed_pr_is_dropped(retrying: Retrying) -> None:
    bot = retrying
    repo, pr = kernel_pr(bot)
    payload = pull_request_event(bot.fake, repo, pr, "opened")
    pr.state = "closed"  # closed while GitHub failed to show it
    bot.fake.fail("GET", r"/pulls/\d+$", status=502, times=RETRY_ATTEMPTS)

    assert await bot.deliver("pull_request", payload) == 202
    await bot.settle()

    assert await bot.metric("scheduled") == 1
    assert await bot.metric("dropped") == 1
    [run] = bot.runs(repo, pr.head_sha)  # the failure the unreadable PR was reported with
    assert run.conclusion == "failure"


async def test_an_invalid_configuration_is_not_retried(retrying: Retrying) -> None:
    bot = retrying
    repo = new_repo(bot.fake, {".github/lockin.yml": "enforcement: maybe\n"})
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    bot.fake.fail("GET", r"/contents/docs", status=404, times=FOR_GOOD)

    await bot.pr_event(repo, pr, "opened")

    [run] = bot.runs(repo, pr.head_sha)
    assert run.conclusion == "failure"
    assert await bot.metric("scheduled") == 0
