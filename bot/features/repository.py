"""Repository lifecycle: every public answer follows the repository's visibility and name.

The badge and the history endpoint serve only repositories whose last event said they are
public. Without these events a repository made private kept its public badge and history
until the next push; a deleted, renamed or transferred one kept them under its old name.
The census's flag (shared by every process at once) is set first; the trend store's
follows, and waits in its backlog while the store is degraded (bot/store/keeper.py).
"""

from __future__ import annotations

from gidgethub import sansio
from gidgethub.routing import Router

from bot.features import trend
from bot.github.client import GitHub
from bot.github.payloads import Repository, moved_from
from bot.runtime.context import JobContext

router = Router()


@router.register("repository", action="privatized")
@router.register("repository", action="publicized")
async def on_visibility(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    """Made private: still counted (its pull requests' base figures), shown to no one, on
    the badge and the history endpoint alike. Made public: shown again."""
    repo = Repository.from_payload(event.data["repository"]).ref
    public = event.data["action"] == "publicized"  # the action says it, whatever else does
    await ctx.census.set_public(repo, public=public)
    await trend.set_public(ctx, repo, public=public)


@router.register("repository", action="deleted")
@router.register("repository", action="renamed")
@router.register("repository", action="transferred")
async def on_gone(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    """The old name shows nothing. A renamed repository keeps its census and points under
    its new name; a transferred one is counted afresh under its new owner (who may not
    have installed the app: GitHub then removes it from the installation)."""
    repository = Repository.from_payload(event.data["repository"])
    old, new = moved_from(repository, event.data.get("changes")), repository.ref
    if event.data["action"] == "renamed" and old.full_name.lower() != new.full_name.lower():
        await ctx.census.move_default_branch(old, new, public=repository.public)
        if ctx.store is not None:
            await ctx.store.rename(old, new)
            await trend.set_public(ctx, new, public=repository.public)
        return
    await ctx.census.forget_default_branch(old)
    if ctx.store is not None:
        await ctx.store.set_public(old, public=False)
