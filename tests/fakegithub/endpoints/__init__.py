"""One handler per REST operation of the contract, keyed by GitHub's operationId.

Handlers see an authenticated, contract-checked request (`Call`) and answer as GitHub does,
including its documented limits (3,000 PR files, 300 files for the diff media type, 65,536
characters per comment, 50 annotations per request).
"""

from . import apps, checks, issues, pulls, repos, teams, users
from .archives import codeload
from .common import HANDLERS, Call, error, not_found, reply

__all__ = [
    "HANDLERS",
    "Call",
    "apps",
    "checks",
    "codeload",
    "error",
    "issues",
    "not_found",
    "pulls",
    "reply",
    "repos",
    "teams",
    "users",
]
