"""Every feature's gidgethub Router, combined in one place: the server dispatches to ROUTER.

One module per event family: pr_check (pull_request, pull_request_review, check_suite,
check_run), merge_queue (merge_group), commands
(slash commands in PR comments), census (pushes to the default branch), installation
(installation and installation_repositories). A handler is
`async def handler(event: gidgethub.sansio.Event, gh: GitHub, ctx: JobContext)`; several
features may handle the same event (each runs; one failing does not stop the others).
"""

from gidgethub.routing import Router

from bot.features import (
    census,
    commands,
    dashboard,
    installation,
    merge_queue,
    pr_check,
    recovery,
    repository,
)

ROUTER = Router(
    installation.router,
    pr_check.router,
    merge_queue.router,
    commands.router,
    census.router,
    recovery.router,
    dashboard.router,
    repository.router,
)
