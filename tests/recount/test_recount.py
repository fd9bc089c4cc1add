"""`/lockin recount` and `/lockin help` in PR comments, end to end through the server."""

from __future__ import annotations

import io
import tarfile
import uuid
from pathlib import Path

from bot.engine import classify
from bot.engine.census import Census
from bot.engine.paths import PathFilter
from bot.github.refs import RepoRef
from tests.fakegithub import PullRequest, Repo
from tests.recount.archives import (
    ROOT,
    gzip_bomb,
    gzip_bytes,
    hostile_entries,
    incompressible,
    tarball,
)
from tests.recount.conftest import MAINTAINER, Bot, assert_nothing_written
from tests.support.webhooks import issue_comment_event

KERNEL_BYTES = b"__global__ void k(float* x) {\n    x[threadIdx.x] = 0;\n}\n"


def expected_census(repo: Repo, sha: str) -> Census:
    """A full count of the tree at ``sha``, file by file, as `lockin scan` would make it."""
    include = PathFilter.build()
    return Census(classify(p, data) for p, data in repo.tree(sha).items() if include.includes(p))


def figures(census: Census) -> str:
    return f"**{census.locked_to_nvidia():,}** of {census.totals.code_lines:,} code lines"


def writes(bot: Bot) -> list[str]:
    return [r for r in repo_requests(bot) if not r.startswith("GET ")]


def repo_requests(bot: Bot, since: int = 0) -> list[str]:
    """Requests about repositories (the app's own start-up and token requests left out)."""
    return [
        f"{r.method} {r.path}" for r in bot.fake.requests[since:] if r.path.startswith("/repos/")
    ]


async def test_a_writer_recounts_eyes_then_rocket_and_figures_everywhere(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    comment = await bot.command(repo, pr, "Linked the decision.\n\n/lockin recount")

    assert bot.reaction_posts(repo, comment) == ["eyes", "rocket"]
    census = expected_census(repo, pr.head_sha)
    assert census.locked_to_nvidia() > 0
    runs = [r for r in repo.check_runs.values() if r.head_sha == pr.head_sha]
    assert [(r.status, r.conclusion is not None) for r in runs] == [("completed", True)]
    summary = runs[0].output["summary"] + runs[0].output.get("text", "")
    assert figures(census) in summary
    [sticky] = bot.sticky(repo, pr)
    assert figures(census) in sticky.body
    assert "```mermaid" in sticky.body
    assert bot.tarball_downloads(repo) == 1
    assert bot.replies(repo, pr) == []


async def test_admin_and_maintain_may_recount(bot: Bot, repo: Repo, pr: PullRequest) -> None:
    repo.collaborators["keeper"] = "maintain"
    for user in ("boss", "keeper"):
        comment = await bot.command(repo, pr, "/lockin recount", user=user)
        assert bot.reaction_posts(repo, comment) == ["eyes", "rocket"]


async def test_a_reader_is_refused_with_one_confused_reaction(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    comment = await bot.command(repo, pr, "/lockin recount", user="reader")

    assert bot.reaction_posts(repo, comment) == ["confused"]
    assert writes(bot) == [f"POST /repos/{repo.full_name}/issues/comments/{comment.id}/reactions"]
    assert bot.tarball_downloads(repo) == 0
    assert not repo.check_runs


async def test_a_stranger_and_triage_are_refused_by_default(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    for user in ("triager", "passer-by", "contributor"):  # contributor wrote the PR
        comment = await bot.command(repo, pr, "/lockin recount", user=user)
        assert bot.reaction_posts(repo, comment) == ["confused"]
    assert not repo.check_runs


async def test_policy_may_allow_triage_and_the_pr_author(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    repo.commit({".github/lockin.yml": "recount:\n  allow: [write, triage, author]\n"})
    for user in ("triager", "contributor"):
        comment = await bot.command(repo, pr, "/lockin recount", user=user)
        assert bot.reaction_posts(repo, comment) == ["eyes", "rocket"]
    comment = await bot.command(repo, pr, "/lockin recount", user="reader")
    assert bot.reaction_posts(repo, comment) == ["confused"]


async def test_bots_are_ignored_without_a_request(bot: Bot, repo: Repo, pr: PullRequest) -> None:
    repo.collaborators["deploy-bot[bot]"] = "admin"
    before = len(bot.fake.requests)
    await bot.command(repo, pr, "/lockin recount", user="deploy-bot[bot]", user_type="Bot")
    await bot.command(repo, pr, "> /lockin recount", user=bot.fake.bot_login, user_type="Bot")
    assert repo_requests(bot, before) == []


async def test_quoted_and_fenced_commands_are_ignored(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    before = len(bot.fake.requests)
    await bot.command(repo, pr, "> /lockin recount\n\nWhat does this do?")
    await bot.command(repo, pr, "Run this:\n\n```\n/lockin recount\n```\n")
    await bot.command(repo, pr, "I ran `/lockin recount` yesterday")
    assert repo_requests(bot, before) == []


async def test_an_edited_comment_is_ignored(bot: Bot, repo: Repo, pr: PullRequest) -> None:
    comment = repo.add_comment(pr.number, "/lockin recount", user=MAINTAINER)
    payload = issue_comment_event(bot.fake, repo, pr, comment, "edited")
    before = len(bot.fake.requests)
    assert await bot.deliver("issue_comment", payload) == 202
    await bot.settle()
    assert repo_requests(bot, before) == []


async def test_a_command_on_an_issue_is_ignored(bot: Bot, repo: Repo) -> None:
    issue = repo.add_issue("Question", "How do I count?", user=MAINTAINER)
    comment = repo.add_comment(issue.number, "/lockin recount", user=MAINTAINER)
    before = len(bot.fake.requests)
    payload = issue_comment_event(bot.fake, repo, issue, comment)
    assert await bot.deliver("issue_comment", payload) == 202
    await bot.settle()
    assert repo_requests(bot, before) == []


async def test_help_and_unknown_verbs_get_the_help(bot: Bot, repo: Repo, pr: PullRequest) -> None:
    await bot.command(repo, pr, "/lockin help")
    await bot.command(repo, pr, "/lockin recunt")
    first, second = bot.replies(repo, pr)
    assert "`/lockin recount`" in first.body
    assert second.body.startswith("`/lockin recunt` is not a lockin command")
    assert not repo.check_runs


async def test_a_command_run_again_replies_once(bot: Bot, repo: Repo, pr: PullRequest) -> None:
    # A job run twice (a worker died after posting, a retried job) sees its own reply.
    comment = await bot.command(repo, pr, "/lockin help")
    payload = issue_comment_event(bot.fake, repo, pr, comment)
    assert await bot.deliver("issue_comment", payload) == 202  # a new delivery id
    await bot.settle()
    [reply] = bot.replies(repo, pr)
    assert "`/lockin recount`" in reply.body


async def test_twenty_commands_in_a_minute_make_one_recount(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    comments = [await bot.command(repo, pr, "/lockin recount", settle=False) for _ in range(20)]
    await bot.settle()

    assert bot.tarball_downloads(repo) == 1
    assert len(bot.fake.requests_to("POST", f"^/repos/{repo.full_name}/check-runs$")) == 1
    for comment in comments:
        assert bot.reaction_posts(repo, comment) == ["eyes", "rocket"]
    assert len(bot.sticky(repo, pr)) == 1


async def test_a_new_head_is_recounted(bot: Bot, repo: Repo, pr: PullRequest) -> None:
    await bot.command(repo, pr, "/lockin recount")
    repo.push_to_pr(pr.number, {"csrc/more.cu": "__global__ void k() {}\n"})
    await bot.command(repo, pr, "/lockin recount")
    assert bot.tarball_downloads(repo) == 2
    [sticky] = bot.sticky(repo, pr)
    assert figures(expected_census(repo, pr.head_sha)) in sticky.body


async def test_an_archive_over_the_limit_gets_a_reply_and_still_a_check(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    repo.commit({".github/lockin.yml": "census:\n  max_archive_mb: 1\n"})
    repo.set_tarball(pr.head_sha, incompressible(2 * 2**20))
    comment = await bot.command(repo, pr, "/lockin recount")

    assert bot.reaction_posts(repo, comment) == ["eyes"]
    [reply] = bot.replies(repo, pr)
    assert "larger than the 1 MB limit (census.max_archive_mb)" in reply.body
    assert [r.status for r in repo.check_runs.values()] == ["completed"]


async def test_a_gzip_bomb_is_refused_and_reported(bot: Bot, repo: Repo, pr: PullRequest) -> None:
    repo.set_tarball(pr.head_sha, gzip_bomb())
    comment = await bot.command(repo, pr, "/lockin recount")

    assert bot.reaction_posts(repo, comment) == ["eyes"]
    [reply] = bot.replies(repo, pr)
    assert "gzip bomb" in reply.body


async def test_hostile_archive_entries_are_skipped_and_change_nothing(
    bot: Bot, repo: Repo, pr: PullRequest, quiet_disk: Path
) -> None:
    marker = f"lockin-{uuid.uuid4().hex}"
    files = {p: d for p, d in repo.tree(pr.head_sha).items()}
    repo.set_tarball(pr.head_sha, tarball(files, specials=hostile_entries(marker)))
    comment = await bot.command(repo, pr, "/lockin recount")

    assert bot.reaction_posts(repo, comment) == ["eyes", "rocket"]
    [sticky] = bot.sticky(repo, pr)
    assert figures(expected_census(repo, pr.head_sha)) in sticky.body
    from bot.census.by_commit import scope_of
    from bot.policy.config import DEFAULT_POLICY
    from bot.server.keys import SERVICES

    store = bot.client.server.app[SERVICES].census
    counted = await store.get(RepoRef.parse(repo.full_name), pr.head_sha, scope_of(DEFAULT_POLICY))
    assert counted is not None
    assert counted.census.skipped == {
        "absolute-path": 1,
        "device": 2,
        "fifo": 1,
        "hardlink": 1,
        "path-traversal": 1,
        "symlink": 1,
    }
    assert_nothing_written(quiet_disk, marker)


async def test_github_failing_the_download_gets_a_reply_and_still_a_check(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    bot.fake.fail("GET", "/tarball/", status=404, times=1)
    comment = await bot.command(repo, pr, "/lockin recount")

    assert bot.reaction_posts(repo, comment) == ["eyes"]
    [reply] = bot.replies(repo, pr)
    assert "the repository could not be counted" in reply.body
    assert [r.status for r in repo.check_runs.values()] == ["completed"]


async def test_a_configuration_change_is_recounted_at_once(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    first = await bot.command(repo, pr, "/lockin recount")
    repo.commit({".github/lockin.yml": "paths:\n  exclude: [csrc/]\n"})
    second = await bot.command(repo, pr, "/lockin recount")

    assert bot.reaction_posts(repo, first) == ["eyes", "rocket"]
    assert bot.reaction_posts(repo, second) == ["eyes", "rocket"]
    assert bot.tarball_downloads(repo) == 2
    [sticky] = bot.sticky(repo, pr)
    without_csrc = Census(
        classify(p, data)
        for p, data in repo.tree(pr.head_sha).items()
        if PathFilter.build(exclude=["csrc/"]).includes(p)
    )
    assert figures(without_csrc) in sticky.body


async def test_the_help_never_echoes_markup(bot: Bot, repo: Repo, pr: PullRequest) -> None:
    await bot.command(repo, pr, "/lockin x`@everyone`")
    [reply] = bot.replies(repo, pr)
    assert "@everyone" not in reply.body
    assert reply.body.startswith("`/lockin …` is not a lockin command")


async def test_a_recount_on_a_closed_pr_says_so_and_counts_nothing(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    pr.state = repo.issues[pr.number].state = "closed"

    comment = await bot.command(repo, pr, "/lockin recount")

    assert bot.reaction_posts(repo, comment) == ["eyes"]
    [reply] = bot.replies(repo, pr)
    assert "closed" in reply.body
    assert bot.tarball_downloads(repo) == 0
    assert not any(run.head_sha == pr.head_sha for run in repo.check_runs.values())


async def test_an_invalid_configuration_is_reported_not_counted_under_the_defaults(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    repo.commit({".github/lockin.yml": "allowance: -3\n"})

    comment = await bot.command(repo, pr, "/lockin recount")

    assert bot.reaction_posts(repo, comment) == ["eyes", "rocket"]
    assert bot.tarball_downloads(repo) == 0
    [run] = [r for r in repo.check_runs.values() if r.head_sha == pr.head_sha]
    assert run.conclusion == "failure"
    assert "allowance" in run.output["summary"]


async def test_a_file_name_that_is_not_utf8_is_counted_not_a_failure(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    # git archive writes a name's bytes as they are; here a Latin-1 "é" (0xE9) in a .cu name.
    files = dict(repo.tree(pr.head_sha).items())
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for path, data in [*files.items(), ("csrc/caf\udce9.cu", KERNEL_BYTES)]:
            raw = data.encode() if isinstance(data, str) else data
            info = tarfile.TarInfo(f"{ROOT}/{path}")
            info.size = len(raw)
            tar.addfile(info, io.BytesIO(raw))
    repo.set_tarball(pr.head_sha, gzip_bytes(out.getvalue()))

    comment = await bot.command(repo, pr, "/lockin recount")

    assert bot.reaction_posts(repo, comment) == ["eyes", "rocket"]
    [sticky] = bot.sticky(repo, pr)
    before = expected_census(repo, pr.head_sha)
    assert f"{before.totals.code_lines + 3:,} code lines" in sticky.body


async def test_a_stranger_repeating_commands_costs_one_reaction_and_no_other_write(
    bot: Bot, repo: Repo, pr: PullRequest
) -> None:
    comments = [await bot.command(repo, pr, "/lockin recount", user="passer-by") for _ in range(40)]

    assert bot.reaction_posts(repo, comments[0]) == ["confused"]
    assert all(bot.reaction_posts(repo, c) == [] for c in comments[1:])
    # Nothing else written for them: no replies, no check run, no comment.
    assert writes(bot) == [
        f"POST /repos/{repo.full_name}/issues/comments/{comments[0].id}/reactions"
    ]
    # Another stranger is still told once.
    other = await bot.command(repo, pr, "/lockin recount", user="someone-else")
    assert bot.reaction_posts(repo, other) == ["confused"]
