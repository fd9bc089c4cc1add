"""Installation lifecycle: drop an installation's cached token when its access changes.

GitHub sends `installation` and `installation_repositories` events to every App. After a
deletion or suspension the token is useless; after new permissions or a change of
repositories a new token is needed to see them.
"""

from __future__ import annotations

from gidgethub import sansio
from gidgethub.routing import Router

from bot.github.client import GitHub
from bot.runtime.context import JobContext

router = Router()


@router.register("installation", action="deleted")
@router.register("installation", action="suspend")
@router.register("installation", action="new_permissions_accepted")
@router.register("installation_repositories", action="added")
@router.register("installation_repositories", action="removed")
async def forget_token(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    installation_id = event.data["installation"]["id"]
    ctx.auth.forget(installation_id)
    ctx.log.info("forgot the installation token (%s %s)", event.event, event.data.get("action"))
