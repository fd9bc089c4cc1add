"""The whole PR check: policy, analysis, gate, check run, sticky comment.

Order and guarantees:
- One check per PR at a time (``ctx.pr_locks``), so two deliveries never race on our writes.
- The check runs at the PR's current head: GitHub lists a PR's files only for its current
  head, so an event naming an older head is checked at the newer one (that head's own
  event then finds the work done).
- A check run we started is never left in progress: any error completes it as ``failure``
  with the reason, then propagates to the job log. Failure, not neutral, even for GitHub
  outages, because branch protection counts neutral as passing and an outage must not let
  unchecked code through; the Recount button re-runs it.
- The comment is written only if the PR head is still the one analysed: a result for an
  old head never overwrites a newer one.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING
from urllib.parse import quote

from bot.engine.delta import ChangeDelta
from bot.engine.model import NON_PORTABLE
from bot.github.contents import BlobReader
from bot.github.errors import GitHubError, NotFound
from bot.github.payloads import PullRequest
from bot.github.refs import PullRef, RepoRef
from bot.policy.config import PolicyError
from bot.policy.decisions import DecisionRecord
from bot.policy.gate import LinkedDecision, Verdict, draft_decision, evaluate
from bot.policy.growth import scope_growth
from bot.render.fix import fix_of, write_command
from bot.review.approvals_io import with_reviews
from bot.review.change import analyse_pr
from bot.review.check_output import check_output
from bot.review.check_start import (
    DEFAULT_NAME,
    failed_before_start,
    failing_on_error,
    shielded,
    start_check,
)
from bot.review.check_writer import external_id
from bot.review.comment import render_clean, render_comment
from bot.review.config_io import RepoConfig, load_repo_baseline
from bot.review.dashboard_issue import find_dashboard
from bot.review.decisions_io import linked_decisions, pr_link_texts, recorded_decisions
from bot.review.report import PRReport
from bot.review.stale import finish_replaced
from bot.review.sticky import bot_login, write_sticky
from bot.runtime.locks import pr_key
from bot.runtime.open_runs import OpenRun
from bot.sources.archive import ArchiveError
from bot.store import StoreUnavailable

if TYPE_CHECKING:
    from bot.engine.census import Census, FileSummary
    from bot.engine.trend import Trend
    from bot.github.client import GitHub
    from bot.runtime.context import JobContext

#: Triggers that mean "a new head was pushed": when a run of ours already exists for that
#: head, another delivery (or a redelivery of this one) already covered it.
_NEW_HEAD_TRIGGERS = frozenset(
    {"pull_request.opened", "pull_request.synchronize", "check_suite.requested", "recovery"}
)


@dataclass(slots=True)
class CheckOutcome:
    conclusion: str | None  # None: nothing was checked (closed PR, already checked)
    head_sha: str | None
    check_run_id: int | None = None
    comment: str = "none"  # created | updated | unchanged | none | stale | skipped
    requests: int = 0
    report: PRReport | None = None
    note: str = ""


async def run_check(
    gh: GitHub,
    ctx: JobContext,
    *,
    pull: PullRef,
    head_sha: str | None = None,
    census: Census | None = None,
    trigger: str = "pull_request",
) -> CheckOutcome:
    """Check ``pull``; ``census`` (a recount's whole-repository count) is shown too."""
    async with ctx.pr_locks.hold(pr_key(pull)):
        start = gh.requests_made
        outcome = await _check(gh, ctx, pull, head_sha, census, trigger)
        outcome.requests = gh.requests_made - start
        ctx.log.info(
            "pr check %s: %s",
            pull,
            outcome.conclusion or outcome.note,
            extra={
                "pr": pull.number,
                "head_sha": outcome.head_sha,
                "conclusion": outcome.conclusion,
                "comment": outcome.comment,
                "github_requests": outcome.requests,
                "trigger": trigger,
            },
        )
        return outcome


async def run_check_with_census(
    gh: GitHub,
    ctx: JobContext,
    *,
    pull: PullRef,
    head_sha: str,
    config: RepoConfig,
    trigger: str,
) -> str | None:
    """What `/lockin recount` and the Recount button do: the check at ``head_sha`` with the
    whole repository's census beside it (the census store counts each commit once). Without
    a census (archive refused, GitHub failing, invalid configuration) the check still runs;
    the return value says why the figures are missing. The check's own errors propagate."""
    census, missing = None, None
    if config.error is None:  # figures under the defaults would misstate the team's scope
        try:
            store = ctx.census
            census = (await store.census_at(gh, pull.repo, head_sha, config.policy)).census
        except (ArchiveError, GitHubError) as exc:
            missing = f"the repository could not be counted: {exc}"
            ctx.log.warning("census of %s@%s failed: %s", pull.repo.full_name, head_sha, exc)
    await run_check(gh, ctx, pull=pull, head_sha=head_sha, census=census, trigger=trigger)
    return missing


async def _check(
    gh: GitHub,
    ctx: JobContext,
    pull: PullRef,
    head_sha: str | None,
    census: Census | None,
    trigger: str,
) -> CheckOutcome:
    repo = pull.repo
    ours = external_id(pull)
    try:
        pr = PullRequest.from_payload(
            await gh.getitem(f"/repos/{repo.full_name}/pulls/{pull.number}")
        )
    except NotFound:
        raise  # the pull request or repository is gone: nothing to report on
    except (Exception, asyncio.CancelledError) as exc:
        if head_sha:
            await shielded(failed_before_start(gh, ctx, repo, head_sha, DEFAULT_NAME, ours, exc))
        raise
    current = pr.head_sha
    if not pr.is_open:
        if head_sha:
            await _finish_replaced(gh, ctx, pull, head_sha, None)
        _drop_retry(ctx, "the pull request was closed")
        return CheckOutcome(None, current, note="pull request is closed")
    if head_sha and head_sha != current:
        # Runs an earlier attempt started on the old head (its process died) end here.
        await _finish_replaced(gh, ctx, pull, head_sha, current)
        if ctx.attempt:
            _drop_retry(ctx, "the head moved on")
            return CheckOutcome(None, current, note="retry dropped: the head moved on")
        ctx.log.info(
            "event names head %s, PR is at %s: checking the current head", head_sha, current
        )
    started = await start_check(
        gh,
        ctx,
        repo=repo,
        head_sha=current,
        external_id=ours,
        repository=pr.base,
        keep_result=trigger in _NEW_HEAD_TRIGGERS,
    )
    if started is None:
        return CheckOutcome(None, current, note="head already checked")
    run = started.run
    report = PRReport(pull, current, started.config, census=census, repo_url=pr.base.html_url)
    try:
        async with failing_on_error(ctx, run):
            # Recorded inside the guard: a deadline striking here still completes the run.
            await ctx.caches.open_runs.add(
                OpenRun(
                    ctx.installation_id, repo.full_name, pull.number, current, run.id, time.time()
                )
            )
            if started.config.error is None:
                await _analyse(gh, ctx, report, pr)
            await run.complete(check_output(report))
    finally:
        if run.completed:  # else it stays recorded, for the sweep to finish
            await shielded(ctx.caches.open_runs.remove(repo.full_name, run.id))
    # After the check run, so the required status never waits for the comment's writes.
    comment = await _comment(gh, ctx, report) if report.config.error is None else "skipped"
    return CheckOutcome(report.conclusion, current, run.id, comment, report=report)


async def _analyse(gh: GitHub, ctx: JobContext, report: PRReport, pr: PullRequest) -> None:
    # Read beside the analysis, never in its way: the trend is optional to the gate.
    repo = report.pull.repo
    trend = asyncio.create_task(_read_trend(ctx, repo)) if ctx.store is not None else None
    try:
        await _gate(gh, ctx, report, pr)
    except BaseException:
        if trend is not None:
            trend.cancel()
        raise
    report.trend = await _trend_now(ctx, trend)


#: Seconds the check waits for the trend once its own work is done (a locked or slow store
#: costs the check at most this; the comment then shows no trend).
TREND_PATIENCE = 1.0


async def _read_trend(ctx: JobContext, repo: RepoRef) -> Trend | None:
    assert ctx.store is not None
    try:
        return await ctx.store.current_trend(repo)
    except StoreUnavailable as exc:
        ctx.log.warning("trend of %s left out: the trend store is unavailable (%s)", repo, exc)
    except Exception:
        ctx.log.exception("trend of %s left out: reading it failed", repo)
    return None


async def _trend_now(ctx: JobContext, read: asyncio.Task[Trend | None] | None) -> Trend | None:
    if read is None:
        return None
    done, _ = await asyncio.wait({read}, timeout=TREND_PATIENCE)
    if not done:
        # Not cancelled mid-statement: it finishes (or fails, logged) on its own.
        ctx.log.warning("trend left out: the trend store did not answer in %gs", TREND_PATIENCE)
        return None
    return read.result()


async def judge(
    gh: GitHub,
    ctx: JobContext,
    report: PRReport,
    delta: ChangeDelta,
    *,
    default_branch: str,
    base_sha: str,
    pulls: Callable[[], Awaitable[list[PullRequest]]],
) -> tuple[Verdict, list[DecisionRecord]] | None:
    """The gate's verdict on ``delta``, the report's change, for a pull request or a merge
    group (whose ``pulls`` are read only when decisions matter): the repository's baseline
    and ratchet, the decisions the pull requests link and those recorded. Returns the
    verdict (also set on the report) and the recorded decisions, or None when the baseline
    is invalid (then ``report.config`` says why)."""
    policy = report.config.policy
    added = sum(delta.added()[layer] for layer in policy.layers)
    linked: list[LinkedDecision] = []
    recorded: list[DecisionRecord] = []
    baseline = None
    if added:
        try:
            baseline = await load_repo_baseline(gh, report.pull.repo, default_branch, policy)
        except PolicyError as error:
            report.config = replace(report.config, error=error)
            return None
    # Decisions matter only past the allowance (or for the ratchet's uncovered areas):
    # below it no request is spent on them.
    if added > policy.allowance or (policy.ratchet is not None and _touches_non_portable(report)):
        linked, recorded = await decisions_of(gh, ctx, report, await pulls(), default_branch)
    report.verdict = verdict = evaluate(
        delta,
        policy,
        linked=linked,
        recorded=recorded,
        baseline=baseline,
        base_files=await _ratchet_base(gh, ctx, report, base_sha),
    )
    return verdict, recorded


async def _gate(gh: GitHub, ctx: JobContext, report: PRReport, pr: PullRequest) -> None:
    policy = report.config.policy
    repo = report.pull.repo
    analysis = await analyse_pr(
        gh,
        ctx.caches.blobs,
        pull=report.pull,
        base_sha=pr.base_sha,
        head_sha=report.head_sha,
        changed_files=pr.changed_files,
        repo_size_kb=pr.base.size_kb,
        policy=policy,
        engine=ctx.engine,
    )
    report.analysis = analysis
    if report.census is None:
        report.base_census = await ctx.census.default_branch(repo)

    async def pulls() -> list[PullRequest]:
        return [pr]

    judged = await judge(
        gh,
        ctx,
        report,
        analysis.delta,
        default_branch=pr.base.branch(),
        base_sha=pr.base_sha,
        pulls=pulls,
    )
    if judged is None:
        return
    verdict, recorded = judged
    if recorded and report.base_census is not None:
        base = report.base_census.census.files()
        report.growth = scope_growth(base, analysis.delta, recorded, policy)
    if verdict.uncovered:
        report.draft = path, _ = draft_decision(
            analysis.delta,
            verdict,
            title=pr.title or f"PR #{report.pull.number}",
            compute_api_hint=None,
            folder=policy.decisions.folder,
        )
        # The command line writes the same record (titled after its folders, not the PR)
        # at the same path, in a checkout of the PR's branch.
        local = ["diff", f"origin/{pr.base_ref}", "HEAD"]
        report.fix = fix_of(
            verdict,
            path,
            command=write_command(local, path, environ={}),
            via="default-branch" if policy.decisions.require_default_branch else "link",
            accepted_only=not policy.decisions.allow_proposed,
        )


async def _ratchet_base(
    gh: GitHub, ctx: JobContext, report: PRReport, base_sha: str
) -> list[FileSummary] | None:
    """The base's census, which only the ratchet's percent threshold needs: the default
    branch's when the store has it, else the base commit's, counted once and cached. None
    when it cannot be had; the ratchet then fails any growth rather than guess."""
    policy = report.config.policy
    if policy.ratchet is None or policy.ratchet.percent is None:
        return None
    if report.base_census is not None:
        return report.base_census.census.files()
    try:
        at = await ctx.census.census_at(gh, report.pull.repo, base_sha, policy)
    except (ArchiveError, GitHubError) as exc:
        ctx.log.warning("census of the base %s failed: %s", base_sha[:12], exc)
        return None
    return at.census.files()


async def decisions_of(
    gh: GitHub,
    ctx: JobContext,
    report: PRReport,
    prs: list[PullRequest],
    default_branch: str,
) -> tuple[list[LinkedDecision], list[DecisionRecord]]:
    """The decisions the pull requests link, with their reviews, and those recorded on the
    default branch (their problems go to ``report``): for a PR and for a merge group."""
    policy, repo = report.config.policy, report.pull.repo
    texts = [text for pr in prs for text in await pr_link_texts(gh, pr)]
    linked = await linked_decisions(
        gh, texts, repo=repo, head_sha=report.head_sha, default_branch=default_branch, policy=policy
    )
    linked = await with_reviews(
        gh,
        linked,
        repo=repo,
        prs=prs,
        head_sha=report.head_sha,
        default_branch=default_branch,
        read_at_head=not policy.decisions.require_default_branch,
    )
    reader = BlobReader(gh, repo, ctx.caches.blobs)
    recorded, report.record_problems = await recorded_decisions(
        gh, reader, repo=repo, default_branch=default_branch, policy=policy
    )
    return linked, recorded


def _touches_non_portable(report: PRReport) -> bool:
    assert report.analysis is not None
    delta = report.analysis.delta
    # A marker that takes added lines out, or one that is wrong, is shown to the reviewer too.
    markers = any(f.ignored or f.marker_problems for f in delta.files)
    return markers or any(delta.added()[layer] or delta.removed()[layer] for layer in NON_PORTABLE)


def _wants_comment(report: PRReport) -> bool:
    """Whether this result is worth a comment under the policy's ``comment`` setting."""
    assert report.analysis is not None
    assert report.verdict is not None
    delta = report.analysis.delta
    # A marker that takes added lines out, or one that is wrong, is shown to the reviewer too.
    markers = any(f.ignored or f.marker_problems for f in delta.files)
    mode = report.config.policy.comment
    if mode == "always":
        return True
    if mode == "on-gated":
        # Growth past a decision's estimate is a warning the team asked for: shown too.
        warned = bool(report.growth)
        return markers or warned or bool(report.verdict.uncovered) or report.conclusion != "success"
    return markers or any(delta.added()[layer] or delta.removed()[layer] for layer in NON_PORTABLE)


async def _comment(gh: GitHub, ctx: JobContext, report: PRReport) -> str:
    """Create, update or leave the sticky comment (see bot.review.sticky). A result that
    warrants none still updates one an earlier head left, so it never stays failing."""
    if report.config.policy.comment == "never":
        return "skipped"
    pull = report.pull
    now = PullRequest.from_payload(
        await gh.getitem(f"/repos/{pull.repo.full_name}/pulls/{pull.number}")
    )
    if now.head_sha != report.head_sha:
        return "stale"
    login = await bot_login(ctx.auth.app_client(), ctx.auth.app_id)
    wanted = _wants_comment(report)
    if wanted:
        report.links = await _links(gh, ctx, report, login)
    body = render_comment(report) if wanted else render_clean(report)
    return await write_sticky(gh, pull, login, body, create=wanted)


async def _links(
    gh: GitHub, ctx: JobContext, report: PRReport, login: str
) -> list[tuple[str, str]]:
    """The repository's dashboard issue (when there is one) and the organisation page (when
    the server names one), for the comment's last line. Optional: never fails the comment."""
    links = []
    if report.config.policy.dashboard.enabled:
        try:
            issue = await find_dashboard(gh, report.pull.repo, login)
        except GitHubError as exc:
            ctx.log.warning("dashboard issue not found for the comment: %s", exc)
            issue = None
        if issue is not None and issue.get("state") == "open" and issue.get("html_url"):
            links.append((report.config.policy.dashboard.title, str(issue["html_url"])))
    template = ctx.settings.org_page_url
    if template:
        owner = quote(report.pull.repo.owner, safe="")
        links.append(("Organisation page", template.replace("{org}", owner)))
    return links


def _drop_retry(ctx: JobContext, why: str) -> None:
    if ctx.attempt:
        ctx.metrics.job_retries.labels(ctx.event, "dropped").inc()
        ctx.log.info("retry dropped: %s", why)


async def _finish_replaced(
    gh: GitHub, ctx: JobContext, pull: PullRef, head_sha: str, current: str | None
) -> None:
    try:
        finished = await finish_replaced(
            gh, ctx.caches.open_runs, pull, head_sha, current=current, app_id=ctx.settings.app_id
        )
    except GitHubError as exc:
        # Still recorded as open: the timed sweep finishes them.
        ctx.log.warning("could not finish the runs on replaced head %s: %s", head_sha, exc)
        return
    for run_id in finished:
        ctx.log.info("check run %s on replaced head %s completed as cancelled", run_id, head_sha)
