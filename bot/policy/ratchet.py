"""The repository-level ratchet, in the manner of Codecov's project status.

With ``ratchet`` set in the policy, a pull request fails only when the NVIDIA-only lines
outside every decision's scope (the gated layers, rules that run on NVIDIA alone) grow past
a threshold against the base: more than ``ratchet.lines`` lines, or more than
``ratchet.percent`` percent of the base's figure. Growth is net over the whole change, so a
kernel moved between files, or a CUDA path replaced by a portable one elsewhere, does not
count; a HIP or SYCL port added beside a CUDA kernel is not NVIDIA-only and does not count
either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.engine.census import FileSummary
from bot.engine.delta import FileDelta
from bot.engine.model import Layer
from bot.policy.config import RatchetSettings
from bot.policy.counting import nvidia_only_lines


@dataclass(frozen=True)
class Ratchet:
    growth: int  # net NVIDIA-only lines the change adds outside every decision
    base: int | None  # the base's NVIDIA-only lines outside every decision, when known
    settings: RatchetSettings

    @property
    def failed(self) -> bool:
        if self.growth <= 0:
            return False
        lines, percent = self.settings.lines, self.settings.percent
        if lines is not None and self.growth > lines:
            return True
        if percent is not None:
            # An unknown or empty base makes any growth infinitely many percent.
            return not self.base or self.growth * 100 > percent * self.base
        return False

    @property
    def message(self) -> str:
        """``NVIDIA-only lines outside decisions: 1,204 → 1,230 (+26, +2.2%); the ratchet
        allows 50 lines or 1%``."""
        change = f"{self.growth:+,}"
        if self.base is not None:
            if self.base:
                change += f", {self.growth * 100 / self.base:+.1f}%"
            figure = f"{self.base:,} → {self.base + self.growth:,} ({change})"
        else:
            figure = f"{change} (the base's figure is not known)"
        allowed = []
        if self.settings.lines is not None:
            allowed.append(f"{self.settings.lines:,} lines")
        if self.settings.percent is not None:
            allowed.append(f"{self.settings.percent:g}%")
        return (
            f"NVIDIA-only lines outside decisions: {figure}; the ratchet allows "
            f"{' or '.join(allowed)} of growth"
        )


def judge_ratchet(
    files: Iterable[FileDelta],
    covered: Callable[[str], bool],
    settings: RatchetSettings,
    layers: Iterable[Layer],
    base_files: Iterable[FileSummary] | None,
) -> Ratchet:
    """The ratchet over ``files`` (the change, already path-filtered); ``covered`` says
    whether a decision covers a path; ``base_files`` is the base's census (only the percent
    threshold needs it; None when not at hand)."""
    gated = tuple(layers)
    growth = sum(
        nvidia_only_lines(f.added_rules, gated) - nvidia_only_lines(f.removed_rules, gated)
        for f in files
        if not covered(f.path)
    )
    base = None
    if base_files is not None:
        base = sum(
            nvidia_only_lines(s.rule_lines, gated)
            for s in base_files
            if not s.skipped and not covered(s.path)
        )
    return Ratchet(growth, base, settings)
