"""What a feature may catch from the GitHub client.

Everything the client raises is a `GitHubError`; gidgethub's own exceptions stay inside the
client layer (they are the `__cause__`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gidgethub
from gidgethub import sansio


class GitHubError(Exception):
    """A GitHub request failed. `status` is the HTTP status (None when no response came)."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        errors: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        # The `errors` list of a 422 answer, naming the fields GitHub refused.
        self.errors = errors
        self.headers: Mapping[str, str] = headers or {}


class NotFound(GitHubError):
    """404: the resource does not exist, or this installation cannot see it."""


class RateLimited(GitHubError):
    """GitHub asked us to wait longer than `max_rate_limit_wait` (or kept asking)."""

    def __init__(self, message: str, *, wait: float, status: int | None = None) -> None:
        super().__init__(message, status=status)
        self.wait = wait


class GitHubUnavailable(GitHubError):
    """5xx answers or timeouts persisted through every retry."""


def translated(exc: gidgethub.HTTPException) -> GitHubError:
    """Our exception for one of gidgethub's (which the client layer never lets out)."""
    status = int(exc.status_code)
    kind = NotFound if status == 404 else GitHubError
    return kind(
        f"HTTP {status}: {exc}",
        status=status,
        errors=getattr(exc, "errors", None),
        headers=exc.headers,
    )


def error_for(status: int, headers: Mapping[str, str], body: bytes) -> GitHubError:
    """Our exception for a non-2xx answer read outside gidgethub (raw bytes, streams)."""
    try:
        sansio.decipher_response(status, headers, body)
    except gidgethub.HTTPException as exc:
        return translated(exc)
    except ValueError:
        pass  # an error body that is not the JSON it claims to be
    return GitHubError(f"HTTP {status}", status=status, headers=headers)
