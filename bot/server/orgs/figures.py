"""The organisation page's figures from the store's rows: pure, so the page, the exports and
the benchmark agree on every number."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass
from typing import Any

from bot.engine.model import LAYERS, TARGETS
from bot.store.records import OrgRow

#: The plan's kinds of work, in report order (bot/policy/plan.py WORK_KINDS).
PLAN_PARTS = ("port", "review", "rewrite", "map", "edit")

#: Columns of the table, the CSV and the JSON, in order: (key, heading).
COLUMNS = (
    ("repository", "Repository"),
    ("nvidia_locked_lines", "NVIDIA-only lines"),
    ("nvidia_share", "Share"),
    ("change_90_days", "90-day change"),
    ("coverage", "Decision coverage"),
    ("uncovered_lines", "Uncovered lines"),
    ("dashboard", "Dashboard"),
    ("last_counted", "Last counted"),
)
SORTS = {key for key, _ in COLUMNS if key != "dashboard"}


@dataclass(frozen=True, slots=True)
class Row:
    repository: str
    counting: bool  # installed, never counted yet
    nvidia_locked_lines: int | None = None
    nvidia_share: float | None = None
    change_90_days: int | None = None
    coverage: float | None = None
    uncovered_lines: int | None = None
    dashboard: str | None = None
    last_counted: dt.datetime | None = None

    def export(self) -> dict[str, Any]:
        return {
            "repository": self.repository,
            "status": "counting" if self.counting else "counted",
            "nvidia_locked_lines": self.nvidia_locked_lines,
            "nvidia_share": None if self.nvidia_share is None else round(self.nvidia_share, 4),
            "change_90_days": self.change_90_days,
            "coverage": None if self.coverage is None else round(self.coverage, 4),
            "uncovered_lines": self.uncovered_lines,
            "dashboard": self.dashboard,
            "last_counted": self.last_counted.isoformat() if self.last_counted else None,
        }


def table(rows: list[OrgRow], permitted: set[str]) -> list[Row]:
    """One row per permitted repository, counted or still counting."""
    counted = {r.full_name: r for r in rows}
    out = []
    for name in sorted(permitted):
        row = counted.get(name)
        if row is None:
            out.append(Row(name, counting=True))
            continue
        summary = row.summary or {}
        out.append(
            Row(
                name,
                counting=False,
                nvidia_locked_lines=row.nvidia_locked_lines,
                nvidia_share=row.nvidia_share,
                change_90_days=row.change_90_days,
                coverage=summary.get("coverage"),
                uncovered_lines=summary.get("uncovered_lines"),
                dashboard=summary.get("dashboard"),
                last_counted=row.date,
            )
        )
    return out


def select_rows(rows: list[Row], query: str, sort: str, descending: bool) -> list[Row]:
    """Filtered by a substring of the name, sorted by a column; rows without a value last."""
    needle = query.strip().lower()
    kept = [r for r in rows if needle in r.repository] if needle else list(rows)
    key = sort if sort in SORTS else "nvidia_locked_lines"
    present = [r for r in kept if getattr(r, key) is not None]
    absent = [r for r in kept if getattr(r, key) is None]
    present.sort(key=lambda r: (getattr(r, key), r.repository), reverse=descending)
    return present + absent


#: Rows of the table on one page (``?per_page=`` up to this): a thousand-row table is slow
#: to render and to read; the exports carry every row.
PAGE_ROWS = 100


@dataclass(frozen=True, slots=True)
class Page:
    rows: list[Row]  # the rows shown
    number: int  # 1-based
    pages: int
    size: int  # rows a page
    first: int  # 1-based position of the first row shown among the matching rows (0: none)


def page_of(rows: list[Row], number: str | None, per_page: str | None) -> Page:
    """One page of ``rows``; a number out of range, or not a number, shows the nearest page."""
    size = min(max(_int(per_page, PAGE_ROWS), 1), PAGE_ROWS)
    pages = max(1, -(-len(rows) // size))
    at = min(max(_int(number, 1), 1), pages)
    start = (at - 1) * size
    shown = rows[start : start + size]
    return Page(shown, at, pages, size, start + 1 if shown else 0)


def _int(text: str | None, default: int) -> int:
    return int(text) if text and text.isdecimal() and len(text) < 7 else default


@dataclass(frozen=True, slots=True)
class Totals:
    repositories: int
    counted: int
    code_lines: int
    layers: dict[str, int]
    nvidia_locked_lines: int
    nvidia_share: float
    gated_lines: int
    covered_lines: int
    coverage: float | None
    plans: list[dict[str, Any]]  # per target: port, review, rewrite, map, edit, weeks summed


def totals(rows: list[OrgRow], permitted: int) -> Totals:
    layers: Counter[str] = Counter()
    plans: dict[str, dict[str, Any]] = {}
    gated = covered = 0
    for row in rows:
        layers.update(row.layers)
        summary = row.summary or {}
        gated += summary.get("gated_lines", 0)
        covered += summary.get("covered_lines", 0)
        for plan in summary.get("plans", []):
            # Summaries stored before lockin.plan/2 name the TPU target "tpu".
            target = "google" if plan["target"] == "tpu" else plan["target"]
            into = plans.setdefault(
                target,
                {"target": target, "vendor": plan["vendor"], "tool": plan["tool"]}
                | dict.fromkeys(PLAN_PARTS, 0)
                | {"recorded_weeks": None, "estimated_weeks": 0.0},
            )
            for part in PLAN_PARTS:
                into[part] += plan.get(part, 0)
            weeks = plan.get("engineer_weeks") or {}
            if weeks.get("recorded") is not None:
                into["recorded_weeks"] = (into["recorded_weeks"] or 0) + weeks["recorded"]
            into["estimated_weeks"] += weeks.get("estimated") or 0
    code = sum(r.code_lines for r in rows)
    locked = sum(r.nvidia_locked_lines for r in rows)
    return Totals(
        repositories=permitted,
        counted=len(rows),
        code_lines=code,
        layers={
            layer.value: layers.get(layer.value, 0) for layer in LAYERS if layer.value in layers
        },
        nvidia_locked_lines=locked,
        nvidia_share=locked / code if code else 0.0,
        gated_lines=gated,
        covered_lines=covered,
        coverage=covered / gated if gated else None,
        plans=sorted(
            plans.values(),
            key=lambda p: TARGETS.index(p["target"]) if p["target"] in TARGETS else len(TARGETS),
        ),
    )


def trend_totals(rows: list[OrgRow], dates: int) -> list[int]:
    """The organisation's NVIDIA-only lines at each trend date: the sum of each repository's
    figure standing then (a repository not counted yet by then adds nothing)."""
    return [sum(row.trend[i] or 0 for row in rows) for i in range(dates)]
