"""Repository lifecycle: a badge follows the repository's visibility and name at once.

The badge is served only for repositories whose last event said they are public. Without
these events a repository made private kept its public badge until the next push or the
cache's expiry; a deleted, renamed or transferred one kept a badge under its old name.
"""

from __future__ import annotations

from typing import Any

from gidgethub import sansio
from gidgethub.routing import Router

from bot.github.client import GitHub
from bot.github.refs import RepoRef
from bot.runtime.context import JobContext

router = Router()


@router.register("repository", action="privatized")
async def on_privatized(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    """Still counted (its pull requests' base figures), no longer shown to anyone."""
    owner, name = _name(event.data["repository"])
    await ctx.census.set_public(RepoRef(owner, name), public=False)


@router.register("repository", action="publicized")
async def on_publicized(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    owner, name = _name(event.data["repository"])
    await ctx.census.set_public(RepoRef(owner, name), public=True)


@router.register("repository", action="deleted")
@router.register("repository", action="renamed")
@router.register("repository", action="transferred")
async def on_gone(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    """The old name shows nothing; the new one gets its badge at its next count."""
    owner, name = _name(event.data["repository"])
    changes: dict[str, Any] = event.data.get("changes") or {}
    old_name = changes.get("repository", {}).get("name", {}).get("from")
    old_owner = _login(changes.get("owner", {}).get("from", {}))
    await ctx.census.forget_default_branch(RepoRef(old_owner or owner, old_name or name))


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
