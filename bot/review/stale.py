"""Check runs a dead process left in progress: found and finished.

A process killed mid-check (a liveness probe, an OOM kill) leaves its run `in_progress`, and
a required check in progress blocks the merge for good: GitHub does not redeliver, and no
one else knows the run. The embedded mode keeps no queue outside the process, so the first
delivery from an installation after start-up looks through that installation's open pull
requests for runs of ours still in progress and checks them again (the check reuses the
unfinished run and completes it). With Redis the queue keeps the killed job and a worker
runs it again; this sweep is for the embedded mode only.

A run on a head the pull request has since left (a push replaced it, or the pull request
was closed) is not checked again but completed as `cancelled`, naming the newer head
(`finish_replaced`): by the job dropped as superseded, by a check that finds the event's
head replaced, and by the timed sweep of runs left open (bot.runtime.sweep). A run on a
merge group's commit that the queue has left (the group merged, dequeued or rebuilt: its
`gh-readonly-queue/...` branch gone or moved) is completed as `cancelled` the same way
(`finish_left_group`), by the group's check when it runs again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from bot.github.errors import NotFound
from bot.github.refs import PullRef, RepoRef
from bot.review.check_writer import external_id, now, our_runs, pr_number_from_external_id
from bot.runtime.open_runs import OpenRuns

if TYPE_CHECKING:
    from bot.github.client import GitHub

#: Repositories and open pull requests (most recent first) looked at: the sweep is for runs
#: a crash left moments ago, not for the whole history of a large installation.
MAX_REPOS = 100
MAX_PULLS = 30


@dataclass(frozen=True, slots=True)
class StaleRun:
    pull: PullRef
    head_sha: str
    run_id: int


async def stale_runs(gh: GitHub, app_id: str | None) -> list[StaleRun]:
    """Our runs in progress on the heads of the installation's open pull requests."""
    found: list[StaleRun] = []
    repos = await gh.getitem(f"/installation/repositories?per_page={MAX_REPOS}")
    for repo in repos.get("repositories", []):
        ref = RepoRef.parse(repo["full_name"])
        issues = await gh.getitem(
            f"/repos/{ref.full_name}/issues?state=open&sort=created&per_page={MAX_PULLS}"
        )
        for issue in issues:
            if "pull_request" not in issue:
                continue
            number = issue["number"]
            pr = await gh.getitem(f"/repos/{ref.full_name}/pulls/{number}")
            head = pr["head"]["sha"]
            runs = await our_runs(gh, ref, head, name=None, app_id=app_id)
            found.extend(
                StaleRun(PullRef(ref, number), head, run["id"])
                for run in runs
                if run["status"] != "completed"
                and pr_number_from_external_id(run.get("external_id"), ref) == number
            )
    return found


async def finish_replaced(
    gh: GitHub,
    open_runs: OpenRuns,
    pull: PullRef,
    head_sha: str,
    *,
    current: str | None,
    app_id: str | None,
) -> list[int]:
    """Complete every run of ours for `pull` still in progress on `head_sha`, a head the
    pull request has left (for `current`; None: the pull request was closed), as
    `cancelled`, saying what replaced it, and forget them as open. Their ids."""
    ours = external_id(pull)
    if current is None:
        title = "Not checked: the pull request was closed"
        summary = f"{pull} was closed before the check of {head_sha[:7]} finished."
    else:
        title = f"Superseded by {current[:7]}"
        summary = (
            f"A newer head of {pull}, {current}, replaced {head_sha} before its check "
            "finished; lockin checks the newer head instead."
        )
    finished = []
    for run in await our_runs(gh, pull.repo, head_sha, name=None, app_id=app_id):
        if run["status"] == "completed" or run.get("external_id") != ours:
            continue
        await _cancel(gh, open_runs, pull.repo, int(run["id"]), title, summary)
        finished.append(int(run["id"]))
    return finished


async def queue_head(gh: GitHub, repo: RepoRef, head_ref: str) -> str | None:
    """The commit a merge queue's group branch (``merge_group.head_ref``) is at now; None
    when the branch is gone: the group was merged or taken out of the queue."""
    ref = quote(head_ref.removeprefix("refs/"), safe="/")
    try:
        found = await gh.getitem(f"/repos/{repo.full_name}/git/ref/{ref}")
    except NotFound:
        return None
    return str(found["object"]["sha"])


#: `merge_group` destroyed's `reason`, as the run's summary says it.
_GONE = {
    "merged": "merged",
    "dequeued": "a pull request in it was dequeued",
    "invalidated": "invalidated: its base branch moved or a pull request in it changed",
}


async def finish_left_group(
    gh: GitHub,
    open_runs: OpenRuns,
    repo: RepoRef,
    runs: list[dict[str, Any]],
    head_sha: str,
    *,
    current: str | None,
    reason: str | None = None,
) -> list[int]:
    """Complete our `runs` still in progress on a merge group's `head_sha` that the queue
    has left (rebuilt at `current`; None: the group is gone, for `reason` when GitHub said
    it) as `cancelled`, saying why, and forget them as open: nothing waits on that commit
    any more. Their ids."""
    if current is None:
        why = _GONE.get(reason or "", "merged, or a pull request in it was dequeued")
        title = "Not checked: the merge group is gone"
        summary = (
            f"The merge queue removed the group at {head_sha} ({why}) before its check "
            "finished; nothing waits on this commit."
        )
    else:
        title = f"Superseded by {current[:7]}"
        summary = (
            f"The merge queue rebuilt this group at {current}, replacing {head_sha} before "
            "its check finished; lockin checks the new commit when the queue asks."
        )
    finished = []
    for run in runs:
        if run["status"] != "completed":
            await _cancel(gh, open_runs, repo, int(run["id"]), title, summary)
            finished.append(int(run["id"]))
    return finished


async def _cancel(
    gh: GitHub, open_runs: OpenRuns, repo: RepoRef, run_id: int, title: str, summary: str
) -> None:
    await gh.patch(
        f"/repos/{repo.full_name}/check-runs/{run_id}",
        data={
            "status": "completed",
            "conclusion": "cancelled",
            "completed_at": now(),
            "output": {"title": title, "summary": summary},
        },
    )
    await open_runs.remove(repo.full_name, run_id)
