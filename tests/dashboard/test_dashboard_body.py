"""The dashboard body: trend chart from history points, the size limit, the people's
section and the recount checkbox, as pure functions."""

from __future__ import annotations

from typing import Any

from bot.render.dashboard import (
    MAX_BODY,
    NOTES_END,
    NOTES_START,
    RECOUNT_MARK,
    bot_part,
    dashboard_body,
    notes_of,
    recount_ticked,
    trend_chart,
)
from bot.render.plan_out import PLAN_SCHEMA

FIGURES = {"code_lines": 1000, "non_portable_lines": 120, "nvidia_share": 0.5}


def document(kernels: int = 0) -> dict[str, Any]:
    return {
        "schema": PLAN_SCHEMA,
        "root": "octo/repo",
        "register": {
            "gated_lines": 120,
            "covered_lines": 60,
            "coverage": 0.5,
            "drift_tolerance": 0.25,
            "decisions": [],
            "retired_with_code": [],
            "frameworks": [],
            "uncovered": [],
            "overlaps": [],
            "problems": [],
        },
        "kernels": [
            {
                "name": f"kernel_{i}_" + "x" * 200,
                "path": f"csrc/{'d' * 200}/{i}.cu",
                "start_line": 1,
                "end_line": 9,
                "code_lines": 9,
                "ecosystem": "cuda",
                "vendors": ["nvidia"],
                "appearances": 1,
                "helpers": [],
                "decision": None,
            }
            for i in range(kernels)
        ],
        "plans": [],
    }


def test_no_trend_without_points_and_a_mermaid_xychart_with_them() -> None:
    assert trend_chart([]) == ""
    assert "## Trend" not in dashboard_body(document(), FIGURES)
    chart = trend_chart([("2026-01", 100), ('2026-02"]\n', 140)])
    assert chart.startswith("```mermaid\nxychart-beta")
    assert "line [100, 140]" in chart
    assert '"2026-02"' in chart  # a label cannot close the list or the block
    assert "## Trend" in dashboard_body(document(), FIGURES, points=[("a", 1), ("b", 2)])


def test_the_body_stays_under_githubs_limit() -> None:
    body = dashboard_body(document(kernels=3000), FIGURES)
    assert len(body) <= MAX_BODY
    assert "3,000 hand-written kernels" in body


def test_people_section_and_checkbox_round_trip() -> None:
    body = dashboard_body(document(), FIGURES, notes="Port planned for Q3.")
    assert notes_of(body) == "Port planned for Q3."
    assert NOTES_START not in bot_part(body)
    assert NOTES_END not in bot_part(body)
    assert not recount_ticked(body)
    assert recount_ticked(body.replace(f"- [ ] {RECOUNT_MARK}", f"- [x] {RECOUNT_MARK}"))
    assert not recount_ticked("- [x] recount please")  # our marked line only
    same = dashboard_body(document(), FIGURES, notes="Something else.")
    assert bot_part(same) == bot_part(body)
