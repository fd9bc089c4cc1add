"""The body of the Lock-in dashboard issue: figures, trend, register, uncovered areas,
kernels and the per-target plan, with a recount checkbox and a section people may write in.

The bot owns everything outside the people's section; its next edit restores what a person
changed there. The body is kept under GitHub's issue body limit by showing fewer rows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.render.plan_out import (
    kernels_markdown,
    plans_markdown,
    register_markdown,
    uncovered_markdown,
)

MARKER = "<!-- lockin:dashboard -->"
NOTES_START = "<!-- lockin:notes:start -->"
NOTES_END = "<!-- lockin:notes:end -->"
RECOUNT_MARK = "<!-- lockin:recount -->"
#: GitHub refuses issue bodies longer than this many characters.
MAX_BODY = 65_536
_CHECKBOX = re.compile(r"^- \[([ xX])\] " + re.escape(RECOUNT_MARK), re.MULTILINE)
_DEFAULT_NOTES = "_Notes for people: the bot keeps this section as you write it._"


def recount_ticked(body: str | None) -> bool:
    match = _CHECKBOX.search(body or "")
    return bool(match and match.group(1) in "xX")


def untick(body: str) -> str:
    """The body with the recount checkbox unticked, everything else as it is."""
    return _CHECKBOX.sub(f"- [ ] {RECOUNT_MARK}", body, count=1)


def notes_of(body: str | None) -> str:
    """The people's section of a dashboard body (the default text when there is none)."""
    text = body or ""
    start, end = text.find(NOTES_START), text.rfind(NOTES_END)
    if start < 0 or end < start:
        return _DEFAULT_NOTES
    return text[start + len(NOTES_START) : end].strip("\n") or _DEFAULT_NOTES


def bot_part(body: str | None) -> str:
    """The body without the people's section: what a change of figures changes."""
    text = body or ""
    start, end = text.find(NOTES_START), text.rfind(NOTES_END)
    if start < 0 or end < start:
        return text
    return text[:start] + text[end + len(NOTES_END) :]


def trend_chart(points: Sequence[tuple[str, int]]) -> str:
    """A mermaid xychart of non-portable lines over time; nothing without two points."""
    if len(points) < 2:
        return ""
    labels = ", ".join('"' + re.sub(r"[^\w .:-]", "", label)[:20] + '"' for label, _ in points)
    values = ", ".join(str(int(value)) for _, value in points)
    top = max(int(v) for _, v in points) or 1
    return (
        "```mermaid\nxychart-beta\n"
        '    title "Non-portable lines"\n'
        f"    x-axis [{labels}]\n"
        f'    y-axis "lines" 0 --> {top}\n'
        f"    line [{values}]\n```"
    )


def dashboard_body(
    document: Mapping[str, Any],
    figures: Mapping[str, Any],
    *,
    points: Sequence[tuple[str, int]] = (),
    notes: str = _DEFAULT_NOTES,
) -> str:
    """The dashboard issue's body; ``figures`` are the census's headline numbers (code
    lines, non-portable lines, the share locked to NVIDIA). The commit is left out on
    purpose: a push that moves no figure must leave the body as it is."""
    for rows in (25, 10, 5, 2):
        body = _body(document, figures, points, notes, rows)
        if len(body) <= MAX_BODY:
            return body
    return body[: MAX_BODY - 200] + "\n\n…cut to fit GitHub's issue size limit.\n"


def _mechanical(document: Mapping[str, Any]) -> str:
    """The headline's split: of those lines, what each target's translator converts."""
    head = document.get("headline") or {}
    if head.get("locked_to_nvidia") is None or not head.get("mechanical"):
        return ""
    split = ", ".join(f"{m['lines']:,} to {m['target']} ({m['tool']})" for m in head["mechanical"])
    return f" ({head['locked_to_nvidia']:,} lines), of which translate mechanically: {split}"


def _body(
    document: Mapping[str, Any],
    figures: Mapping[str, Any],
    points: Sequence[tuple[str, int]],
    notes: str,
    rows: int,
) -> str:
    blocks = [
        MARKER,
        "The state of GPU vendor lock-in on the default branch, kept current by lockin on "
        "every push that changes a figure.",
        f"- [ ] {RECOUNT_MARK} Recount the default branch now (tick; needs write access)",
        "## Figures",
        f"- Code lines: {figures.get('code_lines', 0):,}\n"
        f"- Non-portable lines: {figures.get('non_portable_lines', 0):,}\n"
        f"- Could not move off NVIDIA tomorrow: {figures.get('nvidia_share', 0.0):.1%}"
        + _mechanical(document),
    ]
    chart = trend_chart(points)
    if chart:
        blocks += ["## Trend", chart]
    blocks += [
        "## Decision register",
        register_markdown(document, rows),
        "## Uncovered areas",
        uncovered_markdown(document, rows),
        "## Kernel inventory",
        kernels_markdown(document, rows),
        "## Migration plan",
        plans_markdown(document, rows),
        "## Notes",
        f"{NOTES_START}\n{notes}\n{NOTES_END}",
    ]
    return "\n\n".join(b for b in blocks if b) + "\n"
