"""Number formatting and wording shared by every renderer."""

from __future__ import annotations

from bot.engine.model import Layer

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
