"""The default branch's census, refreshed on every push to it (the badge, PR base figures)."""

from __future__ import annotations

from gidgethub import sansio
from gidgethub.routing import Router

from bot.census.by_commit import ZERO_SHA
from bot.features import trend
from bot.features.events import repo_of
from bot.github.client import GitHub
from bot.review.config_io import load_repo_config
from bot.runtime.context import JobContext
from bot.sources.archive import ArchiveError

router = Router()


@router.register("push")
async def on_push(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    """A push to the default branch refreshes its census (the badge, PR base figures)."""
    data = event.data
    repository = data["repository"]
    if data.get("ref") != f"refs/heads/{repository['default_branch']}":
        return
    if data.get("deleted") or data.get("after", ZERO_SHA) == ZERO_SHA:
        return
    ref = repo_of(event)
    store = ctx.census
    await store.set_public(ref, public=not repository.get("private", True))
    config = await load_repo_config(gh, ref, repository["default_branch"])
    try:
        result = await store.refresh_default_branch(
            gh,
            ref,
            before=data.get("before") or ZERO_SHA,
            after=data["after"],
            policy=config.policy,
            blobs=ctx.caches.blobs,
        )
    except ArchiveError as exc:
        ctx.log.warning("census of %s@%s refused: %s", ref.full_name, data["after"], exc)
        return
    await trend.record_push(gh, ctx, ref, data, result)
    ctx.log.info(
        "default-branch census of %s@%s: %.1f%% locked to NVIDIA",
        ref.full_name,
        result.sha,
        100 * result.census.nvidia_share(),
    )
