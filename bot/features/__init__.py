"""Every feature's gidgethub Router, combined in one place: the server dispatches to ROUTER.

A handler is `async def handler(event: gidgethub.sansio.Event, gh: GitHub, ctx: JobContext)`;
several features may handle the same event (each runs; one failing does not stop the others).
"""

from gidgethub.routing import Router

from bot.features import dashboard, installation, pr_check, recount, recovery

ROUTER = Router(
    installation.router, pr_check.router, recount.router, recovery.router, dashboard.router
)
