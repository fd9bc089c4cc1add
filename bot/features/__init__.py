"""Every feature's gidgethub Router, combined in one place: the server dispatches to ROUTER.

A handler is `async def handler(event: gidgethub.sansio.Event, gh: GitHub, ctx: JobContext)`.
"""

from gidgethub.routing import Router

from bot.features import installation

ROUTER = Router(installation.router)
