"""Merge queues: lockin reports on the commit a queue builds (`merge_group` checks_requested),
a check run on `merge_group.head_sha` judged against `merge_group.base_sha`, with no comment;
otherwise a required lockin check would hold the queue for ever."""

from __future__ import annotations

import uuid

from tests.fakegithub import PullRequest, Repo
from tests.review.conftest import Bot
from tests.review.test_gate_adoption import BASELINE, SECOND_KERNEL, _baseline_of
from tests.review.test_pr_check import KERNEL, RECORD, new_repo, record
from tests.support.webhooks import merge_group_event


def queued(repo: Repo, files: dict[str, str | None], *, body: str = "A kernel") -> PullRequest:
    repo.commit(files, branch="feature", message="the change")
    return repo.open_pr(head_branch="feature", body=body, user="alice")


def group_head(repo: Repo, pr: PullRequest, files: dict[str, str | None]) -> tuple[str, str]:
    """The commit the queue builds for ``pr`` on the default branch: (head, base)."""
    base = repo.head()
    ref = f"gh-readonly-queue/{repo.default_branch}/pr-{pr.number}-{pr.head_sha}"
    head = repo.commit(files, branch=ref, message=f"{pr.title} (#{pr.number})")
    return head, base


async def deliver(bot: Bot, payload: dict, delivery: str | None = None) -> None:
    assert await bot.deliver("merge_group", payload, delivery) == 202
    await bot.settle()


async def test_a_covered_merge_group_passes_on_its_head_without_a_comment(bot: Bot) -> None:
    bot.fake.add_account("carol")
    repo = new_repo(bot.fake)
    files = {"csrc/scale.cu": KERNEL, RECORD: record(owner="@carol")}
    pr = queued(repo, files, body=f"A kernel\n\nCompute-API-Decision: {RECORD}\n")
    repo.review_pr(pr.number, "carol")
    head, base = group_head(repo, pr, files)
    comments = len(repo.comments)

    await deliver(bot, merge_group_event(bot.fake, repo, head, base, [pr]))

    [run] = bot.runs(repo, head)
    assert (run.status, run.conclusion) == ("completed", "success")
    assert run.history[0]["status"] == "in_progress"
    assert run.external_id == "merge_group"
    assert RECORD in run.output["summary"]
    assert bot.fake.requests_to("GET", rf"/compare/{base}\.\.\.{head}$")
    assert len(repo.comments) == comments
    assert not bot.runs(repo, pr.head_sha)  # the PR's own head is not touched


async def test_a_merge_group_adding_uncovered_lock_in_fails(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = queued(repo, {"csrc/scale.cu": KERNEL})
    head, base = group_head(repo, pr, {"csrc/scale.cu": KERNEL})

    await deliver(bot, merge_group_event(bot.fake, repo, head, base, [pr]))

    [run] = bot.runs(repo, head)
    assert run.conclusion == "failure"
    assert "csrc/scale.cu" in run.output["summary"]


async def test_a_record_in_the_group_needs_its_approval_there_too(bot: Bot) -> None:
    bot.fake.add_account("carol")
    repo = new_repo(bot.fake)
    files = {"csrc/scale.cu": KERNEL, RECORD: record(owner="@carol")}
    pr = queued(repo, files, body=f"Compute-API-Decision: {RECORD}")
    head, base = group_head(repo, pr, files)

    await deliver(bot, merge_group_event(bot.fake, repo, head, base, [pr]))

    [run] = bot.runs(repo, head)
    assert run.conclusion == "failure"
    assert "awaiting an approving review from" in run.output["summary"]


async def test_a_redelivered_merge_group_is_checked_once(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = queued(repo, {"README.md": "# ml 2\n"})
    head, base = group_head(repo, pr, {"README.md": "# ml 2\n"})
    payload = merge_group_event(bot.fake, repo, head, base, [pr])

    await deliver(bot, payload)
    await deliver(bot, payload)  # a new delivery id: GitHub redelivered it by hand
    await deliver(bot, payload, str(uuid.uuid4()))

    [run] = bot.runs(repo, head)
    assert run.conclusion == "success"


async def test_a_merge_group_is_judged_with_the_repositorys_baseline(bot: Bot) -> None:
    # The queue's check is the same gate as each pull request's: a file growing back to
    # what the baseline recorded passes in the queue as it passed in its pull request.
    baseline = _baseline_of({"csrc/scale.cu": KERNEL + SECOND_KERNEL})
    repo = new_repo(bot.fake, {"csrc/scale.cu": KERNEL, BASELINE: baseline})
    files = {"csrc/scale.cu": KERNEL + SECOND_KERNEL}
    pr = queued(repo, files)
    head, base = group_head(repo, pr, files)

    await deliver(bot, merge_group_event(bot.fake, repo, head, base, [pr]))

    [run] = bot.runs(repo, head)
    assert (run.status, run.conclusion) == ("completed", "success")
    assert "Lines within `.github/lockin-baseline.yml` do not count" in run.output["summary"]
