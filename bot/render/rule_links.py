"""Rule ids as links to their page in the rule reference, for the PR comment and reports."""

from __future__ import annotations

from collections import Counter

from bot.engine.delta import ChangeDelta
from bot.render.md_safe import code
from bot.render.rules_page import rule_url

#: Rules named in the comment before "and N more".
MAX_RULES = 20


def rule_link(rule_id: str) -> str:
    """`rule.id` linked to its page."""
    return f"[{code(rule_id)}]({rule_url(rule_id)})"


def rules_block(delta: ChangeDelta) -> str:
    """The rules behind the added non-portable lines, most lines first, each linked."""
    lines: Counter[str] = Counter()
    for f in delta.files:
        for r in f.added_ranges:
            lines[r.rule] += r.end_line - r.start_line + 1
    if not lines:
        return ""
    ranked = sorted(lines.items(), key=lambda item: (-item[1], item[0]))
    shown = [f"{rule_link(rule)} ({n:,})" for rule, n in ranked[:MAX_RULES]]
    rest = len(ranked) - len(shown)
    tail = f" · and {rest:,} more" if rest else ""
    return "**Rules** (lines in their ranges; what each means and what replaces it): " + (
        " · ".join(shown) + tail
    )
