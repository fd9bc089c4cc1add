"""The lock-in graph of a history document, drawn with matplotlib (optional extra ``plot``).

The headline (NVIDIA-only lines) over the non-portable lines stacked per layer (or per
ecosystem), all on one axis in code lines; the NVIDIA-only share on a small panel beneath;
the pull requests behind the biggest jumps named above the data.
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
#: Characters of a pull request's title in a label.
LABEL_CHARS = 40
HEADLINE = "#1f2d3d"
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
    """Indexes of the points after the largest changes of non-portable lines, in time order."""
    steps = [
        (abs(points[i]["non_portable_lines"] - points[i - 1]["non_portable_lines"]), i)
        for i in range(1, len(points))
    ]
    return sorted(i for change, i in sorted(steps, reverse=True)[:MARKED_JUMPS] if change)


def _label(point: Mapping[str, Any]) -> str:
    """The pull request (or commit) behind most of a jump: its number, its title cut short
    and its net change."""
    if not point["moved_by"]:
        return ""
    top = max(point["moved_by"], key=lambda m: abs(m["added"] - m["removed"]))
    name = f"#{top['pr']}" if top["pr"] else top["commit"][:8]
    subject = " ".join(str(top.get("subject") or "").split())
    if len(subject) > LABEL_CHARS:
        subject = subject[: LABEL_CHARS - 1].rstrip() + "…"
    return f"{name} {top['added'] - top['removed']:+,} lines\n{subject}"


def draw(document: Mapping[str, Any], path: str, *, title: str, by: str = "layer") -> None:
    """Write the graph of ``document`` (``lockin.history/1``) to ``path`` (.svg or .png),
    naming the repository ``title``.

    One y-axis, in code lines: the headline (NVIDIA-only lines) as a line over the
    non-portable lines stacked per layer (or ecosystem) beneath it; the NVIDIA-only share on
    its own small panel; the pull requests behind the largest jumps named above the data.
    """
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
    from matplotlib import ticker

    points = [p for p in document["points"] if not p["gap"]]
    if not points:
        raise PlotError("no counted points to plot")
    when = mdates.date2num([dt.datetime.fromtimestamp(p["time"], dt.UTC) for p in points])
    series = _series(points, by)
    fig, (ax, low) = plt.subplots(
        2,
        1,
        sharex=True,
        figsize=(10, 6),
        dpi=110,
        gridspec_kw={"height_ratios": [4, 1], "hspace": 0.08},
    )
    try:
        # The layers in their report colours, light: context beneath the headline.
        colours = [_LAYER_COLOURS[n] for n in series] if by == "layer" else None
        ax.stackplot(
            when,
            *series.values(),
            labels=list(series),
            colors=colours,
            alpha=0.35,
            step="post",
        )
        ax.plot(
            when,
            [p["nvidia_locked_lines"] for p in points],
            color=HEADLINE,
            linewidth=2.2,
            drawstyle="steps-post",
            label="NVIDIA-only lines",
        )
        top = max(p["non_portable_lines"] for p in points) or 1
        marked = [i for i in _jumps(points) if _label(points[i])]
        # Each jump gets a numbered dotted mark rising from its point (above it there is no
        # data); the labels sit in one band above everything, spread evenly in time order.
        ax.set_ylim(0, top * (1.55 if marked else 1.1))
        ax.set_ylabel("code lines")
        ax.yaxis.set_major_formatter(ticker.StrMethodFormatter("{x:,.0f}"))
        span = (when[-1] - when[0]) or 1.0
        for k, i in enumerate(marked):
            ax.vlines(
                when[i],
                points[i]["non_portable_lines"],
                top * 1.12,
                colors="#7f8c8d",
                linestyles=":",
                linewidth=1,
            )
            ax.text(when[i], top * 1.12, str(k + 1), ha="center", va="bottom", fontsize=8)
            ax.text(
                when[0] + span * (k + 0.5) / len(marked),
                top * 1.25,
                f"{k + 1}: {_label(points[i])}",
                ha="center",
                va="bottom",
                fontsize=7.5,
            )
        fig.legend(
            *ax.get_legend_handles_labels(),
            loc="lower center",
            ncol=len(series) + 1,
            fontsize=8,
            frameon=False,
        )
        ax.margins(x=0)
        low.plot(
            when,
            [100 * p["nvidia_share"] for p in points],
            color=HEADLINE,
            linewidth=1.4,
            drawstyle="steps-post",
        )
        low.set_ylabel("NVIDIA-only\nshare (%)", fontsize=8)
        low.set_ylim(0, max(100 * p["nvidia_share"] for p in points) * 1.3 or 1)
        low.yaxis.set_major_locator(ticker.MaxNLocator(3))
        low.xaxis.set_major_locator(mdates.AutoDateLocator(minticks=3, maxticks=7))
        low.xaxis.set_major_formatter(mdates.DateFormatter("%Y-%m-%d"))
        last = points[-1]
        ax.set_title(
            f"{title}: {last['nvidia_locked_lines']:,} NVIDIA-only lines "
            f"({100 * last['nvidia_share']:.1f}% of the code) on {_day(last)}\n"
            f"{_day(points[0])} to {_day(last)}, a point every {document['every']} of "
            f"{document['revision']}",
            fontsize=10,
        )
        fig.subplots_adjust(left=0.09, right=0.98, top=0.9, bottom=0.13)
        metadata = {"Date": None} if fmt == "svg" else {}
        fig.savefig(path, format=fmt, metadata=metadata)
    except OSError as exc:
        raise PlotError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)


def _day(point: Mapping[str, Any]) -> str:
    return dt.datetime.fromtimestamp(point["time"], dt.UTC).strftime("%Y-%m-%d")
