"""The default branch's census, refreshed on every push to it (the badge, PR base figures)."""

from __future__ import annotations

from gidgethub import sansio
from gidgethub.routing import Router

from bot.census.by_commit import ZERO_SHA
from bot.features import trend
from bot.github.client import GitHub
from bot.github.payloads import Push
from bot.review.config_io import load_repo_config
from bot.runtime.context import JobContext
from bot.sources.archive import ArchiveError

router = Router()


@router.register("push")
async def on_push(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    """A push to the default branch refreshes its census (the badge, PR base figures)."""
    push = Push.from_payload(event.data)
    head = push.default_branch_head
    if head is None:
        return
    ref = push.repository.ref
    store = ctx.census
    await store.set_public(ref, public=push.repository.public)
    config = await load_repo_config(gh, ref, push.repository.branch())
    try:
        result = await store.refresh_default_branch(
            gh,
            ref,
            before=push.before or ZERO_SHA,
            after=head,
            policy=config.policy,
            blobs=ctx.caches.blobs,
        )
    except ArchiveError as exc:
        ctx.log.warning("census of %s@%s refused: %s", ref.full_name, head, exc)
        return
    await trend.record_push(gh, ctx, push, result)
    ctx.log.info(
        "default-branch census of %s@%s: %.1f%% locked to NVIDIA",
        ref.full_name,
        result.sha,
        100 * result.census.nvidia_share(),
    )
