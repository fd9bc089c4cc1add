"""Writing our check run: created (or reused) in progress, completed with annotations.

GitHub takes at most 50 annotations a request: the completing PATCH carries the first 50
and later PATCHes append the rest (GitHub appends annotations to a run's output), up to
``MAX_ANNOTATIONS``; the summary already says how many were left out.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from bot.github.errors import GitHubError, GitHubUnavailable

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.refs import PullRef, RepoRef

ANNOTATIONS_PER_REQUEST = 50
#: Annotations written per run: beyond this a PR is not reviewed line by line anyway.
MAX_ANNOTATIONS = 1000
#: The title of a run completed by an error: such a run holds no result, so a later delivery
#: for the same head runs the check again instead of taking it as done.
ERROR_TITLE = "The check could not finish"
RECOUNT_ACTION = {
    "label": "Recount",
    "description": "Re-run the check and count the repo",
    "identifier": "recount",
}


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def external_id(pull: PullRef) -> str:
    """Names the PR a run belongs to: fork PRs' check_suite events list no pull requests,
    so the run itself must say which PR to re-check."""
    return str(pull)


def pr_number_from_external_id(value: str | None, repo: RepoRef) -> int | None:
    prefix = f"{repo.full_name}#".lower()
    if value and value.lower().startswith(prefix) and value[len(prefix) :].isdigit():
        return int(value[len(prefix) :])
    return None


@dataclass(slots=True)
class CheckOutput:
    conclusion: str  # success | failure | neutral
    title: str
    summary: str
    text: str
    annotations: list[dict[str, Any]] = field(default_factory=list)

    def output(self, annotations: list[dict[str, Any]], *, text: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"title": self.title, "summary": self.summary}
        if text:
            out["text"] = self.text
        if annotations:
            out["annotations"] = annotations
        return out


class CheckRun:
    """One run of ours on one head SHA."""

    def __init__(self, gh: GitHub, repo: RepoRef, run_id: int) -> None:
        self._gh = gh
        self._url = f"/repos/{repo.full_name}/check-runs/{run_id}"
        self.id = run_id
        self.completed = False

    @classmethod
    async def start(
        cls,
        gh: GitHub,
        *,
        repo: RepoRef,
        name: str,
        head_sha: str,
        external_id: str,
        existing: list[dict[str, Any]],
        app_id: str | None,
    ) -> CheckRun:
        """Reuse our unfinished run among ``existing`` (a redelivered event must not add a
        second run), else create one in progress."""
        unfinished = _unfinished(existing, external_id)
        if unfinished is not None:
            return cls(gh, repo, unfinished)
        try:
            run = await _create(
                gh,
                repo,
                name=name,
                head_sha=head_sha,
                external_id=external_id,
                status="in_progress",
                output={"title": "Counting non-portable lines…", "summary": "In progress."},
            )
        except GitHubError:
            # A POST that failed after GitHub created the run (a timeout) is not retried:
            # adopt that run rather than leave it in progress with nobody to complete it.
            again = await our_runs(gh, repo, head_sha, name=name, app_id=app_id)
            unfinished = _unfinished(again, external_id)
            if unfinished is None:
                raise
            return cls(gh, repo, unfinished)
        return cls(gh, repo, run["id"])

    @classmethod
    async def failed_before_start(
        cls,
        gh: GitHub,
        *,
        repo: RepoRef,
        name: str,
        head_sha: str,
        external_id: str,
        result: CheckOutput,
    ) -> int:
        """A run created already completed, in one write: for a check that failed before it
        could start one (so the required status never goes missing)."""
        run = await _create(
            gh,
            repo,
            name=name,
            head_sha=head_sha,
            external_id=external_id,
            status="completed",
            output=result.output([]),
            conclusion=result.conclusion,
            completed_at=now(),
            actions=[RECOUNT_ACTION],
        )
        return int(run["id"])

    async def complete(self, result: CheckOutput) -> None:
        annotations = result.annotations[:MAX_ANNOTATIONS]
        await self._gh.patch(self._url, data=_completion(result, annotations))
        self.completed = True
        for start in range(ANNOTATIONS_PER_REQUEST, len(annotations), ANNOTATIONS_PER_REQUEST):
            batch = annotations[start : start + ANNOTATIONS_PER_REQUEST]
            await self._gh.patch(self._url, data={"output": result.output(batch, text=False)})

    async def complete_if_open(self, error: CheckOutput) -> bool:
        """Complete the run with ``error`` (no annotations) unless it is completed already;
        False when it was.

        For a stopped job's cleanup, which may land late: a redelivered job may have reused
        the run meanwhile (it was still in progress) and completed it with a real count,
        which an error must not replace. The run is read before each attempt, and an attempt
        whose fate is unknown (a 5xx, a timeout) is not resent as it is: the next reads first.
        """
        policy = self._gh.policy
        for attempt in range(1, policy.attempts + 1):
            run = await self._gh.getitem(self._url)
            if run.get("status") == "completed":
                return False
            try:
                await self._gh.patch(self._url, data=_completion(error, []), resend=False)
            except GitHubUnavailable:
                if attempt == policy.attempts:
                    raise
                await asyncio.sleep(policy.backoff_delay(attempt))
                continue
            break
        self.completed = True
        return True


def _completion(result: CheckOutput, annotations: list[dict[str, Any]]) -> dict[str, Any]:
    """The PATCH completing a run, with the first of ``annotations`` GitHub takes at once."""
    return {
        "status": "completed",
        "conclusion": result.conclusion,
        "completed_at": now(),
        "output": result.output(annotations[:ANNOTATIONS_PER_REQUEST]),
        "actions": [RECOUNT_ACTION],
    }


async def _create(
    gh: GitHub,
    repo: RepoRef,
    *,
    name: str,
    head_sha: str,
    external_id: str,
    status: str,
    output: dict[str, Any],
    **fields: Any,
) -> dict[str, Any]:
    data = {
        "name": name,
        "head_sha": head_sha,
        "status": status,
        "started_at": now(),
        "external_id": external_id,
        "output": output,
        **fields,
    }
    run: dict[str, Any] = await gh.post(f"/repos/{repo.full_name}/check-runs", data=data)
    return run


async def our_runs(
    gh: GitHub, repo: RepoRef, head_sha: str, *, name: str | None, app_id: str | None
) -> list[dict[str, Any]]:
    """Our app's runs on a commit (newest first), optionally of one check name."""
    params: dict[str, Any] = {"filter": "all"}
    if name:
        params["check_name"] = name
    if app_id:
        params["app_id"] = app_id
    runs = [
        run
        async for run in gh.getiter(
            f"/repos/{repo.full_name}/commits/{head_sha}/check-runs?{urlencode(params)}",
            iterable_key="check_runs",
        )
    ]
    if app_id:
        runs = [run for run in runs if str((run.get("app") or {}).get("id")) == str(app_id)]
    return runs


def _unfinished(runs: list[dict[str, Any]], external_id: str) -> int | None:
    return next(
        (
            r["id"]
            for r in runs
            if r.get("external_id") == external_id and r["status"] != "completed"
        ),
        None,
    )


def has_result(run: dict[str, Any]) -> bool:
    """A completed run of ours that holds a result (not one an error completed, nor one
    cancelled because a newer head replaced its head, which may come back)."""
    return (
        run["status"] == "completed"
        and run.get("conclusion") != "cancelled"
        and (run.get("output") or {}).get("title") != ERROR_TITLE
    )
