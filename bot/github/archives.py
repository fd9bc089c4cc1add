"""Repository tarballs from GitHub: the download only, streamed; reading them is the
archive walker's job (``bot.sources.archive``), which treats the bytes as untrusted."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.refs import RepoRef

#: Compressed bytes handed on at a time.
CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True)
class TarballDownload:
    chunks: AsyncIterator[bytes]  # the gzip body as it arrives
    declared_size: int | None  # Content-Length, when the archive host sends one


@asynccontextmanager
async def tarball(gh: GitHub, repo: RepoRef, ref: str) -> AsyncIterator[TarballDownload]:
    """The tarball of ``ref``, open for streaming (the redirect to the archive host is
    followed without our credentials); the response is released on exit."""
    url_vars = {"owner": repo.owner, "repo": repo.name, "ref": ref}
    async with gh.stream("/repos/{owner}/{repo}/tarball/{ref}", url_vars) as response:
        yield TarballDownload(response.content.iter_chunked(CHUNK), response.content_length)
