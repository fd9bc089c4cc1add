"""Repository tarballs, downloaded as a stream of compressed chunks.

The one place lockin downloads an archive from GitHub (the census and the PR check both
come here); what is in it is read by `bot.sources.tarball`, which knows nothing of GitHub.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.github.client import GitHub

CHUNK = 64 * 1024


class DownloadTooLarge(Exception):
    """GitHub declared an archive larger than the caller allows (nothing was read)."""

    def __init__(self, declared: int, limit: int) -> None:
        super().__init__(f"the archive ({declared:,} bytes) is larger than {limit:,} bytes")
        self.declared = declared
        self.limit = limit


@asynccontextmanager
async def tarball(
    gh: GitHub, owner: str, repo: str, ref: str, *, max_bytes: int
) -> AsyncIterator[AsyncIterator[bytes]]:
    """The gzipped tarball of ``ref`` as it downloads (GitHub's redirect to its archive host
    is followed without our credentials). A declared size past ``max_bytes`` raises
    DownloadTooLarge before any byte is read; the reader enforces the limit on the bytes
    that actually arrive."""
    url_vars = {"owner": owner, "repo": repo, "ref": ref}
    async with gh.stream("/repos/{owner}/{repo}/tarball/{ref}", url_vars) as response:
        declared = response.content_length
        if declared is not None and declared > max_bytes:
            raise DownloadTooLarge(declared, max_bytes)
        yield response.content.iter_chunked(CHUNK)
