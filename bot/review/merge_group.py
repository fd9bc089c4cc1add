"""The check on a merge queue's commit (``merge_group`` checks_requested).

GitHub asks every required check to report on the commit a merge queue builds (the queued
pull requests on top of the base), or the queue waits for it forever. The check runs the PR
check's gate on that commit against ``merge_group.base_sha``: the change is listed by the
compare API, the decisions linked by the pull requests in the group are read at the group's
head, and a record one of them adds counts with the approval given on that pull request.
No comment is written: a merge group has no conversation.

A run already completed with a result on the group's head (a redelivery) is left as it is;
an error completes the run as failed, never leaves it in progress. The run is recorded as
open (bot.runtime.open_runs) until completed, so the timed sweep checks the group again when
its job died, or cancels the run when the queue has left that commit meanwhile. When the
queue drops the group (``merge_group`` destroyed) before the check ends, the run is
cancelled at once.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from bot.github.payloads import MergeGroup, PullRequest, Repository
from bot.github.refs import PullRef, RepoRef, merge_group_pulls
from bot.review.change import analyse_pr
from bot.review.check_output import check_output
from bot.review.check_start import failing_on_error, shielded, start_check
from bot.review.check_writer import our_runs
from bot.review.pr_files import PRFile
from bot.review.report import PRReport
from bot.review.run import judge
from bot.review.stale import finish_left_group, queue_head
from bot.runtime.open_runs import OpenRun

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.runtime.context import JobContext

#: The external_id of our runs on merge-group commits: no pull request's, so that a
#: check_suite event on the group's head never re-runs a PR check there.
MERGE_GROUP_ID = "merge_group"
#: The compare API lists at most this many files: a longer change is not seen whole.
MAX_COMPARE_FILES = 300


async def check_merge_group(
    gh: GitHub, ctx: JobContext, *, repo: RepoRef, group: MergeGroup
) -> str | None:
    """Check a merge group's head; the conclusion, or None when it was already checked or
    the queue has left it (its runs of ours in progress there are then cancelled)."""
    head_sha, base_sha = group.head_sha, group.base_sha

    async def still_queued(existing: list[dict[str, Any]]) -> bool:
        # A late delivery, a retry or the sweep: nothing waits on a commit the queue left.
        current = await queue_head(gh, repo, group.head_ref)
        if current == head_sha:
            return True
        await finish_left_group(gh, ctx.caches.open_runs, repo, existing, head_sha, current=current)
        ctx.log.info("merge group %s@%s left the queue: not checked", repo, head_sha[:12])
        return False

    started = await start_check(
        gh, ctx, repo=repo, head_sha=head_sha, external_id=MERGE_GROUP_ID, proceed=still_queued
    )
    if started is None:
        return None
    run, info, config = started.run, started.repository, started.config
    try:
        async with failing_on_error(ctx, run):
            await ctx.caches.open_runs.add(
                OpenRun(ctx.installation_id, repo.full_name, 0, head_sha, run.id, time.time(),
                        group_ref=group.head_ref, group_base=base_sha)
            )  # fmt: skip
            compare = await gh.getitem(f"/repos/{repo.full_name}/compare/{base_sha}...{head_sha}")
            messages = [(c.get("commit") or {}).get("message") or "" for c in compare["commits"]]
            numbers = merge_group_pulls(group.head_ref, messages)
            report = PRReport(
                PullRef(repo, numbers[-1] if numbers else 0),
                head_sha,
                config,
                repo_url=info.html_url,
            )
            if config.error is None:
                await _analyse(gh, ctx, report, info, compare, base_sha, numbers)
            await run.complete(check_output(report))
    finally:
        if run.completed:  # else it stays recorded, for the sweep to finish
            await shielded(ctx.caches.open_runs.remove(repo.full_name, run.id))
    ctx.log.info(
        "merge group check %s@%s: %s",
        repo.full_name,
        head_sha[:12],
        report.conclusion,
        extra={"head_sha": head_sha, "conclusion": report.conclusion, "prs": numbers},
    )
    return report.conclusion


async def finish_destroyed_group(
    gh: GitHub, ctx: JobContext, *, repo: RepoRef, group: MergeGroup, reason: str | None
) -> list[int]:
    """The queue dropped ``group`` (``merge_group`` destroyed): our runs still in progress on
    its commit are cancelled now, saying why, rather than at the next timed sweep. Their ids."""
    runs = await our_runs(gh, repo, group.head_sha, name=None, app_id=ctx.settings.app_id)
    ours = [run for run in runs if run.get("external_id") == MERGE_GROUP_ID]
    return await finish_left_group(
        gh, ctx.caches.open_runs, repo, ours, group.head_sha, current=None, reason=reason
    )


async def _analyse(
    gh: GitHub,
    ctx: JobContext,
    report: PRReport,
    info: Repository,
    compare: dict[str, Any],
    base_sha: str,
    numbers: list[int],
) -> None:
    policy = report.config.policy
    repo = report.pull.repo
    files = [PRFile.from_api(item) for item in compare.get("files") or []]
    # A full page may hide more: one unseen file keeps the check from passing.
    unseen = int(len(files) >= MAX_COMPARE_FILES)
    analysis = await analyse_pr(
        gh,
        ctx.caches.blobs,
        pull=report.pull,
        base_sha=base_sha,
        head_sha=report.head_sha,
        changed_files=len(files) + unseen,
        repo_size_kb=info.size_kb,
        policy=policy,
        engine=ctx.engine,
        files=files,
    )
    report.analysis = analysis

    async def pulls() -> list[PullRequest]:
        return [
            PullRequest.from_payload(await gh.getitem(f"/repos/{repo.full_name}/pulls/{n}"))
            for n in numbers
        ]

    # The same gate as each pull request's: its baseline and ratchet too, or a queue would
    # refuse what every pull request in it passed.
    await judge(
        gh,
        ctx,
        report,
        analysis.delta,
        default_branch=info.branch(),
        base_sha=base_sha,
        pulls=pulls,
    )
