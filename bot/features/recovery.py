"""Finishing the runs a dead process left in progress (bot.review.stale), in the embedded
mode: on the first delivery from each installation after this process started."""

from __future__ import annotations

from gidgethub import sansio
from gidgethub.routing import Router

from bot.github.client import GitHub
from bot.github.errors import GitHubError
from bot.review.run import run_check
from bot.review.stale import stale_runs
from bot.runtime.context import JobContext

router = Router()

#: Installations this process has swept since it started (the process is what died).
_SWEPT: set[int] = set()


# The deliveries other features act on (an event nobody handles is not even queued).
@router.register("pull_request", action="opened")
@router.register("pull_request", action="synchronize")
@router.register("pull_request", action="reopened")
@router.register("check_suite", action="requested")
@router.register("check_run", action="rerequested")
@router.register("issue_comment", action="created")
@router.register("push")
async def finish_stale_runs(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    installation = (event.data.get("installation") or {}).get("id")
    if ctx.settings.redis_url or not ctx.settings.recover_stale_runs:
        return
    if not isinstance(installation, int) or installation in _SWEPT:
        return
    _SWEPT.add(installation)
    try:
        stale = await stale_runs(gh, ctx.settings.app_id)
    except GitHubError as exc:
        _SWEPT.discard(installation)  # look again at the next delivery
        ctx.log.warning("could not look for runs left in progress: %s", exc)
        return
    for run in stale:
        ctx.log.warning(
            "check run %s on %s was left in progress; checking again",
            run.run_id,
            run.pull,
            extra={"check_run_id": run.run_id, "head_sha": run.head_sha},
        )
        await run_check(gh, ctx, pull=run.pull, head_sha=run.head_sha, trigger="recovery")
