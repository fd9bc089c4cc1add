"""Finishing the runs a dead process left in progress (bot.review.stale): in the embedded
mode, on the first delivery from each installation after this process started; in every
mode, the runs the timed sweep found abandoned (bot.runtime.sweep), pull requests' and merge
groups', and those of a job dropped because a newer head superseded its own
(`close_superseded`, by `lockin worker`)."""

from __future__ import annotations

import logging
from typing import Any

from gidgethub import sansio
from gidgethub.routing import Router

from bot.github.client import GitHub
from bot.github.errors import GitHubError, NotFound
from bot.github.payloads import PullRequest
from bot.github.refs import PullRef, RepoRef
from bot.review.merge_group import check_merge_group
from bot.review.run import run_check
from bot.review.stale import finish_replaced, stale_runs
from bot.runtime.context import JobContext
from bot.runtime.open_runs import OPEN_RUN_EVENT, OpenRun
from bot.runtime.services import Services

router = Router()
log = logging.getLogger("lockin.recovery")

#: Installations this process has swept since it started (the process is what died).
_SWEPT: set[int] = set()


# The deliveries other features act on (an event nobody handles is not even queued).
@router.register("pull_request", action="opened")
@router.register("pull_request", action="synchronize")
@router.register("pull_request", action="reopened")
@router.register("check_suite", action="requested")
@router.register("check_run", action="rerequested")
@router.register("issue_comment", action="created")
@router.register("push")
async def finish_stale_runs(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    installation = (event.data.get("installation") or {}).get("id")
    if ctx.settings.redis_url or not ctx.settings.recover_stale_runs:
        return
    if not isinstance(installation, int) or installation in _SWEPT:
        return
    _SWEPT.add(installation)
    try:
        stale = await stale_runs(gh, ctx.settings.app_id)
    except GitHubError as exc:
        _SWEPT.discard(installation)  # look again at the next delivery
        ctx.log.warning("could not look for runs left in progress: %s", exc)
        return
    for run in stale:
        ctx.log.warning(
            "check run %s on %s was left in progress; checking again",
            run.run_id,
            run.pull,
            extra={"check_run_id": run.run_id, "head_sha": run.head_sha},
        )
        await run_check(gh, ctx, pull=run.pull, head_sha=run.head_sha, trigger="recovery")


@router.register(OPEN_RUN_EVENT)
async def finish_open_run(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    """A run the sweep found in progress long after any job could be working on it."""
    run = OpenRun.from_dict(event.data["open_run"])
    runs = ctx.caches.open_runs
    repo = RepoRef.parse(run.repo)
    pull = PullRef(repo, run.number)
    state = await _read(gh, ctx, run, f"/repos/{run.repo}/check-runs/{run.run_id}")
    if state["status"] == "completed":
        await runs.remove(run.repo, run.run_id)
        return
    group = run.merge_group
    if group is not None:
        # A required check missing on a group's commit stalls the whole queue: checked
        # again into the same run while the queue still holds it, else cancelled, saying why.
        ctx.log.warning(
            "check run %s on merge group %s@%s was left in progress; finishing it",
            run.run_id,
            repo,
            run.head_sha[:12],
            extra={"check_run_id": run.run_id, "head_sha": run.head_sha},
        )
        if await check_merge_group(gh, ctx, repo=repo, group=group) is None:
            await runs.remove(run.repo, run.run_id)  # finished there, or not ours to finish
        return
    pr = PullRequest.from_payload(
        await _read(gh, ctx, run, f"/repos/{run.repo}/pulls/{run.number}")
    )
    current = pr.head_sha if pr.is_open else None
    if current != run.head_sha:
        await finish_replaced(
            gh, runs, pull, run.head_sha, current=current, app_id=ctx.settings.app_id
        )
        await runs.remove(run.repo, run.run_id)  # finished above, or not ours to finish
        ctx.log.warning(
            "check run %s on %s was left in progress on a replaced head; cancelled",
            run.run_id,
            pull,
            extra={"check_run_id": run.run_id, "head_sha": run.head_sha},
        )
        return
    ctx.log.warning(
        "check run %s on %s was left in progress; checking again",
        run.run_id,
        pull,
        extra={"check_run_id": run.run_id, "head_sha": run.head_sha},
    )
    await run_check(gh, ctx, pull=pull, head_sha=run.head_sha, trigger="recovery")


async def _read(gh: GitHub, ctx: JobContext, run: OpenRun, url: str) -> Any:
    try:
        return await gh.getitem(url)
    except NotFound:
        await ctx.caches.open_runs.remove(run.repo, run.run_id)  # the run or repository is gone
        raise


async def close_superseded(services: Services, payload: dict[str, Any], newer: str) -> None:
    """The runs an earlier attempt of a `pull_request` job dropped as superseded started
    on its head: completed as cancelled, naming the `newer` head (nobody else would)."""
    assert services.auth is not None
    try:
        installation = int(payload["installation"]["id"])
        pr = PullRequest.from_payload(payload["pull_request"])
    except (KeyError, TypeError, ValueError):
        return  # not a pull request delivery the check could have started a run for
    pull, head = pr.pull, pr.head_sha
    gh = services.auth.installation_client(installation)
    runs = services.caches.open_runs
    try:
        finished = await finish_replaced(
            gh, runs, pull, head, current=newer, app_id=services.settings.app_id
        )
    except GitHubError as exc:
        # Still recorded as open: the timed sweep finishes them.
        log.warning("could not finish the runs on superseded head %s: %s", head, exc)
        return
    for run_id in finished:
        log.info("check run %s on superseded head %s completed as cancelled", run_id, head)
