"""A line chart as inline SVG: one series over dates on one y-axis, for pages that must not
load a script (``lockin report``). Styled by the page through its classes."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from html import escape

WIDTH, HEIGHT = 900, 280
_LEFT, _RIGHT, _TOP, _BOTTOM = 70, 20, 12, 36


def nice_ticks(high: float, count: int = 5) -> list[int]:
    """Whole-number ticks from 0 to at least ``high`` at a 1, 2 or 5 step."""
    if high <= 0:
        return [0, 1]
    raw = high / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    step = max(1, int(step))
    return list(range(0, math.ceil(high / step) * step + 1, step))


def line_chart(series: Sequence[tuple[dt.datetime, int]], *, label: str) -> str:
    """``series`` (date, value) drawn left to right; full dates (YYYY-MM-DD) on the x-axis."""
    if not series:
        return ""
    t0, t1 = series[0][0].timestamp(), series[-1][0].timestamp()
    span = (t1 - t0) or 1.0
    ticks = nice_ticks(max(v for _, v in series))
    top = ticks[-1] or 1
    plot_w, plot_h = WIDTH - _LEFT - _RIGHT, HEIGHT - _TOP - _BOTTOM

    def x(when: dt.datetime) -> float:
        return _LEFT + plot_w * (when.timestamp() - t0) / span

    def y(value: float) -> float:
        return _TOP + plot_h * (1 - value / top)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(label)}">'
    ]
    for tick in ticks:
        out.append(
            f'<line class="axis" x1="{_LEFT}" x2="{WIDTH - _RIGHT}" '
            f'y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>'
            f'<text x="{_LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:,}</text>'
        )
    dates = _date_ticks(series[0][0], series[-1][0])
    for i, when in enumerate(dates):
        # The first and last labels end at the plot's edges, not past them.
        anchor = "start" if i == 0 else "end" if i == len(dates) - 1 else "middle"
        out.append(
            f'<text x="{x(when):.1f}" y="{HEIGHT - 12}" text-anchor="{anchor}">'
            f"{when:%Y-%m-%d}</text>"
        )
    points = " ".join(f"{x(when):.1f},{y(value):.1f}" for when, value in series)
    out.append(f'<polyline class="headline" points="{points}"/>')
    for when, value in series:
        out.append(
            f'<circle class="dot" cx="{x(when):.1f}" cy="{y(value):.1f}" r="3">'
            f"<title>{when:%Y-%m-%d}: {value:,} {escape(label)}</title></circle>"
        )
    out.append("</svg>")
    return "".join(out)


def _date_ticks(first: dt.datetime, last: dt.datetime, count: int = 5) -> list[dt.datetime]:
    if last <= first:
        return [first]
    step = (last - first) / (count - 1)
    return [first + step * i for i in range(count)]
