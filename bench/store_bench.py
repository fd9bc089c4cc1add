"""Benchmark: the organisation overview from the trend store, on SQLite and PostgreSQL.

    python bench/store_bench.py [--repos 1000] [--points 100] [--runs 50] [--backend both]

Fills an empty store with ``--repos`` repositories of ``--points`` points each (one a
day, going back from now), then times ``Store.overview`` (every repository's latest point
and its change over 90 days, one query) ``--runs`` times after one warm-up, and prints
p50 / p99 / max in milliseconds per backend with the rows it returned. SQLite is a file
in a temp folder; PostgreSQL is a throwaway cluster from the Debian binaries (the one the
tests start; run as root it runs as the postgres user).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import insert, text

from bot.store import open_store, store_url
from bot.store.schema import PointRow, RepositoryRow
from tests.support.postgres import PostgresCluster

NOW = dt.datetime.now(dt.UTC)


async def fill(url: str, repos: int, points: int) -> float:
    store = await open_store(url)
    started = time.perf_counter()
    async with store.engine.begin() as conn:
        await conn.execute(
            insert(RepositoryRow),
            [{"id": r + 1, "full_name": f"org/repo-{r:04d}", "public": True} for r in range(repos)],
        )
        rows = [
            {
                "repository_id": r + 1,
                "commit": f"{r:08x}{p:032x}",
                "taken_at": NOW - dt.timedelta(days=points - 1 - p),
                "code_lines": 10_000 + p,
                "non_portable_lines": r + p,
                "nvidia_locked_lines": r + p,
                "nvidia_share": (r + p) / (10_000 + p),
                "figures": {"layers": {}, "ecosystems": {}, "matrix": {}},
                "left_branch": False,
            }
            for r in range(repos)
            for p in range(points)
        ]
        for start in range(0, len(rows), 10_000):
            await conn.execute(insert(PointRow), rows[start : start + 10_000])
        # Planner statistics, as autovacuum (PostgreSQL) or a later ANALYZE would leave them.
        await conn.execute(text("ANALYZE"))
    filled = time.perf_counter() - started
    await store.close()
    return filled


async def measure(url: str, runs: int, repos: int) -> list[float]:
    store = await open_store(url)
    try:
        rows = await store.overview(NOW, prefix="org/")  # warm-up, and a check of the answer
        assert len(rows) == repos, len(rows)
        assert all(r.change_90_days == 90 for r in rows), rows[:3]
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            await store.overview(NOW, prefix="org/")
            times.append((time.perf_counter() - started) * 1000)
        return times
    finally:
        await store.close()


def report(name: str, filled: float, times: list[float], repos: int, points: int) -> None:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    print(
        f"{name:10s} {repos} repos x {points} points (filled in {filled:.1f} s): overview "
        f"p50 {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms "
        f"over {len(times)} runs"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repos", type=int, default=1000)
    parser.add_argument("--points", type=int, default=100)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lockin-store-bench-") as folder:
        if args.backend in ("sqlite", "both"):
            url = store_url(None, str(Path(folder) / "bench.db"))
            filled = await fill(url, args.repos, args.points)
            report("sqlite", filled, await measure(url, args.runs, args.repos), args.repos,
                   args.points)  # fmt: skip
        if args.backend in ("postgresql", "both"):
            cluster = PostgresCluster(Path(tempfile.mkdtemp(prefix="lockin-pg-bench-")))
            cluster.start()
            try:
                url = store_url(cluster.new_database(), None)
                filled = await fill(url, args.repos, args.points)
                report("postgresql", filled, await measure(url, args.runs, args.repos),
                       args.repos, args.points)  # fmt: skip
            finally:
                cluster.stop()
                shutil.rmtree(cluster.root, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
