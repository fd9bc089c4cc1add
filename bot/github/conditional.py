"""Conditional GET: remembered ETags, so a repeated GET costs no quota.

GitHub does not count a 304 answer to an authorized conditional request against the
primary rate limit. Entries are keyed by scope (installation), URL and media type, so one
installation never sees what another fetched, and bounded in bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cachetools import LRUCache

# Headers that describe the body; rate-limit headers of the old answer would be stale.
_KEPT_HEADERS = ("content-type", "link", "etag")


@dataclass(frozen=True)
class Stored:
    etag: str
    headers: Mapping[str, str]
    body: bytes


CacheKey = tuple[str, str, str]


class ConditionalCache:
    def __init__(self, *, max_bytes: int = 32 * 2**20) -> None:
        self._entries: LRUCache[CacheKey, Stored] = LRUCache(
            maxsize=max_bytes, getsizeof=lambda stored: len(stored.body) + 512
        )

    def lookup(self, key: CacheKey) -> Stored | None:
        return self._entries.get(key)

    def store(self, key: CacheKey, headers: Mapping[str, str], body: bytes) -> None:
        etag = headers.get("etag")
        if not etag:
            return
        kept = {name: headers[name] for name in _KEPT_HEADERS if name in headers}
        try:
            self._entries[key] = Stored(etag=etag, headers=kept, body=body)
        except ValueError:
            # Larger than the whole cache: not worth keeping.
            self._entries.pop(key, None)
