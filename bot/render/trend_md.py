"""The default branch's trend as one Markdown line of the census section."""

from __future__ import annotations

from bot.engine.trend import Trend


def _lines(value: int | None) -> str:
    return "no point yet" if value is None else f"{value:,}"


def trend_line(trend: Trend) -> str:
    """NVIDIA-only lines of the default branch today, 30 and 90 days ago, and per month."""
    slope = (
        "not enough history for a rate"
        if trend.slope_per_month is None
        else f"{trend.slope_per_month:+,.1f} lines a month"
    )
    return (
        f"**Trend** (default branch, lines that could not move off NVIDIA): "
        f"today {_lines(trend.today)}; 30 days ago {_lines(trend.days_30)}; "
        f"90 days ago {_lines(trend.days_90)}; {slope} over 90 days."
    )
