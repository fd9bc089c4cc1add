"""Check runs of ours in progress, so that none is left open when its job dies.

A job records its run when it starts it and forgets it when it completes it. A run still
recorded long after any job could still be working on it (`JOB_TIMEOUT` and a margin) was
abandoned: its process was killed, or GitHub failed the write that would have completed it.
The sweep (bot.runtime.sweep) finds those on a timer and queues a job that finishes each
one. In memory for the embedded mode; in Redis with scale-out, where it outlives workers.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from cachetools import TTLCache

from bot.github.payloads import MergeGroup

#: A run recorded this long ago is forgotten: GitHub's own checks give up after 14 days.
RECORD_TTL = 14 * 24 * 3600.0


@dataclass(frozen=True, slots=True)
class OpenRun:
    installation: int
    repo: str  # full name
    number: int  # the pull request's; 0 for a merge group's run
    head_sha: str
    run_id: int
    opened_at: float  # time.time()
    #: A merge group's run: the queue's head ref (refs/heads/gh-readonly-queue/...) and
    #: base SHA, enough to check the group again or to see that it is gone.
    group_ref: str = ""
    group_base: str = ""

    @property
    def merge_group(self) -> MergeGroup | None:
        """The merge group of the delivery that started this run, if a group's."""
        if not self.group_ref:
            return None
        return MergeGroup(head_sha=self.head_sha, base_sha=self.group_base, head_ref=self.group_ref)

    @property
    def where(self) -> str:
        """The pull request, or the merge group's commit, for logs."""
        return (
            f"{self.repo}@{self.head_sha[:12]}" if self.group_ref else f"{self.repo}#{self.number}"
        )

    @property
    def key(self) -> str:
        return f"{self.repo}/{self.run_id}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> OpenRun:
        return cls(
            installation=int(data["installation"]),
            repo=str(data["repo"]),
            number=int(data["number"]),
            head_sha=str(data["head_sha"]),
            run_id=int(data["run_id"]),
            opened_at=float(data["opened_at"]),
            # Absent from runs recorded before merge groups were.
            group_ref=str(data.get("group_ref") or ""),
            group_base=str(data.get("group_base") or ""),
        )


class OpenRuns(Protocol):
    async def add(self, run: OpenRun) -> None: ...

    async def remove(self, repo: str, run_id: int) -> None: ...

    async def older_than(self, seconds: float) -> list[OpenRun]:
        """Runs recorded more than `seconds` ago and not completed since."""
        ...

    async def claim_sweep(self, interval: float) -> bool:
        """True for the one process that sweeps in this interval (every process asks)."""
        ...


class MemoryOpenRuns:
    def __init__(self, *, maxsize: int = 100_000) -> None:
        self._runs: TTLCache[str, OpenRun] = TTLCache(maxsize=maxsize, ttl=RECORD_TTL)

    async def add(self, run: OpenRun) -> None:
        self._runs[run.key] = run

    async def remove(self, repo: str, run_id: int) -> None:
        self._runs.pop(f"{repo}/{run_id}", None)

    async def older_than(self, seconds: float) -> list[OpenRun]:
        before = time.time() - seconds
        return [run for run in list(self._runs.values()) if run.opened_at < before]

    async def claim_sweep(self, interval: float) -> bool:
        return True  # the only process that knows these runs


#: The event of the job the sweep queues for each abandoned run (GitHub never sends it:
#: a delivery naming it would need the webhook secret).
OPEN_RUN_EVENT = "lockin.open_run"
