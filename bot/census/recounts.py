"""Recounts of pull-request heads asked for by `/lockin recount`: running and finished.

Abuse: recounts of one PR head are coalesced. While one runs, later commands only add their
comment to the list it answers, and for a minute after it finished the same head is answered
from its result. The state lives as long as the running app (`Services.recounts`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cachetools import TTLCache

#: How long a finished recount of a PR head answers repeated commands for that head.
COOLDOWN = 60.0
#: A sender refused is told so (one reaction) at most once in this many seconds per
#: installation: refusals must not spend the installation's write budget, which every
#: pull request's check shares.
REFUSAL_QUIET = 600.0


@dataclass(slots=True)
class RecountResult:
    error: str | None = None  # what to tell the user when the recount failed


@dataclass(slots=True)
class Recounts:
    """Recounts running (key -> comments waiting for the answer) and recently finished."""

    waiting: dict[str, list[int]] = field(default_factory=dict)
    recent: TTLCache[str, RecountResult] = field(
        default_factory=lambda: TTLCache(maxsize=4096, ttl=COOLDOWN)
    )
    refused: TTLCache[str, bool] = field(
        default_factory=lambda: TTLCache(maxsize=16384, ttl=REFUSAL_QUIET)
    )

    def tell_refused(self, installation_id: int, login: str) -> bool:
        """Whether a refused sender gets a reaction now (the first refusal in a while)."""
        key = f"{installation_id}:{login.lower()}"
        if key in self.refused:
            return False
        self.refused[key] = True
        return True
