"""The tables of the trend store.

One row per repository and one per recorded point. A point's headline figures are columns
(the organisation overview and the trend read them without decoding JSON); the rest of
its figures (layers, ecosystems, portability matrix) are one JSON value. The index on
(repository_id, taken_at) serves every read: a repository's points in a window, its
latest point, and its point at a past date.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# SQLite only makes INTEGER PRIMARY KEY columns auto-increment.
ID = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    pass


class RepositoryRow(Base):
    __tablename__ = "repositories"

    id: Mapped[int] = mapped_column(ID, primary_key=True, autoincrement=True)
    # owner/name in lower case: GitHub names are case-insensitive.
    full_name: Mapped[str] = mapped_column(String(200), unique=True)
    # As the last event said; private until one says otherwise.
    public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class PointRow(Base):
    __tablename__ = "points"
    __table_args__ = (
        UniqueConstraint("repository_id", "commit", name="uq_points_repository_commit"),
        Index("ix_points_repository_taken_at", "repository_id", "taken_at"),
    )

    id: Mapped[int] = mapped_column(ID, primary_key=True, autoincrement=True)
    repository_id: Mapped[int] = mapped_column(ForeignKey("repositories.id", ondelete="CASCADE"))
    commit: Mapped[str] = mapped_column(String(40))
    # The commit's date, the time the point stands for (UTC).
    taken_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    code_lines: Mapped[int] = mapped_column(BigInteger)
    non_portable_lines: Mapped[int] = mapped_column(BigInteger)
    nvidia_locked_lines: Mapped[int] = mapped_column(BigInteger)
    nvidia_share: Mapped[float] = mapped_column(Float)
    figures: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The commit left the default branch (a force push): kept, but never in a trend.
    left_branch: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ReportRow(Base):
    """A repository's latest register and plan (decision coverage, owners, cost per target)."""

    __tablename__ = "reports"

    repository_id: Mapped[int] = mapped_column(
        ForeignKey("repositories.id", ondelete="CASCADE"), primary_key=True
    )
    commit: Mapped[str] = mapped_column(String(40))
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    summary: Mapped[dict[str, Any]] = mapped_column(JSON)


class EndedSessionRow(Base):
    """A signed-out browser session (bot.server.access), kept as long as its cookie could
    still be presented."""

    __tablename__ = "ended_sessions"

    session_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    ended_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)


class OpenRunRow(Base):
    """A check run of ours in progress (bot.runtime.open_runs), kept so that the process
    replacing a killed one finds the runs it left, merge groups' included."""

    __tablename__ = "open_runs"

    key: Mapped[str] = mapped_column(String(300), primary_key=True)  # repo/run id
    opened_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    run: Mapped[dict[str, Any]] = mapped_column(JSON)
