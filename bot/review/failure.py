"""A check that could not finish still ends in a check run: `failure`, with the reason.

A required status check that never appears blocks every merge, and one left in progress
does too; neutral or success would let unchecked code through. So every error of the check
completes our run as failure, and an error before the run existed (the pull request or the
configuration could not be read) creates one under the default name first.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from bot.github.errors import GitHubError
from bot.review.checks import ERROR_TITLE, CheckOutput, CheckRun, our_runs

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.server.context import JobContext


def error_output(exc: BaseException) -> CheckOutput:
    if isinstance(exc, asyncio.CancelledError):
        reason = "the worker was stopped (the server is shutting down)"
    elif isinstance(exc, GitHubError):
        reason = f"GitHub did not answer as expected ({exc.status or 'no answer'}): {exc}"
    else:
        reason = f"internal error ({type(exc).__name__})"
    return CheckOutput(
        conclusion="failure",
        title=ERROR_TITLE,
        summary=(
            f"lockin stopped before it could count this pull request: {reason[:500]}.\n\n"
            "It reports failure rather than let unchecked code pass a required check. "
            "When GitHub failed, lockin tries again by itself; press **Recount** (or re-run "
            "the check) to try now."
        ),
        text="",
    )


async def complete_with_error(ctx: JobContext, run: CheckRun, exc: BaseException) -> None:
    try:
        await run.complete(error_output(exc))
    except GitHubError:
        ctx.log.warning("could not complete check run %s after an error", run.id)


async def fail_before_start(
    gh: GitHub,
    ctx: JobContext,
    *,
    owner: str,
    repo: str,
    name: str,
    head_sha: str,
    external_id: str,
    error: BaseException,
) -> None:
    """Create our run on ``head_sha`` and complete it as failure for ``error``. If even that
    fails, GitHub's error propagates (the job is retried later)."""
    try:
        existing = await our_runs(gh, owner, repo, head_sha, name=name, app_id=ctx.settings.app_id)
    except GitHubError:
        existing = []  # the listing failing must not stop the run from being created
    run = await CheckRun.start(
        gh,
        owner=owner,
        repo=repo,
        name=name,
        head_sha=head_sha,
        external_id=external_id,
        existing=existing,
        app_id=ctx.settings.app_id,
    )
    await complete_with_error(ctx, run, error)
