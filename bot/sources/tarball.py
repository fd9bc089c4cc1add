"""The census of a repository read from one tarball, classified entry by entry as it arrives.

The archive walker (``bot.sources.archive``) holds every limit; this module turns what it
visits into a census: each regular file classified and summarised, each unsafe entry kept
as a skipped file so that the report names it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from bot.engine.census import Census
from bot.engine.paths import DEFAULT_FILTER, PathFilter
from bot.engine.summary import SharedCounts
from bot.sources.archive import (
    ArchiveLimits,
    UnsafeEntries,
    Visit,
    WalkResult,
    walk_file,
    walk_stream,
)
from bot.sources.files import skipped
from bot.sources.pool import IN_PROCESS, Batcher, Engine


@dataclass(slots=True)
class ArchiveCensus:
    census: Census
    files: int = 0  # regular files classified
    excluded: int = 0  # regular files left out by the path filter
    compressed_bytes: int = 0
    inflated_bytes: int = 0
    unsafe: UnsafeEntries = field(default_factory=UnsafeEntries)

    def visitor(self, path_filter: PathFilter, engine: Engine) -> tuple[Visit, Batcher]:
        """What the walk calls for each file, and the batcher to close once it is done."""
        shared = SharedCounts()

        def take(items: list[tuple[str, bytes]]) -> None:
            for (path, _), summary in zip(
                items, engine.census_summaries(items, shared), strict=True
            ):
                self.census.replace(path, summary)
            self.files += len(items)

        batcher = Batcher(engine, take)

        def visit(path: str, data: bytes) -> None:
            if not path_filter.includes(path):
                self.excluded += 1
                return
            batcher.add(path, data)

        return visit, batcher

    def on_unsafe(self, name: str, reason: str) -> None:
        # Kept in the census as a skipped file, so the report names it.
        self.census.replace(name, skipped(name, reason))

    def took(self, walk: WalkResult) -> ArchiveCensus:
        self.compressed_bytes, self.inflated_bytes = walk.compressed_bytes, walk.inflated_bytes
        self.unsafe = walk.unsafe
        self.census.settle()  # every file is in: headers spliced into device code
        return self


async def census_from_stream(
    chunks: AsyncIterator[bytes],
    *,
    limits: ArchiveLimits,
    declared_size: int | None = None,
    path_filter: PathFilter = DEFAULT_FILTER,
    strip_root: bool = True,
    include_generated: bool = False,
    engine: Engine = IN_PROCESS,
) -> ArchiveCensus:
    """Count an archive arriving as compressed chunks (e.g. an HTTP response body)."""
    result = ArchiveCensus(Census(include_generated=include_generated))
    visit, batcher = result.visitor(path_filter, engine)
    walk = await walk_stream(
        chunks,
        visit,
        limits=limits,
        declared_size=declared_size,
        strip_root=strip_root,
        on_unsafe=result.on_unsafe,
    )
    await asyncio.to_thread(batcher.close)
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
    visit, batcher = result.visitor(path_filter, IN_PROCESS)
    walk = walk_file(
        path,
        visit,
        limits=limits,
        strip_root=strip_root,
        on_unsafe=result.on_unsafe,
    )
    batcher.close()
    return result.took(walk)
