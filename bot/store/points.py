"""Reading and writing points: record, list, mark after a force push, trend, overview."""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import Executable, delete, func, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from sqlalchemy.orm import aliased

from bot.engine.trend import MONTH
from bot.github.refs import RepoRef
from bot.store.keeper import Keeper, StoreUnavailable, is_unavailable
from bot.store.records import OrgRow, Overview, Point, Repository, Trend
from bot.store.schema import EndedSessionRow, OpenRunRow, PointRow, ReportRow, RepositoryRow

P = ParamSpec("P")
R = TypeVar("R")
DAY = dt.timedelta(days=1)
LATEST = dt.datetime(9999, 1, 1, tzinfo=dt.UTC)


def _name(repo: RepoRef | str) -> str:
    """The key a repository is stored under (GitHub names are case-insensitive)."""
    return (repo.full_name if isinstance(repo, RepoRef) else repo).lower()


def _utc(moment: dt.datetime) -> dt.datetime:
    # SQLite hands back naive datetimes; everything stored is UTC.
    return moment.replace(tzinfo=dt.UTC) if moment.tzinfo is None else moment.astimezone(dt.UTC)


def _point(row: PointRow) -> Point:
    figures = row.figures
    return Point(
        commit=row.commit,
        date=_utc(row.taken_at),
        code_lines=row.code_lines,
        non_portable_lines=row.non_portable_lines,
        nvidia_locked_lines=row.nvidia_locked_lines,
        nvidia_share=row.nvidia_share,
        layers=figures.get("layers", {}),
        ecosystems=figures.get("ecosystems", {}),
        matrix=figures.get("matrix", {}),
        left_branch=row.left_branch,
    )


def _reads(
    method: Callable[Concatenate[Store, P], Awaitable[R]],
) -> Callable[Concatenate[Store, P], Awaitable[R]]:
    """A read: `StoreUnavailable` while the store is not open or does not answer."""

    @functools.wraps(method)
    async def read(self: Store, *args: P.args, **kwargs: P.kwargs) -> R:
        if not self.keeper.ready:
            raise StoreUnavailable(self.keeper.problem or "the store is not open yet")
        try:
            return await method(self, *args, **kwargs)
        except Exception as exc:
            if is_unavailable(exc):
                raise self.keeper.failed(exc) from None
            raise

    return read


def _writes(
    default: Any, *, named: bool = True
) -> Callable[
    [Callable[Concatenate[Store, P], Awaitable[R]]], Callable[Concatenate[Store, P], Awaitable[R]]
]:
    """A write: done now while the store answers, else kept and retried (``default`` is
    returned meanwhile). Writes are idempotent, so a retry after an unclear failure is safe.
    ``named``: the log of a dropped write names its first argument (a repository)."""

    def decorate(
        method: Callable[Concatenate[Store, P], Awaitable[R]],
    ) -> Callable[Concatenate[Store, P], Awaitable[R]]:
        @functools.wraps(method)
        async def write(self: Store, *args: P.args, **kwargs: P.kwargs) -> R:
            repo = args[0] if named and args else None
            what = method.__name__ + (f" {repo.full_name}" if isinstance(repo, RepoRef) else "")
            run = functools.partial(method, self, *args, **kwargs)
            result: R = await self.keeper.write(what, run, default)
            return result

        return write

    return decorate


def _best_effort(
    method: Callable[Concatenate[Store, P], Awaitable[None]],
) -> Callable[Concatenate[Store, P], Awaitable[None]]:
    """A write done now while the store answers and nothing waits before it, else never:
    it never enters the backlog, where it would crowd out the points the trend needs (the
    runs in progress it records are kept in memory too, and read from the store only while
    it answers)."""

    @functools.wraps(method)
    async def write(self: Store, *args: P.args, **kwargs: P.kwargs) -> None:
        keeper = self.keeper
        if not keeper.ready or keeper.problem is not None or keeper.pending:
            return
        try:
            await method(self, *args, **kwargs)
        except Exception as exc:
            if not is_unavailable(exc):
                raise
            keeper.failed(exc)

    return write


class Store:
    """The points of every repository's default branch."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        migrate: Callable[[], Awaitable[None]] | None = None,
        retry_seconds: float = 30.0,
        backlog: int = 1000,
    ) -> None:
        self.engine = engine
        self._sessions = async_sessionmaker(engine, expire_on_commit=False)
        self._background: set[asyncio.Task[None]] = set()
        self._migrate = migrate
        # Without `migrate` the schema was brought up to date by whoever made the store.
        self.keeper = Keeper(
            probe=self._probe, ready=migrate is None, retry_seconds=retry_seconds, capacity=backlog
        )

    async def start(self) -> None:
        await self.keeper.start()

    @property
    def problem(self) -> str | None:
        """Why the trend is degraded (corrupt, locked, unreachable), None while it is not."""
        return self.keeper.problem

    async def _probe(self) -> None:
        if not self.keeper.ready and self._migrate is not None:
            await self._migrate()
            return
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    def run_in_background(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run a writer of this store (a back-fill) beyond the job that started it; closing
        the store stops it first."""
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    async def idle(self) -> None:
        """Wait until every background writer has finished."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)

    async def close(self) -> None:
        for task in self._background:
            task.cancel()
        await self.idle()
        await self.keeper.close()
        await self.engine.dispose()

    def _insert(self, table: Any) -> Any:
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        return dialect.insert(table)

    async def _repository_id(self, repo: RepoRef, *, create: bool) -> int | None:
        name = _name(repo)
        async with self._sessions.begin() as session:
            if create:
                await session.execute(
                    self._insert(RepositoryRow).values(full_name=name).on_conflict_do_nothing()
                )
            found = await session.scalar(
                select(RepositoryRow.id).where(RepositoryRow.full_name == name)
            )
        return found

    @_reads
    async def repository(self, repo: RepoRef) -> Repository | None:
        query = select(RepositoryRow).where(RepositoryRow.full_name == _name(repo))
        async with self._sessions() as session:
            row = await session.scalar(query)
        return None if row is None else Repository(row.id, row.full_name, row.public)

    @_writes(None)
    async def set_public(self, repo: RepoRef, *, public: bool) -> None:
        """Whether the repository is public, as its latest event said."""
        repository_id = await self._repository_id(repo, create=True)
        statement = (
            update(RepositoryRow).where(RepositoryRow.id == repository_id).values(public=public)
        )
        async with self._sessions.begin() as session:
            await session.execute(statement)

    @_writes(None)
    async def rename(self, old: RepoRef, new: RepoRef) -> None:
        """The repository ``old`` is now called ``new``: its points follow it, unless ``new``
        has points of its own already (then ``old`` is only hidden)."""
        taken = await self._repository_id(new, create=False)
        values = {"public": False} if taken is not None else {"full_name": _name(new)}
        statement = (
            update(RepositoryRow).where(RepositoryRow.full_name == _name(old)).values(**values)
        )
        async with self._sessions.begin() as session:
            await session.execute(statement)

    @_writes(False)
    async def record_point(self, repo: RepoRef, point: Point) -> bool:
        """Keep a point; False when the repository already has one for that commit (a
        redelivered push, a retried job, two replicas at once)."""
        repository_id = await self._repository_id(repo, create=True)
        row = {
            "repository_id": repository_id,
            "commit": point.commit,
            "taken_at": _utc(point.date),
            "code_lines": point.code_lines,
            "non_portable_lines": point.non_portable_lines,
            "nvidia_locked_lines": point.nvidia_locked_lines,
            "nvidia_share": point.nvidia_share,
            "figures": {
                "layers": point.layers,
                "ecosystems": point.ecosystems,
                "matrix": point.matrix,
            },
            "left_branch": point.left_branch,
        }
        statement = (
            self._insert(PointRow)
            .values(**row)
            .on_conflict_do_nothing(index_elements=["repository_id", "commit"])
            .returning(PointRow.id)
        )
        async with self._sessions.begin() as session:
            inserted = await session.scalar(statement)
        return inserted is not None

    @_reads
    async def points(
        self, repo: RepoRef, since: dt.datetime | None = None, *, include_left: bool = False
    ) -> list[Point]:
        """The repository's points, oldest first; those whose commits left the branch only
        when asked for."""
        query = (
            select(PointRow)
            .join(RepositoryRow)
            .where(RepositoryRow.full_name == _name(repo))
            .order_by(PointRow.taken_at, PointRow.id)
        )
        if since is not None:
            query = query.where(PointRow.taken_at >= _utc(since))
        if not include_left:
            query = query.where(PointRow.left_branch.is_(False))
        async with self._sessions() as session:
            return [_point(row) for row in await session.scalars(query)]

    @_reads
    async def has_points(self, repo: RepoRef) -> bool:
        query = (
            select(PointRow.id)
            .join(RepositoryRow)
            .where(RepositoryRow.full_name == _name(repo))
            .limit(1)
        )
        async with self._sessions() as session:
            return await session.scalar(query) is not None

    @_writes(0)
    async def mark_left_branch(self, repo: RepoRef, commits: Iterable[str]) -> int:
        """These commits are no longer on the default branch (a force push): their points
        stay, marked, and leave every trend. Returns how many points were marked."""
        wanted = sorted(set(commits))
        repository_id = await self._repository_id(repo, create=False)
        if repository_id is None or not wanted:
            return 0
        statement = (
            update(PointRow)
            .where(PointRow.repository_id == repository_id, PointRow.commit.in_(wanted))
            .values(left_branch=True)
        )
        async with self._sessions.begin() as session:
            result = await session.execute(statement)
        return int(result.rowcount)  # type: ignore[attr-defined]

    @_reads
    async def trend(self, repo: RepoRef, now: dt.datetime) -> Trend:
        """The NVIDIA-only lines at ``now``, 30 and 90 days before, and the slope over the
        last 90 days (from the point standing at the window's start, or the oldest in it)."""
        now = _utc(now)
        start = now - 90 * DAY
        base = (
            select(PointRow)
            .join(RepositoryRow)
            .where(
                RepositoryRow.full_name == _name(repo),
                PointRow.left_branch.is_(False),
                PointRow.taken_at <= now,
            )
        )
        before = base.where(PointRow.taken_at <= start).order_by(
            PointRow.taken_at.desc(), PointRow.id.desc()
        )
        window = base.where(PointRow.taken_at > start).order_by(PointRow.taken_at, PointRow.id)
        async with self._sessions() as session:
            anchor = await session.scalar(before.limit(1))
            recent = [_point(row) for row in await session.scalars(window)]
        series = ([_point(anchor)] if anchor is not None else []) + recent
        return _trend(series, now, len(recent))

    @_reads
    async def current_trend(self, repo: RepoRef) -> Trend | None:
        """The trend as of now, or of the newest point when its commit date is later (a
        committer's clock ahead of ours); None while the repository has no point."""
        query = (
            select(func.max(PointRow.taken_at))
            .join(RepositoryRow)
            .where(RepositoryRow.full_name == _name(repo), PointRow.left_branch.is_(False))
        )
        async with self._sessions() as session:
            newest = await session.scalar(query)
        if newest is None:
            return None
        return await self.trend(repo, max(dt.datetime.now(dt.UTC), _utc(newest)))

    @_reads
    async def overview(self, now: dt.datetime, prefix: str | None = None) -> list[Overview]:
        """Every repository's latest point and its change over 90 days, in one query
        (``prefix``: only names starting with it, such as ``"org/"``)."""
        rows = await self._run(_overview_query(_utc(now), prefix and _name(prefix)))
        return [
            Overview(
                full_name=name,
                commit=commit,
                date=_utc(taken_at),
                nvidia_locked_lines=locked,
                nvidia_share=share,
                change_90_days=None if old is None else locked - old,
            )
            for name, commit, taken_at, locked, share, old in rows
        ]

    @_writes(None)
    async def save_report(
        self, repo: RepoRef, commit: str, summary: dict[str, Any], now: dt.datetime
    ) -> None:
        """Keep the repository's latest register and plan (one row, replaced)."""
        repository_id = await self._repository_id(repo, create=True)
        values = {"commit": commit, "updated_at": _utc(now), "summary": summary}
        statement = (
            self._insert(ReportRow)
            .values(repository_id=repository_id, **values)
            .on_conflict_do_update(index_elements=["repository_id"], set_=values)
        )
        async with self._sessions.begin() as session:
            await session.execute(statement)

    @_reads
    async def org_rows(
        self, names: Iterable[str], now: dt.datetime, trend: Sequence[dt.datetime] = ()
    ) -> list[OrgRow]:
        """The organisation page's table for these repositories, in one query; a repository
        without a point yet is absent (it is still being counted). With ``trend`` dates,
        each row also holds its NVIDIA-only lines standing at each of them (one more
        index seek per date): the organisation's trend is their sum, from the same query."""
        wanted = sorted({_name(n) for n in names})
        if not wanted:
            return []
        rows = await self._run(_org_query(_utc(now), wanted, [_utc(t) for t in trend]))
        return [
            OrgRow(
                full_name=row[0],
                commit=row[1],
                date=_utc(row[2]),
                code_lines=row[3],
                non_portable_lines=row[4],
                nvidia_locked_lines=row[5],
                nvidia_share=row[6],
                change_90_days=None if row[8] is None else row[5] - row[8],
                layers=dict((row[7] or {}).get("layers") or {}),
                ecosystems=dict((row[7] or {}).get("ecosystems") or {}),
                summary=row[9],
                trend=tuple(row[10:]),
            )
            for row in rows
        ]

    @_writes(None, named=False)  # a session id is not for the logs
    async def end_session(self, session_id: str, now: dt.datetime, kept: dt.timedelta) -> None:
        """A browser session was signed out; sign-outs older than ``kept`` (when no cookie
        of theirs is accepted anyway) are forgotten."""
        now = _utc(now)
        insert = (
            self._insert(EndedSessionRow)
            .values(session_id=session_id, ended_at=now)
            .on_conflict_do_nothing(index_elements=["session_id"])
        )
        async with self._sessions.begin() as session:
            await session.execute(insert)
            await session.execute(
                delete(EndedSessionRow).where(EndedSessionRow.ended_at < now - kept)
            )

    async def session_ended(self, session_id: str) -> bool:
        """Whether the session was signed out. Raises `StoreUnavailable` while the store is
        degraded, even when it answers: a sign-out may still wait in the backlog."""
        if self.keeper.problem is not None:
            raise StoreUnavailable(self.keeper.problem)
        return await self._ended(session_id)

    @_reads
    async def _ended(self, session_id: str) -> bool:
        query = select(EndedSessionRow.session_id).where(EndedSessionRow.session_id == session_id)
        async with self._sessions() as session:
            return await session.scalar(query) is not None

    @_best_effort
    async def keep_open_run(self, key: str, opened_at: dt.datetime, run: dict[str, Any]) -> None:
        """A check run of ours went in progress (bot.runtime.open_runs)."""
        insert = self._insert(OpenRunRow).values(key=key, opened_at=_utc(opened_at), run=run)
        async with self._sessions.begin() as session:
            await session.execute(insert.on_conflict_do_nothing(index_elements=["key"]))

    @_best_effort
    async def forget_open_run(self, key: str) -> None:
        """The run was completed (or is gone)."""
        async with self._sessions.begin() as session:
            await session.execute(delete(OpenRunRow).where(OpenRunRow.key == key))

    async def open_runs_before(self, moment: dt.datetime) -> list[dict[str, Any]]:
        """The runs recorded open before ``moment`` and not forgotten since. Raises
        `StoreUnavailable` while the store is degraded: the runs recorded and forgotten
        meanwhile were not written (``_best_effort``), and only memory knows them."""
        if self.keeper.problem is not None:
            raise StoreUnavailable(self.keeper.problem)
        return await self._open_runs_before(_utc(moment))

    @_reads
    async def _open_runs_before(self, moment: dt.datetime) -> list[dict[str, Any]]:
        query = select(OpenRunRow.run).where(OpenRunRow.opened_at < moment)
        return [run for (run,) in await self._run(query)]

    async def _run(self, query: Executable) -> Sequence[Any]:
        async with self._sessions() as session:
            return (await session.execute(query)).all()


def _trend(series: list[Point], now: dt.datetime, in_window: int) -> Trend:
    def at(moment: dt.datetime) -> int | None:
        standing = [p for p in series if p.date <= moment]
        return standing[-1].nvidia_locked_lines if standing else None

    slope = None
    if len(series) >= 2:
        first, last = series[0], series[-1]
        seconds = (last.date - first.date).total_seconds()
        if seconds >= DAY.total_seconds():
            change = last.nvidia_locked_lines - first.nvidia_locked_lines
            slope = round(change * MONTH / seconds, 1)
    return Trend(
        today=at(now),
        days_30=at(now - 30 * DAY),
        days_90=at(now - 90 * DAY),
        slope_per_month=slope,
        points=in_window,
    )


def _standing(until: dt.datetime, column: Any = PointRow.id) -> Any:
    """``column`` (the id) of a repository's point standing at ``until`` (correlated to
    RepositoryRow): one backward index scan on (repository_id, taken_at)."""
    return (
        select(column)
        .where(
            PointRow.repository_id == RepositoryRow.id,
            PointRow.left_branch.is_(False),
            PointRow.taken_at <= until,
        )
        # taken_at alone: the index gives that order, a tie-break would sort each
        # repository's points (two commits of one second: either is the latest).
        .order_by(PointRow.taken_at.desc())
        .limit(1)
        .correlate(RepositoryRow)
    )


def _overview_query(now: dt.datetime, prefix: str | None) -> Executable:
    """Each repository's latest point and the point standing 90 days before: two index
    seeks per repository on (repository_id, taken_at), newest first, one row each."""
    standing = _standing
    latest = aliased(PointRow)
    old = aliased(PointRow)
    query = (
        select(
            RepositoryRow.full_name,
            latest.commit,
            latest.taken_at,
            latest.nvidia_locked_lines,
            latest.nvidia_share,
            old.nvidia_locked_lines,
        )
        .select_from(RepositoryRow)
        .join(latest, latest.id == standing(now).scalar_subquery())
        .outerjoin(old, old.id == standing(now - 90 * DAY).scalar_subquery())
        .order_by(RepositoryRow.full_name)
    )
    if prefix:
        query = query.where(RepositoryRow.full_name.startswith(prefix, autoescape=True))
    return query


def _org_query(now: dt.datetime, names: list[str], trend: list[dt.datetime]) -> Executable:
    """The overview's two seeks per repository, its latest point's figures, its report and
    its figure standing at each ``trend`` date."""
    latest = aliased(PointRow)
    standing_lines = [
        _standing(moment, PointRow.nvidia_locked_lines).scalar_subquery() for moment in trend
    ]
    return (
        select(
            RepositoryRow.full_name,
            latest.commit,
            latest.taken_at,
            latest.code_lines,
            latest.non_portable_lines,
            latest.nvidia_locked_lines,
            latest.nvidia_share,
            latest.figures,
            # A column, not a join: PostgreSQL would hash-join the whole points table.
            _standing(now - 90 * DAY, PointRow.nvidia_locked_lines).scalar_subquery(),
            ReportRow.summary,
            *standing_lines,
        )
        .select_from(RepositoryRow)
        # The latest point whatever its date: a committer's clock ahead of ours must not
        # hide a repository's newest figures.
        .join(latest, latest.id == _standing(LATEST).scalar_subquery())
        .outerjoin(ReportRow, ReportRow.repository_id == RepositoryRow.id)
        .where(RepositoryRow.full_name.in_(names))
        .order_by(RepositoryRow.full_name)
    )
