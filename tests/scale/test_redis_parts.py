"""The Redis building blocks one by one, against a real redis-server: what each promises
to every process that shares it."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from arq.connections import ArqRedis

from bot import worker
from bot.census.by_commit import CensusAt
from bot.engine.census import Census
from bot.engine.registry import RULES
from bot.runtime.jobs import Job
from bot.runtime.open_runs import OpenRun
from bot.runtime.settings import Settings
from bot.scale.backend import RedisBackend
from bot.scale.caches import RedisCache, RedisOpenRuns
from bot.scale.codec import SignedPickle, derive_key
from bot.scale.connection import QUEUE_NAME, connect
from bot.scale.heads import NewestHeads, PullHead, pull_head
from bot.scale.locks import RedisKeyedLock
from bot.sources.files import classify_entry
from tests.fakegithub import FakeGitHub
from tests.scale.cluster import RedisServer

KERNEL = b"__global__ void k(float* x) { x[threadIdx.x] = 0.0f; }\n"


@pytest.fixture
async def redis(redis_server: RedisServer) -> AsyncIterator[ArqRedis]:
    client = connect(redis_server.url, patience=1.0)
    yield client
    await client.aclose()


def settings_for(fake: FakeGitHub, redis_server: RedisServer) -> Settings:
    return Settings(
        app_id=str(fake.app_id),
        private_key=fake.private_key_pem,
        webhook_secret="parts-secret",
        github_api_url=fake.url,
        redis_url=redis_server.url,
    )


def backend_for(fake: FakeGitHub, redis_server: RedisServer) -> RedisBackend:
    return RedisBackend(settings_for(fake, redis_server), patience=1.0)


# -- the per-PR lock ---------------------------------------------------------------------


async def test_lock_admits_one_holder_at_a_time_across_clients(
    redis_server: RedisServer,
) -> None:
    clients = [connect(redis_server.url, patience=1.0) for _ in range(3)]
    locks = [RedisKeyedLock(c, "test:lock:") for c in clients]
    inside, most, entries = 0, 0, 0

    async def critical(lock: RedisKeyedLock) -> None:
        nonlocal inside, most, entries
        async with lock.hold("octo/ml#1"):
            inside += 1
            most = max(most, inside)
            await asyncio.sleep(0.01)
            entries += 1
            inside -= 1

    await asyncio.gather(*(critical(locks[i % 3]) for i in range(24)))
    for client in clients:
        await client.aclose()
    assert (most, entries) == (1, 24)


async def test_a_dead_owners_lock_is_free_once_its_lease_ran_out(redis: ArqRedis) -> None:
    # What a killed process leaves behind: its token, with a lease nobody renews.
    await redis.set("test:lock:octo/ml#1", b"7:dead-owner", px=400)
    lock = RedisKeyedLock(redis, "test:lock:")

    async with asyncio.timeout(10), lock.hold("octo/ml#1"):
        holder = await redis.get("test:lock:octo/ml#1")

    assert holder is not None
    assert holder != b"7:dead-owner"


async def test_a_held_lock_outlives_its_lease_and_release_spares_a_new_owner(
    redis: ArqRedis,
) -> None:
    lock = RedisKeyedLock(redis, "test:lock:", lease=0.3)
    async with lock.hold("octo/ml#2"):
        token = await redis.get("test:lock:octo/ml#2")
        await asyncio.sleep(1.0)  # three leases: renewed meanwhile
        assert await redis.get("test:lock:octo/ml#2") == token
        # The lease is lost and another process takes the lock...
        await redis.set("test:lock:octo/ml#2", b"99:new-owner", px=5000)
    # ...so leaving the block must not free the new owner's lock.
    assert await redis.get("test:lock:octo/ml#2") == b"99:new-owner"


async def test_each_owner_of_a_lock_gets_a_larger_fencing_number(redis: ArqRedis) -> None:
    lock = RedisKeyedLock(redis, "test:lock:")
    fences = []
    for _ in range(3):
        async with lock.hold("octo/ml#4"):
            fences.append(int((await redis.get("test:lock:octo/ml#4")).split(b":")[0]))
    assert fences == sorted(set(fences))


# -- delivery log, heads, queue ----------------------------------------------------------


async def test_a_queued_delivery_is_a_duplicate_for_every_replica_until_released(
    fake_github: FakeGitHub, redis_server: RedisServer
) -> None:
    first, second = backend_for(fake_github, redis_server), backend_for(fake_github, redis_server)
    queue = first.job_queue(capacity=10)
    await queue.start()
    delivery = str(uuid.uuid4())
    mark = f"lockin:delivery:{delivery}"

    assert await first.deliveries.claim(delivery)
    pending_ttl = await first.redis.pttl(mark)
    assert await queue.submit(Job(delivery, "issue_comment", {"action": "created"}))
    queued_ttl = await first.redis.pttl(mark)
    assert not await second.deliveries.claim(delivery)
    await second.deliveries.release(delivery)  # the job failed: a redelivery runs it again
    assert await second.deliveries.claim(delivery)

    assert 0 < pending_ttl <= 15_000  # no longer than GitHub waits for an answer, and a bit
    assert queued_ttl > 2 * 24 * 3600 * 1000  # GitHub's three-day redelivery window
    await queue.close()
    await first.close()
    await second.close()


async def test_a_claim_left_by_a_replica_that_lost_redis_does_not_make_a_duplicate(
    fake_github: FakeGitHub, redis_server: RedisServer
) -> None:
    first, second = backend_for(fake_github, redis_server), backend_for(fake_github, redis_server)
    queue = second.job_queue(capacity=10)
    await queue.start()
    delivery = str(uuid.uuid4())
    # The first replica claimed it, then lost Redis before its job was queued (503).
    assert await first.deliveries.claim(delivery)

    assert await second.deliveries.claim(delivery)  # GitHub's redelivery
    assert await queue.submit(Job(delivery, "issue_comment", {"action": "created"}))
    assert not await first.deliveries.claim(delivery)

    await queue.close()
    await first.close()
    await second.close()


async def test_submitting_a_delivery_twice_queues_one_job(
    fake_github: FakeGitHub, redis_server: RedisServer
) -> None:
    backend = backend_for(fake_github, redis_server)
    queue = backend.job_queue(capacity=10)
    await queue.start()
    job = Job(str(uuid.uuid4()), "issue_comment", {"action": "created"})

    assert await queue.submit(job)
    assert await queue.submit(job)

    assert await backend.redis.zcard(QUEUE_NAME) == 1
    await queue.close()
    await backend.close()


async def test_the_newest_head_is_ordered_by_github_time_then_by_arrival(
    redis: ArqRedis,
) -> None:
    heads = NewestHeads(redis, "test:head:", ttl=60)
    a, b, c = (PullHead("octo/ml#1", sha * 40, at) for sha, at in (("a", 10), ("b", 9), ("c", 10)))
    seq = [await heads.sequence() for _ in range(3)]

    await heads.record(a, seq[0])
    await heads.record(b, seq[1])  # a redelivered older push arriving late
    assert await heads.superseded(a, seq[0]) is None
    assert await heads.superseded(b, seq[1]) == a.sha

    await heads.record(c, seq[2])  # the same second as `a`, queued after it
    assert await heads.superseded(a, seq[0]) == c.sha
    assert await heads.superseded(c, seq[2]) is None


def test_only_pull_request_deliveries_name_a_head() -> None:
    payload = {
        "repository": {"full_name": "Octo/ML"},
        "pull_request": {
            "number": 3,
            "head": {"sha": "f" * 40},
            "updated_at": "2026-01-02T03:04:05Z",
        },
    }
    head = pull_head("pull_request", payload)
    assert head == PullHead("octo/ml#3", "f" * 40, 1767323045)
    assert pull_head("check_suite", payload) is None
    assert pull_head("pull_request", {**payload, "pull_request": {"number": 3}}) is None


# -- caches and tokens ---------------------------------------------------------------------


async def test_cached_values_with_a_wrong_signature_are_misses(redis: ArqRedis) -> None:
    ours = RedisCache(
        redis, "test:cache:", codec=SignedPickle(b"k" * 32), ttl=60, max_value_bytes=1000
    )
    forged = RedisCache(
        redis, "test:cache:", codec=SignedPickle(b"x" * 32), ttl=60, max_value_bytes=1000
    )
    await ours.put("a", {"lines": 3})
    await forged.put("b", {"lines": 4})
    await ours.put("big", b"x" * 2000)

    assert await ours.get("a") == {"lines": 3}
    assert await ours.get("b") is None
    assert await ours.get("big") is None  # above the size bound: never stored
    await ours.put("a", None)
    assert await redis.exists("test:cache:a") == 0


async def test_a_signed_value_moved_to_another_key_is_a_miss(redis: ArqRedis) -> None:
    blobs = RedisCache(
        redis, "test:blob:", codec=SignedPickle(b"k" * 32), ttl=60, max_value_bytes=1000
    )
    census = RedisCache(
        redis, "test:census:", codec=SignedPickle(b"k" * 32), ttl=60, max_value_bytes=1000
    )
    await blobs.put("harmless", b"int main() {}\n")
    await blobs.put("kernel", b"__global__ void k() {}\n")
    await census.put("octo/private@abc", {"nvidia": 1.0})
    # Whoever can write to Redis copies signed values under other keys.
    await redis.set("test:blob:kernel", await redis.get("test:blob:harmless"))
    await redis.set("test:census:octo/public@abc", await redis.get("test:census:octo/private@abc"))

    assert await blobs.get("harmless") == b"int main() {}\n"
    assert await blobs.get("kernel") is None
    assert await census.get("octo/private@abc") == {"nvidia": 1.0}
    assert await census.get("octo/public@abc") is None


async def test_a_census_round_trips_through_the_shared_cache(
    fake_github: FakeGitHub, redis_server: RedisServer
) -> None:
    writer, reader = backend_for(fake_github, redis_server), backend_for(fake_github, redis_server)
    census = Census()
    census.replace("csrc/k.cu", classify_entry("csrc/k.cu", KERNEL))
    census.replace("model.py", classify_entry("model.py", b"import torch\n\nx = torch.ones(3)\n"))

    await writer.caches().census.put("octo/ml@abc", CensusAt("abc", "scope", census))
    back = await reader.caches().census.get("octo/ml@abc")

    assert back is not None
    assert back.census.rules is RULES  # a reference to the engine's registry, not a copy
    assert back.census.files() == census.files()
    assert back.census.totals == census.totals
    assert back.census.nvidia_share() == census.nvidia_share() > 0
    await writer.close()
    await reader.close()


async def test_installation_tokens_are_minted_once_for_all_processes_and_stored_sealed(
    fake_github: FakeGitHub, redis_server: RedisServer
) -> None:
    fake_github.add_installation(7, "octo")
    backends = [backend_for(fake_github, redis_server) for _ in range(3)]
    async with aiohttp.ClientSession() as session:
        auths = [b.auth(settings_for(fake_github, redis_server), session) for b in backends]
        tokens = await asyncio.gather(*(a.installation_token(7) for a in auths))
        assert fake_github.tokens_issued == 1
        assert len(set(tokens)) == 1
        sealed = await backends[0].redis.get("lockin:token:7")
        assert sealed is not None
        assert tokens[0].encode() not in sealed
        ttl = await backends[0].redis.pttl("lockin:token:7")
        assert 0 < ttl <= 3600 * 1000

        auths[1].forget(7)
        await asyncio.sleep(0.1)
        assert await backends[0].redis.exists("lockin:token:7") == 0
        await auths[2].installation_token(7)  # still cached in that process
        assert fake_github.tokens_issued == 1
    for backend in backends:
        await backend.close()
    assert derive_key("a", b"x") != derive_key("a", b"y")


# -- `lockin worker` start-up ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "lockin: REDIS_URL: required by `lockin worker` (the job queue)"),
        (
            {"REDIS_URL": "redis://127.0.0.1:1/0"},
            "lockin: APP_ID, PRIVATE_KEY and WEBHOOK_SECRET: required by `lockin worker`",
        ),
        (
            {"REDIS_URL": "redis://127.0.0.1:1/0", "JOB_TIMEOUT": "soon"},
            "lockin: JOB_TIMEOUT: expected a number of seconds, got 'soon'",
        ),
    ],
)
def test_worker_refuses_to_start_without_what_it_needs(
    environ: dict[str, str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env file around

    assert worker.main(environ) == 2

    assert capsys.readouterr().err.strip() == message


# -- the runs in progress and the sweep's lease -----------------------------------------------


async def test_open_runs_are_shared_and_one_process_sweeps_per_interval(
    redis_server: RedisServer,
) -> None:
    one, other = connect(redis_server.url, patience=1.0), connect(redis_server.url, patience=1.0)
    try:
        mine, theirs = RedisOpenRuns(one, "t:open-runs:"), RedisOpenRuns(other, "t:open-runs:")
        old = OpenRun(7, "octo/ml", 1, "a" * 40, 11, time.time() - 600)
        new = OpenRun(7, "octo/ml", 2, "b" * 40, 12, time.time())
        await mine.add(old)
        await mine.add(new)
        # Another process (a worker after this one died) sees them, the old one as stale.
        assert await theirs.older_than(300) == [old]
        assert sorted(r.run_id for r in await theirs.older_than(0)) == [11, 12]
        await theirs.remove("octo/ml", 11)
        assert await mine.older_than(300) == []
        # One sweep an interval, whichever process asks first.
        assert [await mine.claim_sweep(60), await theirs.claim_sweep(60)] == [True, False]
    finally:
        await one.aclose()
        await other.aclose()
