"""Files of one commit read from its tarball: two downloads instead of thousands of blob reads
when a PR is too large to read blob by blob.

The archive is untrusted like any other (a PR author pushes the tree): it is read by the
same hardened walker as the census (`bot.sources.tarball`), with every limit the census has
(compressed and inflated size, inflation ratio, header size; links, devices, absolute and
`..` paths skipped), in a worker thread, one chunk at a time, nothing written to disk. Only
wanted regular files are read, each cut at ``max_file`` bytes, and the walk stops once every
wanted path was seen. An archive refused for any reason is ArchiveUnusable: the caller
reads blobs instead, within its budget.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.github.archives import DownloadTooLarge, tarball
from bot.sources.tarball import ArchiveError, ArchiveLimits, files_from_stream

if TYPE_CHECKING:
    from bot.github.client import GitHub

Visit = Callable[[str, bytes], None]


class ArchiveUnusable(Exception):
    """The archive is larger than allowed or cannot be read; the caller reads blobs instead."""


async def read_from_archive(
    gh: GitHub,
    owner: str,
    repo: str,
    ref: str,
    wanted: set[str],
    visit: Visit,
    *,
    max_bytes: int,
    max_file: int,
) -> set[str]:
    """Call ``visit(path, data)`` (in a worker thread) for each wanted file of the commit;
    return the wanted paths the archive did not hold (``export-ignore`` drops files)."""
    limits = ArchiveLimits.for_archive(max_bytes)
    try:
        async with tarball(gh, owner, repo, ref, max_bytes=max_bytes) as chunks:
            found = await files_from_stream(chunks, wanted, visit, limits=limits, max_file=max_file)
    except (DownloadTooLarge, ArchiveError) as error:
        raise ArchiveUnusable(str(error)) from None
    return found.missing
