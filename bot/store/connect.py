"""Where the store lives, and opening it: engine, then migrations under a lock."""

from __future__ import annotations

import asyncio
import fcntl
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from bot.store.points import Store

DEFAULT_DB_PATH = "lockin.db"
MIGRATIONS = Path(__file__).parent / "migrations"
# One advisory lock id for "migrating lockin's schema", the same in every replica.
_ADVISORY_KEY = zlib.crc32(b"lockin.store.migrations")


class StoreURLError(ValueError):
    """DATABASE_URL names no database lockin can use; the message is one line that never
    repeats the URL (it may carry a password)."""


#: What DATABASE_URL may name: PostgreSQL (through psycopg 3) or a SQLite file (aiosqlite).
_DRIVERS = {
    ("postgresql", ""): "postgresql+psycopg",
    ("postgresql", "psycopg"): "postgresql+psycopg",
    ("postgresql", "psycopg_async"): "postgresql+psycopg",
    ("sqlite", ""): "sqlite+aiosqlite",
    ("sqlite", "pysqlite"): "sqlite+aiosqlite",
    ("sqlite", "aiosqlite"): "sqlite+aiosqlite",
}
_EXPECTED = "expected postgresql://user:password@host/database or sqlite:///path/to/lockin.db"


def store_url(database_url: str | None, db_path: str | None) -> str:
    """The SQLAlchemy URL: ``database_url`` when set (PostgreSQL, or SQLite with any of
    its spellings), else a SQLite file. Raises `StoreURLError` for anything else."""
    if database_url:
        return _async_url(database_url.strip())
    path = db_path or DEFAULT_DB_PATH
    return "sqlite+aiosqlite://" if path == ":memory:" else f"sqlite+aiosqlite:///{path}"


def _async_url(raw: str) -> str:
    # Heroku-style and libpq URLs say postgres:// and name no driver; the store is async.
    if raw.startswith("postgres://"):
        raw = "postgresql://" + raw[len("postgres://") :]
    try:
        url = make_url(raw)
    except (ArgumentError, ValueError):
        raise StoreURLError(f"not a database URL; {_EXPECTED}") from None
    backend, _, driver = url.drivername.partition("+")
    async_driver = _DRIVERS.get((backend, driver))
    if async_driver is None:
        named = f"{backend}+{driver}" if driver else backend
        raise StoreURLError(f"{named!r} is not supported; {_EXPECTED}") from None
    return url.set(drivername=async_driver).render_as_string(hide_password=False)


def store_url_from_env(env: Mapping[str, str]) -> str:
    """DATABASE_URL, else LOCKIN_DB_PATH, else ``lockin.db`` in the working directory."""
    return store_url(env.get("DATABASE_URL"), env.get("LOCKIN_DB_PATH"))


def _without_jit(connection: Any, _record: Any) -> None:
    """Every query of the store is index seeks. On tables autovacuum has not analysed yet,
    the organisation page's thousands of them put the planner's estimate past
    jit_above_cost, and compiling the plan took longer (about 55 ms) than running it
    (about 40 ms): JIT is off for each connection, set once when it opens."""
    # Outside a transaction: the pool's rollback on check-in would undo the setting.
    autocommit, connection.autocommit = connection.autocommit, True
    cursor = connection.cursor()
    cursor.execute("SET jit = off")
    cursor.close()
    connection.autocommit = autocommit


#: Seconds a statement waits for a lock another process holds (SQLite's busy timeout,
#: PostgreSQL's lock_timeout), and for a PostgreSQL connection: past them the store counts
#: as degraded and its writes wait in the backlog (bot.store.points), so no job waits longer.
BUSY_SECONDS = 5.0


def create_engine(url: str, *, busy_seconds: float = BUSY_SECONDS) -> AsyncEngine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        engine = create_async_engine(
            url,
            pool_pre_ping=True,
            connect_args={
                "connect_timeout": max(1, round(busy_seconds)),
                "options": f"-c lock_timeout={round(busy_seconds * 1000)}",
            },
        )
        event.listen(engine.sync_engine, "connect", _without_jit)
        return engine
    if not parsed.database or parsed.database == ":memory:":
        # One connection shared by all: each new in-memory connection is another database.
        return create_async_engine(url, poolclass=StaticPool)
    # A writer waits for another (a second replica) for a while instead of failing at once.
    return create_async_engine(url, connect_args={"timeout": busy_seconds})


async def open_store(url: str, *, busy_seconds: float = BUSY_SECONDS) -> Store:
    """The store at ``url``, its schema brought to the newest migration first; raises when
    it cannot be opened (the CLI, benchmarks: nothing to fall back on)."""
    engine = create_engine(url, busy_seconds=busy_seconds)
    try:
        await _migrate(engine, busy_seconds)
    except BaseException:
        await engine.dispose()
        raise
    return Store(engine)


async def start_store(
    url: str,
    *,
    busy_seconds: float = BUSY_SECONDS,
    retry_seconds: float = 30.0,
    backlog: int = 1000,
) -> Store:
    """The store of a long-running process (the server, a worker): never raises for a
    database that is corrupt, locked or unreachable. The store then starts degraded, its
    writes wait in a bounded backlog and opening it is retried every ``retry_seconds``."""
    engine = create_engine(url, busy_seconds=busy_seconds)
    store = Store(
        engine,
        migrate=lambda: _migrate(engine, busy_seconds),
        retry_seconds=retry_seconds,
        backlog=backlog,
    )
    await store.start()
    return store


async def _migrate(engine: AsyncEngine, busy_seconds: float) -> None:
    if engine.dialect.name == "sqlite":
        database = engine.url.database
        if database and database != ":memory:":
            # A file lock beside the database: replicas on one host migrate in turn.
            url = engine.url.render_as_string(hide_password=False)
            await asyncio.to_thread(_migrate_sqlite_file, url, database, busy_seconds)
        else:
            async with engine.begin() as conn:
                await conn.run_sync(_upgrade)
    else:
        async with engine.connect() as conn:
            await conn.run_sync(_upgrade_under_advisory_lock)


def _upgrade(conn: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = conn
    command.upgrade(config, "head")


def _upgrade_under_advisory_lock(conn: Connection) -> None:
    # A session-level lock: the others wait here, then find the schema current.
    conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": _ADVISORY_KEY})
    conn.commit()  # the lock belongs to the session, not to this transaction
    try:
        with conn.begin():
            _upgrade(conn)
    finally:
        conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _ADVISORY_KEY})
        conn.commit()


def _migrate_sqlite_file(url: str, database: str, busy_seconds: float) -> None:
    # Alembic is synchronous: migrate in this thread with a synchronous engine.
    from sqlalchemy import create_engine as create_sync_engine

    with _file_lock(Path(f"{database}.migrate-lock")):
        engine = create_sync_engine(
            url.replace("+aiosqlite", "", 1), connect_args={"timeout": busy_seconds}
        )
        try:
            with engine.connect() as conn:
                # Readers (the PR check's trend, the history page) never wait for a writer,
                # and a writer never waits for them; the mode stays with the file.
                conn.exec_driver_sql("PRAGMA journal_mode=WAL")
                conn.commit()
            with engine.begin() as conn:
                _upgrade(conn)
        finally:
            engine.dispose()


@contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
