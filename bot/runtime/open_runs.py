"""Check runs of ours in progress, so that none is left open when its job dies.

A job records its run when it starts it and forgets it when it completes it. A run still
recorded long after any job could still be working on it (`JOB_TIMEOUT` and a margin) was
abandoned: its process was killed, or GitHub failed the write that would have completed it.
The sweep (bot.runtime.sweep) finds those on a timer and queues a job that finishes each
one. In Redis with scale-out, where it outlives workers. The embedded mode keeps them in
memory and in the trend store too, where they outlive the process: the server that replaces
a killed one finds the runs it left, a merge group's included (no pull request lists those,
so the start-up scan of bot.review.stale cannot find them).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Protocol

from cachetools import TTLCache

from bot.github.payloads import MergeGroup
from bot.store.keeper import StoreUnavailable

if TYPE_CHECKING:
    from bot.store import Store

log = logging.getLogger("lockin.open_runs")
#: A run recorded this long ago is forgotten: GitHub's own checks give up after 14 days.
RECORD_TTL = 14 * 24 * 3600.0
#: Seconds a sweep waits for the store's runs before it sweeps this process's own (memory).
STORE_PATIENCE = 5.0


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


class StoredOpenRuns:
    """The embedded mode's runs in progress: in memory, and in the trend store, which a
    restarted process reads. The store is optional: while it is starting, degraded or behind
    its backlog a run is kept in memory only (its writes are not worth a place in the
    backlog), so the sweep reads this process's own runs from memory whatever the store's
    state, and adds the store's (a killed predecessor's). A row left behind by a forgetting
    the store missed costs its recovery job one request: the job finds the run completed."""

    def __init__(self, store: Store, memory: OpenRuns | None = None) -> None:
        self._store = store
        self._memory: OpenRuns = memory or MemoryOpenRuns()
        self._reading: asyncio.Task[list[dict[str, Any]]] | None = None

    async def add(self, run: OpenRun) -> None:
        await self._memory.add(run)
        opened = dt.datetime.fromtimestamp(run.opened_at, dt.UTC)
        try:
            await self._store.keep_open_run(run.key, opened, run.to_dict())
        except Exception as exc:  # the store never stops a check
            log.warning("open runs: could not store run %s (%s)", run.run_id, exc)

    async def remove(self, repo: str, run_id: int) -> None:
        await self._memory.remove(repo, run_id)
        try:
            await self._store.forget_open_run(f"{repo}/{run_id}")
        except Exception as exc:
            log.warning("open runs: could not forget stored run %s (%s)", run_id, exc)

    async def older_than(self, seconds: float) -> list[OpenRun]:
        runs = {run.key: run for run in await self._memory.older_than(seconds)}
        for data in await self._stored_before(time.time() - seconds):
            try:
                run = OpenRun.from_dict(data)
            except (ValueError, KeyError, TypeError):
                log.warning("open runs: a stored run cannot be read: %r", data)
                continue
            runs.setdefault(run.key, run)
        return list(runs.values())

    async def _stored_before(self, moment: float) -> list[dict[str, Any]]:
        """The store's runs, or none when it is unavailable or does not answer in time. The
        read is not cancelled mid-statement (a cancelled SQLite statement can leave its
        connection's thread gone and the next reader waiting forever): a slow one finishes
        on its own, and the next sweep takes its answer instead of starting another."""
        if self._reading is None:
            at = dt.datetime.fromtimestamp(moment, dt.UTC)
            self._reading = asyncio.create_task(self._store.open_runs_before(at))
        done, _ = await asyncio.wait({self._reading}, timeout=STORE_PATIENCE)
        if not done:
            log.warning("open runs: the store did not answer in %gs: memory's only", STORE_PATIENCE)
            return []
        reading, self._reading = self._reading, None
        try:
            return reading.result()
        except StoreUnavailable:
            return []
        except Exception:  # the sweep goes on from memory whatever the store does
            log.exception("open runs: reading the stored runs failed")
            return []

    async def claim_sweep(self, interval: float) -> bool:
        return True  # one process per store in the embedded mode


#: The event of the job the sweep queues for each abandoned run (GitHub never sends it:
#: a delivery naming it would need the webhook secret).
OPEN_RUN_EVENT = "lockin.open_run"
