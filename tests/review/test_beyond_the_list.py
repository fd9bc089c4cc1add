"""Beyond issue 4's list: the sticky comment's lifecycle, who may re-run the check, and
configuration edge cases."""

from __future__ import annotations

import asyncio

from tests.review.conftest import MARKER, Bot
from tests.review.test_pr_check import KERNEL, MODEL, new_repo, open_pr
from tests.support.webhooks import check_run_event, check_suite_event, pull_request_event


async def test_comment_says_so_when_the_pr_no_longer_touches_non_portable_code(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")
    [first] = bot.sticky(repo, pr.number)

    repo.push_to_pr(pr.number, {"csrc/scale.cu": None, "model.py": MODEL + "# tidy\n"})
    await bot.pr_event(repo, pr, "synchronize")

    [comment] = bot.sticky(repo, pr.number)
    assert comment.id == first.id
    assert comment.body.splitlines()[1] == "### ✅ lockin: no new kernel and vendor-path lines"
    assert "nothing here needs a compute-API decision" in comment.body
    assert f"`{pr.head_sha[:7]}`" in comment.body
    assert bot.runs(repo, pr.head_sha)[-1].conclusion == "success"


async def test_only_our_own_marked_comment_counts_and_duplicates_are_removed(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    pasted = repo.add_comment(pr.number, f"{MARKER}\nlooks like the bot", user="mallory")
    login = bot.fake.bot_login
    oldest = repo.add_comment(
        pr.number, f"{MARKER}\nold", user=login, user_type="Bot", via_app=True
    )
    newer = repo.add_comment(pr.number, f"{MARKER}\ndup", user=login, user_type="Bot", via_app=True)

    await bot.pr_event(repo, pr, "opened")

    assert [c.id for c in bot.sticky(repo, pr.number)] == [oldest.id]
    assert newer.id not in repo.comments
    assert repo.comments[pasted.id].body == f"{MARKER}\nlooks like the bot"
    assert "need a compute-API decision" in repo.comments[oldest.id].body


async def test_a_repeated_event_for_a_checked_head_writes_nothing(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    payload = pull_request_event(bot.fake, repo, pr, "opened")
    assert await bot.deliver("pull_request", payload) == 202
    await bot.settle()
    writes = len(bot.fake.requests_to("POST", "")) + len(bot.fake.requests_to("PATCH", ""))

    assert await bot.deliver("pull_request", payload) == 202  # a new delivery id
    await bot.settle()

    assert len(bot.fake.requests_to("POST", "")) + len(bot.fake.requests_to("PATCH", "")) == writes
    assert len(bot.runs(repo, pr.head_sha)) == 1
    assert len(bot.sticky(repo, pr.number)) == 1


async def test_recount_button_reruns_our_check_and_ignores_other_apps(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")
    [run] = bot.runs(repo, pr.head_sha)

    foreign = check_run_event(bot.fake, repo, run, requested_action="recount")
    foreign["check_run"]["app"]["id"] = bot.fake.app_id + 1
    assert await bot.deliver("check_run", foreign) == 202
    await bot.settle()
    assert len(bot.runs(repo, pr.head_sha)) == 1

    other_button = check_run_event(bot.fake, repo, run, requested_action="something-else")
    assert await bot.deliver("check_run", other_button) == 202
    await bot.settle()
    assert len(bot.runs(repo, pr.head_sha)) == 1

    pressed = check_run_event(bot.fake, repo, run, requested_action="recount")
    assert await bot.deliver("check_run", pressed) == 202
    await bot.settle()
    runs = bot.runs(repo, pr.head_sha)
    assert len(runs) == 2
    assert runs[-1].conclusion == "failure"
    assert "trigger" not in runs[-1].output["text"]  # a diagnostic: the job log has it
    summary = runs[-1].output["summary"]
    assert "### Whole repository" in summary
    assert "Top files" in summary
    assert "could not move off NVIDIA tomorrow" in runs[-1].output["summary"]
    assert len(bot.fake.requests_to("GET", r"/tarball/")) == 1


async def test_config_too_large_to_inline_is_invalid_not_empty(bot: Bot) -> None:
    # Above 1 MB the contents API sends no content: read as empty it would pass as defaults.
    config = "layers: [kernel]\n" + "# padding\n" * 120_000
    repo = new_repo(bot.fake, {".github/lockin.yml": config})
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert "larger than" in run.output["summary"]
    assert run.output["title"] == "Invalid .github/lockin.yml"


async def test_links_as_commit_trailers_and_labelled_issues_count(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    issue = repo.add_issue(
        "Use CUDA for the scale kernel",
        "---\nstatus: accepted\ncompute_api: CUDA 12.4\nmigration_cost: 1 day\n---\n",
        labels=["compute-api-decision"],
        assignees=["octo-lead"],
    )
    repo.commit({"csrc/scale.cu": KERNEL}, branch="feature", message="kernel")
    repo.commit(
        {"kernels/shift.cu": KERNEL.replace("scale", "shift")},
        branch="feature",
        message=f"second kernel\n\nCompute-API-Decision: #{issue.number}\n",
    )
    pr = repo.open_pr(head_branch="feature", body="Two kernels")
    # Anyone may open an issue: it counts once its owner (the assignee) approves the PR.
    bot.fake.add_account("octo-lead")
    review = repo.review_pr(pr.number, "octo-lead")

    await bot.pr_event(repo, pr, "opened")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "success"
    assert f"✅ `#{issue.number}`: valid" in run.output["summary"]
    assert bot.fake.requests_to("GET", rf"/issues/{issue.number}$")

    # Edited after the approval: the approval was of another text.
    issue.updated_at = "2999-01-01T00:00:00Z"
    await bot.pr_event(repo, pr, "edited")
    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert "awaiting an approving review from" in run.output["summary"]
    assert review.state == "APPROVED"


async def test_a_push_checked_once_though_two_events_announce_it(bot: Bot) -> None:
    # GitHub sends both pull_request.synchronize and check_suite.requested for one push.
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")
    head = repo.push_to_pr(pr.number, {"model.py": MODEL + "# more\n"})

    statuses = await asyncio.gather(
        bot.deliver("pull_request", pull_request_event(bot.fake, repo, pr, "synchronize")),
        bot.deliver("check_suite", check_suite_event(bot.fake, repo, head, "requested")),
    )
    await bot.settle()

    assert statuses == [202, 202]
    assert len(bot.runs(repo, head)) == 1
    assert len(bot.sticky(repo, pr.number)) == 1


async def test_a_comment_deleted_by_a_user_is_recreated_even_mid_run(bot: Bot) -> None:
    repo = new_repo(bot.fake)
    pr = open_pr(repo, {"csrc/scale.cu": KERNEL})
    await bot.pr_event(repo, pr, "opened")
    [first] = bot.sticky(repo, pr.number)
    del repo.comments[first.id]  # a maintainer deleted it

    repo.push_to_pr(pr.number, {"csrc/scale.cu": KERNEL + "// v2\n"})
    await bot.pr_event(repo, pr, "synchronize")
    [second] = bot.sticky(repo, pr.number)
    assert second.id != first.id

    # Deleted between our listing and our edit: GitHub answers the PATCH with 404 (the
    # fake keeps listing it, so the new comment is the last of two here).
    repo.push_to_pr(pr.number, {"csrc/scale.cu": KERNEL + "// v3\n"})
    bot.fake.fail("PATCH", rf"/issues/comments/{second.id}$", status=404)
    await bot.pr_event(repo, pr, "synchronize")

    run = bot.runs(repo, pr.head_sha)[-1]
    assert run.conclusion == "failure"
    assert "without a compute-API decision" in run.output["title"]
    newest = bot.sticky(repo, pr.number)[-1]
    assert newest.id not in (first.id, second.id)
    assert f"`{pr.head_sha[:7]}`" in newest.body
