"""Repository lifecycle: every public answer follows the repository's visibility and name.

The badge and the history endpoint serve only repositories whose last event said they are
public. Without these events a repository made private kept its public badge and history
until the next push; a deleted, renamed or transferred one kept them under its old name.
The census's flag (shared by every process at once) is set first; the trend store's
follows, and waits in its backlog while the store is degraded (bot/store/keeper.py).
"""

from __future__ import annotations

from typing import Any

from gidgethub import sansio
from gidgethub.routing import Router

from bot.features import trend
from bot.github.client import GitHub
from bot.github.refs import RepoRef
from bot.runtime.context import JobContext

router = Router()


@router.register("repository", action="privatized")
@router.register("repository", action="publicized")
async def on_visibility(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    """Made private: still counted (its pull requests' base figures), shown to no one, on
    the badge and the history endpoint alike. Made public: shown again."""
    repository = event.data["repository"]
    owner, name = _name(repository)
    public = event.data["action"] == "publicized"  # the action says it, whatever else does
    await ctx.census.set_public(RepoRef(owner, name), public=public)
    await trend.set_public(ctx, {**repository, "private": not public})


@router.register("repository", action="deleted")
@router.register("repository", action="renamed")
@router.register("repository", action="transferred")
async def on_gone(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    """The old name shows nothing. A renamed repository keeps its census and points under
    its new name; a transferred one is counted afresh under its new owner (who may not
    have installed the app: GitHub then removes it from the installation)."""
    repository = event.data["repository"]
    owner, name = _name(repository)
    changes: dict[str, Any] = event.data.get("changes") or {}
    old_name = changes.get("repository", {}).get("name", {}).get("from")
    old_owner = _login(changes.get("owner", {}).get("from", {}))
    old, new = RepoRef(old_owner or owner, old_name or name), RepoRef(owner, name)
    if event.data["action"] == "renamed" and old.full_name.lower() != new.full_name.lower():
        public = not repository.get("private", True)
        await ctx.census.move_default_branch(old, new, public=public)
        if ctx.store is not None:
            await ctx.store.rename(old.full_name, new.full_name)
            await trend.set_public(ctx, repository)
        return
    await ctx.census.forget_default_branch(old)
    if ctx.store is not None:
        await ctx.store.set_public(old.full_name, public=False)


def _name(repository: dict[str, Any]) -> tuple[str, str]:
    owner, _, name = str(repository["full_name"]).partition("/")
    return owner, name


def _login(previous: dict[str, Any]) -> str | None:
    """The previous owner of a transferred repository: a user or an organization."""
    for kind in ("user", "organization"):
        account = previous.get(kind)
        if isinstance(account, dict) and isinstance(account.get("login"), str):
            return account["login"]
    return None
