"""`/lockin recount` and `/lockin help` in PR comments.

Who may run a command is asked of GitHub (the collaborator-permission endpoint), never
read from ``author_association``, which says NONE for private members of an org. A
refused command gets one "confused" reaction and nothing else, so a stranger cannot make
the bot write. An accepted recount gets "eyes" at once and "rocket" when the check run and
the sticky comment carry the new figures (or a reply saying what failed).

Abuse: recounts of one PR head are coalesced. While one runs, later commands only add
their comment to the list it answers (their worker is free at once), and for a minute after
it finished the same head is answered from its result. Reactions are per comment, each
kind at most once.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gidgethub import sansio
from gidgethub.routing import Router

from bot.census.recounts import RecountResult
from bot.features import backfill
from bot.features.events import PullRef, RepoRef, repo_of, sender_is_bot
from bot.github.errors import GitHubError, NotFound
from bot.github.payloads import PullRequest, Repository
from bot.policy.config import Policy
from bot.review.config_io import RepoConfig, load_repo_config
from bot.review.run import run_check_with_census
from bot.review.sticky import bot_login, our_comments
from bot.slash_commands import HELP_TEXT, RECOUNT, Command, parse_commands

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.runtime.context import JobContext

router = Router()

_PLAIN_WORD = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


# -- issue_comment ------------------------------------------------------------------


@router.register("issue_comment", action="created")
async def on_comment(event: sansio.Event, gh: GitHub, ctx: JobContext) -> None:
    data = event.data
    issue, comment, sender = data["issue"], data["comment"], data["sender"]
    if not issue.get("pull_request"):
        return  # an issue, not a pull request
    commands = parse_commands(comment.get("body"))
    if not commands or await _from_a_bot(event, ctx):
        return
    pull = PullRef(repo_of(event), issue["number"])
    repo = pull.repo
    default_branch = Repository.from_payload(data["repository"]).branch()
    config = await load_repo_config(gh, repo, default_branch)
    login = sender["login"]
    if not await may_run(gh, repo, login, (issue.get("user") or {}).get("login"), config.policy):
        ctx.log.info("refused /lockin from %s on %s", login, pull)
        # One reaction, and none to the same sender for a while: strangers must not spend
        # the installation's write budget that every pull request's check shares.
        if ctx.recounts.tell_refused(data["installation"]["id"], login):
            await _react(gh, repo, comment["id"], "confused")
        return
    if any(command.name == RECOUNT for command in commands):
        await backfill.start_if_empty(gh, ctx, repo, default_branch, config.policy)
    for command in commands:
        if command.name == RECOUNT:
            await _recount(gh, ctx, pull, comment["id"], config)
        else:
            await _reply(gh, ctx, pull, comment["id"], help_reply(command))


async def _from_a_bot(event: sansio.Event, ctx: JobContext) -> bool:
    """Bots never run commands: this app's own comments quote them, other bots echo them."""
    if sender_is_bot(event):
        return True
    login = event.data["sender"].get("login") or ""
    return login.lower() == (await bot_login(ctx.auth.app_client(), ctx.auth.app_id)).lower()


async def may_run(
    gh: GitHub, repo: RepoRef, login: str, pr_author: str | None, policy: Policy
) -> bool:
    """Whether ``login`` may run commands here, per the policy's ``recount.allow``."""
    allow = policy.recount.allow
    if "author" in allow and pr_author and login.lower() == pr_author.lower():
        return True
    try:
        answer = await gh.getitem(
            "/repos/{owner}/{repo}/collaborators/{username}/permission",
            {"owner": repo.owner, "repo": repo.name, "username": login},
        )
    except NotFound:
        return False
    # role_name names maintain and triage (and custom roles); permission is the base role
    # a custom role extends (admin, write, read, none).
    return answer.get("role_name") in allow or answer.get("permission") in allow


def help_reply(command: Command) -> str:
    if command.unknown is None:
        return HELP_TEXT
    # Echo only a plain word: anything else could break out of the code span and make the
    # bot write someone's markup or mentions.
    word = command.unknown if _PLAIN_WORD.match(command.unknown) else "…"
    return f"`/lockin {word}` is not a lockin command.\n\n{HELP_TEXT}"


async def _recount(
    gh: GitHub,
    ctx: JobContext,
    pull: PullRef,
    comment_id: int,
    config: RepoConfig,
) -> None:
    await _react(gh, pull.repo, comment_id, "eyes")
    pr = PullRequest.from_payload(
        await gh.getitem(f"/repos/{pull.repo.full_name}/pulls/{pull.number}")
    )
    if not pr.is_open:
        # Nothing would show the figures (a closed PR's check and comment are left as they
        # were), so the repository is not downloaded for them and no rocket says it was.
        closed = RecountResult("the pull request is closed; lockin checks open pull requests")
        await _answer(gh, ctx, pull, [comment_id], closed)
        return
    head = pr.head_sha
    # A changed configuration is a reason to recount the same head at once.
    key = f"{pull}@{head}:{hash(config.policy)}".lower()
    state = ctx.recounts
    done = state.recent.get(key)
    if done is not None:
        await _answer(gh, ctx, pull, [comment_id], done)
        return
    if key in state.waiting:
        state.waiting[key].append(comment_id)  # the recount running now answers it
        return
    state.waiting[key] = [comment_id]
    try:
        result = await _run_recount(gh, ctx, pull, head, config)
    except Exception:
        # Everyone waiting is told once; the job fails so the error reaches the logs.
        comments = state.waiting.pop(key)
        failed = RecountResult("an internal error stopped it (the app's logs have the details)")
        await _answer(gh, ctx, pull, comments, failed)
        raise
    # No await between these two lines: a command arriving now finds one or the other.
    state.recent[key] = result
    comments = state.waiting.pop(key)
    await _answer(gh, ctx, pull, comments, result)


async def _run_recount(
    gh: GitHub, ctx: JobContext, pull: PullRef, head: str, config: RepoConfig
) -> RecountResult:
    try:
        missing = await run_check_with_census(
            gh, ctx, pull=pull, head_sha=head, config=config, trigger="recount"
        )
    except GitHubError as exc:
        ctx.log.warning("recount of %s failed: %s", pull, exc)
        return RecountResult(f"the check could not be re-run: {exc}")
    return RecountResult(missing)


async def _answer(
    gh: GitHub,
    ctx: JobContext,
    pull: PullRef,
    comments: list[int],
    result: RecountResult,
) -> None:
    if result.error is None:
        for comment_id in comments:
            await _react(gh, pull.repo, comment_id, "rocket")
    else:
        await _reply(
            gh, ctx, pull, comments[0], f"lockin could not finish `/lockin recount`: {result.error}"
        )


async def _react(gh: GitHub, repo: RepoRef, comment_id: int, content: str) -> None:
    # GitHub answers an existing reaction with 200 instead of a duplicate, so a retry is safe.
    await gh.post(
        "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions",
        {"owner": repo.owner, "repo": repo.name, "comment_id": comment_id},
        data={"content": content},
        idempotent=True,
    )


async def _reply(gh: GitHub, ctx: JobContext, pull: PullRef, reply_to: int, body: str) -> None:
    """One reply per command comment, even when the job runs again (a retried job, a worker
    that died after posting): the reply carries a marker naming the comment it answers."""
    marker = f"<!-- lockin:reply-to:{reply_to} -->"
    me = await bot_login(ctx.auth.app_client(), ctx.auth.app_id)
    if await our_comments(gh, pull, me, marker=marker):
        return
    await gh.post(
        "/repos/{owner}/{repo}/issues/{number}/comments",
        {"owner": pull.repo.owner, "repo": pull.repo.name, "number": pull.number},
        data={"body": f"{body}\n\n{marker}"},
    )
