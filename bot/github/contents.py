"""Reading file contents from GitHub: blobs by SHA, files by path, a commit's tree.

Blobs are immutable and named by their content, so they are cached by SHA in whatever cache
the caller hands over (the bot's shared job cache): a synchronize event re-reads only what
the push changed, and a cache hit can only return what the repository itself holds. The PR
check, the census and the dashboard all read through here.
"""

from __future__ import annotations

import asyncio
import base64
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote, urlencode

from bot.github.errors import NotFound

if TYPE_CHECKING:
    from bot.github.client import GitHub
    from bot.github.refs import RepoRef


class BlobCache(Protocol):
    """Where blobs are kept between reads (the bot's job cache fits it)."""

    async def get(self, key: str) -> Any: ...

    async def put(self, key: str, value: Any) -> None: ...


#: Blob reads in flight per job: enough to hide latency, few enough for GitHub's
#: secondary limits, which punish bursts of concurrent requests.
CONCURRENT_READS = 4


@dataclass(frozen=True, slots=True)
class Tree:
    """A commit's blob SHAs by path. ``truncated``: GitHub left entries out."""

    blobs: dict[str, str]
    truncated: bool


async def read_tree(gh: GitHub, repo: RepoRef, tree_ish: str) -> Tree:
    """A whole tree in one request (``recursive=1``); GitHub truncates above 100,000 entries."""
    data = await gh.getitem(f"/repos/{repo.full_name}/git/trees/{tree_ish}?recursive=1")
    blobs = {item["path"]: item["sha"] for item in data["tree"] if item["type"] == "blob"}
    return Tree(blobs, bool(data.get("truncated")))


def decode_content(data: dict) -> bytes:
    """The bytes of a blob or contents answer (base64 in JSON)."""
    content = data.get("content") or ""
    return base64.b64decode(content) if data.get("encoding") == "base64" else content.encode()


async def file_contents(gh: GitHub, repo: RepoRef, path: str, ref: str | None) -> bytes | None:
    """A file by path at ``ref`` (None: the repository's default branch); None when there is
    no such file. The contents API inlines files up to 1 MB; a larger one is read as a blob,
    so it is never mistaken for an empty file."""
    query = f"?{urlencode({'ref': ref})}" if ref else ""
    try:
        data = await gh.getitem(f"/repos/{repo.full_name}/contents/{quote(path)}{query}")
    except NotFound:
        return None
    if not isinstance(data, dict) or data.get("type") != "file":
        return None
    if data.get("encoding") == "none":
        data = await gh.getitem(f"/repos/{repo.full_name}/git/blobs/{data['sha']}")
    return decode_content(data)


class BlobReader:
    """Blob contents of one repository by SHA, through the shared cache."""

    def __init__(self, gh: GitHub, repo: RepoRef, cache: BlobCache) -> None:
        self._gh = gh
        self._url = f"/repos/{repo.full_name}"
        self._cache = cache

    async def blob(self, sha: str) -> bytes:
        cached = await self._cache.get(f"blob:{sha}")
        if cached is not None:
            return cached
        raw = decode_content(await self._gh.getitem(f"{self._url}/git/blobs/{sha}"))
        await self._cache.put(f"blob:{sha}", raw)
        return raw

    async def blobs(self, shas: set[str]) -> dict[str, bytes]:
        """Several blobs, a few requests at a time; the first failure cancels the rest."""
        gate = asyncio.Semaphore(CONCURRENT_READS)
        out: dict[str, bytes] = {}

        async def read(sha: str) -> None:
            async with gate:
                out[sha] = await self.blob(sha)

        try:
            async with asyncio.TaskGroup() as group:
                for sha in sorted(shas):
                    group.create_task(read(sha))
        except ExceptionGroup as failed:
            raise failed.exceptions[0] from None
        return out
