"""Files of one commit read from its tarball: two downloads instead of thousands of blob reads
when a PR is too large to read blob by blob.

GitHub builds the archive from the commit, but its bytes are still treated as untrusted:
nothing is written to disk, only regular-file members whose path is wanted are read (each
cut at ``max_file`` bytes), the download stops at ``max_bytes`` compressed, and the walk stops
as soon as every wanted path was seen. The walk runs in a worker thread so the event loop
keeps acknowledging webhooks; it pulls one chunk at a time from the HTTP response.
"""

from __future__ import annotations

import asyncio
import io
import tarfile
import zlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import aiohttp

    from bot.github.client import GitHub

CHUNK = 64 * 1024

Visit = Callable[[str, bytes], None]


class ArchiveUnusable(Exception):
    """The archive is larger than allowed or cannot be read; the caller reads blobs instead."""


class _Download(io.RawIOBase):
    """A blocking file object over an aiohttp body, for ``tarfile`` in a worker thread."""

    def __init__(
        self, body: aiohttp.StreamReader, loop: asyncio.AbstractEventLoop, limit: int
    ) -> None:
        self._body = body
        self._loop = loop
        self._limit = limit
        self._pending = b""
        self.received = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if not self._pending:
            pull = asyncio.run_coroutine_threadsafe(self._body.read(CHUNK), self._loop)
            self._pending = pull.result()
            self.received += len(self._pending)
            if self.received > self._limit:
                raise ArchiveUnusable(f"the archive is larger than {self._limit:,} bytes")
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size


def _walk(source: io.RawIOBase, wanted: set[str], visit: Visit, max_file: int) -> set[str]:
    missing = set(wanted)
    try:
        with tarfile.open(fileobj=source, mode="r|*") as tar:
            for member in tar:
                # GitHub wraps the tree in one folder, "<owner>-<repo>-<sha>/".
                path = member.name.partition("/")[2]
                if not member.isfile() or path not in missing:
                    continue
                handle = tar.extractfile(member)
                visit(path, handle.read(max_file + 1) if handle else b"")
                missing.discard(path)
                if not missing:
                    break
    except (tarfile.TarError, zlib.error, EOFError, OSError) as error:
        raise ArchiveUnusable(f"the archive could not be read: {error}") from None
    return missing


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
    loop = asyncio.get_running_loop()
    async with gh.stream(f"/repos/{owner}/{repo}/tarball/{ref}") as response:
        declared = response.content_length
        if declared is not None and declared > max_bytes:
            raise ArchiveUnusable(f"the archive ({declared:,} bytes) is larger than {max_bytes:,}")
        download = _Download(response.content, loop, max_bytes)
        return await asyncio.to_thread(_walk, download, wanted, visit, max_file)
