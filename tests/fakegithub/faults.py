"""Injected failures: the ways GitHub fails that a production client must survive."""

from __future__ import annotations

import re
import time
from collections import deque
from dataclasses import dataclass, field

KINDS = {"status", "timeout", "secondary", "429", "primary"}
WRITE_METHODS = {"POST", "PATCH", "PUT", "DELETE"}
DOCS = "https://docs.github.com/rest"
SECONDARY_MESSAGE = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
    " If you reach out to GitHub Support for help, please include the request ID."
)


@dataclass
class Fault:
    method: str  # "*" matches every method
    path_pattern: str  # regex searched in the request path
    status: int
    times: int
    kind: str
    retry_after: int
    delay: float | None = None  # a "timeout" held this long, not the fake's timeout_delay

    def matches(self, method: str, path: str) -> bool:
        return (
            self.times > 0
            and self.method in ("*", method)
            and re.search(self.path_pattern, path) is not None
        )


@dataclass
class FaultResponse:
    status: int
    body: dict[str, str]
    headers: dict[str, str]
    delay: float = 0.0


def respond(fault: Fault, timeout_delay: float) -> FaultResponse:
    """What GitHub sends for each kind of failure."""
    retry = {"retry-after": str(fault.retry_after)}
    if fault.kind == "timeout":
        return FaultResponse(
            504,
            {"message": "We couldn't respond to your request in time."},
            {},
            timeout_delay if fault.delay is None else fault.delay,
        )
    if fault.kind == "secondary":
        return FaultResponse(403, {"message": SECONDARY_MESSAGE, "documentation_url": DOCS}, retry)
    if fault.kind == "429":
        return FaultResponse(429, {"message": SECONDARY_MESSAGE, "documentation_url": DOCS}, retry)
    if fault.kind == "primary":
        reset = {
            "x-ratelimit-remaining": "0",
            "x-ratelimit-reset": str(int(time.time()) + fault.retry_after),
        }
        message = "API rate limit exceeded for installation. Check out the documentation."
        return FaultResponse(403, {"message": message, "documentation_url": DOCS}, reset)
    return FaultResponse(fault.status, {"message": "Server Error", "documentation_url": DOCS}, {})


@dataclass
class SecondaryLimits:
    """GitHub's documented secondary limits (100 concurrent requests, 80 content-creating
    requests a minute), enforced when a test opts in with `fake.secondary_limits = ...`."""

    max_concurrent: int = 100
    writes_per_minute: int = 80
    retry_after: int = 60
    _writes: deque[float] = field(default_factory=deque, repr=False)

    def breached(self, method: str, in_flight: int) -> Fault | None:
        """The secondary-limit answer this request earns, if any."""
        now = time.monotonic()
        while self._writes and now - self._writes[0] >= 60:
            self._writes.popleft()
        too_many_writes = method in WRITE_METHODS and len(self._writes) >= self.writes_per_minute
        if in_flight > self.max_concurrent or too_many_writes:
            return Fault("*", "", 403, 1, "secondary", self.retry_after)
        if method in WRITE_METHODS:
            self._writes.append(now)
        return None
