"""Check-run annotations for inline ignore markers on a PR's added lines: a notice on what a
marker took out (so the reviewer sees the claim and its reason where it is made), a warning
on a marker that took nothing out."""

from __future__ import annotations

from typing import Any

from bot.engine.delta import FileDelta
from bot.render.rules_page import rule_url


def marker_annotations(f: FileDelta) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {
            "path": f.path,
            "start_line": i.start_line,
            "end_line": i.end_line,
            "annotation_level": "notice",
            "title": f"{i.rule} ignored by an inline marker ({i.lines:,} lines)"[:255],
            "message": f"lockin: ignore[{i.rule}] on line {i.marker_line}: {i.reason}\n"
            f"These lines count as portable. About this rule: {rule_url(i.rule)}",
        }
        for i in f.ignored
    ]
    out += [
        {
            "path": f.path,
            "start_line": p.line,
            "end_line": p.line,
            "annotation_level": "warning",
            "title": "lockin: an inline marker that ignores nothing",
            "message": p.problem,
        }
        for p in f.marker_problems
    ]
    return out
