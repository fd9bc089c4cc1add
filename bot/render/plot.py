"""The lock-in graph of a history document, drawn with matplotlib (optional extra ``plot``).

Stacked areas of the non-portable lines per layer (or per ecosystem), the NVIDIA-only
share on a second axis, and markers naming the commits behind the biggest jumps.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping, Sequence
from typing import Any

from bot.engine.model import NON_PORTABLE

#: File types the plot can be written as.
FORMATS = ("svg", "png")
#: Jumps between points marked on the graph.
MARKED_JUMPS = 3
#: Ecosystems drawn by name; the rest are summed as "other".
ECOSYSTEMS_DRAWN = 7
_LAYER_COLOURS = {"kernel": "#c0392b", "vendor-library": "#e67e22", "vendor-path": "#f1c40f"}


class PlotError(Exception):
    """The plot cannot be drawn; the message is one line for the user."""


def plot_format(path: str) -> str:
    """The file type of ``path`` from its extension; ``PlotError`` for any other."""
    ext = os.path.splitext(path)[1].lower().lstrip(".")
    if ext not in FORMATS:
        raise PlotError(f"--plot must name a .svg or .png file, not {path!r}")
    return ext


def _series(points: Sequence[Mapping[str, Any]], by: str) -> dict[str, list[int]]:
    if by == "layer":
        return {layer.value: [p["layers"][layer.value] for p in points] for layer in NON_PORTABLE}
    totals: dict[str, int] = {}
    for p in points:
        for eco, n in p["ecosystems"].items():
            totals[eco] = max(totals.get(eco, 0), n)
    ranked = sorted(totals, key=lambda e: (-totals[e], e))
    shown, rest = ranked[:ECOSYSTEMS_DRAWN], ranked[ECOSYSTEMS_DRAWN:]
    series = {eco: [p["ecosystems"].get(eco, 0) for p in points] for eco in shown}
    if rest:
        series["other"] = [sum(p["ecosystems"].get(e, 0) for e in rest) for p in points]
    return series


def _jumps(points: Sequence[Mapping[str, Any]]) -> list[int]:
    """Indexes of the points after the largest changes of non-portable lines."""
    steps = [
        (abs(points[i]["non_portable_lines"] - points[i - 1]["non_portable_lines"]), i)
        for i in range(1, len(points))
    ]
    return [i for change, i in sorted(steps, reverse=True)[:MARKED_JUMPS] if change]


def _label(point: Mapping[str, Any]) -> str:
    """The commit (or pull request) behind most of a jump, with its net change."""
    if not point["moved_by"]:
        return ""
    top = max(point["moved_by"], key=lambda m: abs(m["added"] - m["removed"]))
    name = f"#{top['pr']}" if top["pr"] else top["commit"][:8]
    return f"{name} {top['added'] - top['removed']:+,}"


def draw(document: Mapping[str, Any], path: str, *, title: str, by: str = "layer") -> None:
    """Write the graph of ``document`` (``lockin.history/1``) to ``path`` (.svg or .png),
    naming the repository ``title``."""
    fmt = plot_format(path)
    try:
        import matplotlib
    except ImportError:
        raise PlotError(
            "--plot needs matplotlib: pip install 'lockin-gpu[plot]' (or pip install matplotlib)"
        ) from None
    matplotlib.use("Agg")
    from matplotlib import dates as mdates
    from matplotlib import pyplot as plt

    points = [p for p in document["points"] if not p["gap"]]
    if not points:
        raise PlotError("no counted points to plot")
    when = mdates.date2num([dt.datetime.fromtimestamp(p["time"], dt.UTC) for p in points])
    series = _series(points, by)
    fig, ax = plt.subplots(figsize=(10, 4.8), dpi=110)
    try:
        # The layers in their report colours; ecosystems in matplotlib's cycle.
        colours = [_LAYER_COLOURS[n] for n in series] if by == "layer" else None
        ax.stackplot(
            when,
            *series.values(),
            labels=list(series),
            colors=colours,
            alpha=0.85,
            step="post",
        )
        ax.set_ylabel("non-portable code lines")
        ax.yaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:,.0f}"))
        ax.xaxis.set_major_locator(mdates.AutoDateLocator())
        ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(ax.xaxis.get_major_locator()))
        ax.margins(x=0)
        share = ax.twinx()
        share.plot(
            when,
            [100 * p["nvidia_share"] for p in points],
            color="#2c3e50",
            linewidth=1.6,
            drawstyle="steps-post",
            label="NVIDIA-only share",
        )
        share.set_ylabel("NVIDIA-only share of code lines (%)")
        # Headroom above the areas for the jump labels, and the share line drawn apart
        # from the top of the areas rather than over it.
        ax.set_ylim(0, max(p["non_portable_lines"] for p in points) * 1.2 or 1)
        share.set_ylim(0, max(100 * p["nvidia_share"] for p in points) * 1.6 or 1)
        for i in _jumps(points):
            total = points[i]["non_portable_lines"]
            ax.plot(when[i], total, marker="v", color="black", markersize=6)
            ax.annotate(
                _label(points[i]),
                (when[i], total),
                textcoords="offset points",
                xytext=(0, 8),
                ha="center",
                fontsize=8,
            )
        handles, labels = ax.get_legend_handles_labels()
        more, more_labels = share.get_legend_handles_labels()
        ax.legend(
            handles + more,
            labels + more_labels,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.1),
            ncol=len(labels) + 1,
            fontsize=8,
            frameon=False,
        )
        ax.set_title(
            f"Lock-in over time: {title} ({document['revision']}), every {document['every']}",
            fontsize=10,
        )
        fig.tight_layout()
        metadata = {"Date": None} if fmt == "svg" else {}
        fig.savefig(path, format=fmt, metadata=metadata)
    except OSError as exc:
        raise PlotError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)
