"""What the store hands out: plain dataclasses, free of the database session."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from bot.engine.trend import Trend

__all__ = ["Overview", "Point", "Repository", "Trend"]


@dataclass(frozen=True, slots=True)
class Repository:
    id: int
    full_name: str  # owner/name, lower case
    public: bool


@dataclass(frozen=True, slots=True)
class Point:
    """The figures of one default-branch commit."""

    commit: str
    date: dt.datetime  # the commit's date, UTC
    code_lines: int
    non_portable_lines: int
    nvidia_locked_lines: int
    nvidia_share: float
    layers: dict[str, int] = field(default_factory=dict)
    ecosystems: dict[str, int] = field(default_factory=dict)
    matrix: dict[str, dict[str, int]] = field(default_factory=dict)
    left_branch: bool = False

    @classmethod
    def from_figures(cls, commit: str, date: dt.datetime, figures: dict[str, Any]) -> Point:
        """A point from `bot.engine.trend.census_figures` of the commit's census."""
        return cls(
            commit=commit,
            date=date.astimezone(dt.UTC),
            code_lines=figures["code_lines"],
            non_portable_lines=figures["non_portable_lines"],
            nvidia_locked_lines=figures["nvidia_locked_lines"],
            nvidia_share=figures["nvidia_share"],
            layers=dict(figures["layers"]),
            ecosystems=dict(figures["ecosystems"]),
            matrix={k: dict(v) for k, v in figures["matrix"].items()},
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "commit": self.commit,
            "date": self.date.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "code_lines": self.code_lines,
            "non_portable_lines": self.non_portable_lines,
            "nvidia_locked_lines": self.nvidia_locked_lines,
            "nvidia_share": self.nvidia_share,
            "layers": self.layers,
            "ecosystems": self.ecosystems,
            "matrix": self.matrix,
        }


@dataclass(frozen=True, slots=True)
class Overview:
    """One row of the organisation page: a repository's latest point and 90-day change."""

    full_name: str
    commit: str
    date: dt.datetime
    nvidia_locked_lines: int
    nvidia_share: float
    change_90_days: int | None  # None when no point is 90 days old


@dataclass(frozen=True, slots=True)
class OrgRow:
    """One repository on the organisation page: its latest point, its change over 90 days
    and its latest register and plan (``summary``, None before the first one)."""

    full_name: str
    commit: str
    date: dt.datetime
    code_lines: int
    non_portable_lines: int
    nvidia_locked_lines: int
    nvidia_share: float
    change_90_days: int | None
    layers: dict[str, int]
    ecosystems: dict[str, int]
    summary: dict[str, Any] | None
    trend: tuple[int | None, ...] = ()  # NVIDIA-only lines standing at each date asked
