"""Merge queues: GitHub asks for every required check on the commit a queue builds
(``merge_group`` checks_requested); lockin reports on it (bot.review.merge_group), or a
repository with a merge queue could not make lockin a required check. A group the queue
drops (``merge_group`` destroyed) has its run of ours cancelled at once."""

from __future__ import annotations

from gidgethub import sansio
from gidgethub.routing import Router

from bot.features.events import repo_of
from bot.github.client import GitHub
from bot.github.payloads import MergeGroup
from bot.review.merge_group import check_merge_group, finish_destroyed_group
from bot.runtime.context import JobContext

router = Router()


@router.register("merge_group", action="checks_requested")
async def on_checks_requested(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    group = MergeGroup.from_payload(event.data["merge_group"])
    await check_merge_group(gh, ctx, repo=repo_of(event), group=group)


@router.register("merge_group", action="destroyed")
async def on_destroyed(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    group = MergeGroup.from_payload(event.data["merge_group"])
    reason = event.data.get("reason")
    repo = repo_of(event)
    cancelled = await finish_destroyed_group(gh, ctx, repo=repo, group=group, reason=reason)
    if cancelled:
        ctx.log.info(
            "merge group %s@%s %s: cancelled runs %s",
            repo,
            group.head_sha[:12],
            reason,
            cancelled,
            extra={"head_sha": group.head_sha, "check_run_ids": cancelled},
        )
