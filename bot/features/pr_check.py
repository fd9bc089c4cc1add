"""Webhooks that (re-)run the pull-request check (bot.review.run_check).

- ``pull_request``: opened, synchronize, reopened, ready_for_review, and edited only when
  the description changed (a `Compute-API-Decision:` line may have been added) or the base
  branch did (a new merge base, a new diff: GitHub sends no synchronize for it).
- ``check_suite`` requested/rerequested: the PRs come from the payload; for fork PRs GitHub
  lists none, so they are found through our own runs' ``external_id`` on that head.
- ``pull_request_review`` submitted (approving or requesting changes) and dismissed: a
  decision record the PR adds or changes counts only once its owner approves, so the verdict
  follows the reviews. A comment-only review changes no reviewer's standing and is ignored.
- ``check_run`` rerequested, and requested_action ``recount`` (our Recount button, which does
  what `/lockin recount` does: the check plus the repository's census): only for runs of
  this app.
"""

from __future__ import annotations

from typing import Any

from gidgethub import sansio
from gidgethub.routing import Router

from bot.features.events import PullRef, RepoRef, repo_of
from bot.github.client import GitHub
from bot.github.payloads import PullRequest
from bot.review.check_writer import our_runs, pr_number_from_external_id
from bot.review.config_io import load_repo_config
from bot.review.run import run_check, run_check_with_census
from bot.runtime.context import JobContext

router = Router()


def _own_prs(event: sansio.Event, pull_requests: list[dict[str, Any]]) -> list[int]:
    """PR numbers of this repository (a payload may list PRs whose base is another repo)."""
    repo_id = event.data["repository"]["id"]
    return [pr["number"] for pr in pull_requests if pr["base"]["repo"]["id"] == repo_id]


@router.register("pull_request", action="opened")
@router.register("pull_request", action="synchronize")
@router.register("pull_request", action="reopened")
@router.register("pull_request", action="ready_for_review")
@router.register("pull_request", action="edited")
async def on_pull_request(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    action = event.data["action"]
    if action == "edited" and not {"body", "base"} & set(event.data.get("changes") or {}):
        return  # a title change alters neither the links nor the diff
    pr = PullRequest.from_payload(event.data["pull_request"])
    await run_check(gh, ctx, pull=pr.pull, head_sha=pr.head_sha, trigger=f"pull_request.{action}")


#: Submitted review states that change where a reviewer stands (GitHub sends them lower case).
_STANDING_REVIEWS = frozenset({"approved", "changes_requested"})


@router.register("pull_request_review", action="submitted")
@router.register("pull_request_review", action="dismissed")
async def on_review(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    action = event.data["action"]
    state = str((event.data.get("review") or {}).get("state") or "").lower()
    if action == "submitted" and state not in _STANDING_REVIEWS:
        return
    pr = PullRequest.from_payload(event.data["pull_request"])
    # At the PR's current head (run_check reads it): a review of an older commit never
    # writes its result over a newer head's.
    await run_check(
        gh, ctx, pull=pr.pull, head_sha=pr.head_sha, trigger=f"pull_request_review.{action}"
    )


@router.register("check_suite", action="requested")
@router.register("check_suite", action="rerequested")
async def on_check_suite(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    suite = event.data["check_suite"]
    repo = repo_of(event)
    numbers = _own_prs(event, suite.get("pull_requests") or [])
    if not numbers:
        numbers = await _prs_from_our_runs(gh, ctx, repo, suite["head_sha"])
    for number in numbers:
        await run_check(
            gh,
            ctx,
            pull=PullRef(repo, number),
            head_sha=suite["head_sha"],
            trigger=f"check_suite.{event.data['action']}",
        )


@router.register("check_run", action="rerequested")
@router.register("check_run", action="requested_action")
async def on_check_run(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    run = event.data["check_run"]
    if str((run.get("app") or {}).get("id")) != str(ctx.settings.app_id):
        return  # another app's run
    action = event.data["action"]
    if action == "requested_action" and event.data["requested_action"]["identifier"] != "recount":
        return
    repo = repo_of(event)
    number = pr_number_from_external_id(run.get("external_id"), repo)
    numbers = [number] if number else _own_prs(event, run.get("pull_requests") or [])
    for n in numbers:
        if action == "rerequested":
            await run_check(
                gh, ctx, pull=PullRef(repo, n), head_sha=run["head_sha"],
                trigger="check_run.rerequested",
            )  # fmt: skip
        else:
            await _recount(gh, ctx, PullRef(repo, n))


async def _recount(gh: GitHub, ctx: JobContext, pull: PullRef) -> None:
    """The Recount button does what `/lockin recount` does, at the PR's current head."""
    pr = PullRequest.from_payload(
        await gh.getitem(f"/repos/{pull.repo.full_name}/pulls/{pull.number}")
    )
    if not pr.is_open:
        return  # a closed PR's check is left as it was: nothing to count for
    config = await load_repo_config(gh, pull.repo, pr.base.branch())
    await run_check_with_census(
        gh, ctx, pull=pull, head_sha=pr.head_sha, config=config, trigger="check_run.recount"
    )


async def _prs_from_our_runs(
    gh: GitHub, ctx: JobContext, repo: RepoRef, head_sha: str
) -> list[int]:
    runs = await our_runs(gh, repo, head_sha, name=None, app_id=ctx.settings.app_id)
    numbers = {pr_number_from_external_id(run.get("external_id"), repo) for run in runs}
    return sorted(n for n in numbers if n)
