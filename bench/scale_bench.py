"""Scale-out benchmark (issue 7): `python bench/scale_bench.py [--count N] [--workers 1 2 4]`.

A real redis-server on a free loopback port, `--webs` `lockin serve` replicas and 1, 2, 4
`lockin worker` processes (all real subprocesses, REDIS_URL set) against the fake GitHub
served by this process on 127.0.0.1. For each worker count, with Redis emptied first:

1. accepted: `--count` signed `pull_request` `opened` deliveries (one per PR, each PR adding
   a CUDA kernel) sent over `--concurrency` connections spread over the web replicas, no
   worker running: deliveries/s answered 202 (verify, deduplicate, enqueue in Redis);
2. completed: the workers start and drain the queue; each job is the real PR check (files,
   blobs, policy, check run, sticky comment). Jobs/s = jobs / (last job end - first job
   start), from the workers' own log timestamps. While they drain, the CPU seconds of the
   workers, of Redis and of this process (the fake GitHub, which checks every request
   against the REST description) are read from /proc, to show where the time goes on a
   small machine.

Bounded in count and time (`--deadline` seconds per phase). Prints one line per run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
import uuid
from datetime import datetime
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fakegithub import FakeGitHub  # noqa: E402
from tests.scale.cluster import Cluster, RedisServer, pr_payload, until  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


KERNEL = "__global__ void k{n}(float* x) {{ x[threadIdx.x] *= {n}.0f; }}\n"


async def run(
    fake: FakeGitHub, redis: RedisServer, workdir: Path, workers: int, args: argparse.Namespace
) -> dict[str, float]:
    client = redis.client()
    await client.flushall()
    await client.aclose()
    repo = fake.add_repo(f"octo/ml-{workers}w", files={"README.md": "# ml\n"})
    prs = []
    for n in range(args.count):
        repo.commit({f"csrc/k{n}.cu": KERNEL.format(n=n)}, branch=f"f{n}", message="kernel")
        prs.append(repo.open_pr(head_branch=f"f{n}", body="bench"))
    deliveries = [pr_payload(fake, repo, pr, "opened") for pr in prs]
    run_dir = workdir / f"{workers}w"
    run_dir.mkdir()
    async with aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=args.concurrency)
    ) as http:
        cluster = Cluster(fake, redis, run_dir, http, settings={"LOG_LEVEL": "info"})
        try:
            webs = [await cluster.start_web() for _ in range(args.webs)]
            gate = asyncio.Semaphore(args.concurrency)

            async def send(i: int) -> int:
                async with gate:
                    status, _ = await cluster.deliver(
                        webs[i % len(webs)], "pull_request", deliveries[i], str(uuid.uuid4())
                    )
                    return status

            started = time.perf_counter()
            statuses = await asyncio.wait_for(
                asyncio.gather(*(send(i) for i in range(args.count))), args.deadline
            )
            accept_seconds = time.perf_counter() - started
            assert statuses.count(202) == args.count, statuses

            assert redis.process is not None
            procs = await asyncio.gather(
                *(cluster.start_worker(WORKERS=str(args.jobs_per_worker)) for _ in range(workers))
            )
            # CPU from the moment every worker is ready (their start-up is not the drain's).
            pids = {"fake": os.getpid(), "redis": redis.process.pid}
            pids |= {f"worker{i}": p.process.pid for i, p in enumerate(procs)}
            before = {name: cpu_seconds(pid) for name, pid in pids.items()}
            drain_started = time.perf_counter()
            await until(cluster.idle, "the queue drained", within=args.deadline)
            drain_seconds = time.perf_counter() - drain_started
            spent = {name: cpu_seconds(pid) - before[name] for name, pid in pids.items()}
            cpu = {
                "fake": spent["fake"],
                "redis": spent["redis"],
                "workers": sum(v for k, v in spent.items() if k.startswith("worker")),
            }
            starts, ends = [], []
            for proc in procs:
                for line in proc.logs():
                    msg = str(line.get("msg", ""))
                    when = datetime.fromisoformat(line["time"]).timestamp()
                    if msg.startswith("job started"):
                        starts.append(when)
                    elif msg.startswith("job ") and line.get("outcome") in ("ok", "error"):
                        ends.append(when)
            completed = sum(1 for r in repo.check_runs.values() if r.status == "completed")
            assert completed == args.count, completed
            return {
                "accepted_per_s": args.count / accept_seconds,
                "jobs_per_s": len(ends) / (max(ends) - min(starts)),
                "jobs": len(ends),
                **{f"cpu_{name}": seconds / drain_seconds for name, seconds in cpu.items()},
                "errors": sum(
                    1 for p in procs for line in p.logs() if line.get("outcome") == "error"
                ),
            }
        finally:
            await cluster.close()


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="lockin-scale-bench-") as tmp:
        workdir = Path(tmp)
        redis = RedisServer(workdir / "redis", appendonly=True)
        await redis.start()
        try:
            async with FakeGitHub() as fake:
                print(
                    f"{args.count} PR deliveries, {args.webs} web replica(s), "
                    f"{args.concurrency} connections, {args.jobs_per_worker} jobs per worker; "
                    "Redis with appendonly"
                )
                for workers in args.workers:
                    figures = await run(fake, redis, workdir, workers, args)
                    print(
                        f"workers={workers}: accepted {figures['accepted_per_s']:.0f} "
                        f"deliveries/s; completed {figures['jobs_per_s']:.1f} jobs/s "
                        f"({figures['jobs']:.0f} jobs, {figures['errors']:.0f} errors); "
                        f"CPU cores busy while draining: workers {figures['cpu_workers']:.2f}, "
                        f"fake GitHub {figures['cpu_fake']:.2f}, Redis {figures['cpu_redis']:.2f}",
                        flush=True,
                    )
        finally:
            await redis.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--webs", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--jobs-per-worker", type=int, default=4)
    parser.add_argument("--deadline", type=float, default=300.0)
    asyncio.run(main(parser.parse_args()))
