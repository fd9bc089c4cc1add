"""A pull request that grows a decision's scope past its recorded estimate.

The lines a scope holds after the PR are those of the default branch's census inside it,
plus what the PR adds there, minus what it removes, in the gated layers. Past the owner's
estimate (``migration_cost.lines``) by more than ``decisions.drift_tolerance``, and grown
by this PR, it is said as a warning; ``decisions.drift_enforcement: fail`` fails the check.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine.census import FileSummary
from bot.engine.delta import ChangeDelta
from bot.policy.config import Policy
from bot.policy.decisions import COMPUTE_API, DecisionRecord


@dataclass(frozen=True)
class ScopeGrowth:
    ref: str
    scope: tuple[str, ...]
    lines: int  # gated lines in scope after the PR
    estimate: int
    added: int  # net gated lines this PR brings into the scope

    def message(self) -> str:
        where = ", ".join(self.scope)
        return (
            f"{where} now holds {self.lines:,} gated lines; decision {self.ref} "
            f"estimated {self.estimate:,}"
        )


def scope_growth(
    base: Iterable[FileSummary],
    delta: ChangeDelta,
    recorded: Sequence[DecisionRecord],
    policy: Policy,
) -> list[ScopeGrowth]:
    layers = policy.layers
    tolerance = policy.decisions.drift_tolerance
    base_files = list(base)
    grown = []
    for record in recorded:
        cost = record.cost
        if record.type != COMPUTE_API or record.status != "accepted" or not record.scope:
            continue
        if cost is None or cost.lines is None:
            continue
        before = sum(
            sum(s.layers.get(layer, 0) for layer in layers)
            for s in base_files
            if record.covers(s.path)
        )
        added = sum(
            sum(f.added[layer] for layer in layers) for f in delta.files if record.covers(f.path)
        ) - sum(
            sum(f.removed[layer] for layer in layers)
            for f in delta.files
            if record.covers(f.old_path or f.path)
        )
        after = before + added
        if added > 0 and after > cost.lines * (1 + tolerance):
            grown.append(ScopeGrowth(record.ref, record.scope, after, cost.lines, added))
    return grown
