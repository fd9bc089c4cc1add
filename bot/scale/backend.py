"""Everything the scale-out needs, built from the settings on one Redis connection pool."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp

import bot.engine
import bot.sources
from bot.engine.registry import ECOSYSTEMS, RULES
from bot.github.auth import AppAuth
from bot.runtime.caches import REDELIVERY_WINDOW, SESSION_SECONDS, Caches
from bot.runtime.logs import REDACTOR
from bot.runtime.settings import Settings
from bot.scale.caches import RedisCache, RedisDeliveryLog, RedisOpenRuns
from bot.scale.codec import SignedPickle, derive_key
from bot.scale.connection import PREFIX, connect
from bot.scale.heads import NewestHeads
from bot.scale.locks import RedisKeyedLock
from bot.scale.queue import RedisJobQueue
from bot.scale.tokens import SharedTokenAuth, TokenVault

# Blobs never change (keyed by SHA); censuses are keyed by commit. The TTLs bound memory.
BLOB_TTL = 6 * 3600.0
BLOB_MAX_BYTES = 4 * 2**20
CENSUS_TTL = 24 * 3600.0
CENSUS_MAX_BYTES = 64 * 2**20


def counting_code_fingerprint() -> str:
    """A hash of the engine and the sources that feed it (rules are data files there)."""
    digest = hashlib.sha256()
    for package in (bot.engine, bot.sources):
        assert package.__file__ is not None  # a regular package, never a namespace one
        root = Path(package.__file__).parent
        for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".pyc"):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


# A census depends on the code that counted it: workers of another version (a rolling
# deploy, a rules update) neither read nor overwrite it.
CENSUS_VERSION = counting_code_fingerprint()
# Newest-head records outlive any job waiting in the queue (arq expires jobs after a day).
HEAD_TTL = 2 * 24 * 3600.0


class RedisBackend:
    def __init__(self, settings: Settings, *, patience: float) -> None:
        """`patience`: seconds a command waits for a lost Redis to come back. Short for the
        web process (it must answer GitHub within 10 s; 503 is the honest answer), long
        for workers (a job in flight should ride out a Redis restart)."""
        assert settings.redis_url
        assert settings.private_key
        self.redis = connect(settings.redis_url, patience=patience)
        # A password in REDIS_URL is a secret like the others: never in a log line.
        REDACTOR.add_static(urlsplit(settings.redis_url).password)
        self._private_key = settings.private_key
        self.deliveries = RedisDeliveryLog(self.redis, PREFIX + "delivery:", ttl=REDELIVERY_WINDOW)
        self.heads = NewestHeads(self.redis, PREFIX + "pr-head:", ttl=HEAD_TTL)

    def caches(self) -> Caches:
        codec = SignedPickle(
            derive_key(self._private_key, b"cache values"),
            shared={"engine.RULES": RULES, "engine.ECOSYSTEMS": ECOSYSTEMS},
        )
        return Caches(
            blobs=RedisCache(
                self.redis,
                PREFIX + "blob:",
                codec=codec,
                ttl=BLOB_TTL,
                max_value_bytes=BLOB_MAX_BYTES,
            ),
            census=RedisCache(
                self.redis,
                f"{PREFIX}census:{CENSUS_VERSION}:",
                codec=codec,
                ttl=CENSUS_TTL,
                max_value_bytes=CENSUS_MAX_BYTES,
            ),
            deliveries=self.deliveries,
            ended_sessions=RedisCache(
                self.redis,
                PREFIX + "ended-session:",
                codec=codec,
                ttl=SESSION_SECONDS,
                max_value_bytes=64,
            ),
            open_runs=RedisOpenRuns(self.redis, PREFIX + "open-runs:"),
        )

    def job_queue(self, *, capacity: int) -> RedisJobQueue:
        return RedisJobQueue(
            self.redis, deliveries=self.deliveries, heads=self.heads, capacity=capacity
        )

    def locks(self, kind: str) -> RedisKeyedLock:
        return RedisKeyedLock(self.redis, f"{PREFIX}lock:{kind}:")

    def auth(self, settings: Settings, session: aiohttp.ClientSession, **options: Any) -> AppAuth:
        """The App's authentication with installation tokens shared through the vault."""
        assert settings.app_id
        vault = TokenVault(
            self.redis, PREFIX + "token:", derive_key(self._private_key, b"installation tokens")
        )
        return SharedTokenAuth(
            settings.app_id,
            self._private_key,
            settings.github_api_url,
            session,
            vault=vault,
            locks=self.locks("token"),
            **options,
        )

    async def close(self) -> None:
        await self.redis.aclose(close_connection_pool=True)
