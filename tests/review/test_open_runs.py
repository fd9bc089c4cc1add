"""No run left open (issue 28), in the embedded mode: a run whose completion GitHub refused
is finished by the timed sweep; a run on a head a push replaced is completed as
`cancelled`, naming the newer head, by the sweep or by the next check that meets it. A merge
group's run is checked again while the queue holds its commit, and cancelled, saying why,
once the queue has removed or rebuilt the group. The real app and its real features, signed
deliveries over HTTP, the fake GitHub on loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.review.check_writer import ERROR_TITLE
from bot.server.app import create_app
from bot.server.keys import SERVICES
from tests.fakegithub import FakeGitHub, PullRequest, Repo
from tests.fakegithub.state import CheckRun
from tests.review.conftest import Bot
from tests.scale.cluster import until
from tests.support.server import settings_for
from tests.support.webhooks import merge_group_event, pull_request_event

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
    await until(lambda: run.status == "completed", "the sweep finished the run", within=240)
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

    await until(lambda: run.status == "completed", "the sweep finished the run", within=240)
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


# -- merge groups: a required check missing on a group's commit stalls the whole queue ------


async def group_left_in_progress(bot: Bot) -> tuple[Repo, str, str, CheckRun]:
    """A merge group whose run GitHub refused to complete: (repo, queue branch, head, run)."""
    repo, pr = kernel_pr(bot.fake)
    base = repo.head()
    branch = f"gh-readonly-queue/{repo.default_branch}/pr-{pr.number}-{pr.head_sha}"
    head = repo.commit({"csrc/k.cu": KERNEL}, branch=branch, message=f"{pr.title} (#1)")
    bot.fake.fail("PATCH", r"/check-runs/\d+$", status=502, times=BOTH_COMPLETIONS)
    payload = merge_group_event(bot.fake, repo, head, base, [pr])
    assert await bot.deliver("merge_group", payload) == 202
    await bot.settle()
    [run] = bot.runs(repo, head)
    assert (run.status, run.external_id) == ("in_progress", "merge_group")
    return repo, branch, head, run


@pytest.mark.timeout(300)
async def test_a_merge_groups_run_left_in_progress_is_checked_again_by_the_sweep(
    start: StartBot,
) -> None:
    bot = await start(job_timeout=15.0, stale_run_sweep_interval=0.5)
    repo, _, head, run = await group_left_in_progress(bot)

    await until(lambda: run.status == "completed", "the sweep finished the run", within=240)
    # The queue still holds the commit: checked again into the same run, with a verdict.
    assert [r.id for r in bot.runs(repo, head)] == [run.id]
    assert (run.conclusion, run.output["title"] != ERROR_TITLE) == ("failure", True)
    assert "csrc/k.cu" in run.output["summary"]
    open_runs = bot.client.server.app[SERVICES].caches.open_runs
    await until(lambda: _none_open(open_runs), "the run is no longer recorded as open")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("queue", ["removed", "rebuilt"])
async def test_a_run_on_a_merge_group_the_queue_left_is_cancelled_by_the_sweep(
    start: StartBot, queue: str
) -> None:
    bot = await start(job_timeout=15.0, stale_run_sweep_interval=0.5)
    repo, branch, head, run = await group_left_in_progress(bot)
    rebuilt = None
    if queue == "removed":
        del repo.branches[branch]  # merged or dequeued: GitHub deletes the group's branch
        title = "Not checked: the merge group is gone"
    else:
        rebuilt = repo.commit({"README.md": "# ml, rebuilt\n"}, branch=branch)  # a new base
        title = f"Superseded by {rebuilt[:7]}"

    await until(lambda: run.status == "completed", "the sweep finished the run", within=240)
    assert (run.conclusion, run.output["title"]) == ("cancelled", title)
    assert head in run.output["summary"]
    assert [r.id for r in bot.runs(repo, head)] == [run.id]  # not checked again
    assert len(bot.fake.requests_to("GET", r"/compare/")) == 1  # the first check's only
    if rebuilt is not None:
        assert rebuilt in run.output["summary"]
        assert bot.runs(repo, rebuilt) == []  # the queue asks for the new commit itself
    open_runs = bot.client.server.app[SERVICES].caches.open_runs
    await until(lambda: _none_open(open_runs), "the run is no longer recorded as open")


async def test_a_late_delivery_for_a_merge_group_already_gone_starts_no_run(
    start: StartBot,
) -> None:
    bot = await start(stale_run_sweep_interval=3600.0)
    repo, pr = kernel_pr(bot.fake)
    base = repo.head()
    branch = f"gh-readonly-queue/{repo.default_branch}/pr-{pr.number}-{pr.head_sha}"
    head = repo.commit({"csrc/k.cu": KERNEL}, branch=branch, message=f"{pr.title} (#1)")
    del repo.branches[branch]

    assert await bot.deliver("merge_group", merge_group_event(bot.fake, repo, head, base, [pr]))
    await bot.settle()

    assert bot.runs(repo, head) == []
    assert bot.fake.requests_to("GET", r"/git/ref/heads/gh-readonly-queue/")
    assert not bot.fake.requests_to("GET", r"/compare/")


@pytest.mark.parametrize(
    ("reason", "why"),
    [("dequeued", "a pull request in it was dequeued"), ("invalidated", "invalidated")],
)
async def test_a_merge_group_the_queue_destroys_has_its_run_cancelled_at_once(
    start: StartBot, reason: str, why: str
) -> None:
    # No timed sweep in this test: the `destroyed` delivery alone finishes the run.
    bot = await start(stale_run_sweep_interval=3600.0)
    repo, branch, head, run = await group_left_in_progress(bot)
    base = repo.branches[repo.default_branch]
    payload = merge_group_event(bot.fake, repo, head, base, [repo.pulls[1]])
    payload["action"], payload["reason"] = "destroyed", reason
    del repo.branches[branch]

    assert await bot.deliver("merge_group", payload) == 202
    await bot.settle()

    assert (run.status, run.conclusion) == ("completed", "cancelled")
    assert run.output["title"] == "Not checked: the merge group is gone"
    assert head in run.output["summary"]
    assert why in run.output["summary"]
    assert [r.id for r in bot.runs(repo, head)] == [run.id]  # cancelled, not checked again
    open_runs = bot.client.server.app[SERVICES].caches.open_runs
    assert await _none_open(open_runs)


async def test_a_merged_group_leaves_its_completed_run_as_it_is(start: StartBot) -> None:
    bot = await start(stale_run_sweep_interval=3600.0)
    repo, pr = kernel_pr(bot.fake)
    base = repo.head()
    branch = f"gh-readonly-queue/{repo.default_branch}/pr-{pr.number}-{pr.head_sha}"
    head = repo.commit({"csrc/k.cu": KERNEL}, branch=branch, message=f"{pr.title} (#1)")
    payload = merge_group_event(bot.fake, repo, head, base, [pr])
    assert await bot.deliver("merge_group", payload) == 202
    await bot.settle()
    [run] = bot.runs(repo, head)
    assert run.status == "completed"
    verdict, patches = run.conclusion, len(bot.fake.requests_to("PATCH", r"/check-runs/"))

    payload["action"], payload["reason"] = "destroyed", "merged"
    assert await bot.deliver("merge_group", payload) == 202
    await bot.settle()

    assert run.conclusion == verdict
    assert len(bot.fake.requests_to("PATCH", r"/check-runs/")) == patches
