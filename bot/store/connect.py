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
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from bot.store.points import Store

DEFAULT_DB_PATH = "lockin.db"
MIGRATIONS = Path(__file__).parent / "migrations"
# One advisory lock id for "migrating lockin's schema", the same in every replica.
_ADVISORY_KEY = zlib.crc32(b"lockin.store.migrations")


def store_url(database_url: str | None, db_path: str | None) -> str:
    """The SQLAlchemy URL: ``database_url`` (PostgreSQL) when set, else a SQLite file."""
    if database_url:
        # Heroku-style and libpq URLs name no driver; the store speaks psycopg 3.
        for prefix in ("postgres://", "postgresql://"):
            if database_url.startswith(prefix):
                return "postgresql+psycopg://" + database_url[len(prefix) :]
        return database_url
    path = db_path or DEFAULT_DB_PATH
    return "sqlite+aiosqlite://" if path == ":memory:" else f"sqlite+aiosqlite:///{path}"


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


def create_engine(url: str) -> AsyncEngine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        engine = create_async_engine(url, pool_pre_ping=True)
        event.listen(engine.sync_engine, "connect", _without_jit)
        return engine
    if not parsed.database or parsed.database == ":memory:":
        # One connection shared by all: each new in-memory connection is another database.
        return create_async_engine(url, poolclass=StaticPool)
    # A writer waits for another (a second replica) instead of failing at once.
    return create_async_engine(url, connect_args={"timeout": 30})


async def open_store(url: str) -> Store:
    """The store at ``url``, its schema brought to the newest migration first."""
    engine = create_engine(url)
    try:
        if engine.dialect.name == "sqlite":
            database = engine.url.database
            if database and database != ":memory:":
                # A file lock beside the database: replicas on one host migrate in turn.
                await asyncio.to_thread(_migrate_sqlite_file, url, database)
            else:
                async with engine.begin() as conn:
                    await conn.run_sync(_upgrade)
        else:
            async with engine.connect() as conn:
                await conn.run_sync(_upgrade_under_advisory_lock)
    except BaseException:
        await engine.dispose()
        raise
    return Store(engine)


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


def _migrate_sqlite_file(url: str, database: str) -> None:
    # Alembic is synchronous: migrate in this thread with a synchronous engine.
    from sqlalchemy import create_engine as create_sync_engine

    with _file_lock(Path(f"{database}.migrate-lock")):
        engine = create_sync_engine(url.replace("+aiosqlite", "", 1))
        try:
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
