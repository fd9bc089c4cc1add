"""Merge queues: GitHub asks for every required check on the commit a queue builds
(``merge_group`` checks_requested); lockin reports on it (bot.review.merge_group), or a
repository with a merge queue could not make lockin a required check."""

from __future__ import annotations

from gidgethub import sansio
from gidgethub.routing import Router

from bot.features.events import repo_of
from bot.github.client import GitHub
from bot.github.payloads import MergeGroup
from bot.review.merge_group import check_merge_group
from bot.runtime.context import JobContext

router = Router()


@router.register("merge_group", action="checks_requested")
async def on_checks_requested(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    group = MergeGroup.from_payload(event.data["merge_group"])
    await check_merge_group(gh, ctx, repo=repo_of(event), group=group)
