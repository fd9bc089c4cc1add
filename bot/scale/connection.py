"""The Redis client every scale-out part uses, and the key names they share.

Timeouts are short: the web process must answer GitHub within 10 s, so a Redis that does not
answer costs a few seconds and a 503, never the whole window. A dropped connection (Redis
restarting) is retried briefly before the caller sees the error.
"""

from __future__ import annotations

import json
from typing import Any

from arq.connections import ArqRedis
from redis.asyncio import ConnectionPool
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError, TimeoutError

#: Every key lockin writes starts with this, so one Redis can serve other tenants too.
PREFIX = "lockin:"
#: The arq queue (a sorted set) the web processes fill and the workers drain.
QUEUE_NAME = PREFIX + "jobs"
#: The arq function name of a webhook delivery job.
DELIVERY_JOB = "delivery"


def job_id(delivery_id: str) -> str:
    """The arq job id of a delivery: enqueueing the same delivery twice queues one job."""
    return f"{PREFIX}delivery:{delivery_id}"


def dump_job(value: Any) -> bytes:
    # Jobs are JSON (webhook payloads are JSON already), never pickle: a job read from Redis
    # must not be able to run code in a worker.
    return json.dumps(value, separators=(",", ":")).encode()


def load_job(data: bytes) -> Any:
    return json.loads(data)


def connect(url: str, *, patience: float) -> ArqRedis:
    """A lazily connecting client for `url` (redis://, rediss:// or unix://) that retries a
    lost connection for about `patience` seconds before a command fails."""
    pool: ConnectionPool = ConnectionPool.from_url(
        url,
        socket_connect_timeout=2.0,
        socket_timeout=5.0,
        health_check_interval=15,
        retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), retries=max(1, int(patience / 0.5))),
        retry_on_error=[ConnectionError, TimeoutError],
    )
    return ArqRedis(
        pool,
        job_serializer=dump_job,
        job_deserializer=load_job,
        default_queue_name=QUEUE_NAME,
    )
