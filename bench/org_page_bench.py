"""Benchmark: the organisation page of 1,000 repositories from the store, SQLite and PostgreSQL.

    python bench/org_page_bench.py [--repos 1000] [--points 100] [--runs 50] [--backend both]

Fills an empty store as bench/store_bench.py does (``--repos`` repositories of ``--points``
daily points) and gives each repository a register-and-plan report like the dashboard
refresh writes, then times the whole organisation page for a user who may read every
repository: the one query (table and trend), the figures over all of them and the HTML of
the first page of the table (``PAGE_ROWS`` rows), exactly as ``/orgs/{org}`` renders it
(``org_page_html``) minus the HTTP exchange. Prints p50 / p99 /
max in milliseconds per backend and the page's size.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from sqlalchemy import insert
from store_bench import NOW, fill

from bot.server.access import Access
from bot.server.orgs.figures import PAGE_ROWS
from bot.server.orgs.routes import org_page_html
from bot.store import open_store, store_url
from bot.store.schema import ReportRow
from tests.support.postgres import PostgresCluster

SUMMARY = {
    "gated_lines": 1200,
    "covered_lines": 900,
    "uncovered_lines": 300,
    "coverage": 0.75,
    "kernels": 12,
    "decisions": [
        {
            "ref": "docs/decisions/0001.md",
            "title": "CUDA kernels",
            "status": "accepted",
            "owner": "@org/kernels",
            "compute_api": "CUDA 12",
            "lines": 900,
            "drifted": False,
        },
    ],
    "uncovered": [{"directory": "csrc/new", "lines": 300, "owners": ["@org/new"]}],
    "plans": [
        {"target": t, "vendor": t, "tool": None, "rewrite": 600, "map": 300, "edit": 300}
        for t in ("amd", "intel", "apple", "google")
    ],
    "dashboard": "https://github.com/org/repo/issues/1",
}


async def add_reports(url: str, repos: int) -> None:
    store = await open_store(url)
    async with store.engine.begin() as conn:
        await conn.execute(
            insert(ReportRow),
            [
                {"repository_id": r + 1, "commit": "0" * 40, "updated_at": NOW, "summary": SUMMARY}
                for r in range(repos)
            ],
        )
    await store.close()


async def measure(url: str, runs: int, repos: int) -> tuple[list[float], int]:
    store = await open_store(url)
    names = frozenset(f"org/repo-{r:04d}" for r in range(repos))
    access = Access("bench", names, frozenset({"org"}), "csrf")
    try:
        page = (await org_page_html(store, access, "org", {}, lambda n: f"/static/{n}")).html
        shown = min(repos, PAGE_ROWS)
        assert page.count('<tr>\n  <td><a href="/orgs/org/repo-') == shown, "rows missing"
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            await org_page_html(store, access, "org", {}, lambda name: f"/static/{name}")
            times.append((time.perf_counter() - started) * 1000)
        return times, len(page)
    finally:
        await store.close()


def report(name: str, times: list[float], size: int, repos: int, points: int) -> None:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    print(
        f"{name:10s} {repos} repos x {points} points: organisation page "
        f"p50 {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms "
        f"over {len(times)} runs ({size / 1024:.0f} KiB of HTML)"
    )


async def run(url: str, args: argparse.Namespace, name: str) -> None:
    await fill(url, args.repos, args.points)
    await add_reports(url, args.repos)
    times, size = await measure(url, args.runs, args.repos)
    report(name, times, size, args.repos, args.points)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repos", type=int, default=1000)
    parser.add_argument("--points", type=int, default=100)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lockin-org-bench-") as folder:
        if args.backend in ("sqlite", "both"):
            await run(store_url(None, str(Path(folder) / "bench.db")), args, "sqlite")
        if args.backend in ("postgresql", "both"):
            cluster = PostgresCluster(Path(tempfile.mkdtemp(prefix="lockin-pg-bench-")))
            cluster.start()
            try:
                await run(store_url(cluster.new_database(), None), args, "postgresql")
            finally:
                cluster.stop()
                shutil.rmtree(cluster.root, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
