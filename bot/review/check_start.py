"""Starting a check run and never leaving it in progress: what the pull-request check
(bot.review.run) and the merge-group check (bot.review.merge_group) share.

- Before a run of ours exists (the configuration or our runs could not be read), the error
  is reported on a run created already failed, so a required check never goes missing.
- A run of ours that already has a result on the head is left as it is when the caller
  says so (a redelivery); an unfinished one is taken over, never duplicated.
- A run being created when the job is stopped (its deadline, shutdown) is still created,
  then completed as failed: a POST GitHub had taken would otherwise leave a run in progress
  that no one knows of.
- Once started, any error or cancellation completes the run as failed, shielded from the
  job's cancellation, then propagates. Failure, not neutral: branch protection counts
  neutral as passing, and an outage must not let unchecked code through.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.github.errors import GitHubError
from bot.github.payloads import Repository
from bot.policy.config import DEFAULT_POLICY
from bot.review.check_writer import ERROR_TITLE, CheckOutput, CheckRun, has_result, our_runs
from bot.review.config_io import RepoConfig, load_repo_config

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.refs import RepoRef
    from bot.runtime.context import JobContext

#: The run's name when the failure came before the configuration (which may rename it).
DEFAULT_NAME = DEFAULT_POLICY.check_name


@dataclass(frozen=True, slots=True)
class StartedCheck:
    repository: Repository
    config: RepoConfig
    run: CheckRun


async def start_check(
    gh: GitHub,
    ctx: JobContext,
    *,
    repo: RepoRef,
    head_sha: str,
    external_id: str,
    repository: Repository | None = None,
    keep_result: bool = True,
    proceed: Callable[[list[dict[str, Any]]], Awaitable[bool]] | None = None,
) -> StartedCheck | None:
    """Read the configuration from the default branch of ``repository`` (None: read the
    repository from GitHub first) and start our run on ``head_sha``; None when
    ``keep_result`` and a run of ours there already has a result, or when ``proceed``, given
    our runs on the head, says the head is no longer to be checked."""
    name = DEFAULT_NAME
    try:
        if repository is None:
            repository = Repository.from_payload(await gh.getitem(f"/repos/{repo.full_name}"))
        config = await load_repo_config(gh, repo, repository.branch())
        name = config.policy.check_name
        existing = await our_runs(gh, repo, head_sha, name=name, app_id=ctx.settings.app_id)
        existing = [run for run in existing if run.get("external_id") == external_id]
        if proceed is not None and not await proceed(existing):
            return None
    except (Exception, asyncio.CancelledError) as exc:
        # The job's deadline too may strike here. The retry (bot.runtime.retries) runs the
        # check again, on this failed run.
        await shielded(failed_before_start(gh, ctx, repo, head_sha, name, external_id, exc))
        raise
    if keep_result and any(map(has_result, existing)):
        return None
    run = await _started(
        ctx,
        CheckRun.start(
            gh,
            repo=repo,
            name=name,
            head_sha=head_sha,
            external_id=external_id,
            existing=existing,
            app_id=ctx.settings.app_id,
        ),
    )
    return StartedCheck(repository, config, run)


async def _started(ctx: JobContext, start: Coroutine[Any, Any, CheckRun]) -> CheckRun:
    """The run ``start`` creates. Stopped meanwhile, the creation still finishes, shielded,
    and the run is completed as failed at once."""
    creating = asyncio.ensure_future(start)
    try:
        return await asyncio.shield(creating)
    except asyncio.CancelledError as stop:
        await shielded(_complete_once_created(ctx, creating, stop))
        raise


async def _complete_once_created(
    ctx: JobContext, creating: asyncio.Future[CheckRun], stop: BaseException
) -> None:
    try:
        run = await creating
    except GitHubError as exc:
        # No run was created: the delivery is released, and a retry or redelivery creates it.
        ctx.log.warning("check run not created before the job was stopped: %s", exc)
        return
    await _complete_with_error(ctx, run, stop)


@asynccontextmanager
async def failing_on_error(ctx: JobContext, run: CheckRun) -> AsyncIterator[None]:
    """Completes ``run`` as failed when the block raises or is cancelled (a worker stopped
    at shutdown, the job's deadline) before it completed the run itself."""
    try:
        yield
    except (Exception, asyncio.CancelledError) as exc:
        if not run.completed:
            # Shielded: a second cancellation must not leave the run in progress for good.
            await shielded(_complete_with_error(ctx, run, exc))
        raise


#: Cleanups running shielded from their job's cancellation, referenced until done.
_CLEANUPS: set[asyncio.Task[None]] = set()


async def shielded(cleanup: Coroutine[Any, Any, None]) -> None:
    task = asyncio.ensure_future(cleanup)
    _CLEANUPS.add(task)
    task.add_done_callback(_CLEANUPS.discard)
    await asyncio.shield(task)


def error_output(exc: BaseException) -> CheckOutput:
    if isinstance(exc, asyncio.CancelledError):
        reason = "the job was stopped (it ran longer than JOB_TIMEOUT, or the server shut down)"
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
            "When GitHub failed, lockin tries again by itself later; **Recount** (or "
            "re-running the check) tries at once."
        ),
        text="",
    )


async def _complete_with_error(ctx: JobContext, run: CheckRun, exc: BaseException) -> None:
    try:
        completed = await run.complete_if_open(error_output(exc))
    except GitHubError:
        ctx.log.warning("could not complete check run %s after an error", run.id)
        return
    if completed:
        ctx.log.info("check run %s completed as failed: the job stopped", run.id)
    else:
        ctx.log.info("check run %s was completed by another job: its result stays", run.id)


async def failed_before_start(
    gh: GitHub,
    ctx: JobContext,
    repo: RepoRef,
    head_sha: str,
    name: str,
    ours: str,
    exc: BaseException,
) -> None:
    try:
        await CheckRun.failed_before_start(
            gh, repo=repo, name=name, head_sha=head_sha, external_id=ours,
            result=error_output(exc),
        )  # fmt: skip
    except GitHubError as error:
        # GitHub refuses the run too: the job's retry creates it once GitHub answers.
        ctx.log.warning("could not report the failure on %s: %s", head_sha[:12], error)
