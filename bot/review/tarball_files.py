"""Files of one commit read from its tarball: two downloads instead of thousands of blob reads
when a PR is too large to read blob by blob.

The bytes are untrusted: the shared archive walker (``bot.sources.archive``) applies every
limit the census has (compressed and inflated size, inflation ratio, metadata headers, unsafe
entries, file size) and stops as soon as every wanted path was seen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.github.archives import tarball
from bot.sources.archive import ArchiveLimits, Visit, WalkResult, walk_stream

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.refs import RepoRef


async def read_from_archive(
    gh: GitHub,
    repo: RepoRef,
    ref: str,
    wanted: set[str],
    visit: Visit,
    *,
    max_bytes: int,
) -> WalkResult:
    """Call ``visit(path, data)`` (in a worker thread) for each wanted file of the commit;
    ``missing`` holds the wanted paths the archive did not hold (``export-ignore`` drops
    files, unsafe entries are skipped). Raises ``ArchiveError`` when it cannot be read."""
    async with tarball(gh, repo, ref) as download:
        return await walk_stream(
            download.chunks,
            visit,
            limits=ArchiveLimits.for_archive(max_bytes),
            declared_size=download.declared_size,
            wanted=wanted,
        )
