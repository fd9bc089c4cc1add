"""The long-lived parts of one running app, shared by its request handlers and workers."""

from __future__ import annotations

from dataclasses import dataclass, field

from gidgethub.routing import Router

from bot.census.by_commit import CensusStore
from bot.census.recounts import Recounts
from bot.github.auth import AppAuth
from bot.runtime.backfill_pacing import BackfillSlots
from bot.runtime.caches import Caches
from bot.runtime.jobs import JobQueue
from bot.runtime.locks import KeyedLock, LocalKeyedLock
from bot.runtime.metrics import Metrics
from bot.runtime.settings import Settings
from bot.sources.pool import Budget, EnginePool, default_processes
from bot.store import Store, start_store, store_url


@dataclass
class Services:
    """In-memory parts by default; an entry point running with Redis calls `share` at
    start-up, so that every process of the app sees the same caches and locks."""

    settings: Settings
    router: Router
    metrics: Metrics = field(default_factory=Metrics)
    caches: Caches = field(default_factory=Caches)
    #: One check of a pull request at a time.
    pr_locks: KeyedLock = field(default_factory=LocalKeyedLock)
    #: One count of a commit, one refresh of a repository's default branch at a time.
    census_locks: KeyedLock = field(default_factory=LocalKeyedLock)
    #: Recounts of PR heads running and recently finished (slash commands coalesce on it).
    recounts: Recounts = field(default_factory=Recounts)
    census: CensusStore = field(init=False)
    #: The engine's worker processes: nothing CPU-bound runs in this process's threads.
    engine: EnginePool = field(init=False)
    #: The back-fills of past points running in the background, and their API pacing.
    backfills: BackfillSlots = field(init=False)
    # Set while the app runs (configured apps only).
    auth: AppAuth | None = None
    queue: JobQueue | None = None
    store: Store | None = None  # the trend store, open while the app runs

    def __post_init__(self) -> None:
        settings = self.settings
        self.engine = EnginePool(
            settings.analysis_processes or default_processes(),
            Budget(
                file_seconds=settings.analysis_file_seconds,
                job_seconds=settings.analysis_job_seconds,
                grace_seconds=settings.analysis_grace_seconds,
            ),
        )
        self.census = CensusStore(self.caches.census, self.census_locks, self.engine)
        self.backfills = BackfillSlots(settings.backfill_requests_per_minute)

    async def open_store(self) -> Store:
        """Open the trend store; never in the way of the gate: a corrupt, locked or
        unreachable store starts degraded and is retried (bot/store/keeper.py)."""
        settings = self.settings
        self.store = await start_store(
            store_url(settings.database_url, settings.db_path),
            busy_seconds=settings.store_busy_seconds,
            retry_seconds=settings.store_retry_seconds,
            backlog=settings.store_backlog,
        )
        self.metrics.watch_store(self.store.keeper)
        return self.store

    def share(
        self,
        caches: Caches,
        *,
        pr_locks: KeyedLock | None = None,
        census_locks: KeyedLock | None = None,
    ) -> None:
        """Use shared versions of the caches (and of the locks, where jobs run)."""
        self.caches = caches
        self.pr_locks = pr_locks or self.pr_locks
        self.census_locks = census_locks or self.census_locks
        self.census = CensusStore(caches.census, self.census_locks, self.engine)
