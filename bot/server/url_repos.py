"""Repositories named in a URL path (``/badge/{owner}/{repo}.svg``, ``/orgs/{org}/{repo}``)."""

from __future__ import annotations

import re

from aiohttp import web

from bot.github.refs import RepoRef

# GitHub owner and repository names: letters, digits, "-", "_", "." (repos up to 100).
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


def repo_in_path(request: web.Request, owner: str = "owner", name: str = "repo") -> RepoRef | None:
    """The repository the path names, or None when either part could not be a GitHub name
    (the caller answers 404 as for a repository it does not know)."""
    parts = request.match_info[owner], request.match_info[name]
    if all(_NAME.fullmatch(part) for part in parts):
        return RepoRef(*parts)
    return None
