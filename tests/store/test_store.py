"""The trend store on SQLite and PostgreSQL: migrations, restarts, redelivery, force
pushes, trend figures and the organisation overview."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging

import pytest
from sqlalchemy import inspect, text

from bot.github.refs import RepoRef
from bot.runtime.open_runs import OpenRun
from bot.store import Point, Store, open_store, store_url, store_url_from_env
from tests.support.postgres import PostgresCluster

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


def point(n: int, days_ago: float, locked: int) -> Point:
    return Point(
        commit=f"{n:040x}",
        date=NOW - dt.timedelta(days=days_ago),
        code_lines=1000 + n,
        non_portable_lines=locked + 5,
        nvidia_locked_lines=locked,
        nvidia_share=round(locked / (1000 + n), 6),
        layers={"portable": 900, "nvidia_only": locked},
        ecosystems={"cuda": locked},
        matrix={"amd": {"portable": 900, "needs_port": locked}},
    )


async def tables(store: Store) -> tuple[set[str], list[str]]:
    async with store.engine.connect() as conn:
        names = await conn.run_sync(lambda sync: set(inspect(sync).get_table_names()))
        versions = (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
    return names, [v for (v,) in versions]


async def test_migrations_run_from_empty_and_again_change_nothing(url: str) -> None:
    store = await open_store(url)
    first = await tables(store)
    await store.close()
    store = await open_store(url)
    try:
        assert await tables(store) == first
    finally:
        await store.close()
    names, versions = first
    tables_made = {"repositories", "points", "reports", "ended_sessions", "open_runs"}
    assert tables_made | {"alembic_version"} <= names
    assert versions == ["0005"]


async def test_two_processes_starting_together_migrate_once(
    url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="alembic")
    stores = await asyncio.gather(open_store(url), open_store(url))
    try:
        upgrades = [r for r in caplog.records if r.getMessage().startswith("Running upgrade")]
        assert len(upgrades) == 5  # each migration once: 0001 to 0005
        assert (await tables(stores[1]))[1] == ["0005"]
    finally:
        for store in stores:
            await store.close()


async def test_points_survive_a_restart(url: str) -> None:
    store = await open_store(url)
    await store.record_point(RepoRef("Org", "Repo"), point(1, 10, 40))
    await store.close()
    store = await open_store(url)
    try:
        [kept] = await store.points(RepoRef("org", "repo"))
    finally:
        await store.close()
    assert kept == point(1, 10, 40)


async def test_open_runs_survive_a_restart_until_forgotten(url: str) -> None:
    """The embedded server's runs in progress (bot.runtime.open_runs.StoredOpenRuns): what a
    killed process recorded, the next reads; a run forgotten is gone; recording twice (a
    retried write) keeps one row."""
    runs = {
        "octo/ml/7": OpenRun(1, "octo/ml", 0, "a" * 40, 7, 1_000.0, "gh-readonly-queue/x", "b"),
        "octo/ml/8": OpenRun(1, "octo/ml", 3, "c" * 40, 8, 2_000.0),
    }
    store = await open_store(url)
    for key, run in [*runs.items(), ("octo/ml/7", runs["octo/ml/7"])]:
        await store.keep_open_run(
            key, dt.datetime.fromtimestamp(run.opened_at, dt.UTC), run.to_dict()
        )
    await store.close()
    store = await open_store(url)
    try:
        late = dt.datetime.fromtimestamp(5_000, dt.UTC)
        found = [OpenRun.from_dict(d) for d in await store.open_runs_before(late)]
        assert sorted(found, key=lambda r: r.run_id) == list(runs.values())
        middle = dt.datetime.fromtimestamp(1_500, dt.UTC)
        assert [d["run_id"] for d in await store.open_runs_before(middle)] == [7]
        await store.forget_open_run("octo/ml/7")
        assert [d["run_id"] for d in await store.open_runs_before(late)] == [8]
    finally:
        await store.close()


async def test_a_redelivered_push_records_nothing_twice(url: str) -> None:
    store = await open_store(url)
    try:
        assert await store.record_point(RepoRef("org", "repo"), point(1, 10, 40))
        # The same commit again, even with other figures (a retried job), keeps the first.
        assert not await store.record_point(RepoRef("ORG", "repo"), point(1, 10, 99))
        assert [p.nvidia_locked_lines for p in await store.points(RepoRef("org", "repo"))] == [40]
        # Another repository may hold the same commit (a fork).
        assert await store.record_point(RepoRef("fork", "repo"), point(1, 10, 40))
    finally:
        await store.close()


async def test_points_that_left_the_branch_are_marked_not_mixed(url: str) -> None:
    store = await open_store(url)
    try:
        for n, days, locked in [(1, 60, 10), (2, 20, 500), (3, 10, 600), (4, 5, 20)]:
            await store.record_point(RepoRef("org", "repo"), point(n, days, locked))
        assert (
            await store.mark_left_branch(RepoRef("org", "repo"), [point(2, 0, 0).commit, "f" * 40])
            == 1
        )
        assert await store.mark_left_branch(RepoRef("other", "repo"), [point(3, 0, 0).commit]) == 0
        shown = await store.points(RepoRef("org", "repo"))
        everything = await store.points(RepoRef("org", "repo"), include_left=True)
        trend = await store.trend(RepoRef("org", "repo"), NOW - dt.timedelta(days=15))
    finally:
        await store.close()
    assert [p.nvidia_locked_lines for p in shown] == [10, 600, 20]
    assert [p.left_branch for p in everything] == [False, True, False, False]
    assert trend.today == 10  # the 500 of the commit that left is not today's figure


async def test_trend_today_30_and_90_days_ago_and_the_slope(url: str) -> None:
    store = await open_store(url)
    try:
        assert not (await store.trend(RepoRef("org", "repo"), NOW)).known
        for n, days, locked in [(1, 200, 5), (2, 100, 100), (3, 45, 160), (4, 1, 190)]:
            await store.record_point(RepoRef("org", "repo"), point(n, days, locked))
        await store.record_point(RepoRef("org", "repo"), point(5, -3, 999))  # after `now`: not yet
        trend = await store.trend(RepoRef("org", "repo"), NOW)
        since = await store.points(RepoRef("org", "repo"), NOW - dt.timedelta(days=50))
    finally:
        await store.close()
    assert (trend.today, trend.days_30, trend.days_90) == (190, 160, 100)
    # From the point standing 90 days ago (100, 100 days back) to 190 a day ago.
    assert trend.slope_per_month == round(90 * 30.4375 / 99, 1)
    assert trend.points == 2
    assert [p.nvidia_locked_lines for p in since] == [160, 190, 999]


async def test_overview_of_an_organisation_in_one_query(url: str) -> None:
    store = await open_store(url)
    try:
        await store.record_point(RepoRef("org", "a"), point(1, 120, 50))
        await store.record_point(RepoRef("org", "a"), point(2, 2, 80))
        await store.record_point(RepoRef("org", "b"), point(3, 10, 7))
        await store.record_point(RepoRef("else", "c"), point(4, 1, 1))
        rows = await store.overview(NOW, prefix="org/")
    finally:
        await store.close()
    assert [(r.full_name, r.nvidia_locked_lines, r.change_90_days) for r in rows] == [
        ("org/a", 80, 30),
        ("org/b", 7, None),
    ]


def test_the_url_comes_from_database_url_else_the_file_path() -> None:
    assert store_url_from_env({}) == "sqlite+aiosqlite:///lockin.db"
    assert store_url_from_env({"LOCKIN_DB_PATH": "/var/lib/l.db"}) == (
        "sqlite+aiosqlite:////var/lib/l.db"
    )
    for scheme in ("postgres", "postgresql"):
        assert store_url_from_env(
            {"DATABASE_URL": f"{scheme}://u:p@db:5432/x", "LOCKIN_DB_PATH": "ignored.db"}
        ) == ("postgresql+psycopg://u:p@db:5432/x")
    assert store_url(None, ":memory:") == "sqlite+aiosqlite://"


async def test_org_rows_give_each_repository_its_figure_standing_at_each_date(url: str) -> None:
    store = await open_store(url)
    try:
        day = dt.timedelta(days=1)
        now = dt.datetime(2026, 6, 1, tzinfo=dt.UTC)
        for name, figures in (("o/a", [(60, 5), (30, 7), (1, 9)]), ("o/b", [(10, 100)])):
            for days_ago, locked in figures:
                point = Point("%040x" % (days_ago * 1000 + locked), now - days_ago * day,
                              100, locked, locked, locked / 100)  # fmt: skip
                assert await store.record_point(RepoRef.parse(name), point)
        dates = [now - 90 * day, now - 45 * day, now - 5 * day, now]
        rows = await store.org_rows(["o/a", "O/B", "o/absent"], now, dates)
        assert [r.full_name for r in rows] == ["o/a", "o/b"]
        a, b = rows
        assert a.trend == (None, 5, 7, 9)
        assert b.trend == (None, None, 100, 100)
        assert a.nvidia_locked_lines == 9
        assert a.change_90_days is None  # no point 90 days old
    finally:
        await store.close()


async def test_postgresql_connections_run_without_jit(postgres_cluster: PostgresCluster) -> None:
    """Set once per connection, outside a transaction, so it outlives the pool's rollback."""
    store = await open_store(store_url(postgres_cluster.new_database(), None))
    try:
        for _ in range(2):  # the second use gets the pooled connection back
            async with store.engine.connect() as conn:
                assert (await conn.execute(text("SHOW jit"))).scalar() == "off"
                await conn.rollback()
    finally:
        await store.close()
