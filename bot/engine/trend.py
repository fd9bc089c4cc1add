"""Lock-in over time: the figures of one point of a history, and what moved them.

Every value here is plain data (strings, ints, floats, lists and dicts of them) so that
a point can be stored, sent as JSON or drawn without knowing where it came from: the CLI
walks a git history to make them, the bot records one per push of a default branch.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.census import Census, FileSummary
from bot.engine.model import LAYERS

#: Seconds in an average month (365.25 / 12 days), the unit of growth rates.
MONTH = 30.4375 * 86400
# Pull request numbers as GitHub writes them into merge and squash commit subjects.
_PR = re.compile(r"^Merge pull request #(\d+)\b|\(#(\d+)\)\s*$")


@dataclass(slots=True)
class History:
    """The points of a history window, oldest first, and what moved them."""

    points: list[dict[str, Any]]
    movers: list[dict[str, Any]]  # the commits that moved the non-portable lines most
    entered: list[dict[str, Any]]  # first commit of each ecosystem in the window
    shallow_boundary: str | None = None  # grafted commit where a shallow clone stops
    classified: int = 0  # blobs classified (cache misses)
    commits: int = 0  # commits walked


@dataclass(frozen=True, slots=True)
class Trend:
    """The NVIDIA-only lines of a default branch today, 30 and 90 days ago, and the slope.

    A figure is None where no point is that old; the slope (lines per month) is None
    until two points lie at least a day apart.
    """

    today: int | None
    days_30: int | None
    days_90: int | None
    slope_per_month: float | None
    points: int  # points in the 90-day window

    @property
    def known(self) -> bool:
        return self.today is not None


def census_figures(census: Census) -> dict[str, Any]:
    """The figures a history keeps of one tree: totals per layer and ecosystem, the
    NVIDIA-only lines and share, and the portability matrix."""
    totals = census.totals
    return {
        "files": totals.files,
        "code_lines": totals.code_lines,
        "layers": {layer.value: totals.layers.get(layer, 0) for layer in LAYERS},
        "non_portable_lines": totals.non_portable_lines,
        "nvidia_locked_lines": census.locked_to_nvidia(),
        "nvidia_share": round(census.nvidia_share(), 6),
        "ecosystems": dict(sorted(totals.ecosystems.items(), key=lambda i: (-i[1], i[0]))),
        "matrix": {
            target: {layer.value: n for layer, n in row.items()}
            for target, row in census.matrix().items()
        },
    }


def pull_request(subject: str) -> int | None:
    """The pull request a commit subject names ("Merge pull request #12", "Fix (#12)")."""
    match = _PR.search(subject)
    return int(match.group(1) or match.group(2)) if match else None


def iso_date(time: int) -> str:
    """A commit time as an ISO 8601 UTC timestamp."""
    return dt.datetime.fromtimestamp(time, dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def commit_entry(commit: str, time: int, subject: str) -> dict[str, Any]:
    """A commit as the history names it: id, date, the pull request its subject names."""
    return {
        "commit": commit,
        "time": time,
        "date": iso_date(time),
        "pr": pull_request(subject),
        "subject": subject,
    }


def file_figures(
    summary: FileSummary | None, include_generated: bool = True
) -> tuple[int, Mapping[str, int]]:
    """The non-portable lines and the lines per ecosystem one file adds to a census's
    totals (nothing for a file that is absent, skipped, or generated and left out)."""
    if summary is None or summary.skipped or (summary.generated and not include_generated):
        return 0, {}
    return summary.non_portable_lines, summary.ecosystems


def top_movers(moves: Sequence[Mapping[str, Any]], n: int) -> list[dict[str, Any]]:
    """The ``n`` commits that changed the non-portable lines most, net: a rename or a move
    of a kernel adds its lines in one place and removes them in another, and moves nothing
    (it is left out); a rewrite that replaces 500 lines with 520 moved 20."""
    moving = [m for m in moves if m["added"] != m["removed"]]
    ranked = sorted(moving, key=lambda m: (-abs(m["added"] - m["removed"]), m["time"]))
    return [dict(m) for m in ranked[:n]]


def growth_per_month(points: Sequence[Mapping[str, Any]], field: str) -> int | None:
    """Change of a top-level figure per month between the first and the last point
    (``None`` over less than a day, where a rate means nothing)."""
    counted = [p for p in points if not p.get("gap")]
    if len(counted) < 2:
        return None
    first, last = counted[0], counted[-1]
    seconds = last["time"] - first["time"]
    if seconds < 86400:
        return None
    # Whole lines: a rate of lines is not measured to a tenth of a line.
    return round((last[field] - first[field]) * MONTH / seconds)
