"""Finding the repository's Lock-in dashboard issue: the dashboard feature edits it, the PR
comment links to it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from bot.render.dashboard import MARKER

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.refs import RepoRef


async def find_dashboard(gh: GitHub, repo: RepoRef, me: str) -> dict[str, Any] | None:
    """Our dashboard issue: written by the bot and carrying the marker (a person's copy of
    the marker is not ours); the oldest when several exist."""
    found = [
        issue
        async for issue in gh.getiter(
            f"/repos/{repo.full_name}/issues?state=all&creator={quote(me)}"
        )
        if "pull_request" not in issue
        and MARKER in (issue.get("body") or "")
        and (issue.get("user") or {}).get("login", "").lower() == me.lower()
    ]
    return min(found, key=lambda i: i["number"]) if found else None
