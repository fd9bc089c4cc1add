"""Approvals, not self-service: a decision record the pull request adds or changes counts only
once GitHub shows an approving review by its owner (a user or a member of the owner team) or
a code owner of its path, never by the PR's author. Driven by signed webhooks to the real
server against the fake GitHub, which serves reviews, users and team memberships."""

from __future__ import annotations

import uuid

from tests.fakegithub import CheckRun, PullRequest, Repo, Review
from tests.review.conftest import Bot
from tests.review.test_pr_check import KERNEL, RECORD, new_repo, record
from tests.support.webhooks import pull_request_review_event

LINK = f"Compute-API-Decision: {RECORD}"


def open_pr(repo: Repo, files: dict[str, str | None], *, user: str = "alice") -> PullRequest:
    repo.commit(files, branch="feature", message="the change")
    return repo.open_pr(head_branch="feature", body=f"A kernel\n\n{LINK}\n", user=user)


async def opened(bot: Bot, repo: Repo, owner: str, *, user: str = "alice") -> PullRequest:
    """A PR by ``user`` adding a kernel and the record (owned by ``owner``) that links it."""
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL, RECORD: record(owner=owner)}, user=user)
    await bot.pr_event(repo, pr, "opened")
    return pr


async def reviewed(
    bot: Bot, repo: Repo, pr: PullRequest, review: Review, action: str = "submitted"
) -> CheckRun:
    payload = pull_request_review_event(bot.fake, repo, pr, review, action)
    assert await bot.deliver("pull_request_review", payload) == 202
    await bot.settle()
    return latest(bot, repo, pr)


def latest(bot: Bot, repo: Repo, pr: PullRequest) -> CheckRun:
    return bot.runs(repo, pr.head_sha)[-1]


def said(run: CheckRun) -> str:
    """The run's summary as read: Markdown escapes and the word joiner that keeps an
    @name from notifying anyone taken out."""
    return run.output["summary"].replace("\u2060", "").replace("\\", "")


async def test_owner_approval_passes_and_a_dismissal_fails_again(bot: Bot) -> None:
    bot.fake.add_account("carol")
    repo = new_repo(bot.fake)
    pr = await opened(bot, repo, "@carol")
    first = latest(bot, repo, pr)
    assert first.conclusion == "failure"
    assert "awaiting an approving review from @carol" in said(first)

    approval = repo.review_pr(pr.number, "carol")
    run = await reviewed(bot, repo, pr, approval)
    assert run.id != first.id
    assert run.conclusion == "success"
    assert f"`{RECORD}`: valid, approved by @carol" in said(run)
    [comment] = bot.sticky(repo, pr.number)
    assert "awaiting an approving review" not in comment.body

    repo.dismiss_review(pr.number, approval.id)
    run = await reviewed(bot, repo, pr, approval, "dismissed")
    assert run.conclusion == "failure"
    assert "awaiting an approving review from @carol" in said(run)


async def test_the_author_approving_their_own_record_fails_naming_the_owner(bot: Bot) -> None:
    bot.fake.add_account("carol")
    repo = new_repo(bot.fake)
    pr = await opened(bot, repo, "@carol")

    run = await reviewed(bot, repo, pr, repo.review_pr(pr.number, "alice"))

    assert run.conclusion == "failure"
    assert "awaiting an approving review from @carol" in said(run)


async def test_a_record_owned_by_the_author_awaits_someone_else(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = await opened(bot, repo, "@alice")

    run = await reviewed(bot, repo, pr, repo.review_pr(pr.number, "alice"))

    assert run.conclusion == "failure"
    summary = said(run)
    assert "nobody but the pull request's author can give one" in summary
    assert "its owner @alice opened this pull request" in summary


async def test_an_owner_that_does_not_exist_is_a_clear_error(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = await opened(bot, repo, "@ghost-owner, @octo/nobody")

    run = latest(bot, repo, pr)
    assert run.conclusion == "failure"
    assert "owner @ghost-owner does not exist on GitHub" in said(run)
    assert bot.fake.requests_to("GET", r"^/users/ghost-owner$")
    assert bot.fake.requests_to("GET", r"^/orgs/octo/teams/nobody/members$")


async def test_an_owner_that_is_not_an_account_is_a_clear_error(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = await opened(bot, repo, "Platform team")

    run = latest(bot, repo, pr)
    assert run.conclusion == "failure"
    assert "owner 'Platform team' is not a GitHub @user or @org/team" in said(run)


async def test_a_member_of_the_owner_team_approves_and_others_do_not(bot: Bot) -> None:
    bot.fake.add_team("octo/kernels", {"dave": "active", "erin": "pending"})
    bot.fake.add_account("frank")
    repo = new_repo(bot.fake)
    pr = await opened(bot, repo, "@octo/kernels")
    assert "a member of @octo/kernels" in said(latest(bot, repo, pr))

    run = await reviewed(bot, repo, pr, repo.review_pr(pr.number, "frank"))
    assert run.conclusion == "failure"
    run = await reviewed(bot, repo, pr, repo.review_pr(pr.number, "erin"))
    assert run.conclusion == "failure"  # invited, not yet a member

    run = await reviewed(bot, repo, pr, repo.review_pr(pr.number, "dave"))
    assert run.conclusion == "success"
    assert bot.fake.requests_to("GET", r"^/orgs/octo/teams/kernels/memberships/dave$")


async def test_a_code_owner_of_the_record_approves(bot: Bot) -> None:
    bot.fake.add_account("carol", "grace")
    repo = new_repo(bot.fake, {".github/CODEOWNERS": "/docs/decisions/ @grace\n"})
    pr = await opened(bot, repo, "@carol")
    summary = said(latest(bot, repo, pr))
    assert f"a code owner of {RECORD} (@grace)" in summary

    run = await reviewed(bot, repo, pr, repo.review_pr(pr.number, "grace"))

    assert run.conclusion == "success"


async def test_codeowners_of_the_pull_request_are_not_read(bot: Bot) -> None:
    bot.fake.add_account("carol", "mallory")
    repo = new_repo(bot.fake)
    files = {
        "csrc/scale.cu": KERNEL,
        RECORD: record(owner="@carol"),
        ".github/CODEOWNERS": "* @mallory\n",
    }
    pr = open_pr(repo, files)
    await bot.pr_event(repo, pr, "opened")

    run = await reviewed(bot, repo, pr, repo.review_pr(pr.number, "mallory"))

    assert run.conclusion == "failure"
    assert "@mallory" not in said(run)


async def test_a_later_comment_keeps_an_approval_and_changes_requested_revokes_it(
    bot: Bot,
) -> None:
    bot.fake.add_account("carol")
    repo = new_repo(bot.fake)
    pr = await opened(bot, repo, "@carol")
    assert (await reviewed(bot, repo, pr, repo.review_pr(pr.number, "carol"))).conclusion == (
        "success"
    )
    runs = len(bot.runs(repo, pr.head_sha))

    comment = repo.review_pr(pr.number, "carol", "COMMENTED")
    await reviewed(bot, repo, pr, comment)
    assert len(bot.runs(repo, pr.head_sha)) == runs  # a comment changes no one's standing

    run = await reviewed(bot, repo, pr, repo.review_pr(pr.number, "carol", "CHANGES_REQUESTED"))
    assert run.conclusion == "failure"


async def test_an_approval_of_another_text_of_the_record_does_not_count(bot: Bot) -> None:
    bot.fake.add_account("carol")
    repo = new_repo(bot.fake)
    pr = await opened(bot, repo, "@carol")
    await reviewed(bot, repo, pr, repo.review_pr(pr.number, "carol"))
    assert latest(bot, repo, pr).conclusion == "success"

    # The author widens the record's scope after the approval.
    repo.push_to_pr(pr.number, {RECORD: record(owner="@carol", scope=["**"])})
    await bot.pr_event(repo, pr, "synchronize")
    assert latest(bot, repo, pr).conclusion == "failure"

    # A commit that leaves the record as approved keeps the approval.
    repo.push_to_pr(pr.number, {RECORD: record(owner="@carol"), "README.md": "# ml 2\n"})
    await bot.pr_event(repo, pr, "synchronize")
    assert latest(bot, repo, pr).conclusion == "success"


async def test_a_linked_record_already_on_the_default_branch_needs_no_review(bot: Bot) -> None:
    repo = new_repo(bot.fake, {RECORD: record(owner="@carol", scope=None)})
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})

    await bot.pr_event(repo, pr, "opened")

    assert latest(bot, repo, pr).conclusion == "success"
    assert not bot.fake.requests_to("GET", r"/reviews$")
    assert not bot.fake.requests_to("GET", r"^/users/")


async def test_a_review_of_an_old_head_checks_the_current_head(bot: Bot) -> None:
    bot.fake.add_account("carol")
    repo = new_repo(bot.fake)
    pr = await opened(bot, repo, "@carol")
    old_head = pr.head_sha
    approval = repo.review_pr(pr.number, "carol")
    payload = pull_request_review_event(bot.fake, repo, pr, approval)
    new_head = repo.push_to_pr(pr.number, {"README.md": "# ml 2\n"})

    assert await bot.deliver("pull_request_review", payload) == 202
    await bot.settle()

    assert payload["pull_request"]["head"]["sha"] == old_head
    assert bot.runs(repo, new_head)[-1].conclusion == "success"
    assert len(bot.runs(repo, old_head)) == 1  # the old head's result is left as it was


async def test_a_redelivered_review_runs_the_check_once(bot: Bot) -> None:
    bot.fake.add_account("carol")
    repo = new_repo(bot.fake)
    pr = await opened(bot, repo, "@carol")
    payload = pull_request_review_event(bot.fake, repo, pr, repo.review_pr(pr.number, "carol"))
    delivery = str(uuid.uuid4())

    for _ in range(2):
        await bot.deliver("pull_request_review", payload, delivery)
        await bot.settle()

    assert len(bot.runs(repo, pr.head_sha)) == 2  # the PR's and the review's
