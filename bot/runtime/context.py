"""What a feature handler receives besides the event and the GitHub client."""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

from bot.census.by_commit import CensusStore
from bot.census.recounts import Recounts
from bot.github.auth import AppAuth
from bot.runtime.backfill_pacing import BackfillSlots
from bot.runtime.caches import Caches
from bot.runtime.locks import KeyedLock
from bot.runtime.metrics import Metrics
from bot.runtime.settings import Settings
from bot.sources.pool import Engine
from bot.store import Store


class JobLog(logging.LoggerAdapter):
    """Adds the delivery's fields to every line, keeping the caller's own `extra`."""

    def process(
        self, msg: Any, kwargs: MutableMapping[str, Any]
    ) -> tuple[Any, MutableMapping[str, Any]]:
        kwargs["extra"] = {**(self.extra or {}), **kwargs.get("extra", {})}
        return msg, kwargs


@dataclass
class JobContext:
    delivery_id: str
    event: str
    settings: Settings
    auth: AppAuth
    log: logging.LoggerAdapter
    caches: Caches
    metrics: Metrics
    pr_locks: KeyedLock
    census: CensusStore
    recounts: Recounts
    # The engine for this job: worker processes, with a CPU budget of its own.
    engine: Engine
    # Per-installation pacing and one-per-repository slots of the app's back-fills.
    backfills: BackfillSlots
    store: Store | None = None  # the trend store (None in a process without one)
    # 0 for a delivery, n for lockin's own n-th retry of it (bot.runtime.retries).
    attempt: int = 0
    # The installation the job acts for (every queued job names one).
    installation_id: int = 0
