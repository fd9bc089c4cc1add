"""Inline ignore markers in every report: what they took out (counted and listed apart, with
the reason) and the markers that took nothing out. Never silent: a scan, a diff, the check run
and the PR comment all show both whenever there is anything to show."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from bot.engine.census import Census
from bot.engine.model import Ignored, MarkerProblem

if TYPE_CHECKING:  # a change's types: a scan never loads the delta's module (unidiff)
    from bot.engine.delta import ChangeDelta

#: Entries listed before "and N more".
MAX_LISTED = 50

Taken = tuple[str, Ignored]
Problem = tuple[str, MarkerProblem]


def of_census(census: Census) -> tuple[list[Taken], list[Problem]]:
    files = census.files()
    return (
        [(s.path, i) for s in files for i in s.ignored],
        [(s.path, p) for s in files for p in s.marker_problems],
    )


def of_change(change: ChangeDelta) -> tuple[list[Taken], list[Problem]]:
    return (
        [(f.path, i) for f in change.files for i in f.ignored],
        [(f.path, p) for f in change.files for p in f.marker_problems],
    )


def where(path: str, start: int, end: int) -> str:
    return f"{path}:{start}" + (f"-{end}" if end != start else "")


def _lines(items: Iterable[Taken]) -> int:
    return sum(i.lines for _, i in items)


def _more(shown: int, total: int) -> list[str]:
    return [f"  … and {total - shown:,} more"] if total > shown else []


def headline(taken: Sequence[Taken], problems: Sequence[Problem]) -> str:
    """``12 lines ignored by 2 inline markers; 1 marker problem``: empty when there are none."""
    parts = []
    if taken:
        n = len(taken)
        parts.append(
            f"{_lines(taken):,} lines ignored by {n:,} inline marker{'s' if n != 1 else ''}"
        )
    if problems:
        n = len(problems)
        parts.append(f"{n:,} marker problem{'s' if n != 1 else ''}")
    return "; ".join(parts)


def text_block(taken: Sequence[Taken], problems: Sequence[Problem]) -> list[str]:
    """Lines for the terminal report (empty when there is nothing to say)."""
    out: list[str] = []
    if taken:
        out += ["", f"Ignored by inline markers ({_lines(taken):,} lines, counted as portable):"]
        out += [
            f"  {where(path, i.start_line, i.end_line)}  {i.rule}  ({i.layer.value}, "
            f"{i.lines:,} lines)  {i.reason}"
            for path, i in taken[:MAX_LISTED]
        ]
        out += _more(min(len(taken), MAX_LISTED), len(taken))
    if problems:
        out += ["", "Marker problems (these markers ignore nothing):"]
        out += [f"  {path}:{p.line}  {p.problem}" for path, p in problems[:MAX_LISTED]]
        out += _more(min(len(problems), MAX_LISTED), len(problems))
    return out
