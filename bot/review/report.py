"""Everything one PR check found, as the renderers (check run, comment) need it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import quote

if TYPE_CHECKING:
    from bot.census.by_commit import CensusAt
    from bot.engine.census import Census
    from bot.engine.trend import Trend
    from bot.github.refs import PullRef
    from bot.policy.gate import Verdict
    from bot.policy.growth import ScopeGrowth
    from bot.render.fix import Fix
    from bot.review.change import PRAnalysis
    from bot.review.config_io import RepoConfig


@dataclass(slots=True)
class PRReport:
    pull: PullRef
    head_sha: str
    config: RepoConfig
    analysis: PRAnalysis | None = None  # None: the configuration is invalid, nothing analysed
    verdict: Verdict | None = None
    record_problems: list[str] = field(default_factory=list)  # unreadable recorded decisions
    draft: tuple[str, str] | None = None  # (path, Markdown) of a ready-to-commit record
    census: Census | None = None  # the whole repository at the head (recount)
    base_census: CensusAt | None = None  # the default branch's, when the store has it
    trend: Trend | None = None  # the default branch's over 90 days, when points are kept
    repo_url: str = ""  # the repository's html_url (GitHub Enterprise hosts differ)
    growth: list[ScopeGrowth] = field(default_factory=list)  # scopes grown past estimates
    fix: Fix | None = None  # what to do when files need a decision (bot.render.fix)
    links: list[tuple[str, str]] = field(default_factory=list)  # (label, URL) under the comment

    @property
    def incomplete(self) -> int:
        """Files the check could not read (GitHub's 3,000-file cap, the read budget) or
        count (the engine's CPU budget)."""
        if self.analysis is None:
            return 0
        analysis = self.analysis
        return len(analysis.unread) + analysis.unlisted + len(analysis.uncounted)

    @property
    def conclusion(self) -> str:
        """Never more lenient than the policy: an invalid policy fails, and a PR the check
        could not read entirely cannot pass."""
        if self.config.error is not None:
            return "failure"
        assert self.verdict is not None
        if self.growth and self.config.policy.decisions.drift_enforcement == "fail":
            return "failure"
        if self.verdict.conclusion == "success" and self.incomplete:
            return "neutral" if self.config.policy.enforcement == "neutral" else "failure"
        return self.verdict.conclusion

    def blob_url(self, path: str, start: int | None = None, end: int | None = None) -> str:
        anchor = f"#L{start}" + (f"-L{end}" if end and end != start else "") if start else ""
        # os.fsencode: a name that is not UTF-8 is percent-encoded as its own bytes.
        return f"{self.repo_url}/blob/{self.head_sha}/{quote(os.fsencode(path))}{anchor}"
