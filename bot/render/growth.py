"""The warning a PR gets when it grows a decision's scope past its estimate."""

from __future__ import annotations

from collections.abc import Sequence

from bot.policy.growth import ScopeGrowth
from bot.render.markdown import code


def growth_block(grown: Sequence[ScopeGrowth], *, fails: bool) -> str:
    if not grown:
        return ""
    lines = [
        f"- {', '.join(code(p) for p in g.scope)} now holds {g.lines:,} gated lines "
        f"(+{g.added:,} in this pull request); decision {code(g.ref)} estimated {g.estimate:,}"
        for g in grown
    ]
    effect = (
        "The configuration (`decisions.drift_enforcement: fail`) fails the check for this."
        if fails
        else "A warning: it does not fail the check. Update the estimate in the record's "
        "`migration_cost`, or split the decision."
    )
    return "**⚠️ Past a decision's estimate**\n\n" + "\n".join(lines) + f"\n\n{effect}"
