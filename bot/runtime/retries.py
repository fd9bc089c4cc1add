"""Which failed jobs lockin runs again by itself, and when.

GitHub never redelivers a webhook on its own, so a job that failed because GitHub failed
(5xx answers or timeouts past the client's own retries, connection errors, rate limits past
the wait cap) is queued again after each delay of `JOB_RETRY_DELAYS` in turn. What a retry
cannot fix is not retried: a 404 (the repository or pull request is gone), a 403 that is not
a rate limit (a missing permission), an invalid configuration (reported, not raised), a bug.
"""

from __future__ import annotations

import aiohttp

from bot.github.errors import GitHubError, GitHubUnavailable, NotFound, RateLimited


def transient(exc: BaseException) -> bool:
    """Whether GitHub (or the way to it) failed, so the same job may succeed later."""
    if isinstance(exc, NotFound):
        return False
    if isinstance(exc, GitHubUnavailable | RateLimited):
        return True
    if isinstance(exc, GitHubError):
        return exc.status is None or exc.status >= 500 or exc.status == 429
    return isinstance(exc, aiohttp.ClientError | ConnectionError)


def retry_delay(delays: tuple[float, ...], attempt: int) -> float | None:
    """Seconds before retry number `attempt + 1` of a job, or None when retries are spent."""
    return delays[attempt] if attempt < len(delays) else None
