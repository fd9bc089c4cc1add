"""The whole-repository census as a Markdown section of the PR comment and check run summary.

Built from the blocks in ``bot.render.markdown``: the share of code that could not move
off NVIDIA (beside the default branch's figure when it is known), lines per layer with a
mermaid pie, ecosystems, the portability matrix, alternatives already present, top files
and directories, and what was skipped (including unsafe archive entries, by reason).
"""

from __future__ import annotations

from bot.engine.census import Census
from bot.engine.model import LAYERS
from bot.render.markdown import (
    Link,
    code,
    details,
    ecosystem_table,
    layer_table,
    matrix_table,
    pie_chart,
    top_directories_table,
    top_files_table,
)
from bot.render.wording import percent, signed

TOP = 10


def headline(census: Census, base: Census | None = None) -> str:
    """One sentence: locked lines, their share, and the change from the base branch."""
    code_lines, locked = census.totals.code_lines, census.locked_to_nvidia()
    text = (
        f"**{locked:,}** of {code_lines:,} code lines "
        f"(**{percent(locked, code_lines)}**) could not move off NVIDIA tomorrow "
        f"({census.totals.files:,} files)."
    )
    if base is not None:
        base_locked = base.locked_to_nvidia()
        text += (
            f" Default branch: {base_locked:,} of {base.totals.code_lines:,} "
            f"({percent(base_locked, base.totals.code_lines)}); "
            f"this head: {signed(locked - base_locked)} lines."
        )
    return text


def _alternatives(census: Census) -> str:
    alternatives = census.alternatives()
    if not alternatives:
        return "**Alternatives already present:** none (no HIP, SYCL, Metal, Triton, ... code)."
    return "**Alternatives already present:** " + ", ".join(
        f"{code(a.ecosystem)} {a.lines:,} lines ({', '.join(sorted(a.vendors))})"
        for a in alternatives
    )


def _skipped(census: Census) -> str:
    if not census.skipped:
        return ""
    reasons = ", ".join(f"{n:,} {reason}" for reason, n in sorted(census.skipped.items()))
    return f"Not counted: {reasons}."


def render_census(census: Census, *, base: Census | None = None, link: Link | None = None) -> str:
    """The census section (starts with a level-3 heading)."""
    totals = census.totals
    top_files = census.top_files(TOP)
    blocks = [
        "### Whole repository",
        headline(census, base),
        layer_table(totals.layers, totals.code_lines),
        pie_chart(
            "Code lines by layer", {layer.value: totals.layers.get(layer, 0) for layer in LAYERS}
        ),
        _alternatives(census),
        details("Non-portable lines by ecosystem", ecosystem_table(totals.ecosystems)),
        details("Moving to another vendor", matrix_table(census.matrix()))
        if totals.non_portable_lines
        else "",
        details("Top files", top_files_table(top_files, link)) if top_files else "",
        details("Top directories", top_directories_table(census.top_directories(TOP))),
        _skipped(census),
    ]
    return "\n\n".join(block for block in blocks if block) + "\n"
