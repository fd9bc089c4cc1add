"""When to retry a GitHub request, and how long to wait first.

GitHub's documented rules (REST API "Rate limits" and "Best practices"):
- a primary limit answers 403/429 with `x-ratelimit-remaining: 0`: wait until
  `x-ratelimit-reset` (epoch seconds);
- a secondary limit answers 403/429, with `Retry-After` (seconds) when GitHub names the
  wait, otherwise wait at least one minute, and longer (exponentially) if it happens again;
- any other 403 is a permission answer and is never retried.
5xx answers and timeouts are transient: bounded attempts with exponential backoff and jitter.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import parsedate_to_datetime


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 4
    backoff: float = 0.5
    backoff_cap: float = 16.0
    secondary_wait: float = 60.0
    max_rate_limit_wait: float = 900.0
    # Rate-limit answers in a row for one request before giving up with RateLimited.
    rate_limit_retries: int = 3

    def backoff_delay(self, failed_attempts: int) -> float:
        """Exponential backoff with "equal jitter": half fixed, half random, so concurrent
        jobs hitting the same outage do not retry in lockstep."""
        ceiling = min(self.backoff_cap, self.backoff * 2 ** (failed_attempts - 1))
        return ceiling / 2 + random.uniform(0, ceiling / 2)

    def rate_limit_wait(
        self, status: int, headers: Mapping[str, str], message: str, *, now: float, nth: int
    ) -> float | None:
        """Seconds to wait before retrying a 403/429, or None if it is not a rate limit.

        `nth` counts the rate-limit answers this request has had, from 1.
        """
        if status not in (403, 429):
            return None
        retry_after = _retry_after(headers.get("retry-after"), now)
        if retry_after is not None:
            return retry_after
        if headers.get("x-ratelimit-remaining") == "0":
            try:
                reset = float(headers["x-ratelimit-reset"])
            except (KeyError, ValueError):
                return self.secondary_wait
            # One second more: GitHub's reset is a whole second and our clocks differ.
            return max(0.0, reset - now) + 1.0
        lowered = message.lower()
        if status == 429 or "secondary rate limit" in lowered or "abuse" in lowered:
            return self.secondary_wait * 2 ** (nth - 1)
        return None


def _retry_after(value: str | None, now: float) -> float | None:
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - now)
    except (TypeError, ValueError):
        return None
