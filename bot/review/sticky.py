"""The sticky PR comment: one per PR, ours, found by a hidden marker and edited in place.

A comment counts as ours only when it carries the marker AND was written by the app's own
bot user: a marker pasted by someone else is ignored. If a race between two workers left two
of ours, the oldest is kept and the rest deleted. One a user deleted (even while we were
writing) is written anew on the next result that warrants a comment.
"""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any

from bot.github.errors import NotFound

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.refs import PullRef

MARKER = "<!-- lockin:sticky-comment -->"

# The app's slug never changes for an app id: GET /app is asked once per process.
_BOT_LOGINS: dict[str, str] = {}


async def bot_login(app_client: GitHub, app_id: str) -> str:
    """``{slug}[bot]``, the login GitHub gives comments an app writes."""
    if app_id not in _BOT_LOGINS:
        app = await app_client.getitem("/app")
        _BOT_LOGINS[app_id] = f"{app['slug']}[bot]"
    return _BOT_LOGINS[app_id]


async def our_comments(
    gh: GitHub, pull: PullRef, login: str, *, marker: str = MARKER
) -> list[dict[str, Any]]:
    """The comments on an issue or PR that ``login`` wrote and that carry ``marker``, oldest
    first: a marker pasted by someone else is not ours."""
    ours = [
        comment
        async for comment in gh.getiter(
            f"/repos/{pull.repo.full_name}/issues/{pull.number}/comments"
        )
        if marker in (comment.get("body") or "")
        and (comment.get("user") or {}).get("login", "").lower() == login.lower()
    ]
    return sorted(ours, key=lambda c: (c["created_at"], c["id"]))


async def write_sticky(
    gh: GitHub,
    pull: PullRef,
    login: str,
    body: str,
    *,
    create: bool,
) -> str:
    """Bring the sticky comment to ``body``; return what was done (for logs and tests).
    ``create`` False never creates one (a PR that never touched non-portable code gets none).
    """
    ours = await our_comments(gh, pull, login)
    keep, extra = (ours[0], ours[1:]) if ours else (None, [])
    issues = f"/repos/{pull.repo.full_name}/issues"
    comments = f"{issues}/comments"
    for duplicate in extra:
        with suppress(NotFound):  # someone deleted it first: just as good
            await gh.delete(f"{comments}/{duplicate['id']}")
    body = f"{MARKER}\n{body}"
    if keep is not None:
        if keep.get("body") == body:
            return "unchanged"
        try:
            await gh.patch(f"{comments}/{keep['id']}", data={"body": body})
            return "updated"
        except NotFound:
            pass  # deleted by a user since we listed it: write a new one as if it never was
    if not create:
        return "none"
    await gh.post(f"{issues}/{pull.number}/comments", data={"body": body})
    return "created"
