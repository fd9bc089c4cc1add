"""What a repository census keeps of one file: its counts, shared between files of one shape."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.engine.census import FileSummary
from bot.engine.model import FileReport


class SharedCounts:
    """Lets the summaries of one census share equal count mappings.

    Most files have one of a few shapes (portable lines only, no ecosystem, no rule), so a
    census of 300,000 files would otherwise hold 300,000 copies of the same small dicts.
    Sharing is safe because a FileSummary is never changed.
    """

    def __init__(self) -> None:
        self._seen: dict[tuple[tuple[Any, int], ...], Any] = {}

    def __call__(self, mapping: Any) -> Any:
        return self._seen.setdefault(tuple(mapping.items()), mapping)

    def summary(self, summary: FileSummary) -> FileSummary:
        """``summary`` holding the shared copies of its count mappings."""
        return replace(
            summary,
            layers=self(summary.layers),
            ecosystems=self(summary.ecosystems),
            rule_lines=self(summary.rule_lines),
        )


def summarize_report(report: FileReport, shared: SharedCounts | None = None) -> FileSummary:
    """A census keeps a file's counts, not where its findings are (no report of the census
    shows them, and in a large repository they would be a fifth of its memory). The same
    for a tarball member and a whole blob, so that an incremental census equals a full one."""
    return (shared or SharedCounts()).summary(replace(FileSummary.of(report), findings=()))
