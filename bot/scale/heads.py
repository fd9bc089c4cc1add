"""Newest head wins: a queued pull-request job is dropped once a newer head is queued.

At enqueue the web process records, per PR, the newest head it has queued: ordered by the
payload's `pull_request.updated_at` (GitHub's time, the same for every replica) and, within
one second, by a sequence number every replica draws from one Redis counter before it
enqueues. The record is written after the job is in the queue, so a worker never sees a
record naming a job that failed to queue; a job is superseded only by a strictly newer
record with another head SHA, so the newest job itself always runs.

A redelivered old `synchronize` carries its old `updated_at`: it never displaces a newer
head, and its job is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from redis.asyncio import Redis

from bot.github.refs import PullRef, RepoRef
from bot.runtime.locks import pr_key

_RECORD = """
local current = redis.call('GET', KEYS[1])
if current then
  local at, seq = string.match(current, '^(%d+) (%d+) ')
  at, seq = tonumber(at), tonumber(seq)
  local new_at, new_seq = tonumber(ARGV[1]), tonumber(ARGV[2])
  if at > new_at or (at == new_at and seq > new_seq) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2] .. ' ' .. ARGV[3], 'PX', ARGV[4])
return 1
"""


@dataclass(frozen=True, slots=True)
class PullHead:
    pr: str  # bot.runtime.locks.pr_key
    sha: str
    updated_at: int  # epoch seconds


def pull_head(event: str, payload: dict[str, Any]) -> PullHead | None:
    """The PR head a `pull_request` delivery names; None for other events."""
    if event != "pull_request":
        return None
    pr = payload.get("pull_request") or {}
    full_name = (payload.get("repository") or {}).get("full_name") or ""
    sha = (pr.get("head") or {}).get("sha")
    number, updated = pr.get("number"), pr.get("updated_at")
    if not (isinstance(sha, str) and isinstance(number, int) and updated):
        return None
    try:
        repo = RepoRef.parse(full_name)
        at = datetime.fromisoformat(str(updated).replace("Z", "+00:00"))
    except ValueError:
        return None
    return PullHead(pr_key(PullRef(repo, number)), sha, int(at.timestamp()))


class NewestHeads:
    def __init__(self, redis: Redis, namespace: str, *, ttl: float) -> None:
        self._redis = redis
        self._namespace = namespace
        self._ttl_ms = int(ttl * 1000)
        self._record = redis.register_script(_RECORD)

    async def sequence(self) -> int:
        """The next number of the order every replica enqueues in."""
        return int(await self._redis.incr(self._namespace + "sequence"))

    async def record(self, head: PullHead, seq: int) -> None:
        await self._record(
            keys=[self._namespace + head.pr],
            args=[head.updated_at, seq, head.sha, self._ttl_ms],
        )

    async def superseded(self, head: PullHead, seq: int) -> str | None:
        """The newer head SHA queued after this job's, or None when the job is still newest."""
        raw = await self._redis.get(self._namespace + head.pr)
        if raw is None:
            return None
        at, newest_seq, sha = raw.decode().split(" ", 2)
        newer = (int(at), int(newest_seq)) > (head.updated_at, seq)
        return sha if newer and sha != head.sha else None
