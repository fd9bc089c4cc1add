"""Number formatting and wording shared by every renderer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.engine.model import NOT_COUNTED, Layer

if TYPE_CHECKING:  # a change's types: a scan never loads the delta's module (unidiff)
    from bot.engine.delta import ChangeDelta

#: What moving a layer's lines to another vendor costs, in the words of the reports.
COST: dict[Layer, str] = {
    Layer.KERNEL: "rewrite",
    Layer.VENDOR_LIBRARY: "library mapping",
    Layer.VENDOR_PATH: "edit",
    Layer.PORTABLE: "nothing",
}


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "0.0%"


def signed(n: int) -> str:
    """A change with its sign: +12, -3, 0."""
    return f"+{n:,}" if n > 0 else f"{n:,}"


def skipped_reasons(change: ChangeDelta) -> dict[str, int]:
    """Files of a change that were not counted, per reason (binary, generated...)."""
    counts: dict[str, int] = {}
    for f in change.files:
        if f.skipped:
            counts[f.skipped] = counts.get(f.skipped, 0) + 1
    return counts


def reasons(counts: Mapping[str, int]) -> str:
    """ "3 binary, 1 too-large": counts by reason, alphabetically ("1 over budget ...":
    the engine gave up on it, said once by whoever lists them as not counted)."""
    return ", ".join(
        f"{n:,} {reason.removeprefix(NOT_COUNTED)}" for reason, n in sorted(counts.items())
    )


def over_budget_text(uncounted: list[tuple[str, str]]) -> list[str]:
    """Terminal lines naming the files the engine gave up on (empty when none)."""
    if not uncounted:
        return []
    return [
        "",
        f"Not counted, over budget ({len(uncounted):,}; a larger --file-budget counts them):",
        *(f"  {path}: {why}" for path, why in uncounted),
    ]
