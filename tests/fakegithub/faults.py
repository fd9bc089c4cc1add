"""Injected failures: the ways GitHub fails that a production client must survive."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

KINDS = {"status", "timeout", "secondary", "429", "primary"}
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
            504, {"message": "We couldn't respond to your request in time."}, {}, timeout_delay
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
