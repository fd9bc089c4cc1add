"""The census of a repository read from one tarball, classified entry by entry as it arrives.

The archive walker (``bot.sources.archive``) holds every limit; this module turns what it
visits into a census: each regular file classified and summarised, each unsafe entry kept
as a skipped file so that the report names it.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from bot.engine.census import Census
from bot.engine.paths import DEFAULT_FILTER, PathFilter
from bot.engine.summary import SharedCounts, summarize_report
from bot.sources.archive import (
    ArchiveLimits,
    UnsafeEntries,
    Visit,
    WalkResult,
    walk_file,
    walk_stream,
)
from bot.sources.files import classify_entry, skipped


@dataclass(slots=True)
class ArchiveCensus:
    census: Census
    files: int = 0  # regular files classified
    excluded: int = 0  # regular files left out by the path filter
    compressed_bytes: int = 0
    inflated_bytes: int = 0
    unsafe: UnsafeEntries = field(default_factory=UnsafeEntries)

    def visitor(self, path_filter: PathFilter) -> Visit:
        shared = SharedCounts()

        def visit(path: str, data: bytes) -> None:
            if not path_filter.includes(path):
                self.excluded += 1
                return
            self.census.replace(path, summarize_report(classify_entry(path, data), shared))
            self.files += 1

        return visit

    def on_unsafe(self, name: str, reason: str) -> None:
        # Kept in the census as a skipped file, so the report names it.
        self.census.replace(name, skipped(name, reason))

    def took(self, walk: WalkResult) -> ArchiveCensus:
        self.compressed_bytes, self.inflated_bytes = walk.compressed_bytes, walk.inflated_bytes
        self.unsafe = walk.unsafe
        return self


async def census_from_stream(
    chunks: AsyncIterator[bytes],
    *,
    limits: ArchiveLimits,
    declared_size: int | None = None,
    path_filter: PathFilter = DEFAULT_FILTER,
    strip_root: bool = True,
    include_generated: bool = False,
) -> ArchiveCensus:
    """Count an archive arriving as compressed chunks (e.g. an HTTP response body)."""
    result = ArchiveCensus(Census(include_generated=include_generated))
    walk = await walk_stream(
        chunks,
        result.visitor(path_filter),
        limits=limits,
        declared_size=declared_size,
        strip_root=strip_root,
        on_unsafe=result.on_unsafe,
    )
    return result.took(walk)


def census_from_file(
    path: str | os.PathLike[str],
    *,
    limits: ArchiveLimits,
    path_filter: PathFilter = DEFAULT_FILTER,
    strip_root: bool = False,
    include_generated: bool = False,
) -> ArchiveCensus:
    """Count a local ``.tar.gz`` (or ``.tar``) file the same way, read in chunks.

    ``strip_root`` defaults to False because ``git archive`` writes no top folder unless
    asked with ``--prefix``; pass True for a tarball downloaded from GitHub.
    """
    result = ArchiveCensus(Census(include_generated=include_generated))
    walk = walk_file(
        path,
        result.visitor(path_filter),
        limits=limits,
        strip_root=strip_root,
        on_unsafe=result.on_unsafe,
    )
    return result.took(walk)
